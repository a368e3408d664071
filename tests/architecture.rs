//! Tidy checks over the source tree: every module says what it owns, and data flows one way
//! (lower layers never import the layers above them; only `acp/` knows the ACP crate).

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
        ("src/session/", &["crate::acp", "crate::app"]),
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
