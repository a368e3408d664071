//! The environment children run with. Commands the agent runs (terminal, background
//! processes, later code execution) get our environment minus credentials; the editor's
//! terminal, which inherits the *editor's* environment, gets every removed name set to an empty
//! value instead (ACP can override variables, not remove them).

use std::collections::BTreeSet;
use std::ffi::{OsStr, OsString};

use super::names::is_secret_name;

/// What to remove and what the user allowed back.
#[derive(Debug, Clone, Default)]
pub struct ChildEnvPolicy {
    /// `terminal.env_passthrough`: secret-named variables the user wants children to see.
    pub passthrough: BTreeSet<String>,
    /// Names of the provider keys the agent itself uses: never passed through.
    pub protected_names: BTreeSet<String>,
    /// Values of those keys: a variable holding one is removed whatever its name.
    pub protected_values: BTreeSet<String>,
}

impl ChildEnvPolicy {
    /// Whether a child may see `name=value`.
    pub fn allows(&self, name: &str, value: &OsStr) -> bool {
        if self.protected_names.contains(name) || name.starts_with("_HERMES_FORCE_") {
            return false;
        }
        if let Some(value) = value.to_str()
            && self.protected_values.contains(value.trim())
        {
            return false;
        }
        !is_secret_name(name) || self.passthrough.contains(name)
    }
}

/// The environment of a child process, computed once.
#[derive(Debug, Clone)]
pub struct ChildEnv {
    vars: Vec<(OsString, OsString)>,
    /// Names removed from `vars` (blanked in the editor's terminal).
    removed: Vec<String>,
}

impl Default for ChildEnv {
    /// Fail closed: without a policy, the process environment minus secret-named variables.
    fn default() -> ChildEnv {
        ChildEnv::from_process(&ChildEnvPolicy::default())
    }
}

impl ChildEnv {
    /// Filters `vars` through `policy`. Names that are not valid UTF-8 are dropped (no
    /// legitimate tool needs them, and they cannot be classified).
    pub fn new(vars: impl IntoIterator<Item = (OsString, OsString)>, policy: &ChildEnvPolicy) -> ChildEnv {
        let mut kept = Vec::new();
        let mut removed = Vec::new();
        for (name, value) in vars {
            let Some(text) = name.to_str() else { continue };
            if policy.allows(text, &value) {
                kept.push((name, value));
            } else {
                removed.push(text.to_string());
            }
        }
        kept.sort();
        removed.sort();
        removed.dedup();
        ChildEnv { vars: kept, removed }
    }

    /// The current process environment through `policy`.
    pub fn from_process(policy: &ChildEnvPolicy) -> ChildEnv {
        ChildEnv::new(std::env::vars_os(), policy)
    }

    /// What a child spawned by the agent gets (after `env_clear`).
    pub fn vars(&self) -> &[(OsString, OsString)] {
        &self.vars
    }

    /// Names withheld from children.
    pub fn removed(&self) -> &[String] {
        &self.removed
    }

    /// Overrides for a terminal the editor spawns with its own environment: every withheld
    /// name we know of, plus the common provider credentials the editor may have and we do
    /// not, each set to an empty value.
    pub fn blanked(&self) -> Vec<(String, String)> {
        let mut names: BTreeSet<&str> = self.removed.iter().map(String::as_str).collect();
        names.extend(WELL_KNOWN_CREDENTIALS);
        names.into_iter().map(|n| (n.to_string(), String::new())).collect()
    }
}

/// Credentials blanked in the editor's terminal even when our own environment lacks them.
const WELL_KNOWN_CREDENTIALS: &[&str] = &[
    "OPENAI_API_KEY",
    "OPENROUTER_API_KEY",
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_TOKEN",
    "GOOGLE_API_KEY",
    "GEMINI_API_KEY",
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "HF_TOKEN",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
];
