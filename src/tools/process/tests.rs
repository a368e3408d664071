//! Tests of the background process table and the `process` tool, driven through `terminal`.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::*;
use crate::runtime::approver::AllowAll;
use crate::runtime::processes::ProcessTable;
use crate::runtime::shell::testing::{marked_sleep, marker_gone, pid_gone, test_ctx, unique_marker};
use crate::runtime::{SessionToolState, Tool, ToolContext};
use crate::tools::terminal::TerminalTool;

async fn process(ctx: &ToolContext, args: Value) -> (Value, bool) {
    let out = ProcessTool.run(ctx, args).await;
    (serde_json::from_str(&out.content).unwrap(), out.is_error)
}

/// Starts `command` through `terminal(background=true)` and returns its session id.
async fn start(ctx: &ToolContext, command: &str) -> String {
    let out = TerminalTool
        .run(ctx, json!({"command": command, "background": true}))
        .await;
    let result: Value = serde_json::from_str(&out.content).unwrap();
    result["session_id"].as_str().expect("a session id").to_string()
}

/// Polls until the process output contains `needle` (at most three seconds).
async fn output_contains(ctx: &ToolContext, id: &str, needle: &str) -> bool {
    let deadline = Instant::now() + Duration::from_secs(3);
    while Instant::now() < deadline {
        let (poll, _) = process(ctx, json!({"action": "poll", "session_id": id})).await;
        if poll["output_preview"].as_str().unwrap_or_default().contains(needle) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    false
}

fn ctx(dir: &Path) -> ToolContext {
    test_ctx(dir, Arc::new(AllowAll))
}

#[test]
fn the_table_can_live_in_shared_session_state() {
    fn assert_shared<T: Default + Send + Sync + 'static>() {}
    assert_shared::<ProcessTable>();
}

#[test]
fn schema_matches_hermes() {
    let params = ProcessTool.parameters();
    let props = &params["properties"];
    assert_eq!(params["required"], json!(["action"]));
    assert_eq!(
        props["action"]["enum"],
        json!(["list", "poll", "log", "wait", "kill", "write", "submit", "close"])
    );
    assert_eq!(props["session_id"]["type"], "string");
    assert_eq!(props["data"]["type"], "string");
    assert_eq!(props["timeout"]["type"], "integer");
    assert_eq!(props["timeout"]["minimum"], 1);
    assert_eq!(props["offset"]["type"], "integer");
    assert_eq!(props["limit"]["type"], "integer");
    assert_eq!(props["limit"]["minimum"], 1);
    assert_eq!(props.as_object().unwrap().len(), 6);
    assert_eq!(ProcessTool.name(), "process");
}

#[tokio::test]
async fn stdin_lifecycle_with_cat_poll_write_submit_close_wait() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let id = start(&ctx, "cat").await;

    let (poll, is_error) = process(&ctx, json!({"action": "poll", "session_id": id})).await;
    assert!(!is_error);
    assert_eq!(poll["status"], "running");
    assert_eq!(poll["command"], "cat");
    assert!(poll.get("exit_code").is_none());
    assert!(poll["pid"].as_i64().unwrap() > 1);
    assert!(poll["uptime_seconds"].is_u64());

    let (submitted, _) = process(&ctx, json!({"action": "submit", "session_id": id, "data": "hello"})).await;
    assert_eq!(submitted, json!({"status": "ok", "bytes_written": 6}));
    assert!(output_contains(&ctx, &id, "hello\n").await);

    let (written, _) = process(&ctx, json!({"action": "write", "session_id": id, "data": "tail"})).await;
    assert_eq!(written, json!({"status": "ok", "bytes_written": 4}));
    let (closed, _) = process(&ctx, json!({"action": "close", "session_id": id})).await;
    assert_eq!(closed, json!({"status": "ok", "message": "stdin closed"}));

    let (waited, is_error) = process(&ctx, json!({"action": "wait", "session_id": id, "timeout": 5})).await;
    assert!(!is_error);
    assert_eq!(
        waited,
        json!({"status": "exited", "exit_code": 0, "output": "hello\ntail"})
    );

    let (poll, _) = process(&ctx, json!({"action": "poll", "session_id": id})).await;
    assert_eq!(poll["status"], "exited");
    assert_eq!(poll["exit_code"], 0);

    let (late, is_error) = process(&ctx, json!({"action": "submit", "session_id": id, "data": "x"})).await;
    assert!(is_error);
    assert_eq!(
        late,
        json!({"status": "already_exited", "error": "Process has already finished"})
    );
    let (late, _) = process(&ctx, json!({"action": "close", "session_id": id})).await;
    assert_eq!(late["status"], "already_exited");
}

#[tokio::test]
async fn list_and_kill_take_down_the_whole_group() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let marker = unique_marker();
    let id = start(&ctx, &format!("{} & echo $! > pidfile; wait", marked_sleep(&marker))).await;
    let (listed, _) = process(&ctx, json!({"action": "list"})).await;
    let entries = listed["processes"].as_array().unwrap();
    assert_eq!(entries.len(), 1);
    let entry = &entries[0];
    assert_eq!(entry["session_id"], id.as_str());
    assert_eq!(entry["status"], "running");
    assert_eq!(entry["cwd"], dir.path().display().to_string());
    assert!(entry["started_at"].as_str().unwrap().contains('T'));
    for key in ["command", "pid", "uptime_seconds", "output_preview"] {
        assert!(entry.get(key).is_some(), "list entry lacks {key}");
    }

    // The pid is complete once its newline is written.
    let pidfile = dir.path().join("pidfile");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !std::fs::read_to_string(&pidfile).is_ok_and(|p| p.ends_with('\n')) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(std::fs::read_to_string(&pidfile).is_ok_and(|p| p.ends_with('\n')));

    let (killed, is_error) = process(&ctx, json!({"action": "kill", "session_id": id})).await;
    assert!(!is_error);
    assert_eq!(killed, json!({"status": "killed", "session_id": id}));
    assert!(marker_gone(&marker).await, "grandchild survived kill");
    let (again, _) = process(&ctx, json!({"action": "kill", "session_id": id})).await;
    assert_eq!(again["status"], "already_exited");
    assert_eq!(again["exit_code"], -i64::from(libc::SIGTERM));
    let (listed, _) = process(&ctx, json!({"action": "list"})).await;
    assert_eq!(listed["processes"][0]["status"], "exited");
}

#[tokio::test]
async fn log_pages_by_lines() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let id = start(&ctx, "seq 1 500").await;
    process(&ctx, json!({"action": "wait", "session_id": id, "timeout": 5})).await;

    let (log, _) = process(&ctx, json!({"action": "log", "session_id": id})).await;
    assert_eq!(log["total_lines"], 500);
    assert_eq!(log["showing"], "200 lines");
    assert_eq!(log["status"], "exited");
    assert!(log["output"].as_str().unwrap().starts_with("301\n"));
    assert!(log["output"].as_str().unwrap().ends_with("\n500"));

    let (log, _) = process(
        &ctx,
        json!({"action": "log", "session_id": id, "offset": 0, "limit": 3}),
    )
    .await;
    assert_eq!(log["output"], "1\n2\n3");
    assert_eq!(log["showing"], "3 lines");
    let (log, _) = process(
        &ctx,
        json!({"action": "log", "session_id": id, "offset": 10, "limit": 2}),
    )
    .await;
    assert_eq!(log["output"], "11\n12");
    let (log, _) = process(&ctx, json!({"action": "log", "session_id": id, "offset": -2})).await;
    assert_eq!(log["output"], "499\n500");
    let (log, _) = process(&ctx, json!({"action": "log", "session_id": id, "limit": 1})).await;
    assert_eq!(log["output"], "500");
    let (log, _) = process(&ctx, json!({"action": "log", "session_id": id, "offset": 900})).await;
    assert_eq!(log["showing"], "0 lines");
}

#[tokio::test]
async fn wait_times_out_clamps_and_is_cancellable() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let id = start(&ctx, "echo started; sleep 30").await;
    let (waited, is_error) = process(&ctx, json!({"action": "wait", "session_id": id, "timeout": 1})).await;
    assert!(!is_error);
    assert_eq!(waited["status"], "timeout");
    assert_eq!(waited["timeout_note"], "Waited 1s, process still running");
    assert_eq!(waited["output"], "started\n");

    // Cancel once the wait is under way; left alone it would wait for the 30 s sleep.
    let args = json!({"action": "wait", "session_id": id});
    let mut wait = std::pin::pin!(process(&ctx, args));
    assert!(futures::poll!(&mut wait).is_pending());
    ctx.cancel.cancel();
    let (waited, _) = wait.await;
    assert_eq!(waited["status"], "interrupted");

    let mut ctx = ctx.clone();
    ctx.cancel = tokio_util::sync::CancellationToken::new();
    let quick = start(&ctx, "echo done").await;
    let (waited, _) = process(&ctx, json!({"action": "wait", "session_id": quick, "timeout": 1000})).await;
    assert_eq!(waited["status"], "exited");
    assert_eq!(
        waited["timeout_note"],
        "Requested wait of 1000s was clamped to configured limit of 180s"
    );
}

#[tokio::test]
async fn argument_errors() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let (result, is_error) = process(&ctx, json!({"action": "poll"})).await;
    assert!(is_error);
    assert_eq!(result, json!({"error": "session_id is required for poll"}));
    let (result, is_error) = process(&ctx, json!({"action": "log", "session_id": "proc_000000000000"})).await;
    assert!(is_error);
    assert_eq!(
        result,
        json!({"status": "not_found", "error": "No process with ID proc_000000000000"})
    );
    let (result, is_error) = process(&ctx, json!({"action": "explode", "session_id": "x"})).await;
    assert!(is_error);
    assert!(
        result["error"]
            .as_str()
            .unwrap()
            .starts_with("Unknown process action: explode.")
    );
    let (result, is_error) = process(&ctx, json!({"action": "list"})).await;
    assert!(!is_error);
    assert_eq!(result, json!({"processes": []}));

    let id = start(&ctx, "sleep 30").await;
    process(&ctx, json!({"action": "close", "session_id": id})).await;
    let (result, is_error) = process(&ctx, json!({"action": "write", "session_id": id, "data": "x"})).await;
    assert!(is_error);
    assert_eq!(result["status"], "error");
}

#[tokio::test]
async fn dropping_the_session_state_kills_every_process() {
    let dir = tempfile::tempdir().unwrap();
    let state = SessionToolState::default();
    let first = state
        .processes
        .spawn(
            "sleep 30",
            dir.path(),
            &Default::default(),
            None,
            None,
            Path::new("/nonexistent"),
        )
        .unwrap();
    let second = state
        .processes
        .spawn(
            "trap '' TERM; sleep 30",
            dir.path(),
            &Default::default(),
            None,
            None,
            Path::new("/nonexistent"),
        )
        .unwrap();
    let pids = [first.pid, second.pid];
    let snapshot = state.processes.shell_state().source(None, true);
    std::fs::write(&snapshot, "export X=1\n").unwrap();
    drop(state);
    for pid in pids {
        assert!(pid_gone(pid).await, "process {pid} outlived its session");
    }
    assert!(
        !snapshot.exists(),
        "the environment snapshot is removed with the session"
    );
    // Waiters are released rather than left hanging.
    assert!(
        first.exit_code().is_some()
            || tokio::time::timeout(Duration::from_secs(2), first.wait_exit())
                .await
                .is_ok()
    );
}

#[tokio::test]
async fn kill_all_is_callable_explicitly() {
    let dir = tempfile::tempdir().unwrap();
    let table = ProcessTable::default();
    let process = table
        .spawn(
            "sleep 30",
            dir.path(),
            &Default::default(),
            None,
            None,
            Path::new("/nonexistent"),
        )
        .unwrap();
    table.kill_all();
    assert!(pid_gone(process.pid).await);
    assert!(table.list().is_empty());
}
