//! What `skill_manage` checks before it touches the disk, with Hermes' exact messages: skill and
//! category names, SKILL.md front matter, content sizes, and the relative paths of supporting
//! files (which must sit under one of the four support folders and never climb out).

use std::path::{Component, Path};
use std::sync::LazyLock;

use regex::Regex;

use crate::text::thousands;

/// Longest skill or category name.
pub const MAX_NAME_LENGTH: usize = 64;
/// Longest front-matter description.
pub const MAX_DESCRIPTION_LENGTH: usize = 1024;
/// Largest SKILL.md (or supporting text) in characters: about 36k tokens.
pub const MAX_SKILL_CONTENT_CHARS: usize = 100_000;
/// Largest supporting file in bytes (1 MiB).
pub const MAX_SKILL_FILE_BYTES: usize = 1_048_576;
/// Where `write_file`/`remove_file` may put files (sorted, as Hermes lists them).
pub const ALLOWED_SUBDIRS: [&str; 4] = ["assets", "references", "scripts", "templates"];

/// Filesystem-safe, URL-friendly names: a lowercase letter or digit, then those, `.`, `_`, `-`.
static VALID_NAME: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[a-z0-9][a-z0-9._-]*$").expect("valid regex"));
/// The closing fence of the front matter, searched after the opening `---` (Hermes' regex).
pub static CLOSING_FENCE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\n---\s*\n").expect("valid regex"));

/// Why `name` is not a valid skill name, if it is not.
pub fn name(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("Skill name is required.".into());
    }
    if name.chars().count() > MAX_NAME_LENGTH {
        return Some(format!("Skill name exceeds {MAX_NAME_LENGTH} characters."));
    }
    if !VALID_NAME.is_match(name) {
        return Some(format!(
            "Invalid skill name '{name}'. Use lowercase letters, numbers, hyphens, dots, and underscores. Must \
             start with a letter or digit."
        ));
    }
    None
}

/// Why `category` is not a valid category (one directory name), if it is not. Blank means none.
pub fn category(category: Option<&str>) -> Option<String> {
    let category = category?.trim();
    if category.is_empty() {
        return None;
    }
    let invalid = || {
        format!(
            "Invalid category '{category}'. Use lowercase letters, numbers, hyphens, dots, and underscores. \
             Categories must be a single directory name."
        )
    };
    if category.contains(['/', '\\']) {
        return Some(invalid());
    }
    if category.chars().count() > MAX_NAME_LENGTH {
        return Some(format!("Category exceeds {MAX_NAME_LENGTH} characters."));
    }
    if !VALID_NAME.is_match(category) {
        return Some(invalid());
    }
    None
}

/// Why `content` is not a usable SKILL.md: it needs a closed YAML front matter that is a
/// mapping with `name` and `description` (at most 1024 characters), and a body after it.
pub fn front_matter(content: &str) -> Option<String> {
    if content.trim().is_empty() {
        return Some("Content cannot be empty.".into());
    }
    // A leading BOM (Windows editors) is tolerated before the fence.
    let content = content.trim_start_matches('\u{feff}');
    let Some(rest) = content.strip_prefix("---") else {
        return Some("SKILL.md must start with YAML frontmatter (---). See existing skills for format.".into());
    };
    let Some(fence) = CLOSING_FENCE.find(rest) else {
        return Some("SKILL.md frontmatter is not closed. Ensure you have a closing '---' line.".into());
    };
    let parsed: serde_yaml_ng::Value = match serde_yaml_ng::from_str(&rest[..fence.start()]) {
        Ok(value) => value,
        Err(e) => return Some(format!("YAML frontmatter parse error: {e}")),
    };
    let Some(map) = parsed.as_mapping() else {
        return Some("Frontmatter must be a YAML mapping (key: value pairs).".into());
    };
    if !map.contains_key("name") {
        return Some("Frontmatter must include 'name' field.".into());
    }
    let Some(description) = map.get("description") else {
        return Some("Frontmatter must include 'description' field.".into());
    };
    if scalar_text(description).chars().count() > MAX_DESCRIPTION_LENGTH {
        return Some(format!("Description exceeds {MAX_DESCRIPTION_LENGTH} characters."));
    }
    if rest[fence.end()..].trim().is_empty() {
        return Some("SKILL.md must have content after the frontmatter (instructions, procedures, etc.).".into());
    }
    None
}

/// The front matter's `description`, cut to 120 characters (the result's `_change` preview).
pub fn description_preview(content: &str) -> String {
    let content = content.trim_start_matches('\u{feff}');
    let parsed = content
        .strip_prefix("---")
        .and_then(|rest| CLOSING_FENCE.find(rest).map(|fence| &rest[..fence.start()]))
        .and_then(|yaml| serde_yaml_ng::from_str::<serde_yaml_ng::Value>(yaml).ok());
    parsed
        .as_ref()
        .and_then(|v| v.get("description"))
        .map(|d| scalar_text(d).chars().take(120).collect())
        .unwrap_or_default()
}

/// A YAML value as text (strings as themselves, the rest in YAML form).
fn scalar_text(value: &serde_yaml_ng::Value) -> String {
    match value {
        serde_yaml_ng::Value::String(s) => s.clone(),
        other => serde_yaml_ng::to_string(other)
            .unwrap_or_default()
            .trim_end()
            .to_string(),
    }
}

/// Why `content` is too large to write as `label`, if it is.
pub fn content_size(content: &str, label: &str) -> Option<String> {
    let chars = content.chars().count();
    (chars > MAX_SKILL_CONTENT_CHARS).then(|| {
        format!(
            "{label} content is {} characters (limit: {}). Consider splitting into a smaller SKILL.md with \
             supporting files in references/ or templates/.",
            thousands(chars as u64),
            thousands(MAX_SKILL_CONTENT_CHARS as u64)
        )
    })
}

/// Why `file_path` cannot name a supporting file, if it cannot: no `..`, and either SKILL.md
/// itself (`SKILL.md` or `<skill>/SKILL.md`) or a file under one of the support folders.
pub fn file_path(file_path: &str) -> Option<String> {
    if file_path.is_empty() {
        return Some("file_path is required.".into());
    }
    let path = Path::new(file_path);
    // Checked first, so the SKILL.md exception below is never reached by a climbing path.
    if path.components().any(|c| c == Component::ParentDir) {
        return Some("Path traversal ('..') is not allowed.".into());
    }
    let parts: Vec<Component> = path.components().filter(|c| *c != Component::CurDir).collect();
    if path.file_name().is_some_and(|n| n == "SKILL.md") && matches!(parts.len(), 1 | 2) && !path.is_absolute() {
        return None;
    }
    let first = parts.first().and_then(|c| match c {
        Component::Normal(n) => n.to_str(),
        _ => None,
    });
    let Some(first) = first.filter(|f| ALLOWED_SUBDIRS.contains(f)) else {
        return Some(format!(
            "File must be under one of: {}. Got: '{file_path}'",
            ALLOWED_SUBDIRS.join(", ")
        ));
    };
    if parts.len() < 2 {
        return Some(format!(
            "Provide a file path, not just a directory. Example: '{first}/myfile.md'"
        ));
    }
    None
}
