//! Tool cards as `session/update`s: the `tool_call` that announces a call and the final
//! `tool_call_update` (plus a `plan` for todo results). Shared by the live bridge and replay so
//! a reloaded session shows the same ids, titles and final states as the live turn.

use std::path::Path;

use agent_client_protocol::v1::schema::{
    Plan, PlanEntry, PlanEntryPriority, PlanEntryStatus, SessionUpdate, ToolCall, ToolCallStatus, ToolCallUpdate,
    ToolCallUpdateFields,
};
use serde_json::Value;

use super::render;
use crate::tools::ToolOutput;

/// The `tool_call` announcing a call (status pending).
pub fn start(call_id: &str, name: &str, args: &Value, cwd: &Path) -> SessionUpdate {
    let call = ToolCall::new(call_id.to_string(), render::title(name, args))
        .kind(render::kind(name))
        .status(ToolCallStatus::Pending)
        .content(render::start_content(name, args))
        .locations(render::locations(name, args, cwd))
        .raw_input(args.clone());
    SessionUpdate::ToolCall(call)
}

/// The `tool_call_update` marking a call as running.
pub fn running(call_id: &str) -> SessionUpdate {
    SessionUpdate::ToolCallUpdate(ToolCallUpdate::new(
        call_id.to_string(),
        ToolCallUpdateFields::new().status(ToolCallStatus::InProgress),
    ))
}

/// The final `tool_call_update` (and a `plan` after a todo call).
pub fn finish(call_id: &str, name: &str, args: &Value, output: &ToolOutput) -> Vec<SessionUpdate> {
    let (status, content, raw_output) = render::completion(name, args, output);
    let mut fields = ToolCallUpdateFields::new().status(status).content(content);
    if let Some(raw) = raw_output {
        fields = fields.raw_output(raw);
    }
    let mut updates = vec![SessionUpdate::ToolCallUpdate(ToolCallUpdate::new(
        call_id.to_string(),
        fields,
    ))];
    if name == "todo"
        && !output.is_error
        && let Some(plan) = plan_from(&output.content)
    {
        updates.push(plan);
    }
    updates
}

/// A card that never got its result (cancel, provider error, budget): closed as failed.
pub fn abandoned(call_id: &str, reason: &str) -> SessionUpdate {
    SessionUpdate::ToolCallUpdate(ToolCallUpdate::new(
        call_id.to_string(),
        ToolCallUpdateFields::new()
            .status(ToolCallStatus::Failed)
            .content(vec![render::text_block(reason)]),
    ))
}

/// The complete plan from a todo result: cancelled items are shown completed with a
/// `[cancelled]` prefix; an empty list clears the plan.
pub fn plan_from(result: &str) -> Option<SessionUpdate> {
    let value: Value = serde_json::from_str(result).ok()?;
    let items = value.get("todos")?.as_array()?;
    let entries = items
        .iter()
        .map(|item| {
            let content = item.get("content").and_then(Value::as_str).unwrap_or("").to_string();
            let (content, status) = match item.get("status").and_then(Value::as_str) {
                Some("completed") => (content, PlanEntryStatus::Completed),
                Some("in_progress") => (content, PlanEntryStatus::InProgress),
                Some("cancelled") => (format!("[cancelled] {content}"), PlanEntryStatus::Completed),
                _ => (content, PlanEntryStatus::Pending),
            };
            PlanEntry::new(content, PlanEntryPriority::Medium, status)
        })
        .collect();
    Some(SessionUpdate::Plan(Plan::new(entries)))
}
