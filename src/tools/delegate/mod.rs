//! `delegate_task`: the model hands self-contained tasks to subagents — full agents with their
//! own conversation, tool loop and iteration budget, sharing the session's cwd — and gets their
//! final answers back as this call's result, within the same turn (Hermes dispatches them in the
//! background instead). Validation and the result JSON live here; running children is the
//! agent layer's job behind the `Delegator` seam (`seam.rs`) on the session scope.

pub mod children;
mod present;
pub mod progress;
mod schema;
mod settings;

pub use settings::{
    DEFAULT_MAX_CONCURRENT_CHILDREN, DEFAULT_MAX_ITERATIONS, DEFAULT_MAX_SPAWN_DEPTH, DelegationSettings,
};
use std::path::Path;
use std::time::Instant;

use futures::future::BoxFuture;
use serde_json::{Value, json};

use crate::runtime::seams::delegate::{ChildExit, ChildReport, ChildRole, ChildTask};
pub use children::{child_system_prompt, child_tools};
pub use progress::{ChildLine, ChildState, progress_text};

use crate::runtime::describe::{self, Presentation, ToolEffect, ToolKind};
use crate::runtime::{Tool, ToolContext, ToolOutput};

/// The tool's name (children's toolsets drop it unless they may delegate).
pub const NAME: &str = "delegate_task";

/// The `delegate_task` tool, with the user's `delegation.*` limits (its description states them).
#[derive(Debug, Clone, Default)]
pub struct DelegateTool {
    config: DelegationSettings,
}

impl DelegateTool {
    pub fn new(config: DelegationSettings) -> DelegateTool {
        DelegateTool { config }
    }

    /// The tasks the arguments ask for, already validated, or the error for the model.
    fn tasks(&self, args: &Value, depth: u32) -> Result<Vec<ChildTask>, String> {
        let top_role = parse_role(args.get("role"));
        // Some models send the array as a JSON string.
        let tasks = match args.get("tasks") {
            Some(Value::String(text)) if !text.trim().is_empty() => Some(
                serde_json::from_str::<Value>(text)
                    .map_err(|e| format!("'tasks' must be a JSON array of task objects: {e}"))?,
            ),
            Some(Value::String(_)) | Some(Value::Null) | None => None,
            Some(other) => Some(other.clone()),
        };
        let list: Vec<Value> = match tasks {
            Some(Value::Array(list)) if !list.is_empty() => {
                if list.len() > self.config.max_concurrent_children {
                    return Err(format!(
                        "Too many tasks: {} provided, but max_concurrent_children is {}. Either reduce the task count, \
split into multiple delegate_task calls, or increase delegation.max_concurrent_children in config.yaml.",
                        list.len(),
                        self.config.max_concurrent_children
                    ));
                }
                list
            }
            Some(Value::Array(_)) | None => match args.get("goal").and_then(Value::as_str) {
                Some(goal) if !goal.trim().is_empty() => vec![json!({
                    "goal": goal,
                    "context": args.get("context").cloned().unwrap_or(Value::Null),
                })],
                _ => return Err("Provide either 'goal' (single task) or 'tasks' (batch).".into()),
            },
            Some(other) => return Err(format!("'tasks' must be an array of task objects, got {other}")),
        };
        // A child at depth + 1 may itself delegate only below the depth cap.
        let nesting = self.config.orchestrator_enabled && depth + 1 < self.config.max_spawn_depth;
        let mut out = Vec::with_capacity(list.len());
        for (i, task) in list.iter().enumerate() {
            let Some(object) = task.as_object() else {
                return Err(format!(
                    "Task {i} must be an object, got {}.",
                    crate::runtime::args::python_type_name(Some(task))
                ));
            };
            let goal = object.get("goal").and_then(Value::as_str).unwrap_or("").trim();
            if goal.is_empty() {
                return Err(format!("Task {i} is missing a 'goal'."));
            }
            let role = match object.get("role") {
                Some(v) if !v.is_null() => parse_role(Some(v)),
                _ => top_role,
            };
            out.push(ChildTask {
                goal: goal.to_string(),
                context: object.get("context").and_then(Value::as_str).map(str::to_string),
                role: if nesting { role } else { ChildRole::Leaf },
            });
        }
        Ok(out)
    }
}

/// `leaf` / `orchestrator`, case-insensitive; anything else is a leaf (Hermes degrades too).
fn parse_role(value: Option<&Value>) -> ChildRole {
    match value.and_then(Value::as_str).map(|r| r.trim().to_ascii_lowercase()) {
        Some(r) if r == "orchestrator" => ChildRole::Orchestrator,
        _ => ChildRole::Leaf,
    }
}

/// The result entry of one child (Hermes' keys).
fn report_json(index: usize, report: &ChildReport) -> Value {
    let status = match report.exit {
        ChildExit::Interrupted => "interrupted",
        ChildExit::Error => "error",
        _ if report.summary.trim().is_empty() => "failed",
        _ => "completed",
    };
    let exit_reason = match report.exit {
        ChildExit::Completed => "completed",
        ChildExit::MaxIterations => "max_iterations",
        ChildExit::Interrupted => "interrupted",
        ChildExit::Error => "error",
    };
    let trace: Vec<Value> = report
        .tool_trace
        .iter()
        .map(|t| {
            let mut entry = json!({"tool": t.tool, "args_bytes": t.args_bytes});
            if let Some((bytes, is_error)) = t.result {
                entry["result_bytes"] = json!(bytes);
                entry["status"] = json!(if is_error { "error" } else { "ok" });
            }
            entry
        })
        .collect();
    let mut entry = json!({
        "task_index": index,
        "status": status,
        "summary": if report.exit == ChildExit::Error { Value::Null } else { json!(report.summary) },
        "api_calls": report.api_calls,
        "duration_seconds": (report.duration.as_secs_f64() * 100.0).round() / 100.0,
        "model": report.model,
        "role": report.role.as_str(),
        "exit_reason": exit_reason,
        "tokens": {"input": report.input_tokens, "output": report.output_tokens},
        "tool_trace": trace,
    });
    if let Some(error) = &report.error {
        entry["error"] = json!(error);
    }
    entry
}

impl Tool for DelegateTool {
    fn name(&self) -> &'static str {
        NAME
    }

    fn description(&self) -> String {
        schema::description(&self.config)
    }

    fn parameters(&self) -> Value {
        schema::parameters(&self.config)
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(async move {
            let Some(delegator) = ctx.session.delegator.clone() else {
                return ToolOutput::error("delegate_task requires a parent agent context.");
            };
            let depth = delegator.depth();
            if depth >= self.config.max_spawn_depth {
                return ToolOutput::error(format!(
                    "Delegation depth limit reached (depth={depth}, max_spawn_depth={}). Raise delegation.max_spawn_depth \
in config.yaml if deeper nesting is required (no hard ceiling, but each level multiplies API cost).",
                    self.config.max_spawn_depth
                ));
            }
            let tasks = match self.tasks(&args, depth) {
                Ok(tasks) => tasks,
                Err(message) => return ToolOutput::error(message),
            };
            let started = Instant::now();
            let reports = delegator.run_children(ctx, tasks).await;
            let results: Vec<Value> = reports.iter().enumerate().map(|(i, r)| report_json(i, r)).collect();
            let total = (started.elapsed().as_secs_f64() * 100.0).round() / 100.0;
            ToolOutput::json(json!({"results": results, "total_duration_seconds": total}))
        })
    }

    /// The call itself changes nothing: every call a child makes passes the same gate (and the
    /// session's mode) as the parent's own calls.
    fn effect(&self, _args: &Value) -> ToolEffect {
        ToolEffect::ReadOnly
    }

    fn present(&self, args: &Value, cwd: &Path) -> Presentation {
        Presentation {
            kind: ToolKind::Execute,
            title: present::title(args),
            start_text: Some(present::start_text(args)),
            ..describe::generic_presentation(self.name(), args, cwd)
        }
    }

    fn summarise(&self, _args: &Value, result: &Value) -> String {
        present::summarise(result)
    }

    fn brief(&self, args: &Value) -> Option<String> {
        Some(present::title(args))
    }
}

#[cfg(test)]
mod tests;
