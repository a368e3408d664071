//! The `process` tool: list, poll, log, wait, kill, write, submit and close for the session's
//! background processes, with Hermes' parameter schema and result shapes.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use serde_json::{Value, json};

use crate::runtime::args;
use crate::runtime::describe::{self, Presentation, ToolEffect, ToolKind};
use crate::runtime::processes::BackgroundProcess;
use crate::runtime::shell::DEFAULT_TIMEOUT_SECS;
use crate::runtime::shell::capture::tail_chars;
use crate::runtime::{Tool, ToolContext, ToolOutput};

#[cfg(test)]
mod tests;

/// Lines `log` returns when no limit is given.
const DEFAULT_LOG_LINES: i64 = 200;

/// The `process` tool.
#[derive(Debug, Default, Clone, Copy)]
pub struct ProcessTool;

const DESCRIPTION: &str = "Manage background processes started with terminal(background=true). \
Actions: 'list' (show all), 'poll' (check status + new output), 'log' (full output with \
pagination), 'wait' (block until done or timeout), 'kill' (terminate), 'write' (send raw stdin \
data without newline), 'submit' (send data + Enter, for answering prompts), 'close' (close \
stdin/send EOF).";

impl Tool for ProcessTool {
    fn name(&self) -> &'static str {
        "process"
    }

    fn description(&self) -> String {
        DESCRIPTION.to_string()
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "action": {
                    "type": "string",
                    "enum": ["list", "poll", "log", "wait", "kill", "write", "submit", "close"],
                    "description": "Action to perform on background processes"
                },
                "session_id": {
                    "type": "string",
                    "description": "Process session ID (from terminal background output). Required for all actions except 'list'."
                },
                "data": {
                    "type": "string",
                    "description": "Text to send to process stdin (for 'write' and 'submit' actions)"
                },
                "timeout": {
                    "type": "integer",
                    "description": "Max seconds to block for 'wait' action. Returns partial output on timeout.",
                    "minimum": 1
                },
                "offset": {
                    "type": "integer",
                    "description": "Line offset for 'log' action (default: last 200 lines)"
                },
                "limit": {
                    "type": "integer",
                    "description": "Max lines to return for 'log' action",
                    "minimum": 1
                }
            },
            "required": ["action"]
        })
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(run(ctx, args))
    }

    fn effect(&self, args: &Value) -> ToolEffect {
        match describe::arg(args, "action") {
            Some("kill" | "write" | "submit" | "close") => ToolEffect::ControlsProcess,
            _ => ToolEffect::ReadOnly,
        }
    }

    fn present(&self, args: &Value, cwd: &Path) -> Presentation {
        let action = describe::arg(args, "action");
        let verb = action.unwrap_or("manage");
        Presentation {
            kind: ToolKind::Execute,
            title: title(verb, describe::arg(args, "session_id")),
            start_text: Some(format!("Process action: {}", action.unwrap_or("?"))),
            ..describe::generic_presentation(self.name(), args, cwd)
        }
    }
}

/// The card title: what is done to which background process, as a phrase.
fn title(verb: &str, id: Option<&str>) -> String {
    let what = match verb {
        "list" => return "List background processes".to_string(),
        "poll" => "Check",
        "log" => "Read the output of",
        "wait" => "Wait for",
        "kill" => "Kill",
        "write" | "submit" => "Send input to",
        "close" => "Close the input of",
        _ => "Manage",
    };
    match id {
        Some(id) => format!("{what} process {}", describe::code_span(id)),
        None => format!("{what} a background process"),
    }
}

async fn run(ctx: &ToolContext, args: Value) -> ToolOutput {
    let action = args::string(&args, "action").unwrap_or_default();
    let table = &ctx.session.state.processes;
    if action == "list" {
        let processes: Vec<Value> = table.list().iter().map(|p| list_entry(p)).collect();
        return ToolOutput::json(json!({ "processes": processes }));
    }
    if !matches!(
        action.as_str(),
        "poll" | "log" | "wait" | "kill" | "write" | "submit" | "close"
    ) {
        return ToolOutput::error(format!(
            "Unknown process action: {action}. Use: list, poll, log, wait, kill, write, submit, close"
        ));
    }
    let session_id = args::string(&args, "session_id").unwrap_or_default();
    if session_id.is_empty() {
        return ToolOutput::error(format!("session_id is required for {action}"));
    }
    let Some(process) = table.get(&session_id) else {
        return finish(json!({"status": "not_found", "error": format!("No process with ID {session_id}")}));
    };
    let data = args::string(&args, "data").unwrap_or_default();
    let result = match action.as_str() {
        "poll" => poll(&process),
        "log" => log(&process, args::int(&args, "offset"), args::int(&args, "limit")),
        "wait" => wait(ctx, &process, args::int(&args, "timeout")).await,
        "kill" => kill(&process).await,
        "write" => write(&process, data).await,
        "submit" => write(&process, data + "\n").await,
        _ => close(&process).await,
    };
    finish(result)
}

/// Results carrying an `error` are failures for the editor card; the rest are plain results.
fn finish(result: Value) -> ToolOutput {
    if result.get("error").is_some_and(|e| !e.is_null()) {
        ToolOutput::json_error(result)
    } else {
        ToolOutput::json(result)
    }
}

fn list_entry(process: &BackgroundProcess) -> Value {
    let mut entry = json!({
        "session_id": process.id,
        "command": process.command.chars().take(200).collect::<String>(),
        "cwd": process.cwd.display().to_string(),
        "pid": process.pid,
        "started_at": process.started_at(),
        "uptime_seconds": process.uptime_seconds(),
        "status": process.status(),
        "output_preview": process.output_tail(200),
    });
    if let Some(code) = process.exit_code() {
        entry["exit_code"] = json!(code);
    }
    entry
}

fn poll(process: &BackgroundProcess) -> Value {
    let mut result = json!({
        "session_id": process.id,
        "command": process.command,
        "status": process.status(),
        "pid": process.pid,
        "uptime_seconds": process.uptime_seconds(),
        "output_preview": process.output_tail(1000),
    });
    if let Some(code) = process.exit_code() {
        result["exit_code"] = json!(code);
    }
    result
}

/// Without `offset`, the last `limit` lines. With one, `limit` lines from that line (a
/// negative offset counts from the end). Hermes returned the tail even for an explicit
/// `offset: 0`; here 0 means the first line.
fn log(process: &BackgroundProcess, offset: Option<i64>, limit: Option<i64>) -> Value {
    let output = process.output();
    let lines: Vec<&str> = output.lines().collect();
    let total = lines.len();
    let limit = usize::try_from(limit.unwrap_or(DEFAULT_LOG_LINES).max(1)).unwrap_or(usize::MAX);
    let start = match offset {
        None => total.saturating_sub(limit),
        Some(o) if o < 0 => total.saturating_sub(usize::try_from(o.unsigned_abs()).unwrap_or(usize::MAX)),
        Some(o) => usize::try_from(o).unwrap_or(usize::MAX).min(total),
    };
    let selected = &lines[start..start.saturating_add(limit).min(total)];
    json!({
        "session_id": process.id,
        "status": process.status(),
        "output": selected.join("\n"),
        "total_lines": total,
        "showing": format!("{} lines", selected.len()),
    })
}

/// Blocks until the process exits, the timeout passes (default and maximum: the terminal's
/// default timeout), or the turn is cancelled.
async fn wait(ctx: &ToolContext, process: &Arc<BackgroundProcess>, timeout: Option<i64>) -> Value {
    let max = DEFAULT_TIMEOUT_SECS;
    let requested = timeout.map(|t| t.max(1) as u64);
    let (effective, clamp_note) = match requested {
        Some(t) if t > max => (
            max,
            Some(format!(
                "Requested wait of {t}s was clamped to configured limit of {max}s"
            )),
        ),
        Some(t) => (t, None),
        None => (max, None),
    };
    let mut result = tokio::select! {
        // An exit that already happened wins over a cancel that already happened.
        biased;
        code = tokio::time::timeout(Duration::from_secs(effective), process.wait_exit()) => match code {
            Ok(code) => json!({
                "status": "exited",
                "exit_code": code,
                "output": tail_chars(&process.output(), 2000),
            }),
            Err(_) => json!({
                "status": "timeout",
                "output": process.output_tail(1000),
                "timeout_note": format!("Waited {effective}s, process still running"),
            }),
        },
        () = ctx.cancel.cancelled() => json!({
            "status": "interrupted",
            "output": process.output_tail(1000),
            "note": "Turn cancelled -- wait interrupted",
        }),
    };
    if let Some(note) = clamp_note {
        result["timeout_note"] = json!(note);
    }
    result
}

async fn kill(process: &BackgroundProcess) -> Value {
    if let Some(code) = process.exit_code() {
        return json!({"status": "already_exited", "exit_code": code});
    }
    match process.kill().await {
        Some(_) => json!({"status": "killed", "session_id": process.id}),
        None => {
            json!({"status": "error", "error": format!("Process {} did not exit after SIGKILL", process.id)})
        }
    }
}

async fn write(process: &BackgroundProcess, data: String) -> Value {
    if process.exit_code().is_some() {
        return already_exited();
    }
    match process.write_stdin(data.as_bytes()).await {
        Ok(true) => json!({"status": "ok", "bytes_written": data.len()}),
        Ok(false) => stdin_unavailable(),
        Err(e) => json!({"status": "error", "error": e.to_string()}),
    }
}

async fn close(process: &BackgroundProcess) -> Value {
    if process.exit_code().is_some() {
        return already_exited();
    }
    if process.close_stdin().await {
        json!({"status": "ok", "message": "stdin closed"})
    } else {
        stdin_unavailable()
    }
}

fn already_exited() -> Value {
    json!({"status": "already_exited", "error": "Process has already finished"})
}

fn stdin_unavailable() -> Value {
    json!({"status": "error", "error": "Process stdin not available (stdin closed)"})
}
