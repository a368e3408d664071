//! `auxiliary.vision` as written in `config.yaml`, each key falling back to Hermes'
//! `AUXILIARY_VISION_*` variable; resolving it into an endpoint is the parent module's job.

use std::time::Duration;

use serde_yaml_ng::Value;

use super::super::env::EnvMap;

/// `auxiliary.vision` as written (config first, then `AUXILIARY_VISION_*`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VisionConfig {
    pub provider: Option<String>,
    pub model: Option<String>,
    pub base_url: Option<String>,
    pub api_key: Option<String>,
    pub api_mode: Option<String>,
    /// How long one vision call may take (`timeout`).
    pub timeout: Option<Duration>,
    /// How long downloading an http(s) image may take (`download_timeout`).
    pub download_timeout: Option<Duration>,
}

impl VisionConfig {
    /// Reads `auxiliary.vision` from a parsed `config.yaml`; malformed keys are ignored (the
    /// file is shared with Hermes), a bad timeout keeps the default with a warning.
    pub fn parse(root: &Value) -> VisionConfig {
        let section = root.get("auxiliary").and_then(|a| a.get("vision"));
        let text = |key: &str| section.and_then(|s| s.get(key)).and_then(text_of);
        let seconds = |key: &str| {
            let secs = section.and_then(|s| s.get(key)).and_then(seconds_of)?;
            crate::duration::positive_seconds(secs, crate::duration::MAX_SETTING)
                .inspect_err(|e| tracing::warn!("auxiliary.vision.{key} {e}; using the default"))
                .ok()
        };
        VisionConfig {
            provider: text("provider"),
            model: text("model"),
            base_url: text("base_url"),
            api_key: text("api_key"),
            api_mode: text("api_mode"),
            timeout: seconds("timeout"),
            download_timeout: seconds("download_timeout"),
        }
    }

    /// The same settings with every unset key taken from Hermes' `AUXILIARY_VISION_*`
    /// variables (which Hermes' own CLI exports from this very section).
    pub fn with_env(&self, env: &EnvMap) -> VisionConfig {
        let var = |name: &str| {
            env.get(name)
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_string)
        };
        VisionConfig {
            provider: self.provider.clone().or_else(|| var("AUXILIARY_VISION_PROVIDER")),
            model: self.model.clone().or_else(|| var("AUXILIARY_VISION_MODEL")),
            base_url: self.base_url.clone().or_else(|| var("AUXILIARY_VISION_BASE_URL")),
            api_key: self.api_key.clone().or_else(|| var("AUXILIARY_VISION_API_KEY")),
            ..self.clone()
        }
    }

    /// Whether a vision model is named at all (`auto` and blanks name nothing).
    pub fn is_set(&self) -> bool {
        self.requested_provider().is_some() || self.requested_model().is_some() || self.base_url.is_some()
    }

    pub(super) fn requested_provider(&self) -> Option<String> {
        (self.provider.as_deref())
            .map(str::to_ascii_lowercase)
            .filter(|p| p != "auto")
    }

    /// `model: auto` means "inherit", not a model id (Hermes drops it the same way).
    pub(super) fn requested_model(&self) -> Option<String> {
        self.model.clone().filter(|m| !m.eq_ignore_ascii_case("auto"))
    }
}

fn text_of(value: &Value) -> Option<String> {
    let text = match value {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    (!text.is_empty()).then_some(text)
}

fn seconds_of(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}
