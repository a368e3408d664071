//! The tool registry: holds the session's tools sorted by name (as Hermes sends them), yields the
//! schemas for the model, and dispatches one call. Dispatch turns every failure mode — malformed
//! JSON arguments, an unknown tool, a panicking tool — into an error result for the model, then
//! caps and redacts the output before anyone sees it.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures::FutureExt;
use serde_json::{Value, json};

use super::{Tool, ToolContext, ToolOutput, output, redact};

/// The tools available to one session.
#[derive(Clone, Default)]
pub struct ToolRegistry {
    tools: Vec<Arc<dyn Tool>>,
}

impl ToolRegistry {
    pub fn new(mut tools: Vec<Arc<dyn Tool>>) -> ToolRegistry {
        tools.sort_by(|a, b| a.name().cmp(b.name()));
        tools.dedup_by(|a, b| a.name() == b.name());
        ToolRegistry { tools }
    }

    /// The built-in coding toolset; `guard` says where the edit tools refuse to write.
    pub fn builtin(guard: super::file_io::GuardEnv) -> ToolRegistry {
        ToolRegistry::new(vec![
            Arc::new(super::skill_manage::SkillManageTool::new(&guard)),
            Arc::new(super::write_file::WriteFileTool::with_guard(guard.clone())),
            Arc::new(super::patch::PatchTool::with_guard(guard)),
            Arc::new(super::read_file::ReadFileTool),
            Arc::new(super::search_files::SearchFilesTool),
            Arc::new(super::terminal::TerminalTool),
            Arc::new(super::process::ProcessTool),
            Arc::new(super::todo::TodoTool),
            Arc::new(super::memory::MemoryTool::default()),
            Arc::new(super::session_search::SessionSearchTool),
            Arc::new(super::skills::SkillsListTool),
            Arc::new(super::skills::SkillViewTool),
            Arc::new(super::clarify::ClarifyTool),
            Arc::new(super::vision::VisionAnalyzeTool),
            Arc::new(super::web::WebSearchTool),
            Arc::new(super::web::WebExtractTool),
            Arc::new(super::delegate::DelegateTool::default()),
            Arc::new(super::execute_code::ExecuteCodeTool),
            Arc::new(super::plan::ExitPlanModeTool),
        ])
    }

    /// The same tools with `tool` in place of the one of its name (a tool built from config).
    pub fn replace(&mut self, tool: Arc<dyn Tool>) {
        self.tools.retain(|t| t.name() != tool.name());
        self.extend(vec![tool]);
    }

    /// Adds tools (MCP, memory…) keeping the name order.
    pub fn extend(&mut self, more: Vec<Arc<dyn Tool>>) {
        let mut all = std::mem::take(&mut self.tools);
        all.extend(more);
        *self = ToolRegistry::new(all);
    }

    /// The tools `offer` allows (see `Tool::offered`).
    pub fn offered(&self, offer: &super::Offer) -> ToolRegistry {
        ToolRegistry {
            tools: self.tools.iter().filter(|t| t.offered(offer)).cloned().collect(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    pub fn len(&self) -> usize {
        self.tools.len()
    }

    pub fn get(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.tools.iter().find(|t| t.name() == name)
    }

    pub fn tools(&self) -> impl Iterator<Item = &Arc<dyn Tool>> {
        self.tools.iter()
    }

    /// OpenAI-style function schemas, sorted by name: every tool's.
    pub fn schemas(&self) -> Vec<Value> {
        self.schemas_where(|_| true)
    }

    /// The schemas of the tools available in `mode` (what a model call in that mode gets).
    pub fn schemas_for(&self, mode: crate::safety::policy::Mode) -> Vec<Value> {
        self.schemas_where(|tool| tool.available_in(mode))
    }

    /// The names of the tools available whatever the mode (what the system prompt lists).
    pub fn names_in_every_mode(&self) -> Vec<&'static str> {
        let everywhere = |tool: &&Arc<dyn Tool>| crate::safety::policy::Mode::ALL.iter().all(|m| tool.available_in(*m));
        self.tools.iter().filter(everywhere).map(|t| t.name()).collect()
    }

    fn schemas_where(&self, keep: impl Fn(&dyn Tool) -> bool) -> Vec<Value> {
        self.tools
            .iter()
            .filter(|tool| keep(tool.as_ref()))
            .map(|tool| {
                json!({
                    "type": "function",
                    "function": {
                        "name": tool.name(),
                        "description": tool.description(),
                        "parameters": tool.parameters(),
                    }
                })
            })
            .collect()
    }

    /// The system-prompt sections the tools need.
    pub fn prompt_sections(&self) -> Vec<super::PromptSection> {
        self.tools.iter().filter_map(|t| t.prompt_section()).collect()
    }

    /// Whether a call to `name` must run alone.
    pub fn is_interactive(&self, name: &str) -> bool {
        self.get(name).is_some_and(|t| t.interactive())
    }

    /// Runs one call. Never panics and never fails: errors become error results.
    pub async fn dispatch(&self, ctx: &ToolContext, name: &str, raw_arguments: &str) -> ToolOutput {
        let Some(tool) = self.get(name) else {
            return ToolOutput::error(format!("Unknown tool: {name}"));
        };
        let args = match parse_arguments(raw_arguments) {
            Ok(args) => args,
            Err(message) => return ToolOutput::error(message),
        };
        let mode = ctx.session.state.mode();
        if !tool.available_in(mode) {
            return ToolOutput::error(format!("{name} is not available in {} mode.", mode.id()));
        }
        if let Some(reason) = tool.effect(&args).refusal(mode) {
            return ToolOutput::error(super::plan::with_hint(mode, reason));
        }
        let run = AssertUnwindSafe(tool.run(ctx, args)).catch_unwind();
        let mut out = match run.await {
            Ok(out) => out,
            Err(panic) => {
                let reason = panic_message(&panic);
                tracing::error!(tool = name, %reason, "tool panicked");
                ToolOutput::error(format!("Tool execution failed: {name} panicked: {reason}"))
            }
        };
        // Redacted once here, on the decoded text, so the model, the editor, the database and
        // the logs all get the same masked result.
        redact::redact_output(&ctx.services.secrets, &mut out);
        out.content = output::cap(&out.content, output::MAX_RESULT_CHARS);
        out
    }
}

/// The built-in tools, built once, for describing calls where no session registry is at hand
/// (pruned history notes) or the session's no longer has the tool. They only describe, never
/// run, so their edit guards get the default home rather than the configured one.
pub fn builtin_catalog() -> &'static ToolRegistry {
    static CATALOG: std::sync::LazyLock<ToolRegistry> = std::sync::LazyLock::new(|| {
        let default_home = super::workspace::home_dir().join(".hermes");
        ToolRegistry::builtin(super::file_io::GuardEnv::new(&default_home, None))
    });
    &CATALOG
}

/// What a call of `name` did in a few words, asked of the built-in tool (any other tool gets the
/// generic note: its first string argument).
pub fn brief(name: &str, args: &Value) -> Option<String> {
    match builtin_catalog().get(name) {
        Some(tool) => tool.brief(args),
        None => super::describe::generic_brief(args),
    }
}

/// Parses the model's argument text. Empty text means no arguments.
pub fn parse_arguments(raw: &str) -> Result<Value, String> {
    if raw.trim().is_empty() {
        return Ok(json!({}));
    }
    match serde_json::from_str::<Value>(raw) {
        Ok(value @ Value::Object(_)) => Ok(value),
        Ok(other) => Err(format!("Invalid tool arguments: expected a JSON object, got {other}")),
        Err(e) => Err(format!("Invalid JSON in tool arguments: {e}")),
    }
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::safety::policy::Mode;

    fn refused(name: &str, args: Value) -> bool {
        builtin_catalog()
            .get(name)
            .unwrap()
            .effect(&args)
            .refusal(Mode::ReadOnly)
            .is_some()
    }

    #[test]
    fn read_only_mode_refuses_what_the_tools_say_changes_things() {
        assert!(refused("write_file", json!({"path": "a"})));
        assert!(refused("patch", json!({"mode": "patch"})));
        assert!(refused("process", json!({"action": "kill", "session_id": "p1"})));
        assert!(!refused("process", json!({"action": "poll", "session_id": "p1"})));
        assert!(refused("memory", json!({"action": "add", "target": "memory"})));
        // A batch writes memory too, with or without `action`.
        assert!(refused(
            "memory",
            json!({"target": "memory", "operations": [{"action": "add"}]})
        ));
        // Commands are judged by the terminal's permission gate, not here.
        assert!(!refused("terminal", json!({"command": "rm -rf x"})));
        for reader in [
            "read_file",
            "search_files",
            "todo",
            "session_search",
            "skills_list",
            "skill_view",
        ] {
            assert!(!refused(reader, json!({})), "{reader}");
        }
    }

    #[tokio::test]
    async fn dispatch_applies_the_gate() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = crate::tools::file_io::test_support::test_ctx(dir.path(), Arc::new(crate::tools::DenyAll));
        ctx.session.state.set_mode(Mode::ReadOnly);
        let guard = crate::tools::file_io::test_support::test_guard(dir.path());
        let out = ToolRegistry::builtin(guard)
            .dispatch(&ctx, "write_file", r#"{"path": "a.txt", "content": "x"}"#)
            .await;
        assert!(out.is_error && out.content.contains("Read-only mode: file edits are disabled"));
        assert!(!dir.path().join("a.txt").exists());
    }
}
