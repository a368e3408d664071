//! How a `search_files` call looks in the editor: the searched file as location (a directory is
//! not one), what is searched for while it runs, and the results as a readable list.

use std::path::Path;

use serde_json::Value;

use crate::runtime::describe::{self, Presentation, ToolKind};

pub(super) fn present(args: &Value, cwd: &Path) -> Presentation {
    let pattern = describe::arg(args, "pattern");
    let path = describe::arg(args, "path");
    // Only a path that looks like a file is a place to follow; directories are not.
    let locations = match path {
        Some(p) if Path::new(p).extension().is_some() => describe::path_location(args, cwd, None).into_iter().collect(),
        _ => Vec::new(),
    };
    Presentation {
        kind: ToolKind::Search,
        title: title(pattern, path, describe::arg(args, "target"), cwd),
        locations,
        start_text: pattern.map(|p| {
            let target = describe::arg(args, "target").unwrap_or("content");
            match path {
                Some(path) => format!("Searching for '{p}' ({target}) in {path}"),
                None => format!("Searching for '{p}' ({target})"),
            }
        }),
    }
}

/// "Search for `pattern` in src" (contents) or "Find files named `pattern`" (names).
fn title(pattern: Option<&str>, path: Option<&str>, target: Option<&str>, cwd: &Path) -> String {
    let pattern = describe::code_span(&describe::first_line(pattern.unwrap_or("?"), 60));
    let what = match target {
        Some("files") => format!("Find files named {pattern}"),
        _ => format!("Search for {pattern}"),
    };
    match path.map(|p| describe::shown_path(p, cwd)) {
        Some(place) if place != "." => format!("{what} in {place}"),
        _ => what,
    }
}

pub(super) fn brief(args: &Value) -> Option<String> {
    let clip = |key: &str| describe::arg(args, key).map(|s| describe::clip(s, 80));
    clip("pattern").map(|p| format!("'{p}' in {}", clip("path").unwrap_or_else(|| ".".into())))
}

pub(super) fn summarise(v: &Value) -> String {
    let mut out = String::from("Search results");
    if let Some(total) = v.get("total_count").and_then(Value::as_u64) {
        out.push_str(&format!("\nFound {total} result(s)."));
    }
    for key in ["matches", "files"] {
        if let Some(items) = v.get(key).and_then(Value::as_array) {
            for item in items.iter().take(20) {
                match item {
                    Value::String(s) => out.push_str(&format!("\n- {s}")),
                    obj => {
                        let path = obj.get("path").and_then(Value::as_str).unwrap_or("?");
                        let line = obj
                            .get("line")
                            .and_then(Value::as_u64)
                            .map(|l| format!(":{l}"))
                            .unwrap_or_default();
                        let snippet = obj
                            .get("content")
                            .and_then(Value::as_str)
                            .map(|c| describe::collapse(c, 300))
                            .unwrap_or_default();
                        out.push_str(&format!("\n- {path}{line}"));
                        if !snippet.is_empty() {
                            out.push_str(&format!("\n  {snippet}"));
                        }
                    }
                }
            }
            if items.len() > 20 {
                out.push_str(&format!("\n... {} more", items.len() - 20));
            }
        }
    }
    if let Some(text) = v.get("matches_text").and_then(Value::as_str) {
        out.push('\n');
        out.push_str(text);
    }
    if let Some(counts) = v.get("counts").and_then(Value::as_object) {
        for (path, n) in counts.iter().take(20) {
            out.push_str(&format!("\n- {path}: {n}"));
        }
    }
    out
}
