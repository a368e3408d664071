//! Hermes skills, one family of tools over `HERMES_HOME/skills/` (laid out as `scan` reads it):
//! `skills_list` (names, descriptions, categories) and `skill_view` (a skill's SKILL.md with
//! metadata and linked files, or one file of its directory), with Hermes' schemas and result
//! shapes (`tools/skills_tool.py`); `manage/` is `skill_manage`, the write side. [`prompt_index`] renders the skills index Hermes puts in the
//! system prompt. Filesystem walks run on the blocking pool.

pub mod manage;
pub mod scan;
#[cfg(test)]
mod tests;
mod view;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use futures::future::BoxFuture;
use serde_json::{Value, json};

pub use manage::SkillsSettings;
pub use scan::{SkillEntry, skills_dir};
pub use view::view as view_skill;

use crate::runtime::describe::{self, Presentation, PromptSection, ToolEffect, ToolKind};
use crate::runtime::{Tool, ToolContext, ToolOutput};

/// Descriptions in the system-prompt index are cut to this many characters.
const PROMPT_DESCRIPTION_CHARS: usize = 60;

fn output(value: Value) -> ToolOutput {
    if value.get("success").and_then(Value::as_bool) == Some(false) {
        ToolOutput::json_error(value)
    } else {
        ToolOutput::json(value)
    }
}

/// Runs `f` on the skills directory off the async path, or explains why it cannot.
async fn with_skills_dir(ctx: &ToolContext, f: impl FnOnce(PathBuf) -> Value + Send + 'static) -> ToolOutput {
    let Some(home) = ctx.services.hermes_home.clone() else {
        return output(view::fail(
            "Skills are not available: HERMES_HOME is not configured for this session.",
        ));
    };
    match tokio::task::spawn_blocking(move || f(skills_dir(&home))).await {
        Ok(value) => output(value),
        Err(e) => output(view::fail(format!("Skill lookup failed: {e}"))),
    }
}

/// `skills_list` over a skills directory.
pub fn list_skills(skills_dir: &Path, category: Option<&str>) -> Value {
    let mut skills = scan::list(skills_dir);
    if skills.is_empty() {
        return json!({"success": true, "skills": [], "categories": [], "message": "No skills found in skills/ directory."});
    }
    if let Some(category) = category {
        skills.retain(|s| s.category.as_deref() == Some(category));
    }
    let mut categories: Vec<&str> = skills.iter().filter_map(|s| s.category.as_deref()).collect();
    categories.dedup();
    let rows: Vec<Value> = skills
        .iter()
        .map(|s| json!({"name": s.name, "description": s.description, "category": s.category}))
        .collect();
    json!({
        "success": true,
        "skills": rows,
        "categories": categories,
        "count": rows.len(),
        "hint": "Use skill_view(name) to see full content, tags, and linked files",
    })
}

/// The skills index for the system prompt (`## Skills (mandatory)` … `<available_skills>`),
/// skills grouped by category (`general` for top-level ones) with short descriptions; `None`
/// when no skill is installed. Blocking: walks the skills tree.
pub fn prompt_index(hermes_home: &Path) -> Option<String> {
    let dir = skills_dir(hermes_home);
    let skills = scan::list(&dir);
    if skills.is_empty() {
        return None;
    }
    let mut by_category: BTreeMap<String, Vec<&SkillEntry>> = BTreeMap::new();
    for skill in &skills {
        let category = skill.category.clone().unwrap_or_else(|| "general".to_string());
        by_category.entry(category).or_default().push(skill);
    }
    let mut lines = Vec::new();
    for (category, mut entries) in by_category {
        let description = scan::read_text(&dir.join(&category).join("DESCRIPTION.md"))
            .ok()
            .and_then(|text| scan::fm_str(&scan::parse_front_matter(&text).0, "description").map(str::to_string));
        lines.push(match description {
            Some(d) => format!("  {category}: {}", d.trim()),
            None => format!("  {category}:"),
        });
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        for skill in entries {
            let desc = skill.description.trim().trim_matches(['"', '\'']);
            let desc = if desc.chars().count() > PROMPT_DESCRIPTION_CHARS {
                format!(
                    "{}...",
                    desc.chars().take(PROMPT_DESCRIPTION_CHARS - 3).collect::<String>()
                )
            } else {
                desc.to_string()
            };
            lines.push(if desc.is_empty() {
                format!("    - {}", skill.name)
            } else {
                format!("    - {}: {desc}", skill.name)
            });
        }
    }
    Some(format!(
        "## Skills (mandatory)\nBefore replying, scan the skills below. If a skill matches or is even partially \
         relevant to your task, you MUST load it with skill_view(name) and follow its instructions. Skills encode \
         proven workflows and the user's conventions for tasks like code review, planning and testing.\n\n\
         <available_skills>\n{}\n</available_skills>\n\nIf none match, proceed normally without loading a skill.",
        lines.join("\n")
    ))
}

/// The `skills_list` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct SkillsListTool;

impl Tool for SkillsListTool {
    fn name(&self) -> &'static str {
        "skills_list"
    }

    fn description(&self) -> String {
        "List available skills (name + description). Use skill_view(name) to load full content.".to_string()
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "category": {"type": "string", "description": "Optional category filter to narrow results"}
            },
            "required": []
        })
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        let category = args
            .get("category")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_string);
        Box::pin(with_skills_dir(ctx, move |dir| list_skills(&dir, category.as_deref())))
    }

    fn effect(&self, _args: &Value) -> ToolEffect {
        ToolEffect::ReadOnly
    }

    fn present(&self, args: &Value, cwd: &Path) -> Presentation {
        Presentation {
            kind: ToolKind::Read,
            title: match describe::arg(args, "category") {
                Some(c) => format!("List skills in {c}"),
                None => "List skills".into(),
            },
            ..describe::generic_presentation(self.name(), args, cwd)
        }
    }
}

/// The `skill_view` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct SkillViewTool;

impl Tool for SkillViewTool {
    fn name(&self) -> &'static str {
        "skill_view"
    }

    fn description(&self) -> String {
        "Skills allow for loading information about specific tasks and workflows, as well as scripts and templates. \
         Load a skill's full content or access its linked files (references, templates, scripts). First call returns \
         SKILL.md content plus a 'linked_files' dict showing available references/templates/scripts. To access \
         those, call again with file_path parameter."
            .to_string()
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "name": {
                    "type": "string",
                    "description": "The skill name (use skills_list to see available skills). For plugin-provided skills, use the qualified form 'plugin:skill' (e.g. 'superpowers:writing-plans')."
                },
                "file_path": {
                    "type": "string",
                    "description": "OPTIONAL: Path to a linked file within the skill (e.g., 'references/api.md', 'templates/config.yaml', 'scripts/validate.py'). Omit to get the main SKILL.md content."
                }
            },
            "required": ["name"]
        })
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        let name = args.get("name").and_then(Value::as_str).unwrap_or("").to_string();
        let file_path = args.get("file_path").and_then(Value::as_str).map(str::to_string);
        Box::pin(with_skills_dir(ctx, move |dir| {
            view::view(&dir, &name, file_path.as_deref())
        }))
    }

    fn effect(&self, _args: &Value) -> ToolEffect {
        ToolEffect::ReadOnly
    }

    fn present(&self, args: &Value, cwd: &Path) -> Presentation {
        let name = describe::arg(args, "name").unwrap_or("?");
        Presentation {
            kind: ToolKind::Read,
            title: match describe::arg(args, "file_path") {
                Some(f) => format!("View {f} of skill {name}"),
                None => format!("View skill {name}"),
            },
            ..describe::generic_presentation(self.name(), args, cwd)
        }
    }

    /// Opening a skill needs the index of skills in the prompt.
    fn prompt_section(&self) -> Option<PromptSection> {
        Some(PromptSection::SkillsIndex)
    }
}
