//! A call's card as its tool describes it, computed where the registry is at hand (the agent
//! for live calls, the session for stored ones): the `Presentation` a card starts with and the
//! `Outcome` it ends with. The protocol layer renders these as they come and never holds a
//! tool. A call whose tool this registry lacks is described by the built-in tool of that name
//! (a stored call replayed after its tool left), else generically (an MCP server gone).

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

use crate::runtime::describe::{generic_presentation, generic_summary};
use crate::runtime::{PlanItem, Presentation, Tool, ToolDisplay, ToolOutput, ToolRegistry};

/// What a finished call's card shows besides the output itself.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Outcome {
    /// The card's title again: some editors take a permission question's title as the card's.
    pub title: String,
    /// The tool's reading of a successful JSON result; `None` when the output is not JSON,
    /// the call failed (the card then shows the output or the failure itself) or the output
    /// shows itself (a diff, a command's output).
    pub summary: Option<String>,
    /// The plan a successful result carries (the todo list), for the editor's plan view.
    pub plan: Option<Vec<PlanItem>>,
}

impl ToolRegistry {
    /// The card a call to `name` starts with (paths resolve against `cwd`).
    pub fn present(&self, name: &str, args: &Value, cwd: &Path) -> Presentation {
        match self.describer(name) {
            Some(tool) => tool.present(args, cwd),
            None => generic_presentation(name, args, cwd),
        }
    }

    /// How a finished call to `name` reads on its card.
    pub fn outcome(&self, name: &str, args: &Value, output: &ToolOutput, cwd: &Path) -> Outcome {
        let tool = self.describer(name);
        let title = match &tool {
            Some(tool) => tool.present(args, cwd).title,
            None => generic_presentation(name, args, cwd).title,
        };
        let Ok(result) = serde_json::from_str::<Value>(&output.content) else {
            return Outcome {
                title,
                ..Outcome::default()
            };
        };
        let wanted = output.failure_message().is_none() && !shows_itself(&output.display);
        let summary = wanted.then(|| match &tool {
            Some(tool) => tool.summarise(args, &result),
            None => generic_summary(name, &result),
        });
        let plan = match &tool {
            Some(tool) if !output.is_error => tool.plan(&result),
            _ => None,
        };
        Outcome { title, summary, plan }
    }

    /// The tool that describes calls to `name`: this registry's, else the built-in one (a
    /// stored call replayed after its tool left); `None` for a tool nobody knows any more (an
    /// MCP server gone), which is described generically.
    pub fn describer(&self, name: &str) -> Option<Arc<dyn Tool>> {
        self.get(name).or_else(|| builtin_catalog().get(name)).cloned()
    }
}

/// Whether a result carries its own display, which the card shows instead of a summary.
fn shows_itself(display: &ToolDisplay) -> bool {
    match display {
        ToolDisplay::Changes(changes) => !changes.is_empty(),
        ToolDisplay::Terminal { .. } => true,
        ToolDisplay::None => false,
    }
}

/// The built-in tools, built once, for describing calls where no session registry is at hand
/// (pruned history notes) or the session's no longer has the tool. They only describe, never
/// run, so their edit guards get the default home rather than the configured one.
pub fn builtin_catalog() -> &'static ToolRegistry {
    static CATALOG: std::sync::LazyLock<ToolRegistry> = std::sync::LazyLock::new(|| {
        let default_home = crate::runtime::workspace::home_dir().join(".hermes");
        super::builtin(
            crate::runtime::file_io::GuardEnv::new(&default_home, None),
            super::BuiltinSettings::default(),
        )
    });
    &CATALOG
}

/// What a call of `name` did in a few words, asked of the built-in tool (any other tool gets the
/// generic note: its first string argument).
pub fn brief(name: &str, args: &Value) -> Option<String> {
    match builtin_catalog().get(name) {
        Some(tool) => tool.brief(args),
        None => crate::runtime::describe::generic_brief(args),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn card(name: &str, args: Value) -> Presentation {
        builtin_catalog().present(name, &args, Path::new("/w"))
    }

    #[test]
    fn titles_and_kinds_follow_the_reference() {
        assert_eq!(card("terminal", json!({"command": "ls"})).title, "`ls`");
        assert_eq!(card("read_file", json!({})).title, "Read a file");
        assert_eq!(card("read_file", json!({"path": "/w/src/a.rs"})).title, "Read src/a.rs");
        assert_eq!(card("patch", json!({"path": "a.rs"})).title, "Edit a.rs");
        assert_eq!(
            card("todo", json!({"todos": [{}]})).title,
            "Update the todo list (1 item)"
        );
        assert_eq!(card("write_file", json!({})).kind, crate::runtime::ToolKind::Edit);
        assert_eq!(card("mcp_x_y", json!({})).kind, crate::runtime::ToolKind::Other);
        assert_eq!(card("mcp_x_y", json!({})).title, "mcp_x_y");
        let long = "x".repeat(100);
        assert_eq!(card("terminal", json!({"command": long})).title.chars().count(), 80 + 2);
    }

    /// Every built-in tool's title reads as a phrase: no `name:` prefix, which CodeCompanion
    /// cuts a title at (it keeps what stands before the first colon).
    #[test]
    fn no_title_opens_with_a_name_and_a_colon() {
        let tools = builtin_catalog();
        let args = json!({
            "command": "make build", "path": "src/lib.rs", "pattern": "fn main", "query": "parser",
            "action": "add", "target": "memory", "name": "deploy", "goal": "fix the tests",
            "question": "which one", "urls": ["https://example.com"], "code": "print(1)",
            "session_id": "proc_1", "image_url": "shot.png", "todos": [], "mode": "replace"
        });
        for tool in tools.tools() {
            let title = tool.present(&args, Path::new("/w")).title;
            let before_colon = title.split(':').next().unwrap_or_default();
            assert!(
                !title.contains(':') || before_colon.contains(' ') && !before_colon.contains(tool.name()),
                "{}: {title}",
                tool.name()
            );
            assert!(!title.starts_with(tool.name()), "{}: {title}", tool.name());
        }
    }

    #[test]
    fn a_summary_only_for_a_successful_json_result_and_a_plan_only_without_error() {
        let none = ToolRegistry::default();
        let args = json!({});
        let ok = none.outcome("mcp_x_y", &args, &ToolOutput::json(json!({"n": 1})), Path::new("/w"));
        assert_eq!(ok.title, "mcp_x_y");
        assert!(ok.summary.is_some());
        let failed = ToolOutput::json_error(json!({"error": "boom"}));
        assert_eq!(none.outcome("mcp_x_y", &args, &failed, Path::new("/w")).summary, None);
        let text = ToolOutput {
            content: "plain words".into(),
            ..ToolOutput::json(json!({}))
        };
        assert_eq!(none.outcome("mcp_x_y", &args, &text, Path::new("/w")).summary, None);
        let diffed = ToolOutput::json(json!({"success": true})).with_display(ToolDisplay::Changes(vec![
            crate::runtime::FileChange {
                path: "/w/a".into(),
                old_text: None,
                new_text: Some("x".into()),
            },
        ]));
        assert_eq!(none.outcome("patch", &args, &diffed, Path::new("/w")).summary, None);
        let todos = json!({"todos": [{"id": "1", "content": "a", "status": "pending"}]});
        let planned = none.outcome("todo", &json!({}), &ToolOutput::json(todos.clone()), Path::new("/w"));
        assert_eq!(planned.plan.map(|p| p.len()), Some(1));
        let refused = none.outcome("todo", &json!({}), &ToolOutput::json_error(todos), Path::new("/w"));
        assert_eq!(refused.plan, None);
    }
}
