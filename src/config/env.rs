//! The environment the agent sees: the process environment overlaid with `HERMES_HOME/.env`.
//! Hermes loads that file with override semantics (it beats values exported in the shell), and
//! so do we — but into our own map instead of mutating the process environment, so nothing
//! global changes and tests can build any environment they like.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// `HERMES_HOME` from the process environment (else `~/.hermes`): the one place it is read.
/// Everything else gets it from `Config::home`.
pub fn hermes_home_from_process() -> PathBuf {
    super::hermes_home(std::env::var_os("HERMES_HOME").map(PathBuf::from))
}

/// A snapshot of environment variables.
#[derive(Debug, Clone, Default)]
pub struct EnvMap {
    vars: HashMap<String, String>,
    /// Names that came from the `.env` file (for diagnostics; values are never logged).
    from_dotenv: Vec<String>,
}

impl EnvMap {
    /// The process environment plus `<home>/.env` on top.
    pub fn load(home: &Path) -> EnvMap {
        let mut env = EnvMap::from_pairs(std::env::vars());
        env.overlay_dotenv(&home.join(".env"));
        env
    }

    pub fn from_pairs(pairs: impl IntoIterator<Item = (String, String)>) -> EnvMap {
        EnvMap {
            vars: pairs.into_iter().collect(),
            from_dotenv: Vec::new(),
        }
    }

    /// Applies a `.env` file with override semantics. A missing file is not an error; a
    /// malformed line is skipped with a warning (Hermes sanitises lines the same way).
    pub fn overlay_dotenv(&mut self, path: &Path) {
        let iter = match dotenvy::from_path_iter(path) {
            Ok(iter) => iter,
            Err(e) if e.not_found() => {
                tracing::debug!(path = %path.display(), "no .env file, using the process environment");
                return;
            }
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "could not read .env");
                return;
            }
        };
        for item in iter {
            match item {
                Ok((key, value)) => {
                    self.from_dotenv.push(key.clone());
                    self.vars.insert(key, value);
                }
                Err(e) => tracing::warn!(path = %path.display(), error = %e, "skipping a malformed .env line"),
            }
        }
        tracing::debug!(path = %path.display(), count = self.from_dotenv.len(), "loaded .env");
    }

    /// The value of `key` when set and not blank.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.vars.get(key).map(|v| v.trim()).filter(|v| !v.is_empty())
    }

    /// The value of `key` when it is a usable secret (not blank, not a placeholder).
    pub fn secret(&self, key: &str) -> Option<&str> {
        self.get(key).filter(|v| !is_placeholder_secret(v))
    }

    pub fn remove(&mut self, key: &str) {
        self.vars.remove(key);
    }

    pub fn set(&mut self, key: &str, value: &str) {
        self.vars.insert(key.to_string(), value.to_string());
    }

    pub fn is_truthy(&self, key: &str) -> bool {
        self.get(key)
            .is_some_and(|v| matches!(v.to_ascii_lowercase().as_str(), "1" | "true" | "yes" | "on"))
    }

    /// Every variable, process environment and `.env` merged.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.vars.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    pub fn dotenv_keys(&self) -> &[String] {
        &self.from_dotenv
    }
}

/// Hermes ignores keys that are obviously placeholders (reference §7.3).
pub fn is_placeholder_secret(value: &str) -> bool {
    let v = value.trim().to_ascii_lowercase();
    if v.chars().count() < 4 || v.chars().all(|c| c == '*') {
        return true;
    }
    matches!(
        v.as_str(),
        "changeme" | "change-me" | "dummy" | "placeholder" | "example" | "null" | "none" | "xxx" | "xxxx"
    ) || v.starts_with("your_api_key")
        || v.starts_with("your-api-key")
        || v.starts_with("<your")
}

/// The web backends read their credentials and URLs from the same merged environment.
impl crate::tools::web::Variables for EnvMap {
    fn get(&self, key: &str) -> Option<&str> {
        EnvMap::get(self, key)
    }
    fn secret(&self, key: &str) -> Option<&str> {
        EnvMap::secret(self, key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dotenv_overrides_the_shell() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(".env"),
            "OPENAI_API_KEY=from-file-123\n# comment\nEXTRA=\"quoted value\"\n",
        )
        .unwrap();
        let mut env = EnvMap::from_pairs([("OPENAI_API_KEY".to_string(), "from-shell-456".to_string())]);
        env.overlay_dotenv(&dir.path().join(".env"));
        assert_eq!(env.get("OPENAI_API_KEY"), Some("from-file-123"));
        assert_eq!(env.get("EXTRA"), Some("quoted value"));
        assert_eq!(env.dotenv_keys(), ["OPENAI_API_KEY", "EXTRA"]);
    }

    #[test]
    fn placeholders_are_not_secrets() {
        for p in ["", "***", "changeme", "dummy", "your_api_key_here", "abc", "None"] {
            assert!(is_placeholder_secret(p), "{p}");
        }
        assert!(!is_placeholder_secret("sk-or-v1-abcdef"));
    }

    #[test]
    fn the_web_backends_see_no_placeholder_as_a_key() {
        use crate::tools::web::Variables;
        let env = EnvMap::from_pairs([("TAVILY_API_KEY".to_string(), "your-api-key-here".to_string())]);
        let seen: &dyn Variables = &env;
        assert_eq!(seen.get("TAVILY_API_KEY"), Some("your-api-key-here"));
        assert_eq!(seen.secret("TAVILY_API_KEY"), None);
    }
}
