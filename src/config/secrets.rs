//! What the configuration knows that must not leak: every secret value (from `.env`,
//! `config.yaml` and the environment) for redaction, and the environment children may inherit
//! (`terminal.env_passthrough` is Hermes' list of credential names the user lets through; the
//! provider keys the agent itself uses never pass, as in Hermes).

use std::collections::BTreeSet;
use std::ffi::OsString;

use serde_yaml_ng::Value;

use super::Config;
use crate::safety::secrets::{ChildEnv, ChildEnvPolicy, SecretSet, is_secret_name};

/// The `(key path, value)` of every secret in `config.yaml`: values under a secret-named key
/// (`api_key`, `*token*`, `*secret*`, `*password*`, …) at any depth, every MCP `headers` value
/// (an `Authorization: Bearer …` header is named like nothing), and MCP `env` values that look
/// like credentials (`NODE_ENV: production` must not be masked in every tool output).
pub fn yaml_secret_values(root: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    walk(root, "", Kind::Plain, &mut out);
    out
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Plain,
    Secret,
    /// Under an MCP server's `env`: secret when credential-shaped.
    McpEnv,
}

/// Long, without spaces, letters and digits mixed: how generated credentials look.
fn credential_shaped(value: &str) -> bool {
    value.len() >= 16
        && !value.contains(char::is_whitespace)
        && value.chars().any(|c| c.is_ascii_digit())
        && value.chars().any(|c| c.is_ascii_alphabetic())
}

fn walk(value: &Value, path: &str, kind: Kind, out: &mut Vec<(String, String)>) {
    match value {
        Value::String(s) if kind == Kind::Secret || (kind == Kind::McpEnv && credential_shaped(s)) => {
            out.push((path.to_string(), s.clone()));
            // `Bearer <token>`: the token alone may show up elsewhere.
            if let Some((_, token)) = s.trim().split_once(' ') {
                out.push((path.to_string(), token.trim().to_string()));
            }
        }
        Value::Mapping(map) => {
            for (key, child) in map {
                let Some(key) = key.as_str() else { continue };
                let child_path = if path.is_empty() {
                    key.to_string()
                } else {
                    format!("{path}.{key}")
                };
                let mcp_server = path.starts_with("mcp_servers.") && !path[12..].contains('.');
                let child_kind = if kind == Kind::Secret || is_secret_name(key) || (mcp_server && key == "headers") {
                    Kind::Secret
                } else if mcp_server && key == "env" {
                    Kind::McpEnv
                } else {
                    kind
                };
                walk(child, &child_path, child_kind, out);
            }
        }
        Value::Sequence(items) => {
            for (i, item) in items.iter().enumerate() {
                walk(item, &format!("{path}.{i}"), kind, out);
            }
        }
        Value::Tagged(tagged) => walk(&tagged.value, path, kind, out),
        _ => {}
    }
}

/// `terminal.env_passthrough`: a list of variable names.
pub fn yaml_env_passthrough(root: &Value) -> Vec<String> {
    root.get("terminal")
        .and_then(|t| t.get("env_passthrough"))
        .and_then(Value::as_sequence)
        .map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

impl Config {
    /// The provider keys the agent resolved (main and fallbacks), with where each came from.
    fn resolved_keys(&self) -> Vec<(String, String)> {
        self.provider
            .iter()
            .chain(&self.fallbacks)
            .filter_map(|p| {
                let key = p.api_key.as_ref()?.expose().to_string();
                let source = p.key_source.clone().unwrap_or_else(|| format!("{}_API_KEY", p.id));
                Some((source, key))
            })
            .collect()
    }

    /// Every secret value we know, for redaction at every sink.
    pub fn secret_set(&self) -> SecretSet {
        let builder = self
            .resolved_keys()
            .into_iter()
            .chain(self.file.secret_values.iter().cloned())
            .fold(SecretSet::builder(), |b, (name, value)| b.secret(&name, &value));
        builder.env_vars(self.env.iter()).build()
    }

    /// The environment commands run with: ours with `.env` on top (as Hermes exports it),
    /// minus credentials, minus the keys the agent uses, plus the allowed passthrough names.
    pub fn child_env(&self) -> ChildEnv {
        let keys = self.resolved_keys();
        let policy = ChildEnvPolicy {
            passthrough: self.file.env_passthrough.iter().cloned().collect(),
            protected_names: keys
                .iter()
                .map(|(name, _)| name.clone())
                .filter(|name| is_secret_name(name))
                .collect(),
            protected_values: keys.into_iter().map(|(_, value)| value).collect(),
        };
        let dotenv: BTreeSet<&str> = self.env.dotenv_keys().iter().map(String::as_str).collect();
        let vars = std::env::vars_os()
            .filter(|(k, _)| k.to_str().is_none_or(|k| !dotenv.contains(k)))
            .chain(
                dotenv
                    .iter()
                    .filter_map(|k| Some((OsString::from(k), OsString::from(self.env.get(k)?)))),
            );
        ChildEnv::new(vars, &policy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_secret_values_anywhere_in_the_yaml() {
        let root: Value = serde_yaml_ng::from_str(
            "model:\n  api_key: sk-model-0123456789\n  default: gpt\ncustom_providers:\n  - name: x\n    api_key: key-custom-0123\nmcp_servers:\n  gh:\n    command: gh-mcp\n    env:\n      GH_HOST: ghe.example.com\n      GH_ENTERPRISE_PAT_X: a1b2c3d4e5f6g7h8i9j0\n  web:\n    url: http://x\n    headers:\n      Authorization: Bearer tok-0123456789\nsmtp:\n  password: hunter2hunter2\nterminal:\n  env_passthrough: [NPM_TOKEN, ' ']\n",
        )
        .unwrap();
        let values: Vec<String> = yaml_secret_values(&root).into_iter().map(|(_, v)| v).collect();
        assert_eq!(
            values,
            [
                "sk-model-0123456789",
                "key-custom-0123",
                "a1b2c3d4e5f6g7h8i9j0",
                "Bearer tok-0123456789",
                "tok-0123456789",
                "hunter2hunter2"
            ]
        );
        assert_eq!(yaml_env_passthrough(&root), ["NPM_TOKEN"]);
    }
}
