//! The auxiliary vision model `vision_analyze` sends images to: `auxiliary.vision` in
//! `config.yaml` (`provider`, `model`, `base_url`, `api_key`, `api_mode`, `timeout`,
//! `download_timeout`), each key falling back to Hermes' `AUXILIARY_VISION_*` variable, and its
//! resolution into provider settings the way Hermes resolves an auxiliary task's provider: a
//! base URL alone is a custom endpoint, a named provider keeps its identity (and wire format)
//! at that URL, `provider: openai` means api.openai.com, and a model alone means the main
//! provider with that model.

pub mod section;

use super::env::EnvMap;
use super::file::ConfigFile;
use super::provider::{self, Endpoint, OPENAI_URL, ProviderError, Secret};
use crate::tools::vision::{DEFAULT_DOWNLOAD_TIMEOUT, DEFAULT_TIMEOUT, VisionSettings};
pub use section::VisionConfig;

/// Why `auxiliary.vision` names a model we cannot reach.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum VisionConfigError {
    #[error("auxiliary.vision: {0}")]
    Provider(#[from] ProviderError),
    #[error(
        "auxiliary.vision names provider '{provider}' but no model: set auxiliary.vision.model in config.yaml (or AUXILIARY_VISION_MODEL)"
    )]
    NoModel { provider: String },
}

impl VisionConfig {
    /// The provider settings of the configured vision model; `None` when nothing is configured
    /// (the session's own model is used then, when it sees images). `main` is the session
    /// provider, used when only a model is named.
    pub fn resolve(
        &self,
        file: &ConfigFile,
        env: &EnvMap,
        home: &str,
        main: &Result<Endpoint, ProviderError>,
    ) -> Option<Result<Endpoint, VisionConfigError>> {
        self.is_set().then(|| self.resolve_set(file, env, home, main))
    }

    fn resolve_set(
        &self,
        file: &ConfigFile,
        env: &EnvMap,
        home: &str,
        main: &Result<Endpoint, ProviderError>,
    ) -> Result<Endpoint, VisionConfigError> {
        let mut requested = self.requested_provider();
        let mut base_url = self.base_url.clone();
        // Hermes' direct-API alias: `openai` is a custom endpoint at api.openai.com.
        if requested.as_deref() == Some("openai") {
            requested = Some("custom".into());
            base_url = base_url.or_else(|| Some(OPENAI_URL.into()));
        }
        let mut env = env.clone();
        // Our own base URL wins over the environment's CUSTOM_BASE_URL.
        if base_url.is_some() {
            env.remove("CUSTOM_BASE_URL");
        }
        let mut settings = match (requested.as_deref(), base_url.as_deref()) {
            (None, None) => main.clone()?,
            (None | Some("custom"), Some(url)) => {
                let as_main = ConfigFile {
                    model_default: None,
                    model_provider: Some("custom".into()),
                    model_base_url: Some(url.to_string()),
                    model_api_key: self.api_key.clone(),
                    model_api_mode: self.api_mode.clone(),
                    ..file.clone()
                };
                provider::resolve(&as_main, &env, home)?
            }
            (Some(name), url) => {
                // An explicit key stands in for the provider's variable, so resolution does not
                // stop at "ANTHROPIC_API_KEY is not set" when the key is right here.
                if let Some(key) = &self.api_key {
                    for var in key_variables(name) {
                        env.set(var, key);
                    }
                }
                let as_main = ConfigFile {
                    model_default: None,
                    model_provider: Some(name.to_string()),
                    model_base_url: url.map(str::to_string),
                    model_api_key: self.api_key.clone(),
                    model_api_mode: self.api_mode.clone(),
                    // The rest (custom providers, cache lifetime, provider keys) is the main
                    // file's, as for fallbacks.
                    ..file.clone()
                };
                let mut settings = provider::resolve(&as_main, &env, home)?;
                // A first-class provider at another URL keeps its identity and wire format.
                if let Some(url) = url {
                    settings.base_url =
                        provider::checked_url(url, &format!("auxiliary.vision.base_url in {home}/config.yaml"))?;
                }
                settings
            }
        };
        if let Some(key) = self
            .api_key
            .as_deref()
            .filter(|k| !super::env::is_placeholder_secret(k))
        {
            settings.api_key = Some(Secret::new(key));
            settings.key_source = Some("auxiliary.vision.api_key".into());
            settings.key_origin = Some(format!("{home}/config.yaml"));
        }
        match self.requested_model() {
            Some(model) => settings.model = model,
            // Another provider than the main one: the main model id means nothing there.
            None if requested.is_some() || base_url.is_some() => {
                return Err(VisionConfigError::NoModel {
                    provider: requested.unwrap_or_else(|| "custom".into()),
                });
            }
            None => {}
        }
        settings.reason = format!("auxiliary.vision ({})", settings.reason);
        Ok(settings)
    }
}

/// The variables `provider::resolve` reads a named provider's key from.
fn key_variables(provider: &str) -> &'static [&'static str] {
    match provider {
        "anthropic" | "claude" => &["ANTHROPIC_API_KEY"],
        "openrouter" => &["OPENROUTER_API_KEY"],
        _ => &[],
    }
}

#[cfg(test)]
mod tests;

/// What the vision tool needs, translated from `auxiliary.vision` and the main provider.
pub fn vision_settings(config: &super::Config) -> VisionSettings {
    let vision = config.file.vision.with_env(&config.env);
    let home = config.home.display().to_string();
    let aux = vision
        .resolve(&config.file, &config.env, &home, &config.provider)
        .map(|resolved| {
            resolved.map_err(|e| {
                tracing::warn!("{e}");
                e.to_string()
            })
        });
    VisionSettings {
        aux,
        main_model: config.provider.as_ref().ok().map(|s| s.model.clone()),
        timeout: vision.timeout.unwrap_or(DEFAULT_TIMEOUT),
        download_timeout: vision.download_timeout.unwrap_or(DEFAULT_DOWNLOAD_TIMEOUT),
    }
}
