//! The user's home folder and `~` expansion: a leaf every layer may use (config finds
//! `~/.hermes` with it, tools resolve `~/…` paths the model writes).

use std::path::PathBuf;

/// `~` and `~/rest` expanded against the home folder; anything else as written.
pub fn expand_home(raw: &str) -> PathBuf {
    if raw == "~" {
        return home_dir();
    }
    if let Some(rest) = raw.strip_prefix("~/") {
        return home_dir().join(rest);
    }
    PathBuf::from(raw)
}

/// `$HOME` (or the password database's entry), else `/`.
pub fn home_dir() -> PathBuf {
    std::env::home_dir().unwrap_or_else(|| PathBuf::from("/"))
}
