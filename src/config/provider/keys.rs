//! API keys: which variable a key is read from, and where that variable was set
//! (`HERMES_HOME/.env` or the shell), so a rejected key can name the file to fix.

use super::super::env::EnvMap;
use crate::llm::Secret;

pub(super) fn anthropic_key(env: &EnvMap) -> Option<(&str, &'static str)> {
    ["ANTHROPIC_API_KEY", "ANTHROPIC_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"]
        .into_iter()
        .find_map(|var| env.secret(var).map(|k| (k, var)))
}

/// The first usable key among `vars`: the key, its variable and where that variable was set.
pub(super) fn key_from(env: &EnvMap, home: &str, vars: &[&str]) -> (Option<Secret>, Option<String>, Option<String>) {
    vars.iter()
        .find_map(|var| {
            env.secret(var).map(|k| {
                (
                    Some(Secret::new(k)),
                    Some((*var).to_string()),
                    Some(origin_of(env, home, var)),
                )
            })
        })
        .unwrap_or((None, None, None))
}

/// `<home>/.env` when the variable came from that file (it overrides the shell), else the shell.
pub(super) fn origin_of(env: &EnvMap, home: &str, var: &str) -> String {
    if env.dotenv_keys().iter().any(|k| k == var) {
        format!("{home}/.env")
    } else {
        "the shell environment".to_string()
    }
}

/// `CUSTOM_BASE_URL in /home/me/.hermes/.env` (or `… in the shell environment`).
pub(super) fn env_setting(var: &str, env: &EnvMap, home: &str) -> String {
    format!("{var} in {}", origin_of(env, home, var))
}
