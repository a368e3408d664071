//! A tool owns its identity and stands alone: its name and argument keys appear only under
//! `src/tools/`, a folder of `tools/` is a tool, no tool imports another, and the protocol layer
//! renders calls from descriptions without holding a tool.

use std::path::{Path, PathBuf};

use super::{import_graph, rust_files, sources};

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
    ("src/config/file/mod.rs", "terminal"),
    ("src/config/secrets.rs", "terminal"),
    // Anthropic OAuth renames two tools on the wire (Claude Code's names): a provider wire
    // format, which only `llm/` knows; the names travel as opaque text otherwise.
    ("src/llm/anthropic/request.rs", "session_search"),
    ("src/llm/anthropic/request.rs", "memory"),
    // The `/context` slash command and the ACP session config option "mode".
    ("src/acp/commands/mod.rs", "context"),
    ("src/acp/options.rs", "mode"),
    // A JSON-RPC error object's `code` (execute_code's argument has the same name).
    ("src/acp/wire/validate.rs", "code"),
    // The `patch` program and yarn's `patch` command in the command analysis, not the tool.
    ("src/safety/command/tools/mod.rs", "patch"),
    ("src/safety/command/package_json.rs", "patch"),
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
    let registry = hermes_acp::tools::catalog::builtin_catalog();
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

/// `tools/` is the catalogue: besides its list (`mod.rs`), the cards of calls described by name
/// (`catalog.rs`) and the catalogue's tests, every entry is a folder holding one tool or a
/// family of them (`web/`: search and extract). What tools run on lives in `runtime/`.
#[test]
fn a_folder_listing_of_tools_is_the_list_of_tools() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tools");
    let mut strays = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            let mut files = Vec::new();
            rust_files(&path, &mut files);
            let implements = |f: &PathBuf| std::fs::read_to_string(f).unwrap().contains("impl Tool for ");
            if !files.iter().any(implements) {
                strays.push(format!("src/tools/{name}/ implements no tool"));
            }
        } else if !["mod.rs", "catalog.rs", "tests.rs"].contains(&name.as_str()) {
            strays.push(format!("src/tools/{name} is not a tool"));
        }
    }
    assert!(strays.is_empty(), "move these to src/runtime/: {strays:#?}");
}

/// A tool stands alone: no tool folder's code imports another tool folder (what two tools
/// share is runtime, `src/runtime/`; a family of tools shares one folder, as `web/` does).
/// Tests may drive several tools together.
#[test]
fn no_tool_imports_another_tool() {
    let tool_folder = |path: &str| {
        let rest = path.strip_prefix("src/tools/")?;
        rest.split_once('/').map(|(folder, _)| folder.to_string())
    };
    let is_test = |path: &str| path.ends_with("tests.rs") || path.contains("/tests/") || path.contains("test_support");
    let mut violations = Vec::new();
    for (file, targets) in import_graph::file_graph(&sources()) {
        let Some(own) = tool_folder(&file).filter(|_| !is_test(&file)) else {
            continue;
        };
        for target in targets {
            if tool_folder(&target).is_some_and(|other| other != own) {
                violations.push(format!("{file} imports {target}"));
            }
        }
    }
    assert!(violations.is_empty(), "{violations:#?}");
}

#[test]
fn literals_are_found_outside_comments_and_tests() {
    let text = "let a = \"x\"; // \"no\"\n/* \"no\" */ let c = '\"'; let r = r#\"raw \"q\"\"#;\n#[cfg(test)]\nmod tests { \"no\" }";
    let found: Vec<(usize, String)> = literals(text);
    assert_eq!(found, [(1, "x".to_string()), (2, "raw \"q\"".to_string())]);
}

/// Cards come from the agent, not from the protocol layer calling back down: `acp/` renders a
/// tool call from the description its events (or the session's stored cards) carry, and never
/// holds a tool or a registry to ask one (tests aside).
#[test]
fn the_protocol_layer_never_holds_a_tool() {
    let forbidden = [
        "dyn Tool",
        "runtime::Tool",
        "tools::Tool",
        "ToolRegistry",
        "describer",
        "summarise(",
    ];
    let mut violations = Vec::new();
    for (path, text) in sources() {
        if !path.starts_with("src/acp/") {
            continue;
        }
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for word in forbidden {
            // A whole word: `runtime::ToolKind` is a type of ours, not a tool.
            let whole = code
                .match_indices(word)
                .any(|(at, _)| !code[at + word.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_'));
            if whole {
                violations.push(format!("{path}: {word}"));
            }
        }
    }
    assert!(violations.is_empty(), "acp/ reaches into the tools: {violations:?}");
}
