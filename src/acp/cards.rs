//! Tool cards as `session/update`s: the `tool_call` that announces a call and the final
//! `tool_call_update` (plus a `plan` when a tool's result carries one). Shared by the live bridge and replay so
//! a reloaded session shows the same ids, titles and final states as the live turn. Both hand
//! over the tool's own description (`Presentation`, `Outcome`), computed below this layer.

use agent_client_protocol::v1::schema::{
    Plan, PlanEntry, PlanEntryPriority, PlanEntryStatus, SessionUpdate, ToolCall, ToolCallStatus, ToolCallUpdate,
    ToolCallUpdateFields,
};
use serde_json::Value;

use super::render;
use crate::runtime::{PlanItem, PlanStatus, Presentation, ToolOutput};
use crate::tools::Outcome;

/// The `tool_call` announcing a call (status pending), as its tool presents it.
pub fn start(call_id: &str, card: &Presentation, args: &Value) -> SessionUpdate {
    let call = ToolCall::new(call_id.to_string(), card.title.clone())
        .kind(render::kind(card.kind))
        .status(ToolCallStatus::Pending)
        .content(render::start_content(card))
        .locations(render::locations(card))
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

/// The `tool_call_update` replacing a running card's text with the tool's progress.
pub fn progress(call_id: &str, text: &str) -> SessionUpdate {
    SessionUpdate::ToolCallUpdate(ToolCallUpdate::new(
        call_id.to_string(),
        ToolCallUpdateFields::new().content(vec![render::text_block(text)]),
    ))
}

/// The final `tool_call_update` (and a `plan` when the tool's result carries one). It carries
/// the card's own title again: clients such as Zed and agent-shell take the title of a
/// permission request as the card's, and the question should not stay the card's title.
pub fn finish(call_id: &str, name: &str, outcome: Outcome, output: &ToolOutput) -> Vec<SessionUpdate> {
    let (status, content, raw_output) = render::completion(name, outcome.summary.as_deref(), output);
    let mut fields = ToolCallUpdateFields::new()
        .title(outcome.title)
        .status(status)
        .content(content);
    if let Some(raw) = raw_output {
        fields = fields.raw_output(raw);
    }
    let mut updates = vec![SessionUpdate::ToolCallUpdate(ToolCallUpdate::new(
        call_id.to_string(),
        fields,
    ))];
    if let Some(items) = outcome.plan {
        updates.push(plan(items));
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

/// A tool's plan as the editor's: the complete list (an empty one clears it).
pub fn plan(items: Vec<PlanItem>) -> SessionUpdate {
    let entries = items
        .into_iter()
        .map(|item| {
            let status = match item.status {
                PlanStatus::Pending => PlanEntryStatus::Pending,
                PlanStatus::InProgress => PlanEntryStatus::InProgress,
                PlanStatus::Completed => PlanEntryStatus::Completed,
            };
            PlanEntry::new(item.content, PlanEntryPriority::Medium, status)
        })
        .collect();
    SessionUpdate::Plan(Plan::new(entries))
}
