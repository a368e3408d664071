//! The `execute_code` tool: runs a Python script in the session cwd that can `import
//! hermes_tools` and call `read_file`, `write_file`, `search_files`, `patch` and a
//! foreground-only `terminal` through the agent. Unlike Hermes, every call the script makes
//! passes the same gate as the model's own calls (a write asks in default mode, a destructive
//! command asks, the sandbox applies), and the script itself is a command whose effect cannot
//! be known, so it asks first too (see `run.rs`). Offered only where `python3` exists (Unix:
//! the script talks to the agent over a Unix socket).

// Windows builds the tool's description only (it is never offered there).
mod output;
#[cfg(unix)]
mod process;
#[cfg(unix)]
mod python;
#[cfg(unix)]
mod rpc;
#[cfg(unix)]
mod run;
mod schema;
#[cfg_attr(not(unix), allow(dead_code))]
mod settings;

// Unix only: Unix sockets, process groups and python3.
#[cfg(all(test, unix))]
mod tests;

pub use settings::{CodeExecutionSettings, DEFAULT_MAX_TOOL_CALLS, DEFAULT_TIMEOUT};
use std::path::Path;

use futures::future::BoxFuture;
use serde_json::Value;

use crate::runtime::describe::{self, Presentation, ToolEffect, ToolKind};
use crate::runtime::{Offer, Tool, ToolContext, ToolOutput};

/// The client module a script imports, written next to it for each run.
#[cfg_attr(not(unix), allow(dead_code))]
pub(crate) const CLIENT_MODULE: &str = include_str!("client.py");

/// The `execute_code` tool.
#[derive(Debug, Default, Clone, Copy)]
pub struct ExecuteCodeTool {
    /// `code_execution.*`: how long a script may run and how many calls it may make (Unix only:
    /// elsewhere the tool is not offered).
    #[cfg_attr(not(unix), allow(dead_code))]
    limits: CodeExecutionSettings,
}

impl ExecuteCodeTool {
    pub fn new(limits: CodeExecutionSettings) -> ExecuteCodeTool {
        ExecuteCodeTool { limits }
    }
}

impl Tool for ExecuteCodeTool {
    fn name(&self) -> &'static str {
        "execute_code"
    }

    fn description(&self) -> String {
        schema::DESCRIPTION.to_string()
    }

    fn parameters(&self) -> Value {
        schema::parameters()
    }

    /// Its tool calls may ask the user and run `terminal`, which runs alone; so does the script.
    fn interactive(&self) -> bool {
        true
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        #[cfg(unix)]
        return Box::pin(run::run(self.limits, ctx, args));
        #[cfg(not(unix))]
        return Box::pin(async move {
            let _ = (ctx, args);
            ToolOutput::error("execute_code needs Unix sockets; it is not available on this platform.")
        });
    }

    /// The script is a program of its own: the command policy decides (read-only mode refuses
    /// it, since what it does cannot be known; every other mode but yolo asks).
    fn effect(&self, _args: &Value) -> ToolEffect {
        ToolEffect::RunsCommand
    }

    fn present(&self, args: &Value, _cwd: &Path) -> Presentation {
        let code = describe::arg(args, "code");
        let first = code.and_then(|c| c.lines().map(str::trim).find(|l| !l.is_empty()));
        Presentation {
            kind: ToolKind::Execute,
            title: match first {
                Some(line) => format!("Run Python {}", describe::code_span(&describe::first_line(line, 70))),
                None => "Run Python".to_string(),
            },
            locations: Vec::new(),
            start_text: code.map(python_block),
        }
    }

    fn summarise(&self, _args: &Value, result: &Value) -> String {
        let output = result.get("output").and_then(Value::as_str).unwrap_or("");
        let calls = result.get("tool_calls_made").and_then(Value::as_u64).unwrap_or(0);
        let code = result.get("exit_code").and_then(Value::as_i64).unwrap_or(0);
        let mut text = format!(
            "exit code {code}, {calls} tool call{}",
            if calls == 1 { "" } else { "s" }
        );
        if !output.is_empty() {
            text.push_str("\n\n");
            text.push_str(&describe::fence(&describe::cap(output, 5_000)));
        }
        text
    }

    fn brief(&self, args: &Value) -> Option<String> {
        let code = describe::arg(args, "code")?;
        let first = code.lines().map(str::trim).find(|l| !l.is_empty())?;
        Some(format!("python: {}", describe::clip(first, 60)))
    }

    fn offered(&self, offer: &Offer) -> bool {
        #[cfg(unix)]
        return python::found(&offer.services.child_env).is_some();
        #[cfg(not(unix))]
        return {
            let _ = offer;
            false
        };
    }
}

/// The code in a ```python block (the card's start text, and the head of its live log) whose fence is longer than any backtick run inside it.
fn python_block(code: &str) -> String {
    let longest = code.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let ticks = "`".repeat(longest.max(2) + 1);
    format!("{ticks}python\n{code}\n{ticks}")
}
