//! The tool registry: holds the session's tools sorted by name (as Hermes sends them), yields the
//! schemas for the model, and dispatches one call. Dispatch turns every failure mode — malformed
//! JSON arguments, an unknown tool, a panicking tool — into an error result for the model, then
//! caps and redacts the output before anyone sees it.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures::FutureExt;
use serde_json::{Value, json};

use super::{Tool, ToolContext, ToolOutput, output};

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

    /// A refusal in `mode` with the way out one of these tools offers (in plan mode: present
    /// the plan), so the model learns what to do instead of retrying.
    pub fn with_way_out(&self, mode: crate::safety::policy::Mode, reason: String) -> String {
        match self.tools.iter().find_map(|tool| tool.way_out(mode)) {
            Some(hint) => format!("{reason} {hint}"),
            None => reason,
        }
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
            return ToolOutput::error(self.with_way_out(mode, reason));
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
        output::redact_output(&ctx.services.secrets, &mut out);
        out.content = output::cap(&out.content, output::MAX_RESULT_CHARS);
        out
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
