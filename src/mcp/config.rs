//! What an MCP server is, in our own terms: `McpServerConfig` (stdio, streamable HTTP or SSE),
//! built either by the protocol layer from the editor's `mcpServers` or from `config.yaml`'s
//! `mcp_servers` map, which is parsed here the way Hermes reads it (`command/args/env` or
//! `url/headers`, `enabled: false` skips, `${VAR}` placeholders expanded from the environment).

use serde_yaml_ng::Value;

/// One MCP server to connect. `name` is the raw name (tool names sanitise it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum McpServerConfig {
    /// A child process speaking newline-delimited JSON-RPC on stdin/stdout.
    Stdio {
        name: String,
        command: String,
        args: Vec<String>,
        /// Set on top of the safe part of our environment (see `client::child_env`).
        env: Vec<(String, String)>,
    },
    /// A streamable-HTTP endpoint.
    Http {
        name: String,
        url: String,
        headers: Vec<(String, String)>,
    },
    /// A legacy HTTP+SSE endpoint (protocol 2024-11-05).
    Sse {
        name: String,
        url: String,
        headers: Vec<(String, String)>,
    },
}

impl McpServerConfig {
    pub fn name(&self) -> &str {
        match self {
            McpServerConfig::Stdio { name, .. }
            | McpServerConfig::Http { name, .. }
            | McpServerConfig::Sse { name, .. } => name,
        }
    }

    /// Expands `${VAR}` placeholders in every value (command, args, env values, url, headers)
    /// with `lookup`; an unknown variable is left as written. Hermes does this for `config.yaml`
    /// entries so secrets can live in `.env`.
    pub fn expand_env(&self, lookup: impl Fn(&str) -> Option<String>) -> McpServerConfig {
        let x = |s: &String| expand_placeholders(s, &lookup);
        let pairs = |v: &Vec<(String, String)>| v.iter().map(|(k, val)| (k.clone(), x(val))).collect();
        match self {
            McpServerConfig::Stdio {
                name,
                command,
                args,
                env,
            } => McpServerConfig::Stdio {
                name: name.clone(),
                command: x(command),
                args: args.iter().map(x).collect(),
                env: pairs(env),
            },
            McpServerConfig::Http { name, url, headers } => McpServerConfig::Http {
                name: name.clone(),
                url: x(url),
                headers: pairs(headers),
            },
            McpServerConfig::Sse { name, url, headers } => McpServerConfig::Sse {
                name: name.clone(),
                url: x(url),
                headers: pairs(headers),
            },
        }
    }
}

/// Parses `config.yaml`'s `mcp_servers` mapping (`None` or a non-mapping gives nothing). Entries
/// with `enabled: false` are skipped; an entry with neither `command` nor `url` is skipped with a
/// warning. Order follows the file.
pub fn parse_servers(value: Option<&Value>) -> Vec<McpServerConfig> {
    let Some(Value::Mapping(map)) = value else {
        return Vec::new();
    };
    let mut servers = Vec::new();
    for (key, entry) in map {
        let Some(name) = scalar(key) else { continue };
        if entry.get("enabled").is_some_and(is_false) {
            tracing::debug!(server = %name, "MCP server disabled in config.yaml");
            continue;
        }
        match parse_entry(&name, entry) {
            Some(server) => servers.push(server),
            None => {
                tracing::warn!(server = %name, "config.yaml mcp_servers entry has neither `command` nor `url`; skipped")
            }
        }
    }
    servers
}

fn parse_entry(name: &str, entry: &Value) -> Option<McpServerConfig> {
    if let Some(command) = entry.get("command").and_then(scalar).filter(|c| !c.trim().is_empty()) {
        return Some(McpServerConfig::Stdio {
            name: name.to_string(),
            command,
            args: entry.get("args").map(coerce_args).unwrap_or_default(),
            env: entry.get("env").map(string_pairs).unwrap_or_default(),
        });
    }
    let url = entry.get("url").and_then(scalar).filter(|u| !u.trim().is_empty())?;
    let headers = entry.get("headers").map(string_pairs).unwrap_or_default();
    let transport = entry.get("transport").and_then(scalar).unwrap_or_default();
    Some(if transport.eq_ignore_ascii_case("sse") {
        McpServerConfig::Sse {
            name: name.to_string(),
            url,
            headers,
        }
    } else {
        McpServerConfig::Http {
            name: name.to_string(),
            url,
            headers,
        }
    })
}

/// `args` as Hermes accepts it: a list (scalars stringified), a JSON list written as a string,
/// or a plain string split into words by the command parser (quotes decoded, nothing
/// expanded). A string that is not one plain command line (`a; b`, `a | b`) splits on
/// whitespace, with a warning: the server is started without a shell either way.
fn coerce_args(value: &Value) -> Vec<String> {
    match value {
        Value::Sequence(items) => items.iter().filter_map(scalar).collect(),
        Value::String(text) => {
            let text = text.trim();
            if text.starts_with('[')
                && let Ok(list) = serde_json::from_str::<Vec<serde_json::Value>>(text)
            {
                return list
                    .into_iter()
                    .map(|v| match v {
                        serde_json::Value::String(s) => s,
                        other => other.to_string(),
                    })
                    .collect();
            }
            crate::safety::command::words(text).unwrap_or_else(|| {
                tracing::warn!(
                    args = text,
                    "MCP args are not a plain command line; split on whitespace"
                );
                text.split_whitespace().map(str::to_string).collect()
            })
        }
        other => scalar(other).into_iter().collect(),
    }
}

/// A `{name: value}` mapping as pairs (values stringified, nulls dropped).
fn string_pairs(value: &Value) -> Vec<(String, String)> {
    let Value::Mapping(map) = value else {
        return Vec::new();
    };
    map.iter().filter_map(|(k, v)| Some((scalar(k)?, scalar(v)?))).collect()
}

fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn is_false(value: &Value) -> bool {
    match value {
        Value::Bool(b) => !b,
        Value::String(s) => matches!(s.trim().to_ascii_lowercase().as_str(), "false" | "no" | "off" | "0"),
        Value::Number(n) => n.as_i64() == Some(0),
        _ => false,
    }
}

/// Replaces `${NAME}` with `lookup(NAME)`; unknown names and unterminated `${` stay as written.
fn expand_placeholders(text: &str, lookup: &impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find('}') {
            Some(end) => {
                let name = &after[..end];
                match lookup(name.trim()) {
                    Some(value) => out.push_str(&value),
                    None => out.push_str(&rest[start..start + 3 + end]),
                }
                rest = &after[end + 1..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(yaml: &str) -> Vec<McpServerConfig> {
        let root: Value = serde_yaml_ng::from_str(yaml).unwrap();
        parse_servers(root.get("mcp_servers"))
    }

    #[test]
    fn stdio_http_sse_and_disabled_entries() {
        let servers = parse(
            "mcp_servers:\n  github:\n    command: npx\n    args: [\"-y\", \"@mcp/server-github\", 3]\n    env:\n      GITHUB_TOKEN: t-1\n      DEBUG: 1\n  ai.exa/exa:\n    url: https://mcp.example/mcp\n    headers: {Authorization: Bearer k}\n  legacy:\n    url: http://127.0.0.1:9/sse\n    transport: sse\n  off:\n    command: nope\n    enabled: false\n  broken:\n    args: [x]\n",
        );
        assert_eq!(
            servers,
            vec![
                McpServerConfig::Stdio {
                    name: "github".into(),
                    command: "npx".into(),
                    args: vec!["-y".into(), "@mcp/server-github".into(), "3".into()],
                    env: vec![("GITHUB_TOKEN".into(), "t-1".into()), ("DEBUG".into(), "1".into())],
                },
                McpServerConfig::Http {
                    name: "ai.exa/exa".into(),
                    url: "https://mcp.example/mcp".into(),
                    headers: vec![("Authorization".into(), "Bearer k".into())],
                },
                McpServerConfig::Sse {
                    name: "legacy".into(),
                    url: "http://127.0.0.1:9/sse".into(),
                    headers: vec![],
                },
            ]
        );
    }

    #[test]
    fn absent_or_malformed_section_is_empty() {
        assert!(parse("model: x\n").is_empty());
        assert!(parse("mcp_servers: [a, b]\n").is_empty());
        assert!(parse("mcp_servers:\n").is_empty());
    }

    #[test]
    fn string_args_are_split_like_hermes() {
        let servers = parse(
            "mcp_servers:\n  a:\n    command: uvx\n    args: \"-y 'pkg with spaces' \\\"q\\\"\"\n  b:\n    command: npx\n    args: '[\"-y\", \"pkg\"]'\n",
        );
        let args: Vec<Vec<String>> = servers
            .iter()
            .map(|s| match s {
                McpServerConfig::Stdio { args, .. } => args.clone(),
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(args, vec![vec!["-y", "pkg with spaces", "q"], vec!["-y", "pkg"]]);
    }

    #[test]
    fn enabled_accepts_yaml_spellings() {
        let servers = parse(
            "mcp_servers:\n  a: {command: x, enabled: \"off\"}\n  b: {command: y, enabled: no}\n  c: {command: z, enabled: true}\n",
        );
        assert_eq!(servers.iter().map(McpServerConfig::name).collect::<Vec<_>>(), ["c"]);
    }

    #[test]
    fn placeholders_expand_from_the_environment() {
        let server = McpServerConfig::Http {
            name: "x".into(),
            url: "https://${HOST}/mcp?k=${MISSING}".into(),
            headers: vec![("Authorization".into(), "Bearer ${TOKEN}".into())],
        };
        let lookup = |k: &str| match k {
            "HOST" => Some("h.example".to_string()),
            "TOKEN" => Some("t0k".to_string()),
            _ => None,
        };
        assert_eq!(
            server.expand_env(lookup),
            McpServerConfig::Http {
                name: "x".into(),
                url: "https://h.example/mcp?k=${MISSING}".into(),
                headers: vec![("Authorization".into(), "Bearer t0k".into())],
            }
        );
        assert_eq!(expand_placeholders("a ${unterminated", &lookup), "a ${unterminated");
    }
}
