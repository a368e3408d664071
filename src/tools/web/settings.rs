//! Which web backends `web_search`/`web_extract` use, the per-page budget and whether fetches
//! may reach private addresses (`web.*` in `config.yaml`, read by `config`).

/// Hermes' default `web.extract_char_limit`.
pub const DEFAULT_EXTRACT_CHAR_LIMIT: usize = 15_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebSettings {
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

impl Default for WebSettings {
    fn default() -> WebSettings {
        WebSettings {
            backend: None,
            search_backend: None,
            extract_backend: None,
            extract_char_limit: DEFAULT_EXTRACT_CHAR_LIMIT,
            allow_private: false,
        }
    }
}

/// Where backend credentials and base URLs are read: `config` hands over the environment
/// (`HERMES_HOME/.env` merged with the process's) through this seam.
pub trait Variables {
    /// The variable's value, if set.
    fn get(&self, key: &str) -> Option<&str>;
    /// The variable's value when it is a usable credential (not empty, not a placeholder).
    fn secret(&self, key: &str) -> Option<&str> {
        self.get(key).filter(|v| !v.trim().is_empty())
    }
}

impl Variables for std::collections::HashMap<String, String> {
    fn get(&self, key: &str) -> Option<&str> {
        std::collections::HashMap::get(self, key).map(String::as_str)
    }
}
