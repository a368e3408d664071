//! The import graph between files, read from the source: every `use` and every path in code
//! (`crate::…`, `super::…`, `self::…`) resolved to the file that defines the module it names.
//! `architecture.rs` checks the layers between top-level modules; this checks what lies below
//! them: no import circle spans two folders at any depth (a circle between files of one folder
//! is that folder's business, and rare). A folder's `mod.rs` is its face: a file below it that
//! takes a name the face declares or re-exports does not import the files the face lists, so
//! those edges are left out; any other file importing it imports the face's own code.

use std::collections::{BTreeMap, BTreeSet};

/// `src/a/b/mod.rs` → `["a", "b"]`, `src/a/c.rs` → `["a", "c"]`.
fn module_path(file: &str) -> Vec<String> {
    let rest = file.strip_prefix("src/").unwrap_or(file).trim_end_matches(".rs");
    let mut parts: Vec<String> = rest.split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib" || p == "main") {
        parts.pop();
    }
    parts
}

/// The folder a file sits in (`src/a/b/c.rs` → `src/a/b`).
fn folder(file: &str) -> &str {
    file.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// Code only: line comments dropped (doc comments name paths in prose).
fn code_of(text: &str) -> String {
    let lines = text.lines().map(|line| line.split("//").next().unwrap_or(""));
    lines.collect::<Vec<_>>().join("\n")
}

/// Every path a `use` tree names, flattened: `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e`.
fn flatten(tree: &str, prefix: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if let Some(inner) = tree.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        let (mut depth, mut start) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    flatten(&inner[start..i], prefix, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        flatten(&inner[start..], prefix, out);
        return;
    }
    if tree.is_empty() {
        return;
    }
    match tree.split_once("::") {
        Some((head, rest)) if !head.contains('{') => flatten(rest, &format!("{prefix}{head}::"), out),
        _ => out.push(format!("{prefix}{}", tree.split(" as ").next().unwrap_or(tree).trim())),
    }
}

/// The modules a file declares (`mod x;`, `pub mod x;`): paths may start at them.
fn child_modules(code: &str) -> Vec<String> {
    code.lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let rest = line
                .strip_prefix("pub ")
                .or(line.strip_prefix("pub(crate) "))
                .unwrap_or(line);
            let rest = rest.strip_prefix("pub(super) ").unwrap_or(rest);
            let name = rest.strip_prefix("mod ")?.trim_end_matches(';').trim();
            (!name.contains(' ') && !name.contains('{')).then(|| name.to_string())
        })
        .collect()
}

/// The paths a file's code names that start at `crate`, `super` or `self`, or at a module the
/// file declares (read as `self::…`).
fn named_paths(code: &str) -> Vec<String> {
    let children = child_modules(code);
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before_ok = at == 0 || !rest[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        let after = &rest[at + 4..];
        let end = after.find(';').unwrap_or(after.len());
        if before_ok {
            flatten(&after[..end].replace('\n', " "), "", &mut out);
        }
        rest = &after[end.min(after.len())..];
    }
    let bytes = code.as_bytes();
    let starts = ["crate", "super", "self"]
        .into_iter()
        .map(str::to_string)
        .chain(children.iter().cloned());
    for start in starts.map(|s| format!("{s}::")).collect::<Vec<_>>() {
        for (at, _) in code.match_indices(start.as_str()) {
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_' || bytes[at - 1] == b':') {
                continue;
            }
            let path: String = code[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            out.push(path);
        }
    }
    out.into_iter()
        .map(|p| match p.split("::").next() {
            Some(head) if children.iter().any(|c| c == head) => format!("self::{p}"),
            _ => p,
        })
        .filter(|p| p.starts_with("crate::") || p.starts_with("super::") || p.starts_with("self::"))
        .collect()
}

/// The file a path names, from the file `from` (its module path): the longest prefix that is
/// a module of ours.
fn resolve(path: &str, from: &[String], modules: &BTreeMap<Vec<String>, String>) -> Option<String> {
    let mut segments = path.split("::").filter(|s| !s.is_empty());
    let mut base: Vec<String> = match segments.next()? {
        "crate" => Vec::new(),
        "self" => from.to_vec(),
        "super" => from[..from.len().checked_sub(1)?].to_vec(),
        _ => return None,
    };
    let mut rest: Vec<&str> = segments.collect();
    while rest.first() == Some(&"super") {
        base.pop()?;
        rest.remove(0);
    }
    let mut best = None;
    let mut candidate = base;
    if let Some(file) = modules.get(&candidate) {
        best = Some(file.clone());
    }
    for segment in rest {
        candidate.push(segment.to_string());
        match modules.get(&candidate) {
            Some(file) => best = Some(file.clone()),
            None => break,
        }
    }
    best
}

/// Whether `target` is the `mod.rs` (or `lib.rs`) of a folder holding `file`: a file taking a
/// name its folder's face declares or re-exports is not a circle with the files that face lists.
fn is_own_face(file: &str, target: &str) -> bool {
    target == "src/lib.rs" || target.strip_suffix("mod.rs").is_some_and(|dir| file.starts_with(dir))
}

/// Each file's imports of other files of ours.
pub(super) fn file_graph(sources: &[(String, String)]) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeMap<Vec<String>, String> = sources.iter().map(|(f, _)| (module_path(f), f.clone())).collect();
    let mut graph = BTreeMap::new();
    for (file, text) in sources {
        let from = module_path(file);
        let targets: BTreeSet<String> = named_paths(&code_of(text))
            .iter()
            .filter_map(|p| resolve(p, &from, &modules))
            .filter(|target| target != file && !is_own_face(file, target))
            .collect();
        graph.insert(file.clone(), targets);
    }
    graph
}

/// The strongly connected groups of files of more than one file (Tarjan's algorithm).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'g>(s: &mut State<'g>, node: &'g str) {
        let n = s.index.len();
        s.index.insert(node, n);
        s.low.insert(node, n);
        s.stack.push(node);
        s.on_stack.insert(node);
        for next in s.graph.get(node).into_iter().flatten() {
            let next = next.as_str();
            if !s.index.contains_key(next) {
                visit(s, next);
                let low = s.low[node].min(s.low[next]);
                s.low.insert(node, low);
            } else if s.on_stack.contains(next) {
                let low = s.low[node].min(s.index[next]);
                s.low.insert(node, low);
            }
        }
        if s.low[node] == s.index[node] {
            let mut group = Vec::new();
            while let Some(top) = s.stack.pop() {
                s.on_stack.remove(top);
                group.push(top.to_string());
                if top == node {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.found.push(group);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !state.index.contains_key(node.as_str()) {
            visit(&mut state, node);
        }
    }
    state.found
}

#[test]
fn no_import_circle_spans_two_folders() {
    let graph = file_graph(&super::sources());
    let spanning: Vec<Vec<String>> = circles(&graph)
        .into_iter()
        .filter(|group| group.iter().map(|f| folder(f)).collect::<BTreeSet<_>>().len() > 1)
        .collect();
    assert!(spanning.is_empty(), "import circles across folders: {spanning:#?}");
}

#[test]
fn the_file_graph_resolves_relative_paths_and_finds_a_circle() {
    let sources: Vec<(String, String)> = [
        ("src/a/mod.rs", "//! a\npub mod b;\nmod c;\nuse c::x;\n"),
        ("src/a/b.rs", "use super::c::{x, y::Z};\n"),
        ("src/a/c.rs", "fn f() { crate::d::e::g(); }\n"),
        ("src/d/e.rs", "use crate::a::{self, b::B};\nuse super::Shared;\n"),
        ("src/d/mod.rs", "pub mod e;\npub struct Shared;\n"),
    ]
    .iter()
    .map(|(f, t)| (f.to_string(), t.to_string()))
    .collect();
    let graph = file_graph(&sources);
    assert_eq!(graph["src/a/b.rs"], BTreeSet::from(["src/a/c.rs".to_string()]));
    assert_eq!(graph["src/a/c.rs"], BTreeSet::from(["src/d/e.rs".to_string()]));
    // `crate::a` itself is the face of another folder (kept); `super::Shared` its own (left out).
    assert_eq!(
        graph["src/d/e.rs"],
        BTreeSet::from(["src/a/b.rs".to_string(), "src/a/mod.rs".to_string()])
    );
    assert_eq!(graph["src/a/mod.rs"], BTreeSet::from(["src/a/c.rs".to_string()]));
    let found = circles(&graph);
    assert_eq!(found, [["src/a/b.rs", "src/a/c.rs", "src/a/mod.rs", "src/d/e.rs"]]);
}
