//! The script's way back to the agent: one end of a socket pair the script inherits as a
//! descriptor (`HERMES_RPC_FD`) — no socket path, since the sandbox lets no command create a
//! Unix socket (that is how it would reach a user daemon) — spoken in newline-delimited JSON. Every request carries the run's random token (compared in constant
//! time); a connection whose request has a wrong token is answered `Unauthorized` and closed.
//! Each accepted request goes through `ToolRegistry::dispatch` with the outer call's context
//! under a nested call id (`<parent>/<n>`), so approvals, the read-only gate, the sandbox,
//! redaction and output caps apply exactly as to the model's own calls; the editor sees each
//! one as a card of its own. Only five tools are reachable, `terminal` in the foreground only,
//! and at most `max_tool_calls` calls run per script.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::UnixStream;

use crate::runtime::{ToolContext, ToolOutput, args};
use crate::sync::lock;

/// The tools a script may call (Hermes' sandbox set minus the web tools we do not have).
pub(super) const ALLOWED: [&str; 5] = ["patch", "read_file", "search_files", "terminal", "write_file"];

/// `terminal` arguments that make no sense for a script and are dropped (Hermes drops them).
const TERMINAL_DROPPED: [&str; 3] = ["pty", "notify_on_complete", "watch_patterns"];

/// The longest request line accepted (a `write_file` of a large file fits).
const MAX_REQUEST_BYTES: u64 = 32 * 1024 * 1024;

/// The agent's end of one run's channel.
pub(super) struct RpcServer {
    /// Taken by the first `serve`.
    stream: std::sync::Mutex<Option<UnixStream>>,
    token: String,
    max_calls: usize,
    calls: AtomicUsize,
    /// What the card shows above the log (the code).
    head: String,
    /// One line per call, shown under `head` as the card's live text.
    log: std::sync::Mutex<Vec<String>>,
    /// Calls run one at a time, in arrival order, like the model's own `terminal` calls.
    serial: tokio::sync::Mutex<()>,
}

impl RpcServer {
    /// Serves the agent's end of a socket pair for a run allowed `max_calls` tool calls; the
    /// card's live text is `head` and then the calls' log.
    pub(super) fn new(stream: UnixStream, token: String, max_calls: usize, head: String) -> io::Result<RpcServer> {
        Ok(RpcServer {
            stream: std::sync::Mutex::new(Some(stream)),
            token,
            max_calls,
            head,
            calls: AtomicUsize::new(0),
            log: std::sync::Mutex::new(Vec::new()),
            serial: tokio::sync::Mutex::new(()),
        })
    }

    /// How many tool calls ran.
    pub(super) fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }

    /// Answers the script's requests until it closes its end, then waits forever (the caller
    /// selects on it beside the script's exit).
    pub(super) async fn serve(&self, ctx: &ToolContext) {
        let stream = lock(&self.stream).take();
        if let Some(stream) = stream {
            self.connection(ctx, stream).await;
        }
        std::future::pending().await
    }

    async fn connection(&self, ctx: &ToolContext, stream: UnixStream) {
        let (read, mut write) = stream.into_split();
        let mut reader = BufReader::new(read);
        let mut line = Vec::new();
        loop {
            line.clear();
            match (&mut reader)
                .take(MAX_REQUEST_BYTES + 1)
                .read_until(b'\n', &mut line)
                .await
            {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let too_long = line.last() != Some(&b'\n') && line.len() as u64 > MAX_REQUEST_BYTES;
            let (answer, close) = match too_long {
                true => (json!({"error": "Invalid RPC request: request too long"}), true),
                false => self.request(ctx, &line).await,
            };
            let mut text = answer.to_string();
            text.push('\n');
            if write.write_all(text.as_bytes()).await.is_err() || close {
                return;
            }
        }
    }

    /// Answers one request line; `true` when the connection must be closed.
    async fn request(&self, ctx: &ToolContext, line: &[u8]) -> (Value, bool) {
        let request: Value = match serde_json::from_slice(line) {
            Ok(request) => request,
            Err(e) => return (json!({"error": format!("Invalid RPC request: {e}")}), false),
        };
        let token = request.get("token").and_then(Value::as_str).unwrap_or("");
        if !same_token(token.as_bytes(), self.token.as_bytes()) {
            tracing::warn!("execute_code: refused a tool request with a wrong token");
            return (json!({"error": "Unauthorized RPC request"}), true);
        }
        let name = request.get("tool").and_then(Value::as_str).unwrap_or("");
        let Some(&name) = ALLOWED.iter().find(|allowed| **allowed == name) else {
            let message = format!(
                "Tool '{name}' is not available in execute_code. Available: {}",
                ALLOWED.join(", ")
            );
            return (json!({"error": message}), false);
        };
        let mut arguments = match request.get("args") {
            Some(Value::Object(map)) => Value::Object(map.clone()),
            None | Some(Value::Null) => json!({}),
            Some(_) => return (json!({"error": "Invalid RPC request: args must be an object"}), false),
        };
        if name == "terminal" {
            if args::boolean(&arguments, "background", false) {
                let message = "terminal() in execute_code is foreground-only: background=true is not allowed.";
                return (json!({"error": message}), false);
            }
            if let Some(map) = arguments.as_object_mut() {
                map.remove("background");
                TERMINAL_DROPPED.iter().for_each(|key| drop(map.remove(*key)));
            }
        }
        (self.dispatch(ctx, name, arguments).await, false)
    }

    async fn dispatch(&self, ctx: &ToolContext, name: &str, arguments: Value) -> Value {
        let _turn = self.serial.lock().await;
        // Counted before running, so calls the user is still being asked about count too.
        let n = self.calls.fetch_add(1, Ordering::SeqCst) + 1;
        if n > self.max_calls {
            self.calls.fetch_sub(1, Ordering::SeqCst);
            let message = format!(
                "Tool call limit reached ({}). No more tool calls allowed in this execution.",
                self.max_calls
            );
            return json!({"error": message});
        }
        let mut inner = ctx.clone();
        inner.call_id = format!("{}/{n}", ctx.call_id);
        let started = Instant::now();
        ctx.progress.nested_started(&inner.call_id, name, &arguments);
        let raw = arguments.to_string();
        let output = ctx.session.tools.dispatch(&inner, name, &raw).await;
        let took = started.elapsed();
        ctx.progress
            .nested_finished(&inner.call_id, name, &arguments, &output, took);
        self.record(ctx, n, name, &arguments, &output, took);
        serde_json::from_str(&output.content).unwrap_or(Value::String(output.content))
    }

    /// Adds the call to the card's live log: one line per call.
    fn record(
        &self,
        ctx: &ToolContext,
        n: usize,
        name: &str,
        arguments: &Value,
        output: &ToolOutput,
        took: std::time::Duration,
    ) {
        // The tool's own one-liner (a path, a command), masked like any text the editor gets.
        let what = ctx.session.tools.describer(name).and_then(|tool| tool.brief(arguments));
        let what = crate::safety::secrets::redact::redact(&what.unwrap_or_default());
        let mark = if output.is_error { "✗" } else { "✓" };
        let text = {
            let mut log = lock(&self.log);
            log.push(format!("{n}. {mark} {name} {what} ({} ms)", took.as_millis()));
            format!("{}\n\n{}", self.head, log.join("\n"))
        };
        ctx.progress.content(&ctx.call_id, text);
    }
}

/// Compares two tokens in time independent of where they differ.
fn same_token(given: &[u8], expected: &[u8]) -> bool {
    if given.len() != expected.len() || expected.is_empty() {
        return false;
    }
    given.iter().zip(expected).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

/// A private directory (0700) for one run's client module and script; removed with everything
/// in it when dropped.
pub(super) struct PrivateDir(PathBuf);

impl PrivateDir {
    pub(super) fn create() -> io::Result<PrivateDir> {
        let path = crate::runtime::shell::temp_path("exec");
        let mut builder = std::fs::DirBuilder::new();
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(&path)?;
        Ok(PrivateDir(path))
    }

    pub(super) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for PrivateDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_compare_whole() {
        assert!(same_token(b"abc", b"abc"));
        assert!(!same_token(b"abd", b"abc"));
        assert!(!same_token(b"ab", b"abc"));
        assert!(!same_token(b"", b""));
    }
}
