//! What the LLM layer needs to reach a model: the `Endpoint` (provider id, wire format, base
//! URL, key, default model, cache lifetime). The LLM layer owns these types; `config` reads
//! Hermes' files and translates them into an `Endpoint`, so nothing here knows a setting's name.

use std::fmt;

/// The wire format a provider speaks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ApiMode {
    /// `POST {base}/chat/completions` (`chat_completions`).
    #[default]
    ChatCompletions,
    /// The OpenAI Responses API, `POST {base}/responses` (Hermes' `codex_responses`).
    CodexResponses,
    /// Anthropic's `POST {base}/v1/messages` (`anthropic_messages`).
    AnthropicMessages,
}

/// The lifetime of Anthropic prompt-cache breakpoints. Hermes accepts `5m` (the default) and
/// `1h`; anything else (`off`, `2h`, a typo) falls back to the default, as in Hermes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CacheTtl {
    #[default]
    FiveMinutes,
    OneHour,
}

impl CacheTtl {
    pub fn parse(value: &str) -> Option<CacheTtl> {
        match value.trim().to_ascii_lowercase().as_str() {
            "5m" => Some(CacheTtl::FiveMinutes),
            "1h" => Some(CacheTtl::OneHour),
            _ => None,
        }
    }
}

/// An API key that never shows up in logs or debug output.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Secret {
        Secret(value.into())
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// A fully resolved provider: everything a request needs, and why it was chosen. `config`
/// builds it (`config::provider::resolve`); a new setting is a field here, set there, and read
/// where requests are built (`llm::request::openai_headers`, `anthropic::headers`, a body).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Endpoint {
    /// Provider id as Hermes names it: `openrouter`, `openai`, `custom`, `anthropic`.
    pub id: String,
    pub api_mode: ApiMode,
    /// Base URL without a trailing slash, e.g. `http://127.0.0.1:11434/v1`.
    pub base_url: String,
    /// `None` for keyless local endpoints.
    pub api_key: Option<Secret>,
    /// The env variable (or setting) the key came from (for error messages), if any.
    pub key_source: Option<String>,
    /// Where that variable or setting was read: `/home/me/.hermes/.env`, `the shell
    /// environment`, `/home/me/.hermes/config.yaml` — so a rejected key names the file to fix.
    pub key_origin: Option<String>,
    /// The default model id (may be empty when nothing is configured).
    pub model: String,
    /// A sentence saying why this provider was chosen.
    pub reason: String,
    /// How long Anthropic keeps cached prompt prefixes (other wire formats ignore it).
    pub cache_ttl: CacheTtl,
}

impl Endpoint {
    /// What to check when the key is rejected: the variable or setting and the file it came from.
    pub fn key_hint(&self) -> String {
        match (&self.key_source, &self.key_origin) {
            (Some(source), Some(origin)) => format!("{source} (read from {origin})"),
            (Some(source), None) => source.clone(),
            (None, _) => "the API key: none is configured for this provider (run `hermes-acp --setup`)".to_string(),
        }
    }
}
