//! Tidy checks over the source tree: every module says what it owns, and data flows one way
//! (lower layers never import the layers above them; only `acp/` knows the ACP crate), and a
//! tool owns its identity (its name and argument keys appear only under `src/tools/`).

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    files.sort();
    files
        .into_iter()
        .map(|p| {
            (
                p.strip_prefix(root).unwrap().display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_module_starts_with_a_doc_header() {
    let missing: Vec<String> = sources()
        .into_iter()
        .filter(|(_, text)| !text.trim_start().starts_with("//!"))
        .map(|(path, _)| path)
        .collect();
    assert!(missing.is_empty(), "files without a //! header: {missing:?}");
}

#[test]
fn layers_only_import_downwards() {
    // (layer, modules it must never use)
    let rules: &[(&str, &[&str])] = &[
        (
            "src/safety/",
            &[
                "crate::acp",
                "crate::session",
                "crate::agent",
                "crate::llm",
                "crate::mcp",
                "crate::tools",
                "crate::store",
                "crate::config",
                "crate::app",
            ],
        ),
        (
            "src/store/",
            &[
                "crate::acp",
                "crate::session",
                "crate::agent",
                "crate::llm",
                "crate::tools",
                "crate::app",
            ],
        ),
        (
            "src/llm/",
            &[
                "crate::acp",
                "crate::session",
                "crate::agent",
                "crate::tools",
                "crate::store",
                "crate::app",
            ],
        ),
        (
            "src/tools/",
            &["crate::acp", "crate::session", "crate::agent", "crate::app"],
        ),
        ("src/agent/", &["crate::acp", "crate::session", "crate::app"]),
        (
            "src/net/",
            &[
                "crate::acp",
                "crate::session",
                "crate::agent",
                "crate::llm",
                "crate::tools",
                "crate::store",
                "crate::config",
                "crate::app",
            ],
        ),
        ("src/session/", &["crate::acp", "crate::app"]),
        // The process scope sits below sessions and turns, which hold it.
        (
            "src/services.rs",
            &["crate::acp", "crate::session", "crate::agent", "crate::app"],
        ),
        (
            "src/config/",
            &[
                "crate::acp",
                "crate::session",
                "crate::agent",
                "crate::store",
                "crate::app",
            ],
        ),
    ];
    let mut violations = Vec::new();
    for (path, text) in sources() {
        for (layer, forbidden) in rules {
            if path.starts_with(layer) {
                for f in *forbidden {
                    if text.contains(&format!("{f}::")) || text.contains(&format!("{f};")) {
                        violations.push(format!("{path} uses {f}"));
                    }
                }
            }
        }
        if !path.starts_with("src/acp/") && text.contains("agent_client_protocol") {
            violations.push(format!("{path} imports the ACP crate"));
        }
    }
    assert!(violations.is_empty(), "{violations:#?}");
}

#[test]
fn the_library_never_prints_to_stdout() {
    let offenders: Vec<String> = sources()
        .into_iter()
        // The wire writer is the one place that writes protocol frames to stdout (every frame
        // goes through its single task, so frames never interleave).
        .filter(|(path, _)| !path.starts_with("src/cli/") && path != "src/main.rs" && path != "src/acp/wire/writer.rs")
        .filter(|(_, text)| text.contains("println!") || text.contains("print!(") || text.contains("io::stdout"))
        .map(|(path, _)| path)
        .collect();
    assert!(offenders.is_empty(), "{offenders:?}");
}

/// The string literals of Rust source outside comments, with their line numbers. Test code is
/// left out: `tests.rs` files, `tests/` folders and a trailing `#[cfg(test)] mod tests` block
/// (tests use tool calls as sample data).
fn literals(text: &str) -> Vec<(usize, String)> {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    let bytes = text.as_bytes();
    let (mut i, mut line, mut out) = (0, 1, Vec::new());
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => line += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = text[i..].find("*/").map_or(bytes.len(), |e| i + e + 2);
                line += text[i..end].matches('\n').count();
                i = end;
                continue;
            }
            // A char literal such as '"' or '\'' (a lifetime has no closing quote close by).
            b'\'' if bytes.get(i + 2) == Some(&b'\'') => i += 2,
            b'\'' if bytes.get(i + 1) == Some(&b'\\') && bytes.get(i + 3) == Some(&b'\'') => i += 3,
            b'r' if bytes.get(i + 1).is_some_and(|b| *b == b'"' || *b == b'#')
                && !bytes
                    .get(i.wrapping_sub(1))
                    .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_') =>
            {
                let hashes = text[i + 1..].chars().take_while(|c| *c == '#').count();
                if bytes.get(i + 1 + hashes) == Some(&b'"') {
                    let start = i + 2 + hashes;
                    let close = format!("\"{}", "#".repeat(hashes));
                    let end = text[start..].find(&close).map_or(bytes.len(), |e| start + e);
                    out.push((line, text[start..end].to_string()));
                    line += text[start..end].matches('\n').count();
                    i = end + close.len();
                    continue;
                }
            }
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while j < bytes.len() && bytes[j] != b'"' {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                let value = &text[start..j.min(bytes.len())];
                out.push((line, value.to_string()));
                line += value.matches('\n').count();
                i = j + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Literals that spell a tool name or argument key but mean something else.
const NOT_TOOL_KNOWLEDGE: &[(&str, &str)] = &[
    // config.yaml's `terminal:` section (timeouts, writable roots), not the tool.
    ("src/config/file.rs", "terminal"),
    ("src/config/secrets.rs", "terminal"),
    // Anthropic OAuth renames two tools on the wire (Claude Code's names): a provider wire
    // format, which only `llm/` knows; the names travel as opaque text otherwise.
    ("src/llm/anthropic/request.rs", "session_search"),
    ("src/llm/anthropic/request.rs", "memory"),
    // The `/context` slash command and the ACP session config option "mode".
    ("src/acp/commands.rs", "context"),
    ("src/acp/options.rs", "mode"),
    // A JSON-RPC error object's `code` (execute_code's argument has the same name).
    ("src/acp/wire/validate.rs", "code"),
    // Rust's build folder, which checkpoints skip as regenerable (a tool argument shares the name).
    ("src/session/checkpoints/excludes.rs", "target"),
];

/// A tool owns its identity: no tool name as a string literal outside `src/tools/` (anywhere,
/// save the list above), and no argument key in the layers that handle tool calls (`acp/`,
/// `agent/`, `session/`) — they ask the tool. The other layers never read tool arguments
/// (`llm/` carries them as opaque text, `mcp/` passes them through, `config/`, `store/` and
/// `safety/` never see them), and their JSON, YAML and shell words share generic names such as
/// "content", "name" or "command" with the schemas.
#[test]
fn tool_names_and_argument_keys_live_in_the_tools() {
    let registry = hermes_acp::tools::registry::builtin_catalog();
    let names: Vec<&str> = registry.tools().map(|t| t.name()).collect();
    let mut keys = std::collections::BTreeSet::new();
    for tool in registry.tools() {
        if let Some(properties) = tool.parameters()["properties"].as_object() {
            keys.extend(properties.keys().cloned());
        }
    }
    assert!(
        names.len() >= 11 && keys.contains("path"),
        "the registry yields the tools"
    );
    let handles_calls = |path: &str| {
        ["src/acp/", "src/agent/", "src/session/"]
            .iter()
            .any(|l| path.starts_with(l))
    };
    let mut violations = Vec::new();
    for (path, text) in sources() {
        if path.starts_with("src/tools/") || path.ends_with("/tests.rs") || path.contains("/tests/") {
            continue;
        }
        for (line, literal) in literals(&text) {
            if NOT_TOOL_KNOWLEDGE.contains(&(path.as_str(), literal.as_str())) {
                continue;
            }
            if names.contains(&literal.as_str()) {
                violations.push(format!("{path}:{line} names the tool \"{literal}\""));
            } else if handles_calls(&path) && keys.contains(&literal) {
                violations.push(format!("{path}:{line} uses the argument key \"{literal}\""));
            }
        }
    }
    assert!(violations.is_empty(), "ask the tool instead: {violations:#?}");
}

#[test]
fn literals_are_found_outside_comments_and_tests() {
    let text = "let a = \"x\"; // \"no\"\n/* \"no\" */ let c = '\"'; let r = r#\"raw \"q\"\"#;\n#[cfg(test)]\nmod tests { \"no\" }";
    let found: Vec<(usize, String)> = literals(text);
    assert_eq!(found, [(1, "x".to_string()), (2, "raw \"q\"".to_string())]);
}

#[test]
fn hermes_home_is_read_from_the_environment_in_one_place() {
    // Everything else gets it from `Config::home` (resolved once, `~` expanded).
    let offenders: Vec<String> = sources()
        .into_iter()
        .filter(|(path, _)| path != "src/config/env.rs")
        .filter(|(_, text)| text.contains("var_os(\"HERMES_HOME\")") || text.contains("var(\"HERMES_HOME\")"))
        .map(|(path, _)| path)
        .collect();
    assert!(offenders.is_empty(), "{offenders:?}");
}
