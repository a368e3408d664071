//! The six `skill_manage` actions over one skills tree, each returning Hermes' result object
//! (what the model sees) plus the file changes the editor shows as diffs. Blocking: callers run
//! this on the blocking pool. Order of checks, messages and result keys follow Hermes'
//! `tools/skill_manager_tool.py`; supporting-file actions live in `files.rs`.

use std::path::{Path, PathBuf};

use serde_json::json;

use super::files;
use super::paths;
use super::tree::{Outcome, Skills, restore};
use super::{guard, validate};
use crate::runtime::file_io::{atomic_write, read_disk};

/// The arguments of one call (absent strings are `None`; Hermes treats `""` as absent for
/// `content`, `old_string` and `file_path`).
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub action: String,
    pub name: String,
    pub content: Option<String>,
    pub category: Option<String>,
    pub file_path: Option<String>,
    pub file_content: Option<String>,
    pub old_string: Option<String>,
    pub new_string: Option<String>,
    pub replace_all: bool,
    pub absorbed_into: Option<String>,
}

impl Skills {
    /// Runs one call: the required-argument checks, then the action. The texts it will write
    /// are redacted first, so the checks, the diff and the file all see what is stored.
    pub fn run(&self, mut req: Request) -> Outcome {
        for text in [&mut req.content, &mut req.file_content, &mut req.new_string]
            .into_iter()
            .flatten()
        {
            *text = self.redact(text);
        }
        let present = |v: &Option<String>| v.as_deref().filter(|s| !s.is_empty()).map(str::to_string);
        let name = req.name.as_str();
        match req.action.as_str() {
            "create" => match present(&req.content) {
                None => Outcome::fail(
                    "content is required for 'create'. Provide the full SKILL.md text (frontmatter + body).",
                ),
                Some(content) => self.create(name, &content, req.category.as_deref()),
            },
            "edit" => match present(&req.content) {
                None => Outcome::fail("content is required for 'edit'. Provide the full updated SKILL.md text."),
                Some(content) => self.edit(name, &content),
            },
            "patch" => match (present(&req.old_string), req.new_string) {
                (None, _) => Outcome::fail("old_string is required for 'patch'. Provide the text to find."),
                (_, None) => {
                    Outcome::fail("new_string is required for 'patch'. Use empty string to delete matched text.")
                }
                (Some(old), Some(new)) => files::patch(
                    self,
                    name,
                    &old,
                    &new,
                    present(&req.file_path).as_deref(),
                    req.replace_all,
                ),
            },
            "delete" => self.delete(name, req.absorbed_into.as_deref()),
            "write_file" => match (present(&req.file_path), req.file_content) {
                (None, _) => {
                    Outcome::fail("file_path is required for 'write_file'. Example: 'references/api-guide.md'")
                }
                (_, None) => Outcome::fail("file_content is required for 'write_file'."),
                (Some(path), Some(content)) => files::write_file(self, name, &path, &content),
            },
            "remove_file" => match present(&req.file_path) {
                None => Outcome::fail("file_path is required for 'remove_file'."),
                Some(path) => files::remove_file(self, name, &path),
            },
            other => Outcome::fail(format!(
                "Unknown action '{other}'. Use: create, edit, patch, delete, write_file, remove_file"
            )),
        }
    }

    /// The installed skill `name`, checked to live inside the skills tree.
    pub fn existing(&self, name: &str, not_found_suffix: &str) -> Result<PathBuf, Outcome> {
        let dir = self
            .root
            .find(name)
            .ok_or_else(|| Outcome::fail(self.root.not_found(name, not_found_suffix)))?;
        self.root.check_inside(&dir).map_err(Outcome::fail)?;
        Ok(dir)
    }

    /// The guard's refusal for the skill in `dir`, when the guard is on and refuses.
    pub fn scan(&self, dir: &Path) -> Option<String> {
        self.guard.then(|| guard::blocked(dir)).flatten()
    }

    fn create(&self, name: &str, content: &str, category: Option<&str>) -> Outcome {
        let checks = [
            validate::name(name),
            validate::category(category),
            validate::front_matter(content),
            validate::content_size(content, "SKILL.md"),
        ];
        if let Some(error) = checks.into_iter().flatten().next() {
            return Outcome::fail(error);
        }
        if let Some(existing) = self.root.find(name) {
            return Outcome::fail(format!(
                "A skill named '{name}' already exists at {}.",
                existing.display()
            ));
        }
        let category = category.map(str::trim).filter(|c| !c.is_empty());
        let rel = match category {
            Some(category) => format!("{category}/{name}"),
            None => name.to_string(),
        };
        if let Err(e) = std::fs::create_dir_all(&self.root.dir) {
            return Outcome::fail(format!("Cannot create the skills directory: {e}"));
        }
        // The category folder may already exist as a symlink: the new folder must still land
        // inside the tree.
        let skill_dir = match paths::resolve_target(&self.root.dir, &rel) {
            Ok(dir) => dir,
            Err(e) => return Outcome::fail(e),
        };
        let created_category = category.is_some_and(|c| !self.root.dir.join(c).exists());
        let skill_md = skill_dir.join("SKILL.md");
        if let Err(e) = std::fs::create_dir_all(&skill_dir).and_then(|()| atomic_write(&skill_md, content.as_bytes())) {
            return Outcome::fail(format!("Failed to write {}: {e}", skill_md.display()));
        }
        if let Some(error) = self.scan(&skill_dir) {
            let _ = std::fs::remove_dir_all(&skill_dir);
            if created_category && let Some(parent) = skill_dir.parent() {
                let _ = std::fs::remove_dir(parent);
            }
            return Outcome::fail(error);
        }
        let mut result = json!({
            "success": true,
            "message": format!("Skill '{name}' created."),
            "path": rel,
            "skill_md": skill_md.display().to_string(),
            "_change": {"description": validate::description_preview(content)},
            "hint": format!(
                "To add reference files, templates, or scripts, use skill_manage(action='write_file', \
                 name='{name}', file_path='references/example.md', file_content='...')"
            ),
        });
        if let Some(category) = category {
            result["category"] = json!(category);
        }
        Outcome::from(result).with_change(&skill_md, None, Some(content.to_string()))
    }

    fn edit(&self, name: &str, content: &str) -> Outcome {
        let checks = [
            validate::front_matter(content),
            validate::content_size(content, "SKILL.md"),
        ];
        if let Some(error) = checks.into_iter().flatten().next() {
            return Outcome::fail(error);
        }
        let dir = match self.existing(name, "") {
            Ok(dir) => dir,
            Err(outcome) => return outcome,
        };
        let skill_md = dir.join("SKILL.md");
        let original = read_disk(&skill_md).ok().flatten();
        if let Err(e) = atomic_write(&skill_md, content.as_bytes()) {
            return Outcome::fail(format!("Failed to write {}: {e}", skill_md.display()));
        }
        if let Some(error) = self.scan(&dir) {
            restore(&skill_md, original.as_deref());
            return Outcome::fail(error);
        }
        Outcome::from(json!({
            "success": true,
            "message": format!("Skill '{name}' updated (full rewrite)."),
            "path": dir.display().to_string(),
            "_change": {"description": validate::description_preview(content)},
        }))
        .with_change(&skill_md, original, Some(content.to_string()))
    }

    fn delete(&self, name: &str, absorbed_into: Option<&str>) -> Outcome {
        let Some(dir) = self.root.find(name) else {
            return Outcome::fail(self.root.not_found(name, ""));
        };
        if self.root.is_pinned(name) {
            return Outcome::fail(format!(
                "Skill '{name}' is pinned and cannot be deleted by skill_manage. Ask the user to run `hermes \
                 curator unpin {name}` if they want to delete it. Patches and edits are allowed on pinned skills; \
                 only deletion is blocked."
            ));
        }
        let absorbed = absorbed_into.map(str::trim).unwrap_or("");
        if !absorbed.is_empty() {
            if absorbed == name {
                return Outcome::fail(format!(
                    "absorbed_into='{absorbed}' cannot equal the skill being deleted."
                ));
            }
            if self.root.find(absorbed).is_none() {
                return Outcome::fail(format!(
                    "absorbed_into='{absorbed}' does not exist. Create or patch the umbrella skill first, then \
                     retry the delete."
                ));
            }
        }
        if let Err(error) = self.root.check_delete(&dir) {
            return Outcome::fail(error);
        }
        let skill_md = dir.join("SKILL.md");
        let old = read_disk(&skill_md).ok().flatten();
        if let Err(e) = std::fs::remove_dir_all(&dir) {
            return Outcome::fail(format!("Failed to delete {}: {e}", dir.display()));
        }
        // An emptied category folder goes too (never the skills root itself).
        if let Some(parent) = dir.parent()
            && parent != self.root.dir
            && std::fs::read_dir(parent).is_ok_and(|mut entries| entries.next().is_none())
        {
            let _ = std::fs::remove_dir(parent);
        }
        let mut message = format!("Skill '{name}' deleted.");
        if !absorbed.is_empty() {
            message.push_str(&format!(" Content absorbed into '{absorbed}'."));
        }
        Outcome::from(json!({"success": true, "message": message})).with_change(&skill_md, old, None)
    }
}
