//! Finding and reading skills under `HERMES_HOME/skills/` the way Hermes lays them out: a skill
//! is a directory holding `SKILL.md` (YAML front matter + instructions), either directly under
//! `skills/` or inside category folders (`skills/<category>/<skill>/SKILL.md`), with optional
//! `references/`, `templates/`, `assets/` and `scripts/` beside it. Legacy flat `<name>.md`
//! files are found by name too.

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

use serde_json::{Map, Value};

/// Directories never searched (VCS, hub caches, archives, environments).
pub const EXCLUDED_DIRS: &[&str] = &[
    ".git",
    ".github",
    ".hub",
    ".archive",
    ".venv",
    "venv",
    "node_modules",
    "site-packages",
    "__pycache__",
];

/// Support folders of a skill: their files load through `skill_view(file_path=…)`.
pub const SUPPORT_DIRS: &[&str] = &["references", "templates", "assets", "scripts"];

/// Hermes' progressive-disclosure limits.
pub const MAX_NAME_CHARS: usize = 64;
pub const MAX_DESCRIPTION_CHARS: usize = 1024;

/// Walks at most this deep (a symlink loop or a huge tree cannot stall a call).
const MAX_DEPTH: usize = 12;

/// One installed skill.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillEntry {
    pub name: String,
    pub description: String,
    /// The top-level folder for `skills/<category>/<skill>/SKILL.md`.
    pub category: Option<String>,
    pub skill_md: PathBuf,
}

/// Where Hermes keeps skills.
pub fn skills_dir(hermes_home: &Path) -> PathBuf {
    hermes_home.join("skills")
}

/// Reads a skill file as text: BOM dropped, invalid UTF-8 replaced.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let bytes = std::fs::read(path)?;
    let text = String::from_utf8_lossy(&bytes);
    Ok(text.strip_prefix('\u{feff}').unwrap_or(&text).to_string())
}

/// Splits `---\n<yaml>\n---\n<body>` into the front matter (a JSON object; empty when absent)
/// and the body. Malformed YAML falls back to `key: value` lines so one bad skill never breaks
/// a listing.
pub fn parse_front_matter(content: &str) -> (Map<String, Value>, &str) {
    let Some(rest) = content.strip_prefix("---") else {
        return (Map::new(), content);
    };
    let Some((yaml, body)) = split_closing_fence(rest) else {
        return (Map::new(), content);
    };
    let parsed = serde_yaml_ng::from_str::<serde_yaml_ng::Value>(yaml)
        .ok()
        .and_then(|v| serde_json::to_value(v).ok());
    let map = match parsed {
        Some(Value::Object(map)) => map,
        Some(_) => Map::new(),
        None => yaml
            .lines()
            .filter_map(|line| line.split_once(':'))
            .map(|(k, v)| (k.trim().to_string(), Value::String(v.trim().to_string())))
            .collect(),
    };
    (map, body)
}

/// Finds the first `\n---<spaces>\n` (Hermes' closing fence) in `rest`.
fn split_closing_fence(rest: &str) -> Option<(&str, &str)> {
    let mut from = 0;
    while let Some(i) = rest[from..].find("\n---") {
        let start = from + i;
        let after = &rest[start + 4..];
        let spaces = after.len() - after.trim_start_matches([' ', '\t', '\r']).len();
        if after[spaces..].starts_with('\n') {
            return Some((&rest[..start], &after[spaces + 1..]));
        }
        from = start + 4;
    }
    None
}

/// A front-matter string value.
pub fn fm_str<'a>(fm: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    fm.get(key).and_then(Value::as_str)
}

/// Whether a skill's `platforms:` list (absent = all) includes this OS.
pub fn matches_platform(fm: &Map<String, Value>) -> bool {
    let wanted: Vec<String> = match fm.get("platforms") {
        None | Some(Value::Null) => return true,
        Some(Value::String(s)) => s.split(',').map(|p| p.trim().to_lowercase()).collect(),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(|p| p.trim().to_lowercase())
            .collect(),
        Some(_) => return true,
    };
    let os = std::env::consts::OS;
    wanted.is_empty()
        || wanted.iter().any(|p| {
            p == os
                || (os == "macos" && (p == "darwin" || p == "mac" || p == "osx"))
                || (os == "windows" && p == "win32")
        })
}

/// Cuts a description to Hermes' limit.
pub fn truncate_description(text: &str) -> String {
    if text.chars().count() <= MAX_DESCRIPTION_CHARS {
        return text.to_string();
    }
    format!(
        "{}...",
        text.chars().take(MAX_DESCRIPTION_CHARS - 3).collect::<String>()
    )
}

/// Whether `path` (relative to the skills dir or not) runs through a support folder.
pub fn is_support_path(path: &Path) -> bool {
    path.components()
        .any(|c| matches!(c, Component::Normal(n) if SUPPORT_DIRS.iter().any(|s| n == *s)))
}

/// Every file named `file_name` under `root`, sorted by relative path. Excluded folders are
/// skipped, and so are the support folders of a directory that holds a `SKILL.md`.
pub fn find_files(root: &Path, file_name: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    walk(root, file_name, 0, &mut found, &mut seen);
    found.sort_by(|a, b| a.strip_prefix(root).ok().cmp(&b.strip_prefix(root).ok()));
    found
}

fn walk(dir: &Path, file_name: &str, depth: usize, found: &mut Vec<PathBuf>, seen: &mut HashSet<PathBuf>) {
    if depth > MAX_DEPTH || !seen.insert(dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf())) {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut dirs = Vec::new();
    let is_skill_root = dir.join("SKILL.md").is_file();
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            let skip =
                EXCLUDED_DIRS.iter().any(|x| name == *x) || (is_skill_root && SUPPORT_DIRS.iter().any(|x| name == *x));
            if !skip {
                dirs.push(path);
            }
        } else if name == file_name {
            found.push(path);
        }
    }
    for sub in dirs {
        walk(&sub, file_name, depth + 1, found, seen);
    }
}

/// The category of `skills/<category>/…/<skill>/SKILL.md` (none for a top-level skill).
pub fn category_of(skills_dir: &Path, skill_md: &Path) -> Option<String> {
    let rel = skill_md.strip_prefix(skills_dir).ok()?;
    let parts: Vec<_> = rel.components().collect();
    (parts.len() >= 3).then(|| parts[0].as_os_str().to_string_lossy().into_owned())
}

/// Reads one skill's listing entry; `None` when it cannot be read or is for another OS.
pub fn entry_for(skills_dir: &Path, skill_md: &Path) -> Option<SkillEntry> {
    let text = read_text(skill_md).ok()?;
    let head: String = text.chars().take(4000).collect();
    let (fm, body) = parse_front_matter(&head);
    if !matches_platform(&fm) {
        return None;
    }
    let dir_name = skill_md.parent()?.file_name()?.to_string_lossy().into_owned();
    let name: String = fm_str(&fm, "name")
        .unwrap_or(&dir_name)
        .chars()
        .take(MAX_NAME_CHARS)
        .collect();
    let description = match fm.get("description") {
        Some(Value::String(d)) if !d.is_empty() => d.clone(),
        Some(Value::String(_)) | None => body
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .unwrap_or("")
            .to_string(),
        Some(other) => other.to_string(),
    };
    Some(SkillEntry {
        name,
        description: truncate_description(&description),
        category: category_of(skills_dir, skill_md),
        skill_md: skill_md.to_path_buf(),
    })
}

/// Every installed skill, first wins by name, sorted by (category, name).
pub fn list(skills_dir: &Path) -> Vec<SkillEntry> {
    let mut names = HashSet::new();
    let mut skills: Vec<SkillEntry> = find_files(skills_dir, "SKILL.md")
        .iter()
        .filter_map(|md| entry_for(skills_dir, md))
        .filter(|s| names.insert(s.name.clone()))
        .collect();
    skills.sort_by(|a, b| {
        (a.category.as_deref().unwrap_or(""), &a.name).cmp(&(b.category.as_deref().unwrap_or(""), &b.name))
    });
    skills
}
