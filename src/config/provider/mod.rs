//! Which provider, base URL, key and model a session talks to, resolved from `config.yaml` and
//! the environment in the order Hermes uses (reference §7.3), for the providers we speak:
//! OpenAI-compatible chat completions (OpenRouter, custom endpoints such as Ollama, llama.cpp,
//! vLLM, LM Studio), the OpenAI Responses API (api.openai.com, or `model.api_mode:
//! codex_responses`) and Anthropic Messages; `provider_mode.rs` decides the wire format. The
//! result says why it was chosen, so `--check` and error messages can explain it.

use super::env::EnvMap;
use super::file::ConfigFile;

pub const OPENROUTER_URL: &str = "https://openrouter.ai/api/v1";
pub const OPENAI_URL: &str = "https://api.openai.com/v1";
pub const ANTHROPIC_URL: &str = "https://api.anthropic.com";

pub use crate::llm::{ApiMode, Endpoint, Secret};

/// Why no provider could be resolved.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ProviderError {
    /// Nothing is configured at all.
    #[error(
        "No LLM provider configured. Run `hermes-acp --setup`, or set OPENROUTER_API_KEY, OPENAI_API_KEY or ANTHROPIC_API_KEY in {home}/.env, or point model.base_url in {home}/config.yaml at an OpenAI-compatible server such as Ollama (http://127.0.0.1:11434/v1)."
    )]
    NotConfigured { home: String },
    /// A provider was named but its key is missing.
    #[error(
        "Provider '{provider}' is selected but {key_var} is not set. Add {key_var}=<your key> to {home}/.env or run `hermes-acp --setup`."
    )]
    MissingKey {
        provider: String,
        key_var: String,
        home: String,
    },
    /// `custom` was requested without a URL.
    #[error(
        "Provider 'custom' needs a base URL: set model.base_url in {home}/config.yaml or CUSTOM_BASE_URL in {home}/.env."
    )]
    MissingBaseUrl { home: String },
    /// A provider name we do not support.
    #[error(
        "Provider '{provider}' (from {setting}) is not supported by hermes-acp.{suggestion} Use openrouter, openai, anthropic, custom (any OpenAI-compatible URL) or the name of one of your custom_providers."
    )]
    Unsupported {
        provider: String,
        setting: String,
        /// ` Did you mean 'openrouter'?` or empty.
        suggestion: String,
    },
    /// A base URL that is not an http(s) URL (found when config is read, not on the first prompt).
    #[error("{setting} is '{url}', which is not a usable URL: {problem}.{suggestion}")]
    InvalidUrl {
        url: String,
        setting: String,
        problem: String,
        /// ` Did you mean 'http://…'?` or empty.
        suggestion: String,
    },
}

/// Resolves the provider for new sessions.
pub fn resolve(file: &ConfigFile, env: &EnvMap, home: &str) -> Result<Endpoint, ProviderError> {
    let model = file
        .model_default
        .clone()
        .or_else(|| env.get("HERMES_MODEL").map(str::to_string))
        .unwrap_or_default();
    let (requested, why) = match (file.model_provider.as_deref(), env.get("HERMES_INFERENCE_PROVIDER")) {
        (Some(p), _) if !is_auto(p) => (p.to_ascii_lowercase(), "model.provider in config.yaml"),
        (_, Some(p)) if !is_auto(p) => (p.to_ascii_lowercase(), "HERMES_INFERENCE_PROVIDER"),
        _ => ("auto".to_string(), "auto-detection"),
    };
    let mut settings = match requested.as_str() {
        // A named custom provider shadows nothing built in, but may share a built-in's name.
        name if file.custom_providers.iter().any(|p| p.name.eq_ignore_ascii_case(name)) && !is_builtin(name) => {
            let named = file
                .custom_providers
                .iter()
                .find(|p| p.name.eq_ignore_ascii_case(name))
                .unwrap_or(&file.custom_providers[0]);
            named_provider(named, file, home, why)?
        }
        "auto" => resolve_auto(file, env, home)?,
        "custom" | "local" | "ollama" | "lmstudio" | "vllm" | "llamacpp" | "llama.cpp" => {
            custom(file, env, home, why, true)?
        }
        "openrouter" => openrouter(file, env, home, why)?,
        "openai" | "openai-api" => openai(file, env, home, why)?,
        "anthropic" | "claude" => anthropic(env, home, why)?,
        other => return Err(unsupported(other, why, file, home)),
    };
    if settings.model.is_empty() {
        settings.model = model;
    }
    settings.cache_ttl = file.prompt_cache_ttl;
    Ok(settings)
}

fn is_auto(p: &str) -> bool {
    p.trim().is_empty() || p.eq_ignore_ascii_case("auto")
}

fn resolve_auto(file: &ConfigFile, env: &EnvMap, home: &str) -> Result<Endpoint, ProviderError> {
    // 1. model.base_url pointing at something that is not one of the big hosted APIs.
    if let Some(url) = file.model_base_url.as_deref()
        && !is_known_host(url)
    {
        return custom(file, env, home, "model.base_url in config.yaml", false);
    }
    // 2. OpenRouter (Hermes sends OPENAI_API_KEY there too when auto-detecting).
    if env.secret("OPENROUTER_API_KEY").is_some() || env.secret("OPENAI_API_KEY").is_some() {
        return openrouter(file, env, home, "OPENROUTER_API_KEY/OPENAI_API_KEY found");
    }
    // 3. Anthropic.
    if anthropic_key(env).is_some() {
        return anthropic(env, home, "an Anthropic key found");
    }
    // 4. The first named custom provider in config.yaml.
    if let Some(named) = file.custom_providers.first() {
        return named_provider(named, file, home, "custom_providers in config.yaml");
    }
    // 5. A custom endpoint from the environment.
    if env.get("CUSTOM_BASE_URL").is_some() || file.model_base_url.is_some() {
        return custom(file, env, home, "CUSTOM_BASE_URL", false);
    }
    Err(ProviderError::NotConfigured { home: home.to_string() })
}

fn is_builtin(name: &str) -> bool {
    matches!(
        name,
        "auto"
            | "custom"
            | "local"
            | "ollama"
            | "lmstudio"
            | "vllm"
            | "llamacpp"
            | "llama.cpp"
            | "openrouter"
            | "openai"
            | "openai-api"
            | "anthropic"
            | "claude"
    )
}

/// A fallback entry that goes through a named provider: what the entry says for itself (model,
/// URL, key, API mode) wins over the named provider's own (`resolve` reads the named entry
/// whole). Any other endpoint is returned as it is.
pub fn entry_over_named(
    mut settings: Endpoint,
    entry: &super::file::FallbackEntry,
    named: &[super::file::NamedProvider],
    home: &str,
) -> Result<Endpoint, ProviderError> {
    if !named.iter().any(|p| p.name.eq_ignore_ascii_case(&entry.provider))
        || is_builtin(&entry.provider.to_ascii_lowercase())
    {
        return Ok(settings);
    }
    if !entry.model.is_empty() {
        settings.model = entry.model.clone();
    }
    if let Some(url) = &entry.base_url {
        settings.base_url = checked_url(url, &format!("fallback_providers base_url in {home}/config.yaml"))?;
    }
    if entry.base_url.is_some() || entry.api_mode.is_some() {
        settings.api_mode = detect_api_mode(entry.api_mode.as_deref(), &settings.base_url);
    }
    if let Some(key) = entry
        .api_key
        .as_deref()
        .filter(|k| !super::env::is_placeholder_secret(k))
    {
        settings.api_key = Some(Secret::new(key));
        settings.key_source = Some("fallback_providers api_key".into());
        settings.key_origin = Some(format!("{home}/config.yaml"));
    }
    Ok(settings)
}

/// A `custom_providers` entry: its own URL and key (a loopback URL needs no key); its model is
/// its own `model`, else `model.default`.
fn named_provider(
    named: &super::file::NamedProvider,
    file: &ConfigFile,
    home: &str,
    why: &str,
) -> Result<Endpoint, ProviderError> {
    let base_url = checked_url(
        &named.base_url,
        &format!("custom_providers '{}' base_url in {home}/config.yaml", named.name),
    )?;
    let api_key = named
        .api_key
        .as_deref()
        .filter(|k| !super::env::is_placeholder_secret(k))
        .map(Secret::new);
    Ok(Endpoint {
        id: named.name.clone(),
        api_mode: detect_api_mode(named.api_mode.as_deref(), &base_url),
        key_source: api_key.as_ref().map(|_| "custom_providers api_key".to_string()),
        key_origin: api_key.as_ref().map(|_| format!("{home}/config.yaml")),
        api_key,
        base_url,
        model: named
            .model
            .clone()
            .or_else(|| file.model_default.clone())
            .unwrap_or_default(),
        reason: format!("named provider '{}' ({why})", named.name),
        ..Default::default()
    })
}

/// `bare`: the user asked for `custom` (or an alias) by name, rather than auto-detection
/// finding a base URL; the two treat a persisted `codex_responses` differently (Hermes).
fn custom(file: &ConfigFile, env: &EnvMap, home: &str, why: &str, bare: bool) -> Result<Endpoint, ProviderError> {
    let (base_url, from_config) = match (env.get("CUSTOM_BASE_URL"), file.model_base_url.as_deref()) {
        (Some(url), _) => (checked_url(url, &env_setting("CUSTOM_BASE_URL", env, home))?, false),
        (None, Some(url)) => (
            checked_url(url, &format!("model.base_url in {home}/config.yaml"))?,
            true,
        ),
        (None, None) => return Err(ProviderError::MissingBaseUrl { home: home.to_string() }),
    };
    let host = host_of(&base_url);
    let (api_key, key_source, key_origin) = if let Some(k) = file
        .model_api_key
        .as_deref()
        .filter(|k| from_config && !super::env::is_placeholder_secret(k))
    {
        (
            Some(Secret::new(k)),
            Some("model.api_key".to_string()),
            Some(format!("{home}/config.yaml")),
        )
    } else if host.ends_with("openrouter.ai") {
        key_from(env, home, &["OPENROUTER_API_KEY", "OPENAI_API_KEY"])
    } else if host.ends_with("openai.com") || host.contains("azure") {
        key_from(env, home, &["OPENAI_API_KEY"])
    } else if host.ends_with("ollama.com") {
        key_from(env, home, &["OLLAMA_API_KEY"])
    } else {
        key_from(env, home, &["CUSTOM_API_KEY"])
    };
    let api_mode = if bare {
        mode::plain_custom_api_mode(file.model_api_mode.as_deref(), &base_url)
    } else {
        detect_api_mode(file.model_api_mode.as_deref(), &base_url)
    };
    Ok(Endpoint {
        id: "custom".into(),
        api_mode,
        base_url,
        api_key,
        key_source,
        key_origin,
        model: String::new(),
        reason: format!("custom endpoint ({why})"),
        ..Default::default()
    })
}

fn openrouter(file: &ConfigFile, env: &EnvMap, home: &str, why: &str) -> Result<Endpoint, ProviderError> {
    let base_url = if let Some(url) = env.get("CUSTOM_BASE_URL") {
        checked_url(url, &env_setting("CUSTOM_BASE_URL", env, home))?
    } else if let Some(url) = file
        .model_base_url
        .as_deref()
        .filter(|u| host_of(u).ends_with("openrouter.ai"))
    {
        checked_url(url, &format!("model.base_url in {home}/config.yaml"))?
    } else if let Some(url) = env.get("OPENROUTER_BASE_URL") {
        checked_url(url, &env_setting("OPENROUTER_BASE_URL", env, home))?
    } else {
        OPENROUTER_URL.to_string()
    };
    let (api_key, key_source, key_origin) = key_from(env, home, &["OPENROUTER_API_KEY", "OPENAI_API_KEY"]);
    if api_key.is_none() {
        return Err(ProviderError::MissingKey {
            provider: "openrouter".into(),
            key_var: "OPENROUTER_API_KEY".into(),
            home: home.into(),
        });
    }
    Ok(Endpoint {
        id: "openrouter".into(),
        api_mode: ApiMode::ChatCompletions,
        base_url,
        api_key,
        key_source,
        key_origin,
        model: String::new(),
        reason: format!("OpenRouter ({why})"),
        ..Default::default()
    })
}

/// OpenAI itself: the Responses API on api.openai.com (Hermes: GPT-5 tool calls with reasoning
/// fail on chat completions there), unless `model.api_mode` says otherwise.
fn openai(file: &ConfigFile, env: &EnvMap, home: &str, why: &str) -> Result<Endpoint, ProviderError> {
    let (api_key, key_source, key_origin) = key_from(env, home, &["OPENAI_API_KEY"]);
    if api_key.is_none() {
        return Err(ProviderError::MissingKey {
            provider: "openai".into(),
            key_var: "OPENAI_API_KEY".into(),
            home: home.into(),
        });
    }
    let base_url = match env.get("OPENAI_BASE_URL") {
        Some(url) => checked_url(url, &env_setting("OPENAI_BASE_URL", env, home))?,
        None => OPENAI_URL.to_string(),
    };
    Ok(Endpoint {
        id: "openai".into(),
        api_mode: detect_api_mode(file.model_api_mode.as_deref(), &base_url),
        base_url,
        api_key,
        key_source,
        key_origin,
        model: String::new(),
        reason: format!("OpenAI ({why})"),
        ..Default::default()
    })
}

fn anthropic(env: &EnvMap, home: &str, why: &str) -> Result<Endpoint, ProviderError> {
    let Some((key, var)) = anthropic_key(env) else {
        return Err(ProviderError::MissingKey {
            provider: "anthropic".into(),
            key_var: "ANTHROPIC_API_KEY".into(),
            home: home.into(),
        });
    };
    Ok(Endpoint {
        id: "anthropic".into(),
        api_mode: ApiMode::AnthropicMessages,
        base_url: match env.get("ANTHROPIC_BASE_URL") {
            Some(url) => checked_url(url, &env_setting("ANTHROPIC_BASE_URL", env, home))?,
            None => ANTHROPIC_URL.to_string(),
        },
        api_key: Some(Secret::new(key)),
        key_source: Some(var.to_string()),
        key_origin: Some(origin_of(env, home, var)),
        model: String::new(),
        reason: format!("Anthropic ({why})"),
        ..Default::default()
    })
}

fn is_known_host(url: &str) -> bool {
    let host = host_of(url);
    ["openrouter.ai", "anthropic.com", "openai.com"]
        .iter()
        .any(|h| host.ends_with(h))
}

/// The host part of a URL, lower-cased (no port).
pub fn host_of(url: &str) -> String {
    let rest = url.split("://").nth(1).unwrap_or(url);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit('@').next().unwrap_or("");
    let host = if let Some(v6) = host.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        host.split(':').next().unwrap_or("")
    };
    host.to_ascii_lowercase()
}

/// Whether a URL points at this machine (keyless local servers are fine there).
pub fn is_loopback(url: &str) -> bool {
    matches!(host_of(url).as_str(), "localhost" | "127.0.0.1" | "::1" | "0.0.0.0") || host_of(url).starts_with("127.")
}

mod mode;
pub use mode::{detect_api_mode, mode_for_url, parse_api_mode};
mod keys;
use keys::{anthropic_key, env_setting, key_from, origin_of};
mod validate;
pub use validate::checked_url;
use validate::unsupported;

#[cfg(test)]
mod tests;
