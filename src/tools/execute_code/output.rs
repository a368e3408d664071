//! What a finished script becomes: bounded captures of its stdout (Hermes keeps the first 40 %
//! and the last 60 % of 50 KB, so the final `print` survives a flood) and stderr (the first
//! 10 KB), and the result JSON with Hermes' fields — `status`, `output`, `exit_code`,
//! `tool_calls_made`, `duration_seconds`, the `stdout_*` byte counts, `warning`, `error`.

use std::collections::VecDeque;
use std::time::Duration;

use serde_json::{Value, json};

use crate::runtime::shell::ansi::strip_ansi;

/// Hermes' `MAX_STDOUT_BYTES`.
pub(super) const MAX_STDOUT_BYTES: usize = 50_000;
/// Hermes' `MAX_STDERR_BYTES`.
pub(super) const MAX_STDERR_BYTES: usize = 10_000;

const TRUNCATED_WARNING: &str = "execute_code stdout was truncated; the script did run, but only \
the captured head/tail output is included. Re-run only with narrower output if the omitted data \
is required.";

/// The head and tail of a byte stream, and how long it really was. Everything in between is
/// read and dropped, so the script never blocks on a full pipe.
#[derive(Debug)]
pub(super) struct Capture {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    head_cap: usize,
    tail_cap: usize,
    total: u64,
}

impl Capture {
    /// Hermes' stdout policy: 40 % head, 60 % tail of `max` bytes.
    pub(super) fn head_and_tail(max: usize) -> Capture {
        let head_cap = max * 2 / 5;
        Capture::new(head_cap, max - head_cap)
    }

    /// The first `max` bytes only (stderr: the error comes early).
    pub(super) fn head_only(max: usize) -> Capture {
        Capture::new(max, 0)
    }

    fn new(head_cap: usize, tail_cap: usize) -> Capture {
        Capture {
            head: Vec::new(),
            tail: VecDeque::new(),
            head_cap,
            tail_cap,
            total: 0,
        }
    }

    pub(super) fn push(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        let take = (self.head_cap - self.head.len()).min(bytes.len());
        self.head.extend_from_slice(&bytes[..take]);
        bytes = &bytes[take..];
        if self.tail_cap == 0 || bytes.is_empty() {
            return;
        }
        if bytes.len() >= self.tail_cap {
            bytes = &bytes[bytes.len() - self.tail_cap..];
            self.tail.clear();
        }
        let overflow = (self.tail.len() + bytes.len()).saturating_sub(self.tail_cap);
        self.tail.drain(..overflow);
        self.tail.extend(bytes);
    }

    /// The text (invalid UTF-8 replaced) with Hermes' marker where bytes were dropped, and the
    /// byte counts the model can rely on.
    pub(super) fn finish(self) -> (String, Value) {
        let captured = (self.head.len() + self.tail.len()) as u64;
        let omitted = self.total.saturating_sub(captured);
        let tail: Vec<u8> = self.tail.into();
        let mut text = String::from_utf8_lossy(&self.head).into_owned();
        if omitted > 0 {
            let (omitted_text, total_text) = (crate::text::thousands(omitted), crate::text::thousands(self.total));
            text.push_str(&format!(
                "\n\n... [OUTPUT TRUNCATED - {omitted_text} bytes omitted out of {total_text} total] ...\n\n"
            ));
        }
        text.push_str(&String::from_utf8_lossy(&tail));
        let mut meta = json!({
            "stdout_truncated": omitted > 0,
            "stdout_bytes_captured": captured,
            "stdout_bytes_total": self.total,
            "stdout_bytes_omitted": omitted,
        });
        if omitted > 0 {
            meta["warning"] = json!(TRUNCATED_WARNING);
        }
        (text, meta)
    }
}

/// How the script ended.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Ending {
    /// It exited (the code is minus the signal when one killed it).
    Exited(i64),
    /// It ran past the timeout and was killed.
    TimedOut(Duration),
    /// The turn was cancelled and it was killed.
    Interrupted,
}

/// Everything the result is made of.
pub(super) struct Finished {
    pub ending: Ending,
    pub stdout: Capture,
    pub stderr: Capture,
    pub tool_calls: usize,
    pub duration: Duration,
}

/// The result JSON, and whether it reports a failure.
pub(super) fn result(done: Finished) -> (Value, bool) {
    let (stdout, meta) = done.stdout.finish();
    let stdout = strip_ansi(&stdout);
    let stderr = strip_ansi(&done.stderr.finish().0);
    let exit_code = match done.ending {
        Ending::Exited(code) => code,
        _ => -1,
    };
    let mut result = json!({
        "status": "success",
        "output": stdout,
        "exit_code": exit_code,
        "tool_calls_made": done.tool_calls,
        "duration_seconds": (done.duration.as_secs_f64() * 100.0).round() / 100.0,
    });
    if let (Some(fields), Value::Object(meta)) = (result.as_object_mut(), meta) {
        fields.extend(meta);
    }
    match done.ending {
        Ending::Exited(0) => return (result, false),
        Ending::Exited(code) => {
            result["status"] = json!("error");
            result["error"] = json!(match stderr.is_empty() {
                true => format!("Script exited with code {code}"),
                false => stderr.clone(),
            });
            if !stderr.is_empty() {
                result["output"] = json!(format!("{stdout}\n--- stderr ---\n{stderr}"));
            }
        }
        Ending::TimedOut(limit) => {
            let message = format!("Script timed out after {}s and was killed.", limit.as_secs_f64());
            result["status"] = json!("timeout");
            // In the output too: a model given an empty output tends to answer nothing.
            result["output"] = json!(match stdout.is_empty() {
                true => format!("⏰ {message}"),
                false => format!("{stdout}\n\n⏰ {message}"),
            });
            result["error"] = json!(message);
        }
        Ending::Interrupted => {
            result["status"] = json!("interrupted");
            result["output"] = json!(format!("{stdout}\n[execution interrupted — user sent a new message]"));
        }
    }
    (result, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(ending: Ending, out: &[u8], err: &[u8]) -> Value {
        let mut stdout = Capture::head_and_tail(MAX_STDOUT_BYTES);
        stdout.push(out);
        let mut stderr = Capture::head_only(MAX_STDERR_BYTES);
        stderr.push(err);
        let done = Finished {
            ending,
            stdout,
            stderr,
            tool_calls: 2,
            duration: Duration::from_millis(1234),
        };
        result(done).0
    }

    #[test]
    fn stdout_keeps_head_and_tail_and_says_how_much_was_dropped() {
        let mut capture = Capture::head_and_tail(10);
        for chunk in [&b"abcdef"[..], b"ghijklmnop", b"qrstuvwxyz"] {
            capture.push(chunk);
        }
        let (text, meta) = capture.finish();
        assert_eq!(
            text,
            "abcd\n\n... [OUTPUT TRUNCATED - 16 bytes omitted out of 26 total] ...\n\nuvwxyz"
        );
        assert_eq!(meta["stdout_bytes_captured"], 10);
        assert_eq!(meta["stdout_bytes_omitted"], 16);
        assert_eq!(meta["stdout_truncated"], true);
        assert!(meta["warning"].as_str().unwrap().contains("truncated"));
    }

    #[test]
    fn results_follow_hermes_fields() {
        let ok = finished(Ending::Exited(0), b"hi\n", b"warn");
        assert_eq!(
            (ok["status"].as_str(), ok["output"].as_str()),
            (Some("success"), Some("hi\n"))
        );
        assert_eq!(
            (ok["tool_calls_made"].as_u64(), ok["duration_seconds"].as_f64()),
            (Some(2), Some(1.23))
        );
        assert!(ok.get("error").is_none() && ok["stdout_truncated"] == false);
        let failed = finished(Ending::Exited(1), b"x", b"Traceback");
        assert_eq!(failed["error"], "Traceback");
        assert_eq!(failed["output"], "x\n--- stderr ---\nTraceback");
        let silent = finished(Ending::Exited(3), b"", b"");
        assert_eq!(silent["error"], "Script exited with code 3");
        let slow = finished(Ending::TimedOut(Duration::from_secs(2)), b"", b"");
        assert_eq!(slow["status"], "timeout");
        assert_eq!(slow["output"], "⏰ Script timed out after 2s and was killed.");
        let stopped = finished(Ending::Interrupted, b"a", b"");
        assert_eq!(stopped["status"], "interrupted");
    }
}
