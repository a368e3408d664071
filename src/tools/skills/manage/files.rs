//! The `skill_manage` actions that work on one file of an existing skill: `patch` (SKILL.md or a
//! supporting file, with the same fuzzy matcher as the `patch` tool), `write_file` and
//! `remove_file` (supporting files under the four support folders).

use std::path::Path;

use serde_json::json;

use super::paths::resolve_target;
use super::tree::{Outcome, Skills, entries_below, restore};
use super::validate::{self, ALLOWED_SUBDIRS, MAX_SKILL_FILE_BYTES};
use crate::runtime::file_io::{atomic_write, read_disk};
use crate::runtime::fuzzy;
use crate::text::thousands;

/// Whether `target` is the skill's own SKILL.md (then a write must keep its front matter valid).
fn is_skill_md(skill_dir: &Path, target: &Path) -> bool {
    target == skill_dir.join("SKILL.md")
}

/// `text` cut to `max` characters with an ellipsis (the `_change` previews).
fn preview(text: &str, max: usize) -> String {
    if text.chars().count() > max {
        format!("{}…", text.chars().take(max).collect::<String>())
    } else {
        text.to_string()
    }
}

/// Targeted find-and-replace in SKILL.md (default) or a supporting file; a unique match is
/// required unless `replace_all`.
pub fn patch(skills: &Skills, name: &str, old: &str, new: &str, file_path: Option<&str>, replace_all: bool) -> Outcome {
    let dir = match skills.existing(name, "") {
        Ok(dir) => dir,
        Err(outcome) => return outcome,
    };
    let target = match file_path {
        Some(file_path) => {
            if let Some(error) = validate::file_path(file_path) {
                return Outcome::fail(error);
            }
            match resolve_target(&dir, file_path) {
                Ok(target) => target,
                Err(error) => return Outcome::fail(error),
            }
        }
        None => dir.join("SKILL.md"),
    };
    let label = file_path.unwrap_or("SKILL.md");
    let content = match read_disk(&target) {
        Ok(Some(content)) => content,
        Ok(None) => {
            let rel = target.strip_prefix(&dir).unwrap_or(&target);
            return Outcome::fail(format!("File not found: {}", rel.display()));
        }
        Err(e) => return Outcome::fail(format!("Failed to read {label}: {e}")),
    };
    let mut replaced = match fuzzy::find_and_replace(&content, old, new, replace_all) {
        Ok(replaced) => replaced,
        Err(error) => {
            let hint = if error == fuzzy::NO_MATCH {
                fuzzy::did_you_mean(old, &content)
            } else {
                String::new()
            };
            let mut file_preview: String = content.chars().take(500).collect();
            if content.chars().count() > 500 {
                file_preview.push_str("...");
            }
            return Outcome::from(json!({
                "success": false,
                "error": format!("{error}{hint}"),
                "file_preview": file_preview,
            }));
        }
    };
    // What the file already held is written again: a secret in it does not stay either.
    replaced.content = skills.redact(&replaced.content);
    if let Some(error) = validate::content_size(&replaced.content, label) {
        return Outcome::fail(error);
    }
    if is_skill_md(&dir, &target)
        && let Some(error) = validate::front_matter(&replaced.content)
    {
        return Outcome::fail(format!("Patch would break SKILL.md structure: {error}"));
    }
    if let Err(e) = atomic_write(&target, replaced.content.as_bytes()) {
        return Outcome::fail(format!("Failed to write {label}: {e}"));
    }
    if let Some(error) = skills.scan(&dir) {
        restore(&target, Some(&content));
        return Outcome::fail(error);
    }
    let n = replaced.count;
    Outcome::from(json!({
        "success": true,
        "message": format!(
            "Patched {label} in skill '{name}' ({n} replacement{}).",
            if n > 1 { "s" } else { "" }
        ),
        "_change": {"old": preview(old, 200), "new": preview(new, 200)},
    }))
    .with_change(&target, Some(content), Some(replaced.content))
}

/// Adds or overwrites a supporting file.
pub fn write_file(skills: &Skills, name: &str, file_path: &str, file_content: &str) -> Outcome {
    if let Some(error) = validate::file_path(file_path) {
        return Outcome::fail(error);
    }
    let bytes = file_content.len();
    if bytes > MAX_SKILL_FILE_BYTES {
        return Outcome::fail(format!(
            "File content is {} bytes (limit: {} bytes / 1 MiB). Consider splitting into smaller files.",
            thousands(bytes as u64),
            thousands(MAX_SKILL_FILE_BYTES as u64)
        ));
    }
    if let Some(error) = validate::content_size(file_content, file_path) {
        return Outcome::fail(error);
    }
    let dir = match skills.existing(name, " Create it first with action='create'.") {
        Ok(dir) => dir,
        Err(outcome) => return outcome,
    };
    let target = match resolve_target(&dir, file_path) {
        Ok(target) => target,
        Err(error) => return Outcome::fail(error),
    };
    // SKILL.md may be written this way too; it must stay a valid skill (ours, not Hermes').
    if is_skill_md(&dir, &target)
        && let Some(error) = validate::front_matter(file_content)
    {
        return Outcome::fail(error);
    }
    let original = match read_disk(&target) {
        Ok(original) => original,
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => std::fs::read(&target)
            .ok()
            .map(|b| String::from_utf8_lossy(&b).into_owned()),
        Err(e) => return Outcome::fail(format!("Failed to read {file_path}: {e}")),
    };
    if let Err(e) = atomic_write(&target, file_content.as_bytes()) {
        return Outcome::fail(format!("Failed to write {file_path}: {e}"));
    }
    if let Some(error) = skills.scan(&dir) {
        restore(&target, original.as_deref());
        return Outcome::fail(error);
    }
    Outcome::from(json!({
        "success": true,
        "message": format!("File '{file_path}' written to skill '{name}'."),
        "path": target.display().to_string(),
    }))
    .with_change(&target, original, Some(file_content.to_string()))
}

/// Removes a supporting file (and its folder when that empties).
pub fn remove_file(skills: &Skills, name: &str, file_path: &str) -> Outcome {
    if let Some(error) = validate::file_path(file_path) {
        return Outcome::fail(error);
    }
    let dir = match skills.existing(name, "") {
        Ok(dir) => dir,
        Err(outcome) => return outcome,
    };
    let target = match resolve_target(&dir, file_path) {
        Ok(target) => target,
        Err(error) => return Outcome::fail(error),
    };
    let is_link = std::fs::symlink_metadata(&target).is_ok_and(|m| m.file_type().is_symlink());
    if !target.is_file() && !is_link {
        let available = available_files(&dir);
        return Outcome::from(json!({
            "success": false,
            "error": format!("File '{file_path}' not found in skill '{name}'."),
            "available_files": if available.is_empty() { json!(null) } else { json!(available) },
        }));
    }
    let old = read_disk(&target).ok().flatten();
    if let Err(e) = std::fs::remove_file(&target) {
        return Outcome::fail(format!("Failed to remove {file_path}: {e}"));
    }
    if let Some(parent) = target.parent()
        && parent != dir
        && std::fs::read_dir(parent).is_ok_and(|mut entries| entries.next().is_none())
    {
        let _ = std::fs::remove_dir(parent);
    }
    Outcome::from(json!({
        "success": true,
        "message": format!("File '{file_path}' removed from skill '{name}'."),
    }))
    .with_change(&target, old, None)
}

/// Every file under the skill's support folders, relative to the skill (sorted).
fn available_files(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = (ALLOWED_SUBDIRS.iter())
        .flat_map(|sub| entries_below(&dir.join(sub)))
        .filter(|(_, kind)| kind.is_file())
        .map(|(path, _)| path.strip_prefix(dir).unwrap_or(&path).to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}
