//! Web settings from `config.yaml`: which backend `web_search`/`web_extract` use (`web.backend`,
//! `web.search_backend`, `web.extract_backend`), the per-page character budget, and whether
//! fetches may reach private addresses (`web.allow_private`, or Hermes' own
//! `security.allow_private_urls`). Backend credentials come from the environment, not here.

use crate::tools::web::{DEFAULT_EXTRACT_CHAR_LIMIT, WebSettings};
use serde_yaml_ng::Value;

impl WebSettings {
    /// Reads the web keys from a parsed `config.yaml`; missing or malformed keys keep defaults.
    pub fn parse(root: &Value) -> WebSettings {
        let web = root.get("web");
        let name = |key: &str| {
            (web.and_then(|w| w.get(key)).and_then(Value::as_str))
                .map(|s| s.trim().to_ascii_lowercase())
                .filter(|s| !s.is_empty())
        };
        let flag = |section: Option<&Value>, key: &str| section.and_then(|s| s.get(key)).and_then(Value::as_bool);
        WebSettings {
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

    fn parse(text: &str) -> WebSettings {
        WebSettings::parse(&serde_yaml_ng::from_str(text).unwrap())
    }

    #[test]
    fn reads_hermes_keys_and_ours() {
        assert_eq!(parse("{}"), WebSettings::default());
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
