//! `skill_manage`: the agent creates, patches, rewrites and deletes its own skills under
//! `HERMES_HOME/skills/` (SKILL.md plus `references/`, `templates/`, `scripts/`, `assets/`),
//! with Hermes' schema, name rules, front-matter validation, size limits, optional skills-guard
//! scan and result texts (`tools/skill_manager_tool.py`). Split by job: `actions.rs` (dispatch,
//! create/edit/delete), `files.rs` (patch/write_file/remove_file), `validate.rs` (rules),
//! `paths.rs` (finding skills, keeping every path inside the tree), `guard/` (the threat scan).
//! The known secret values (and their encoded forms) are redacted from every text before it is
//! checked and written, with the session's `SecretSet`, as at every other sink.
//!
//! `skills_list`/`skill_view` read the disk on every call, so they see a change at once. The
//! skills index in a running session's system prompt is left as it is, as in Hermes (which only
//! drops its process-wide index cache): the prompt prefix stays stable for provider caching, and
//! the next session (or a rebuilt prompt) lists the change.

mod actions;
mod files;
mod guard;
mod paths;
mod schema;
mod settings;
#[cfg(all(test, unix))]
mod tests;
mod tree;
mod validate;

pub use settings::SkillsSettings;
use std::path::Path;
use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::{Value, json};

pub use actions::Request;
pub use paths::SkillsRoot;
use schema::{description, parameters};
pub use tree::{Outcome, Skills};

use crate::runtime::describe::{self, Presentation, ToolEffect, ToolKind};
use crate::runtime::file_io::GuardEnv;
use crate::runtime::{Tool, ToolContext, ToolDisplay, ToolOutput};
use crate::safety::secrets::SecretSet;

/// The `skill_manage` tool.
#[derive(Debug, Clone)]
pub struct SkillManageTool {
    /// `HERMES_HOME` as Hermes shows it in the description (`~/…` under the home directory).
    shown_home: String,
    /// `skills.*`: whether what the agent writes gets the threat scan.
    settings: SkillsSettings,
}

impl SkillManageTool {
    /// The tool for the `HERMES_HOME` the guards were built for.
    pub fn new(guard: &GuardEnv, settings: SkillsSettings) -> SkillManageTool {
        let shown_home = match guard.hermes_home.strip_prefix(&guard.home) {
            Ok(rel) => format!("~/{}", rel.display()),
            Err(_) => guard.hermes_home.display().to_string(),
        };
        SkillManageTool { shown_home, settings }
    }
}

/// One call's arguments, read leniently (a wrong type counts as absent).
pub fn request(args: &Value) -> Request {
    let text = |key: &str| args.get(key).and_then(Value::as_str).map(str::to_string);
    Request {
        action: text("action").unwrap_or_default(),
        name: text("name").unwrap_or_default(),
        content: text("content"),
        category: text("category"),
        file_path: text("file_path"),
        file_content: text("file_content"),
        old_string: text("old_string"),
        new_string: text("new_string"),
        replace_all: crate::runtime::args::boolean(args, "replace_all", false),
        absorbed_into: text("absorbed_into"),
    }
}

/// Runs one call against `hermes_home` (blocking: call it on the blocking pool), with `secrets`
/// redacted from what it writes.
pub fn manage(hermes_home: &Path, guard: bool, secrets: Arc<SecretSet>, req: Request) -> Outcome {
    Skills {
        root: SkillsRoot::new(hermes_home),
        guard,
        secrets,
    }
    .run(req)
}

impl Tool for SkillManageTool {
    fn name(&self) -> &'static str {
        "skill_manage"
    }

    fn description(&self) -> String {
        description(&self.shown_home)
    }

    fn parameters(&self) -> Value {
        parameters()
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(async move {
            let Some(home) = ctx.services.hermes_home.clone() else {
                return ToolOutput::json_error(json!({
                    "success": false,
                    "error": "Skills are not available: HERMES_HOME is not configured for this session.",
                }));
            };
            let guard = self.settings.guard_agent_created;
            let req = request(&args);
            let secrets = ctx.services.secrets.clone();
            let outcome = match tokio::task::spawn_blocking(move || manage(&home, guard, secrets, req)).await {
                Ok(outcome) => outcome,
                Err(e) => Outcome::fail(format!("skill_manage failed: {e}")),
            };
            if outcome.success() {
                ToolOutput::json(outcome.result).with_display(ToolDisplay::Changes(outcome.changes))
            } else {
                ToolOutput::json_error(outcome.result)
            }
        })
    }

    /// Every action changes the agent's persistent skills (read-only mode refuses them all).
    fn effect(&self, _args: &Value) -> ToolEffect {
        ToolEffect::WritesSkills
    }

    fn present(&self, args: &Value, _cwd: &Path) -> Presentation {
        let action = describe::arg(args, "action").unwrap_or("manage");
        let name = describe::arg(args, "name").unwrap_or("?");
        let file_path = describe::arg(args, "file_path");
        let mut target = match file_path {
            Some(f) => format!("{name}/{f}"),
            None => name.to_string(),
        };
        if target.chars().count() > 64 {
            target = format!("{}...", target.chars().take(61).collect::<String>());
        }
        let start_text = match action {
            "delete" | "remove_file" => Some(format!(
                "Removing {} from skill '{name}'",
                file_path.unwrap_or("SKILL.md")
            )),
            "create" | "edit" | "patch" | "write_file" => None,
            other => Some(format!(
                "Running skill_manage action '{other}' on skill '{name}' ({})",
                file_path.unwrap_or("SKILL.md")
            )),
        };
        Presentation {
            kind: ToolKind::Edit,
            title: match action {
                "create" => format!("Create skill {target}"),
                "edit" => format!("Edit skill {target}"),
                "patch" => format!("Patch skill {target}"),
                "delete" => format!("Delete skill {target}"),
                "write_file" => format!("Write {target}"),
                "remove_file" => format!("Remove {target}"),
                other => format!("Skill action {other} on {target}"),
            },
            locations: Vec::new(),
            start_text,
        }
    }

    /// Hermes' completion summary: status, action, skill, file, result, path.
    fn summarise(&self, args: &Value, result: &Value) -> String {
        let action = describe::arg(args, "action").unwrap_or("manage");
        let name = describe::arg(args, "name").unwrap_or("skill");
        let file = describe::arg(args, "file_path").unwrap_or("SKILL.md");
        let status = if result.get("success") == Some(&Value::Bool(false)) {
            "✗ Skill update failed"
        } else {
            "✅ Skill updated"
        };
        let mut lines = vec![
            format!("**{status}**"),
            String::new(),
            format!("- **Action:** `{action}`"),
        ];
        lines.push(format!("- **Skill:** `{name}`"));
        if action != "delete" {
            lines.push(format!("- **File:** `{file}`"));
        }
        let message = ["message", "error"]
            .iter()
            .find_map(|k| result.get(*k).and_then(Value::as_str))
            .map(str::trim)
            .unwrap_or("");
        if !message.is_empty() {
            lines.push(format!("- **Result:** {message}"));
        }
        if let Some(path) = result
            .get("path")
            .and_then(Value::as_str)
            .filter(|p| !p.trim().is_empty())
        {
            lines.push(format!("- **Path:** `{}`", path.trim()));
        }
        lines.join("\n")
    }

    fn brief(&self, args: &Value) -> Option<String> {
        let action = describe::arg(args, "action")?;
        let name = describe::arg(args, "name")?;
        Some(format!("skill_manage {action} {name}"))
    }
}
