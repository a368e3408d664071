//! Web settings from `config.yaml`: which backend `web_search`/`web_extract` use (`web.backend`,
//! `web.search_backend`, `web.extract_backend`), the per-page character budget, and whether
//! fetches may reach private addresses (`web.allow_private`, or Hermes' own
//! `security.allow_private_urls`). Backend credentials come from the environment, not here.

use serde_yaml_ng::Value;

/// Hermes' default `web.extract_char_limit`.
pub const DEFAULT_EXTRACT_CHAR_LIMIT: usize = 15_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebConfig {
    /// `web.backend`: the shared choice for search and extract (`None`: the first backend whose
    /// credentials exist).
    pub backend: Option<String>,
    /// `web.search_backend`: overrides `backend` for `web_search`.
    pub search_backend: Option<String>,
    /// `web.extract_backend`: overrides `backend` for `web_extract`.
    pub extract_backend: Option<String>,
    /// `web.extract_char_limit`.
    pub extract_char_limit: usize,
    /// Fetches may reach private, loopback and link-local addresses (cloud metadata never).
    pub allow_private: bool,
}

impl Default for WebConfig {
    fn default() -> WebConfig {
        WebConfig {
            backend: None,
            search_backend: None,
            extract_backend: None,
            extract_char_limit: DEFAULT_EXTRACT_CHAR_LIMIT,
            allow_private: false,
        }
    }
}

impl WebConfig {
    /// Reads the web keys from a parsed `config.yaml`; missing or malformed keys keep defaults.
    pub fn parse(root: &Value) -> WebConfig {
        let web = root.get("web");
        let name = |key: &str| {
            (web.and_then(|w| w.get(key)).and_then(Value::as_str))
                .map(|s| s.trim().to_ascii_lowercase())
                .filter(|s| !s.is_empty())
        };
        let flag = |section: Option<&Value>, key: &str| section.and_then(|s| s.get(key)).and_then(Value::as_bool);
        WebConfig {
            backend: name("backend"),
            search_backend: name("search_backend"),
            extract_backend: name("extract_backend"),
            extract_char_limit: (web.and_then(|w| w.get("extract_char_limit")).and_then(Value::as_u64))
                .and_then(|n| usize::try_from(n).ok())
                .filter(|n| *n > 0)
                .unwrap_or(DEFAULT_EXTRACT_CHAR_LIMIT),
            allow_private: flag(web, "allow_private")
                .or_else(|| flag(root.get("security"), "allow_private_urls"))
                .unwrap_or(false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> WebConfig {
        WebConfig::parse(&serde_yaml_ng::from_str(text).unwrap())
    }

    #[test]
    fn reads_hermes_keys_and_ours() {
        assert_eq!(parse("{}"), WebConfig::default());
        let config = parse("web:\n  backend: SearXNG\n  extract_backend: native\n  extract_char_limit: 4000\n");
        assert_eq!(config.backend.as_deref(), Some("searxng"));
        assert_eq!(config.extract_backend.as_deref(), Some("native"));
        assert_eq!(config.search_backend, None);
        assert_eq!(config.extract_char_limit, 4000);
        assert!(parse("web:\n  allow_private: true\n").allow_private);
        assert!(parse("security:\n  allow_private_urls: true\n").allow_private);
        // Ours wins over Hermes' when both are set.
        assert!(!parse("web:\n  allow_private: false\nsecurity:\n  allow_private_urls: true\n").allow_private);
    }
}
