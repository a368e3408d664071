//! The progress seam: a tool that works for a while (a script calling tools, subagents) tells
//! the editor what it is doing while it runs. It can replace the live text of its own card and
//! announce calls made on its behalf as cards of their own. The agent layer implements it over
//! its event sink; tools never see ACP. A tool that sets the session's plan (the plan tool,
//! before it asks) reports it here too.

use std::time::Duration;

use serde_json::Value;

use super::{PlanItem, ToolOutput};

/// Where a running tool reports progress. Calls are cheap and never block.
pub trait ToolProgress: Send + Sync {
    /// The running card of `call_id` now shows `text` (replacing what progress showed before).
    fn content(&self, call_id: &str, text: String);
    /// A call made on a tool's behalf started and runs now: it gets its own card. `call_id`
    /// must be unique in the session (derive it from the parent's id).
    fn nested_started(&self, call_id: &str, name: &str, arguments: &Value);
    /// That call finished.
    fn nested_finished(&self, call_id: &str, name: &str, arguments: &Value, output: &ToolOutput, duration: Duration);
    /// The session's plan is now `items` (the editor's plan view; replaces the previous one).
    fn plan(&self, items: Vec<PlanItem>);
}

/// Progress nobody watches (tests, background work).
#[derive(Debug, Default, Clone, Copy)]
pub struct NoProgress;

impl ToolProgress for NoProgress {
    fn content(&self, _call_id: &str, _text: String) {}
    fn nested_started(&self, _call_id: &str, _name: &str, _arguments: &Value) {}
    fn nested_finished(&self, _: &str, _: &str, _: &Value, _: &ToolOutput, _: Duration) {}
    fn plan(&self, _items: Vec<PlanItem>) {}
}
