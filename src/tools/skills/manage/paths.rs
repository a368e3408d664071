//! Where `skill_manage` may touch the disk. Every skill directory it acts on is found by walking
//! `HERMES_HOME/skills/` (never built from the model's text alone), and every path is
//! canonicalised and must stay strictly inside that tree: a `..`, an absolute path or a symlink
//! pointing out is refused before anything is read or written.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::tools::skills::scan;

/// The skills tree of one `HERMES_HOME`.
#[derive(Debug, Clone)]
pub struct SkillsRoot {
    /// `HERMES_HOME/skills`.
    pub dir: PathBuf,
    /// The active profile's name, for "not found" messages.
    pub profile: String,
}

impl SkillsRoot {
    pub fn new(hermes_home: &Path) -> SkillsRoot {
        SkillsRoot {
            dir: scan::skills_dir(hermes_home),
            profile: profile_name(hermes_home),
        }
    }

    /// The directory of the installed skill whose folder is called `name` (Hermes matches the
    /// folder, not the front-matter name), first in path order.
    pub fn find(&self, name: &str) -> Option<PathBuf> {
        scan::find_files(&self.dir, "SKILL.md")
            .into_iter()
            .filter_map(|md| md.parent().map(Path::to_path_buf))
            .find(|dir| dir.file_name().is_some_and(|n| n == name))
    }

    /// Hermes' "not found" error (`suffix` appended, e.g. a hint to create the skill first).
    pub fn not_found(&self, name: &str, suffix: &str) -> String {
        format!(
            "Skill '{name}' not found in active profile '{}'. Use skills_list() to see available skills.{suffix}",
            self.profile
        )
    }

    /// The canonical skills directory (created when missing, so a first `create` works).
    fn canonical(&self) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(&self.dir)?;
        self.dir.canonicalize()
    }

    /// Why `skill_dir` may not be written through, if it may not: it must resolve strictly
    /// inside the skills tree (a skill folder that is a symlink to elsewhere is refused).
    pub fn check_inside(&self, skill_dir: &Path) -> Result<PathBuf, String> {
        let root = self
            .canonical()
            .map_err(|e| format!("Cannot open the skills directory: {e}"))?;
        let resolved = skill_dir.canonicalize().map_err(|e| {
            format!(
                "Refusing to use '{}': could not resolve path ({e}).",
                skill_dir.display()
            )
        })?;
        match resolved.strip_prefix(&root) {
            Ok(rel) if rel.components().next().is_some() => Ok(resolved),
            _ => Err(format!(
                "Refusing to use '{}': path does not resolve inside the skills directory.",
                skill_dir.display()
            )),
        }
    }

    /// The last guard before a recursive delete: never a symlinked folder, never the skills
    /// root itself, never anything outside it (Hermes' `_validate_delete_target`).
    pub fn check_delete(&self, skill_dir: &Path) -> Result<(), String> {
        let shown = skill_dir.display();
        if std::fs::symlink_metadata(skill_dir).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(format!(
                "Refusing to delete '{shown}': the skill directory is a symlink/junction. Remove the link target \
                 manually if intended."
            ));
        }
        let resolved = skill_dir
            .canonicalize()
            .map_err(|e| format!("Refusing to delete '{shown}': could not resolve path ({e})."))?;
        let root = self
            .canonical()
            .map_err(|e| format!("Refusing to delete '{shown}': {e}."))?;
        if resolved == root {
            return Err(format!(
                "Refusing to delete '{shown}': resolves to the skills root itself, which would remove every \
                 installed skill."
            ));
        }
        match resolved.strip_prefix(&root) {
            Ok(rel) if rel.components().next().is_some() => Ok(()),
            _ => Err(format!(
                "Refusing to delete '{shown}': path does not resolve inside any known skills root."
            )),
        }
    }

    /// Whether the curator sidecar (`skills/.usage.json`) marks `name` as pinned. An unreadable
    /// sidecar pins nothing, as in Hermes (telemetry never blocks the tool).
    pub fn is_pinned(&self, name: &str) -> bool {
        let Ok(text) = std::fs::read_to_string(self.dir.join(".usage.json")) else {
            return false;
        };
        let record = serde_json::from_str::<Value>(&text).ok();
        record
            .as_ref()
            .and_then(|v| v.get(name))
            .and_then(|r| r.get("pinned"))
            .is_some_and(truthy)
    }
}

/// Python truthiness of a JSON value.
fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|n| n != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// `X` for `~/.hermes/profiles/X`, else `default` (Hermes' active-profile name).
fn profile_name(hermes_home: &Path) -> String {
    let real = hermes_home.canonicalize().unwrap_or_else(|_| hermes_home.to_path_buf());
    match real.parent() {
        Some(parent) if parent.file_name().is_some_and(|n| n == "profiles") => real
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "default".into()),
        _ => "default".into(),
    }
}

/// Resolves `file_path` (already validated: relative, no `..`) inside `skill_dir` and refuses
/// it when the real path leaves the skill directory (a symlinked folder or file pointing out).
/// The file itself may not exist yet: its nearest existing ancestor is what gets resolved.
pub fn resolve_target(skill_dir: &Path, file_path: &str) -> Result<PathBuf, String> {
    let target = skill_dir.join(file_path);
    let root = skill_dir
        .canonicalize()
        .map_err(|e| format!("Path escapes allowed directory: {e}"))?;
    // A dangling link would resolve "inside" by its name yet be written through to wherever
    // it points: refused outright.
    if std::fs::symlink_metadata(&target).is_ok_and(|m| m.file_type().is_symlink()) && target.canonicalize().is_err() {
        return Err(format!(
            "Path escapes allowed directory: '{}' is a dangling symlink.",
            target.display()
        ));
    }
    let resolved = resolve_lenient(&target);
    if resolved.starts_with(&root) {
        Ok(target)
    } else {
        Err(format!(
            "Path escapes allowed directory: '{}' is not in the subpath of '{}' OR one path is relative and the \
             other is absolute.",
            resolved.display(),
            root.display()
        ))
    }
}

/// `path` with symlinks resolved as far as it exists, the missing tail appended (Python's
/// non-strict `Path.resolve`).
fn resolve_lenient(path: &Path) -> PathBuf {
    let mut existing = path.to_path_buf();
    let mut tail = Vec::new();
    loop {
        if let Ok(real) = existing.canonicalize() {
            return tail
                .iter()
                .rev()
                .fold(real, |acc, part: &std::ffi::OsString| acc.join(part));
        }
        match (existing.file_name().map(|n| n.to_os_string()), existing.parent()) {
            (Some(name), Some(parent)) => {
                tail.push(name);
                existing = parent.to_path_buf();
            }
            _ => return path.to_path_buf(),
        }
    }
}
