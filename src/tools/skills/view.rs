//! `skill_view`'s work: resolving a skill by name (directory name, front-matter name,
//! `category/skill` path or legacy flat `<name>.md`; ambiguity refused), returning SKILL.md with
//! its metadata and linked files, and serving one file from the skill's directory without ever
//! leaving it (no `..`, no absolute paths, no symlinks pointing out).

use std::collections::{BTreeMap, HashSet};
use std::path::{Component, Path, PathBuf};

use serde_json::{Value, json};

use super::scan::{self, fm_str, is_support_path, parse_front_matter, read_text};

const LOOKUP_HINT: &str = "Use a skill name or relative path within the skills directory.";
const FILE_HINT: &str = "Use a relative path within the skill directory";
/// Extensions of files outside the support folders that still count as skill files.
const SKILL_FILE_EXTS: &[&str] = &["md", "py", "yaml", "yml", "json", "tex", "sh"];

pub fn fail(error: impl Into<String>) -> Value {
    json!({"success": false, "error": error.into()})
}

fn fail_with(error: impl Into<String>, extra: Value) -> Value {
    let mut out = fail(error);
    if let (Some(out), Value::Object(extra)) = (out.as_object_mut(), extra) {
        out.extend(extra);
    }
    out
}

/// Why `name` cannot be joined onto the skills directory, if it cannot.
fn lookup_error(name: &str) -> Option<&'static str> {
    let path = Path::new(name);
    let drive = name.len() >= 2 && name.as_bytes()[1] == b':' && name.as_bytes()[0].is_ascii_alphabetic();
    if path.is_absolute() || name.starts_with('\\') || drive {
        return Some("Skill name must be a relative path within the skills directory.");
    }
    if name.split(['/', '\\']).any(|part| part == "..") {
        return Some("Skill name cannot contain '..' path traversal components.");
    }
    None
}

/// Every skill file `name` could mean, deduplicated by real path.
fn candidates(skills_dir: &Path, names: &[&str]) -> Vec<(Option<PathBuf>, PathBuf)> {
    let mut out: Vec<(Option<PathBuf>, PathBuf)> = Vec::new();
    let mut seen = HashSet::new();
    let mut record = |dir: Option<PathBuf>, md: PathBuf| {
        if seen.insert(md.canonicalize().unwrap_or_else(|_| md.clone())) {
            out.push((dir, md));
        }
    };
    for name in names {
        let direct = skills_dir.join(name);
        let flat = skills_dir.join(format!("{name}.md"));
        if !is_support_path(Path::new(name)) && direct.is_dir() && direct.join("SKILL.md").is_file() {
            record(Some(direct.clone()), direct.join("SKILL.md"));
        } else if flat.is_file() && !is_support_path(Path::new(name)) {
            record(None, flat);
        }
    }
    let name = names[0];
    for md in scan::find_files(skills_dir, "SKILL.md") {
        let dir_matches = md.parent().and_then(Path::file_name).is_some_and(|d| d == name);
        let fm_matches = || {
            read_text(&md)
                .ok()
                .is_some_and(|t| fm_str(&parse_front_matter(&t).0, "name") == Some(name))
        };
        if dir_matches || fm_matches() {
            record(md.parent().map(Path::to_path_buf), md.clone());
        }
    }
    if !name.contains(['/', '\\']) {
        for md in scan::find_files(skills_dir, &format!("{name}.md")) {
            let rel = md.strip_prefix(skills_dir).unwrap_or(&md);
            if !is_support_path(rel) {
                record(None, md);
            }
        }
    }
    out
}

/// Files of a directory skill grouped by support folder (as Hermes' `linked_files`).
fn linked_files(skill_dir: &Path) -> BTreeMap<&'static str, Vec<String>> {
    let specs: [(&str, &[&str], bool, bool); 4] = [
        ("references", &["md"], false, false),
        (
            "templates",
            &["md", "py", "yaml", "yml", "json", "tex", "sh"],
            true,
            false,
        ),
        ("assets", &[], true, true),
        ("scripts", &["py", "sh", "bash", "js", "ts", "rb"], false, false),
    ];
    let mut out = BTreeMap::new();
    for (sub, exts, recursive, any_ext) in specs {
        let base = skill_dir.join(sub);
        let mut found: Vec<String> = files_under(&base, recursive)
            .into_iter()
            .filter(|f| {
                any_ext
                    || f.extension()
                        .and_then(|e| e.to_str())
                        .is_some_and(|e| exts.contains(&e))
            })
            .filter_map(|f| Some(f.strip_prefix(skill_dir).ok()?.to_string_lossy().replace('\\', "/")))
            .collect();
        found.sort();
        if !found.is_empty() {
            out.insert(sub, found);
        }
    }
    out
}

/// Files under `dir` whose real path stays inside it (symlinks pointing out are left out).
fn files_under(dir: &Path, recursive: bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(root) = dir.canonicalize() else { return out };
    let mut stack = vec![(dir.to_path_buf(), 0usize)];
    while let Some((dir, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if !path.canonicalize().is_ok_and(|real| real.starts_with(&root)) {
                continue;
            }
            if path.is_dir() {
                if recursive && depth < 8 {
                    stack.push((path, depth + 1));
                }
            } else if path.is_file() {
                out.push(path);
            }
        }
    }
    out
}

/// Every file of a skill directory except SKILL.md and dot-folders, grouped by support folder
/// (plus `other` for known skill file types elsewhere): the listing offered on a wrong path.
fn available_files(skill_dir: &Path) -> BTreeMap<String, Vec<String>> {
    let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in files_under(skill_dir, true) {
        let Ok(rel) = file.strip_prefix(skill_dir) else {
            continue;
        };
        let rel = rel.to_string_lossy().replace('\\', "/");
        if rel == "SKILL.md" || rel.split('/').any(|p| p.starts_with('.')) {
            continue;
        }
        let top = rel.split_once('/').map(|(t, _)| t);
        let ext_ok = file
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| SKILL_FILE_EXTS.contains(&e));
        match top {
            Some(t) if scan::SUPPORT_DIRS.contains(&t) => groups.entry(t.to_string()).or_default().push(rel),
            _ if ext_ok => groups.entry("other".to_string()).or_default().push(rel),
            _ => {}
        }
    }
    for list in groups.values_mut() {
        list.sort();
    }
    groups
}

/// Serves `file_path` from `skill_dir`.
fn serve_file(skill_dir: &Path, file_path: &str, label: &str) -> Value {
    let rel = Path::new(file_path);
    if rel.components().any(|c| c == Component::ParentDir) {
        return fail_with("Path traversal ('..') is not allowed.", json!({"hint": FILE_HINT}));
    }
    if rel.is_absolute()
        || rel
            .components()
            .any(|c| matches!(c, Component::Prefix(_) | Component::RootDir))
    {
        return fail_with(
            format!("Path '{file_path}' is outside the skill directory."),
            json!({"hint": FILE_HINT}),
        );
    }
    let target = skill_dir.join(rel);
    if let (Ok(real), Ok(root)) = (target.canonicalize(), skill_dir.canonicalize())
        && !real.starts_with(&root)
    {
        return fail_with(
            format!("Path '{file_path}' resolves outside the skill directory."),
            json!({"hint": FILE_HINT}),
        );
    }
    if !target.is_file() {
        return fail_with(
            format!("File '{file_path}' not found in skill '{label}'."),
            json!({"available_files": available_files(skill_dir), "hint": "Use one of the available file paths listed above"}),
        );
    }
    let bytes = match std::fs::read(&target) {
        Ok(bytes) => bytes,
        Err(e) => return fail(format!("Failed to read '{file_path}': {e}")),
    };
    let file_type = target
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    match String::from_utf8(bytes) {
        Ok(text) if !text.contains('\0') => json!({
            "success": true, "name": label, "file": file_path,
            "content": text.strip_prefix('\u{feff}').unwrap_or(&text), "file_type": file_type,
        }),
        Ok(text) => binary(label, file_path, &target, text.len()),
        Err(e) => binary(label, file_path, &target, e.as_bytes().len()),
    }
}

fn binary(label: &str, file_path: &str, target: &Path, size: usize) -> Value {
    let file_name = target.file_name().unwrap_or_default().to_string_lossy();
    json!({
        "success": true, "name": label, "file": file_path, "is_binary": true,
        "content": format!("[Binary file: {file_name}, size: {size} bytes]"),
    })
}

/// A tag list from front matter: a YAML list, `"[a, b]"` or `"a, b"`.
fn tags(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::Array(items)) => items
            .iter()
            .filter(|v| !v.is_null())
            .map(|v| {
                v.as_str()
                    .map_or_else(|| v.to_string(), str::to_string)
                    .trim()
                    .to_string()
            })
            .collect(),
        Some(Value::String(s)) => {
            let s = s.trim();
            let s = s.strip_prefix('[').and_then(|s| s.strip_suffix(']')).unwrap_or(s);
            s.split(',')
                .map(|t| t.trim().trim_matches(['"', '\'']).to_string())
                .filter(|t| !t.is_empty())
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Runs `skill_view` (blocking: walks and reads the skills tree).
pub fn view(skills_dir: &Path, name: &str, file_path: Option<&str>) -> Value {
    let name = name.trim();
    if name.is_empty() {
        return fail_with("Skill name is required.", json!({"hint": LOOKUP_HINT}));
    }
    if let Some(error) = lookup_error(name) {
        return fail_with(error, json!({"hint": LOOKUP_HINT}));
    }
    if !skills_dir.is_dir() {
        return fail("Skills directory does not exist yet. It will be created on first install.");
    }
    // No plugins here: `namespace:skill` falls back to the `namespace/skill` folder, as in Hermes.
    let alt = name.split_once(':').map(|(ns, bare)| format!("{ns}/{bare}"));
    let mut names = vec![name];
    names.extend(alt.as_deref());
    let found = candidates(skills_dir, &names);
    if found.len() > 1 {
        let paths: Vec<String> = found.iter().map(|(_, md)| md.display().to_string()).collect();
        return fail_with(
            format!(
                "Ambiguous skill name '{name}': {} skills match. Refusing to guess — load one explicitly by its \
                 categorized path.",
                found.len()
            ),
            json!({"matches": paths, "hint": "Pass the full relative path instead of the bare name (e.g., 'category/skill-name'), or rename one of the colliding skills so each name is unique."}),
        );
    }
    let Some((skill_dir, skill_md)) = found.into_iter().next() else {
        let available: Vec<String> = scan::list(skills_dir).into_iter().take(20).map(|s| s.name).collect();
        return fail_with(
            format!("Skill '{name}' not found."),
            json!({"available_skills": available, "hint": "Use skills_list to see all available skills"}),
        );
    };
    let content = match read_text(&skill_md) {
        Ok(text) => text,
        Err(e) => return fail(format!("Failed to read skill '{name}': {e}")),
    };
    let (fm, _) = parse_front_matter(&content);
    if !scan::matches_platform(&fm) {
        return fail_with(
            format!("Skill '{name}' is not supported on this platform."),
            json!({"readiness_status": "unsupported"}),
        );
    }
    if let (Some(file_path), Some(dir)) = (file_path.map(str::trim).filter(|f| !f.is_empty()), &skill_dir) {
        return serve_file(dir, file_path, name);
    }
    let hermes_meta = fm.get("metadata").and_then(|m| m.get("hermes"));
    let pick = |key: &str| {
        hermes_meta
            .and_then(|h| h.get(key))
            .filter(|v| !v.is_null())
            .or(fm.get(key))
    };
    let linked = skill_dir.as_deref().map(linked_files).unwrap_or_default();
    let rel_path = skill_md
        .strip_prefix(skills_dir)
        .unwrap_or(&skill_md)
        .to_string_lossy()
        .into_owned();
    let fallback_name = match &skill_dir {
        Some(dir) => dir.file_name().unwrap_or_default().to_string_lossy().into_owned(),
        None => skill_md.file_stem().unwrap_or_default().to_string_lossy().into_owned(),
    };
    let mut out = json!({
        "success": true,
        "name": fm_str(&fm, "name").map_or(fallback_name, str::to_string),
        "description": fm.get("description").cloned().unwrap_or_else(|| json!("")),
        "tags": tags(pick("tags")),
        "related_skills": tags(pick("related_skills")),
        "content": content,
        "path": rel_path,
        "skill_dir": skill_dir.as_ref().map(|d| d.display().to_string()),
        "linked_files": if linked.is_empty() { Value::Null } else { json!(linked) },
        "usage_hint": if linked.is_empty() { Value::Null } else {
            json!("To view linked files, call skill_view(name, file_path) where file_path is e.g. 'references/api.md' or 'assets/config.yaml'")
        },
    });
    for key in ["compatibility", "metadata"] {
        if let Some(value) = fm.get(key).filter(|v| !v.is_null()) {
            out[key] = value.clone();
        }
    }
    out
}
