//! Tidy checks over the source tree: every module says what it owns; data flows one way (lower
//! layers never import the layers above them, no import circle spans two modules or, file by
//! file, two folders: `import_graph`); only `acp/` knows the ACP crate; and a tool owns its
//! identity (its name and argument keys appear only under `src/tools/`).

use std::path::{Path, PathBuf};

/// The file-level import graph: no circle spans two folders.
mod import_graph;
/// A tool's identity and independence.
mod tools;

pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

pub(crate) fn sources() -> Vec<(String, String)> {
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

/// The layers from the bottom up: a module may use modules of its own layer's rank or below,
/// never above. `config` sits above everything it translates into (each layer owns the
/// settings type it consumes); `app` wires configuration into the rest.
const LAYERS: &[&[&str]] = &[
    // Leaves: no imports of ours (but each other's, where noted by rank).
    &["sync", "text", "signals", "duration", "home"],
    &["transcript", "safety", "net"],
    &["store"],
    &["llm"],
    &["runtime"],
    &["tools"],
    &["mcp", "logging"],
    &["services"],
    &["agent"],
    &["config"],
    &["session", "cli"],
    &["acp"],
    &["app"],
];

/// The top-level module a source file belongs to (`src/tools/x/y.rs` → `tools`).
fn top_module(path: &str) -> Option<String> {
    let rest = path.strip_prefix("src/")?;
    let first = rest.split('/').next()?;
    Some(first.trim_end_matches(".rs").to_string())
}

/// The top-level modules a file's code uses (`crate::name`, comments left out), its own left out.
fn used_modules(text: &str, own: &str) -> std::collections::BTreeSet<String> {
    let code: String = text
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let text = code.as_str();
    text.match_indices("crate::")
        .filter(|(at, _)| !text[..*at].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        .map(|(at, _)| {
            text[at + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|name| !name.is_empty() && name != own)
        .collect()
}

fn rank(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

#[test]
fn layers_only_import_downwards() {
    let mut violations = Vec::new();
    for (path, text) in sources() {
        let Some(own) = top_module(&path) else { continue };
        if own == "lib" || own == "main" {
            continue;
        }
        let Some(own_rank) = rank(&own) else {
            violations.push(format!("{path}: module `{own}` has no place in LAYERS"));
            continue;
        };
        for used in used_modules(&text, &own) {
            match rank(&used) {
                Some(r) if r < own_rank => {}
                // Same rank: allowed only between leaves that do not form a circle (checked below).
                Some(r) if r == own_rank => {}
                Some(_) => violations.push(format!("{path} ({own}) uses crate::{used}, a layer above")),
                None => {}
            }
        }
        if !path.starts_with("src/acp/") && text.contains("agent_client_protocol") {
            violations.push(format!("{path} imports the ACP crate"));
        }
    }
    assert!(violations.is_empty(), "{violations:#?}");
}

/// No import circle spans two folders: the graph of top-level modules has no cycle (circles
/// between files of one folder are that folder's business).
#[test]
fn no_import_circle_spans_two_modules() {
    use std::collections::{BTreeMap, BTreeSet};
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in sources() {
        let Some(own) = top_module(&path) else { continue };
        if own == "lib" || own == "main" {
            continue;
        }
        graph.entry(own.clone()).or_default().extend(used_modules(&text, &own));
    }
    // Depth-first search for a back edge; report the circle it closes.
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        circles: &mut Vec<String>,
    ) {
        if let Some(at) = stack.iter().position(|n| n == node) {
            let mut circle = stack[at..].to_vec();
            circle.push(node.to_string());
            circles.push(circle.join(" -> "));
            return;
        }
        if done.contains(node) {
            return;
        }
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            visit(next, graph, stack, done, circles);
        }
        stack.pop();
        done.insert(node.to_string());
    }
    let (mut done, mut circles) = (BTreeSet::new(), Vec::new());
    for node in graph.keys() {
        visit(node, &graph, &mut Vec::new(), &mut done, &mut circles);
    }
    assert!(circles.is_empty(), "import circles across modules: {circles:#?}");
}

#[test]
fn the_module_graph_reader_sees_uses_and_skips_lookalikes() {
    let text = "use crate::llm::Endpoint;\nlet x = crate::tools::y();\nlet z = mycrate::store::q; // crate::acp\n";
    let found: Vec<String> = used_modules(text, "tools").into_iter().collect();
    assert_eq!(found, ["llm"]);
    assert_eq!(top_module("src/tools/x/y.rs").as_deref(), Some("tools"));
    assert_eq!(top_module("src/services.rs").as_deref(), Some("services"));
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
