//! `execute_code` against a real python3: each `hermes_tools` function, every limit, the gate
//! for the script and for its calls, a wrong token, and cancel killing the script.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::ExecuteCodeTool;
use crate::runtime::file_io::test_support::test_guard;
use crate::runtime::{
    ApprovalDecision, ApprovalRequest, Approver, SessionScope, Tool, ToolContext, ToolOutput, ToolProgress,
    ToolServices,
};
use crate::safety::policy::Mode;
use crate::tools::execute_code::CodeExecutionSettings;

/// Allows the script; answers edits with `edits`; records what was asked.
struct Answers {
    edits: ApprovalDecision,
    asked: Mutex<Vec<(String, ApprovalRequest)>>,
}

impl Approver for Answers {
    fn request<'a>(&'a self, call_id: &'a str, request: ApprovalRequest) -> BoxFuture<'a, ApprovalDecision> {
        let decision = match request {
            ApprovalRequest::Command { .. } => ApprovalDecision::AllowOnce,
            ApprovalRequest::Edit { .. } => self.edits,
            ApprovalRequest::Plan { .. } => ApprovalDecision::Deny,
        };
        self.asked.lock().unwrap().push((call_id.to_string(), request));
        Box::pin(async move { decision })
    }
}

/// Records nested cards and live text; wakes a waiter when a nested call finishes.
#[derive(Default)]
struct Cards {
    events: Mutex<Vec<String>>,
    finished: tokio::sync::Notify,
}

impl ToolProgress for Cards {
    fn content(&self, call_id: &str, text: String) {
        self.events.lock().unwrap().push(format!("content {call_id}: {text}"));
    }
    fn nested_started(&self, call_id: &str, name: &str, _arguments: &Value) {
        self.events.lock().unwrap().push(format!("started {call_id} {name}"));
    }
    fn nested_finished(&self, call_id: &str, name: &str, _: &Value, output: &ToolOutput, _: Duration) {
        let status = if output.is_error { "failed" } else { "ok" };
        self.events
            .lock()
            .unwrap()
            .push(format!("finished {call_id} {name} {status}"));
        self.finished.notify_one();
    }
    fn plan(&self, items: Vec<crate::runtime::PlanItem>) {
        self.events
            .lock()
            .unwrap()
            .push(format!("plan of {} steps", items.len()));
    }
}

struct Setup {
    dir: tempfile::TempDir,
    ctx: ToolContext,
    answers: Arc<Answers>,
    cards: Arc<Cards>,
}

fn setup(edits: ApprovalDecision, limits: CodeExecutionSettings) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let answers = Arc::new(Answers {
        edits,
        asked: Mutex::new(Vec::new()),
    });
    let cards = Arc::new(Cards::default());
    let root = dir.path().canonicalize().unwrap();
    let mut session = SessionScope::local("session-1", root.clone(), answers.clone());
    session.tools = crate::tools::builtin(
        test_guard(&root),
        crate::tools::BuiltinSettings {
            code_execution: limits,
            ..Default::default()
        },
    );
    let services = ToolServices::default();
    let ctx = ToolContext::new(
        Arc::new(session),
        Arc::new(services),
        "call-1",
        CancellationToken::new(),
    )
    .with_progress(cards.clone());
    Setup {
        dir,
        ctx,
        answers,
        cards,
    }
}

fn defaults() -> Setup {
    setup(ApprovalDecision::AllowOnce, CodeExecutionSettings::default())
}

async fn execute(ctx: &ToolContext, code: &str) -> (Value, ToolOutput) {
    // Through the registry, as the agent loop calls it (gate, redaction, caps).
    let out = ctx
        .session
        .tools
        .dispatch(ctx, "execute_code", &json!({"code": code}).to_string())
        .await;
    (serde_json::from_str(&out.content).unwrap(), out)
}

#[tokio::test]
async fn a_script_calls_every_tool_through_the_registry() {
    let s = defaults();
    std::fs::write(s.dir.path().join("notes.txt"), "alpha\nbeta\n").unwrap();
    let code = r#"
import json
from hermes_tools import read_file, write_file, search_files, patch, terminal, json_parse, shell_quote
w = write_file("out.txt", "one\ntwo\n")
p = patch("out.txt", "two", "three")
r = read_file("out.txt")
f = search_files("beta", path=".")
t = terminal("echo " + shell_quote("hi there"))
print(json.dumps({"w": "error" not in w, "p": "error" not in p, "r": r["content"], "f": len(f["matches"]),
                  "t": t["output"], "code": t["exit_code"], "j": json_parse('{"a": "x\ty"}')["a"]}))
"#;
    let (result, out) = execute(&s.ctx, code).await;
    assert!(!out.is_error, "{result}");
    assert_eq!(result["status"], "success");
    assert_eq!(result["tool_calls_made"], 5);
    let printed: Value = serde_json::from_str(result["output"].as_str().unwrap().trim()).unwrap();
    assert_eq!(
        (printed["w"].as_bool(), printed["p"].as_bool()),
        (Some(true), Some(true))
    );
    assert!(printed["r"].as_str().unwrap().contains("three"));
    assert_eq!(printed["f"], 1);
    assert_eq!(
        (printed["t"].as_str(), printed["code"].as_i64()),
        (Some("hi there"), Some(0))
    );
    assert_eq!(printed["j"], "x\ty");
    assert_eq!(
        std::fs::read_to_string(s.dir.path().join("out.txt")).unwrap(),
        "one\nthree\n"
    );
    let events = s.cards.events.lock().unwrap().clone();
    assert!(
        events.contains(&"started call-1/1 write_file".to_string()),
        "{events:#?}"
    );
    assert!(
        events.contains(&"finished call-1/5 terminal ok".to_string()),
        "{events:#?}"
    );
    let log = events.iter().rev().find(|e| e.starts_with("content call-1:")).unwrap();
    assert!(log.contains("5. ✓ terminal"), "{log}");
    // The script asked once (as a command); the edits asked with their own nested ids.
    let asked = s.answers.asked.lock().unwrap();
    assert!(
        matches!(&asked[0], (id, ApprovalRequest::Command { command, .. }) if id == "call-1" && command.contains("write_file(\"out.txt\""))
    );
    assert!(
        asked
            .iter()
            .any(|(id, r)| id == "call-1/1" && matches!(r, ApprovalRequest::Edit { .. }))
    );
}

#[tokio::test]
async fn a_denied_write_is_an_error_the_script_sees() {
    let s = setup(ApprovalDecision::Deny, CodeExecutionSettings::default());
    let code = "from hermes_tools import write_file\nprint(write_file('x.txt', 'data').get('error'))";
    let (result, _) = execute(&s.ctx, code).await;
    assert_eq!(result["status"], "success");
    assert!(result["output"].as_str().unwrap().contains("denied"), "{result}");
    assert!(!s.dir.path().join("x.txt").exists());
    assert!(
        s.cards
            .events
            .lock()
            .unwrap()
            .contains(&"finished call-1/1 write_file failed".to_string())
    );
}

#[tokio::test]
async fn the_tool_call_limit_answers_errors_past_it() {
    let limits = CodeExecutionSettings {
        max_tool_calls: 3,
        ..Default::default()
    };
    let s = setup(ApprovalDecision::AllowOnce, limits);
    std::fs::write(s.dir.path().join("a.txt"), "a").unwrap();
    let code = "from hermes_tools import read_file\nfor i in range(5):\n    print(read_file('a.txt').get('error'))";
    let (result, _) = execute(&s.ctx, code).await;
    assert_eq!(result["tool_calls_made"], 3);
    let lines: Vec<&str> = result["output"].as_str().unwrap().lines().collect();
    assert_eq!(lines[..3], ["None", "None", "None"]);
    assert!(lines[3].starts_with("Tool call limit reached (3)"), "{lines:?}");
}

#[tokio::test]
async fn stdout_is_capped_and_counted() {
    let s = defaults();
    let (result, _) = execute(&s.ctx, "import sys\nsys.stdout.write('x' * 200000)\nprint('END')").await;
    assert_eq!(result["stdout_truncated"], true);
    assert_eq!(result["stdout_bytes_total"], 200_004);
    assert_eq!(result["stdout_bytes_captured"], 50_000);
    let output = result["output"].as_str().unwrap();
    assert!(output.contains("OUTPUT TRUNCATED - 150,004 bytes omitted") && output.ends_with("END\n"));
}

#[tokio::test]
async fn a_script_past_its_timeout_is_killed() {
    let limits = CodeExecutionSettings {
        // Long enough for python to start and print on a loaded machine (the print is checked).
        timeout: Duration::from_secs(2),
        ..Default::default()
    };
    let s = setup(ApprovalDecision::AllowOnce, limits);
    let (result, out) = execute(&s.ctx, "import time\nprint('started', flush=True)\ntime.sleep(60)").await;
    assert!(out.is_error);
    assert_eq!(result["status"], "timeout");
    assert_eq!(result["error"], "Script timed out after 2s and was killed.");
    assert!(result["output"].as_str().unwrap().starts_with("started\n"));
}

#[tokio::test]
async fn errors_carry_stderr_and_the_exit_code() {
    let s = defaults();
    let (result, out) = execute(&s.ctx, "print('partial')\nraise SystemExit('boom')").await;
    assert!(out.is_error);
    assert_eq!(
        (result["status"].as_str(), result["exit_code"].as_i64()),
        (Some("error"), Some(1))
    );
    assert_eq!(result["output"], "partial\n\n--- stderr ---\nboom\n");
}

#[tokio::test]
async fn only_five_tools_and_a_foreground_terminal_are_reachable() {
    let s = defaults();
    let code = r#"
from hermes_tools import _call
print(_call("memory", {"action": "add"})["error"])
print(_call("terminal", {"command": "sleep 1", "background": True})["error"])
"#;
    let (result, _) = execute(&s.ctx, code).await;
    let output = result["output"].as_str().unwrap();
    assert!(output.contains("Tool 'memory' is not available in execute_code. Available: patch, read_file"));
    assert!(output.contains("foreground-only"), "{output}");
    assert_eq!(result["tool_calls_made"], 0);
}

#[tokio::test]
async fn a_wrong_token_is_refused_and_the_connection_closed() {
    let s = defaults();
    let code = r#"
import json, os, socket
c = socket.socket(fileno=int(os.environ["HERMES_RPC_FD"]))
c.sendall(json.dumps({"token": "nope", "tool": "read_file", "args": {"path": "x"}}).encode() + b"\n")
f = c.makefile("rb")
print(json.loads(f.readline())["error"]); print(f.readline() == b"")
"#;
    let (result, _) = execute(&s.ctx, code).await;
    assert_eq!(result["output"], "Unauthorized RPC request\nTrue\n");
    assert_eq!(result["tool_calls_made"], 0);
}

#[tokio::test]
async fn read_only_mode_refuses_the_script() {
    let s = defaults();
    s.ctx.session.state.set_mode(Mode::ReadOnly);
    let (result, out) = execute(&s.ctx, "open('made.txt', 'w').write('x')").await;
    assert!(out.is_error);
    assert!(result["error"].as_str().unwrap().contains("Read-only mode"), "{result}");
    assert!(!s.dir.path().join("made.txt").exists());
}

#[tokio::test]
async fn cancel_kills_the_script() {
    let s = defaults();
    let code =
        "import sys, time\nfrom hermes_tools import write_file\nwrite_file('script', sys.argv[0])\ntime.sleep(60)";
    let run = execute(&s.ctx, code);
    tokio::pin!(run);
    tokio::select! {
        _ = &mut run => panic!("the script ended by itself"),
        () = s.cards.finished.notified() => {}
    }
    // The script's path is unique: found by it, since the sandbox's PID namespace hides pids.
    let script = std::fs::read_to_string(s.dir.path().join("script")).unwrap();
    s.ctx.cancel.cancel();
    let (result, _) = run.await;
    assert_eq!(result["status"], "interrupted");
    assert!(
        crate::runtime::shell::testing::marker_gone(&script).await,
        "python {script} still runs"
    );
}

#[test]
fn the_card_shows_the_code() {
    let args = json!({"code": "\n  import os\nprint(1)"});
    let card = ExecuteCodeTool::default().present(&args, std::path::Path::new("/w"));
    assert_eq!(card.title, "Run Python `import os`");
    assert_eq!(card.start_text.unwrap(), "```python\n\n  import os\nprint(1)\n```");
}

#[tokio::test]
async fn the_script_runs_under_the_terminal_sandbox() {
    assert!(
        crate::safety::sandbox::status().is_available(),
        "this test needs Landlock: {:?}",
        crate::safety::sandbox::status()
    );
    let s = defaults();
    // Under /var/tmp: a temp dir, but not the one the sandbox lets commands write to.
    let outside = tempfile::tempdir_in("/var/tmp").unwrap();
    let target = outside.path().join("escaped.txt");
    let code = format!(
        "try:\n    open({:?}, 'w').write('x')\n    print('wrote')\nexcept PermissionError:\n    print('denied')\nopen('inside.txt', 'w').write('ok')",
        target.display().to_string()
    );
    let (result, _) = execute(&s.ctx, &code).await;
    assert_eq!(result["output"], "denied\n", "{result}");
    assert!(!target.exists());
    assert!(s.dir.path().join("inside.txt").exists());
}
