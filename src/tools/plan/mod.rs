//! `exit_plan_mode`: in plan mode the agent looks, thinks and plans, and changes nothing; when
//! it has a plan it calls this tool. The plan goes to the editor's plan view, then the user is
//! asked (one option per kind): approve and switch to `accept_edits`, approve and keep asking
//! (`default`), or keep planning. Approval switches the session's mode through the
//! `ModeSwitch` seam and tells the model to proceed; anything else leaves the session in plan
//! mode and tells it to keep planning. Offered only in plan mode (`Tool::available_in`); the
//! mode's note for the model and the hint added to refusals live here too, so the tool's name
//! stays with the tool.

mod steps;
#[cfg(test)]
mod tests;

use std::path::Path;

use futures::future::BoxFuture;
use serde_json::{Value, json};

use crate::runtime::describe::{PlanItem, PlanStatus, Presentation, ToolEffect, ToolKind};
use crate::runtime::{ApprovalDecision, ApprovalRequest, Tool, ToolContext, ToolOutput};
use crate::safety::policy::Mode;

/// The tool's name (Claude Code's, which models know).
pub const NAME: &str = "exit_plan_mode";

const DESCRIPTION: &str = "Present your plan to the user for approval and leave plan mode. Call it \
once you have read enough to know exactly what you will change — not before, and never to ask a \
question (ask in your answer or with clarify instead). The user either approves the plan, which \
switches the session to a mode where you can carry it out, or asks you to keep planning.";

/// What the model is told while the session is in plan mode (appended to the system prompt
/// of each model call made in that mode).
const PLAN_MODE_NOTE: &str = "# Plan mode\n\nThe session is in plan mode: the user wants a plan \
before anything changes. Read, search, fetch and think as much as you need, keep the todo list \
and ask questions; file edits, commands that may change something and tools that are not \
read-only are refused. When the plan is complete, call exit_plan_mode with it in Markdown: what \
you will change, in which files, in what order, and how you will check the result. The user \
then approves it — the mode switches and you carry it out — or asks you to keep planning. Do \
not start the work before the plan is approved.";

/// The note for the model in `mode`, if that mode has one.
pub fn mode_note(mode: Mode) -> Option<&'static str> {
    (mode == Mode::Plan).then_some(PLAN_MODE_NOTE)
}

/// Registered as `exit_plan_mode`.
pub struct ExitPlanModeTool;

impl Tool for ExitPlanModeTool {
    fn name(&self) -> &'static str {
        NAME
    }

    fn description(&self) -> String {
        DESCRIPTION.to_string()
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "plan": {"type": "string", "description": "The plan in Markdown: what you will change, in which files, in what order, and how you will check the result. Shown to the user as written."},
                "steps": {"type": "array", "items": {"type": "string"}, "description": "The plan's steps, one short line each, for the editor's plan view (default: the plan's list items)."}
            },
            "required": ["plan"]
        })
    }

    fn interactive(&self) -> bool {
        true
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(run(ctx, args))
    }

    /// Changes nothing itself: the user's answer switches the mode.
    fn effect(&self, _args: &Value) -> ToolEffect {
        ToolEffect::ReadOnly
    }

    fn available_in(&self, mode: Mode) -> bool {
        mode == Mode::Plan
    }

    fn way_out(&self, mode: Mode) -> Option<String> {
        (mode == Mode::Plan).then(|| format!("Call {NAME} with the plan when it is ready."))
    }

    fn present(&self, args: &Value, _cwd: &Path) -> Presentation {
        Presentation {
            kind: ToolKind::SwitchMode,
            title: "Plan ready for review".to_string(),
            locations: Vec::new(),
            start_text: args.get("plan").and_then(Value::as_str).map(str::to_string),
        }
    }

    fn summarise(&self, _args: &Value, result: &Value) -> String {
        match result.get("approved").and_then(Value::as_bool) {
            Some(true) => format!(
                "Plan approved: now in {} mode",
                result.get("mode").and_then(Value::as_str).unwrap_or("another")
            ),
            _ => "Kept planning".to_string(),
        }
    }

    /// An approved plan's steps (replayed with the session; the live turn showed them before
    /// asking).
    fn plan(&self, result: &Value) -> Option<Vec<PlanItem>> {
        if result.get("approved").and_then(Value::as_bool) != Some(true) {
            return None;
        }
        let steps = result.get("steps")?.as_array()?;
        Some(pending(steps.iter().filter_map(Value::as_str).map(str::to_string)))
    }

    fn brief(&self, _args: &Value) -> Option<String> {
        Some("presented a plan for approval".to_string())
    }
}

fn pending(steps: impl IntoIterator<Item = String>) -> Vec<PlanItem> {
    steps
        .into_iter()
        .map(|content| PlanItem {
            content,
            status: PlanStatus::Pending,
        })
        .collect()
}

async fn run(ctx: &ToolContext, args: Value) -> ToolOutput {
    let mode = ctx.session.state.mode();
    if mode != Mode::Plan {
        return ToolOutput::error(format!(
            "{NAME} is only available in plan mode (the session is in {} mode).",
            mode.id()
        ));
    }
    let plan = match args.get("plan").and_then(Value::as_str).map(str::trim) {
        Some(plan) if !plan.is_empty() => plan.to_string(),
        _ => return ToolOutput::error(format!("{NAME}: missing required field 'plan' (the plan in Markdown)")),
    };
    let given: Vec<String> = (args.get("steps").and_then(Value::as_array).into_iter().flatten())
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    let mut steps = steps::given(&given);
    if steps.is_empty() {
        steps = steps::from_markdown(&plan);
    }
    // The editor's plan view shows the plan while the user decides.
    ctx.progress.plan(pending(steps.clone()));
    let request = ApprovalRequest::Plan {
        plan,
        steps: steps.clone(),
    };
    let decision = tokio::select! {
        decision = ctx.session.approver.request(&ctx.call_id, request) => decision,
        () = ctx.cancel.cancelled() => ApprovalDecision::Cancelled,
    };
    let next = match decision {
        ApprovalDecision::AllowSession | ApprovalDecision::AllowAlways => Mode::AcceptEdits,
        ApprovalDecision::AllowOnce => Mode::Default,
        ApprovalDecision::Deny | ApprovalDecision::DenyAlways => return keep_planning(),
        ApprovalDecision::TimedOut => {
            return ToolOutput::error(
                "Nobody answered the plan question in time; the session stays in plan mode. Say that the plan \
                 is waiting for approval and stop.",
            );
        }
        ApprovalDecision::Cancelled => {
            return ToolOutput::error("Cancelled by the user; the session stays in plan mode.");
        }
    };
    if ctx.cancel.is_cancelled() {
        return ToolOutput::error("Cancelled by the user; the session stays in plan mode.");
    }
    if let Err(e) = ctx.session.modes.switch(next).await {
        return ToolOutput::error(format!(
            "The plan was approved but the mode could not be switched ({e}); the session stays in plan mode."
        ));
    }
    let what = match next {
        Mode::AcceptEdits => "edits inside the project go through without asking",
        _ => "edits and commands not known to be harmless ask the user first",
    };
    ToolOutput::json(json!({
        "approved": true,
        "mode": next.id(),
        "steps": steps,
        "message": format!(
            "The user approved the plan and switched the session to {} mode: {what}. Carry out the plan now, \
             step by step, and keep the todo list current.",
            next.id()
        ),
    }))
}

fn keep_planning() -> ToolOutput {
    ToolOutput::json(json!({
        "approved": false,
        "mode": Mode::Plan.id(),
        "message": format!(
            "The user chose to keep planning; the session stays in plan mode and nothing may change yet. \
             Ask what they want changed if it is not clear, refine the plan, and present it again with {NAME}."
        ),
    }))
}
