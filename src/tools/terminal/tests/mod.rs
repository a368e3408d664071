//! Tests of the `terminal` tool: running, shell state, limits and schema here; approvals and
//! background starts in the sibling files.

mod approvals;
mod background;
// The promises of the Linux sandbox (namespaces, Landlock, seccomp): other systems have none.
#[cfg(target_os = "linux")]
mod containment;
mod grants;
mod sandbox;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use super::*;
use crate::runtime::ToolDisplay;
use crate::runtime::approver::AllowAll;
use crate::runtime::shell::testing::{marked_sleep, marker_gone, test_ctx, unique_marker};

async fn call(ctx: &ToolContext, args: Value) -> (Value, ToolOutput) {
    let out = TerminalTool.run(ctx, args).await;
    (serde_json::from_str(&out.content).unwrap(), out)
}

fn allow_all(dir: &Path) -> ToolContext {
    test_ctx(dir, Arc::new(AllowAll))
}

#[test]
fn schema_matches_hermes() {
    let params = TerminalTool.parameters();
    let props = &params["properties"];
    assert_eq!(params["required"], json!(["command"]));
    assert_eq!(props["command"]["type"], "string");
    assert_eq!(
        props["background"],
        json!({"type": "boolean", "default": false, "description": props["background"]["description"]})
    );
    assert_eq!(props["timeout"]["type"], "integer");
    assert_eq!(props["timeout"]["minimum"], 1);
    assert!(props["timeout"].get("default").is_none());
    assert_eq!(props["workdir"]["type"], "string");
    assert_eq!(props["pty"]["default"], false);
    assert_eq!(props["notify_on_complete"]["default"], false);
    assert_eq!(props["watch_patterns"]["type"], "array");
    assert_eq!(props["watch_patterns"]["items"], json!({"type": "string"}));
    assert_eq!(props["unsandboxed"]["default"], false);
    assert_eq!(props["network"]["type"], "boolean");
    assert_eq!(props["network"]["default"], false);
    assert_eq!(props.as_object().unwrap().len(), 9);
    assert_eq!(TerminalTool.name(), "terminal");
    assert!(TerminalTool.interactive());
    assert!(TerminalTool.description().starts_with("Execute shell commands"));
}

#[tokio::test]
async fn runs_a_command_and_merges_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = allow_all(dir.path());
    let (result, out) = call(&ctx, json!({"command": "echo hello; echo oops >&2"})).await;
    assert_eq!(result, json!({"output": "hello\noops", "exit_code": 0, "error": null}));
    assert!(!out.is_error);
    assert_eq!(
        out.display,
        ToolDisplay::Terminal {
            command: "echo hello; echo oops >&2".into(),
            output: "hello\noops".into(),
            exit_code: Some(0)
        }
    );
}

#[tokio::test]
async fn stdin_is_dev_null_so_readers_never_hang() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = allow_all(dir.path());
    // A reader of a real stdin would wait until the 10 s timeout and report it instead.
    let (result, _) = call(&ctx, json!({"command": "cat; read line; echo after", "timeout": 10})).await;
    assert_eq!(result["output"], "after");
    assert_eq!(result["exit_code"], 0);
}

#[tokio::test]
async fn non_zero_exit_is_a_normal_result_with_a_meaning_when_known() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = allow_all(dir.path());
    let (result, out) = call(&ctx, json!({"command": "echo partial; exit 3"})).await;
    assert!(!out.is_error);
    assert_eq!(result["exit_code"], 3);
    assert_eq!(result["output"], "partial");
    assert!(result.get("exit_code_meaning").is_none());

    std::fs::write(dir.path().join("f.txt"), "abc\n").unwrap();
    let (result, _) = call(&ctx, json!({"command": "grep zzz f.txt"})).await;
    assert_eq!(result["exit_code"], 1);
    assert_eq!(result["exit_code_meaning"], "No matches found (not an error)");
}

#[tokio::test]
async fn cd_and_exported_variables_carry_over_to_the_next_call() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = allow_all(dir.path());
    call(
        &ctx,
        json!({"command": "mkdir -p sub/deeper && cd sub && export HERMES_TEST_VAR=kept"}),
    )
    .await;
    assert_eq!(ctx.session.workspace.shell_cwd(), dir.path().join("sub"));
    let saved = ctx.session.state.processes.shell_state().source(None, true);
    let snapshot = std::fs::metadata(saved).unwrap();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&snapshot.permissions()) & 0o777,
        0o600,
        "the saved environment may hold secrets"
    );
    let (result, _) = call(&ctx, json!({"command": "pwd; echo $HERMES_TEST_VAR"})).await;
    assert_eq!(result["output"], format!("{}\nkept", dir.path().join("sub").display()));
    // `cd -` works across calls because OLDPWD is part of the saved environment.
    call(&ctx, json!({"command": "cd deeper"})).await;
    let (result, _) = call(&ctx, json!({"command": "cd - >/dev/null; pwd"})).await;
    assert_eq!(result["output"], dir.path().join("sub").display().to_string());
}

#[tokio::test]
async fn workdir_is_per_command_and_resolved_against_the_session_root() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
    let ctx = allow_all(dir.path());
    let (result, _) = call(&ctx, json!({"command": "pwd", "workdir": "a"})).await;
    assert_eq!(result["output"], dir.path().join("a").display().to_string());
    assert_eq!(
        ctx.session.workspace.shell_cwd(),
        dir.path(),
        "workdir alone does not move the shell"
    );

    let absolute = dir.path().join("a/b").display().to_string();
    let (result, _) = call(&ctx, json!({"command": "pwd", "workdir": absolute})).await;
    assert_eq!(result["output"], absolute);

    // A cd inside a workdir command does move the shell.
    call(&ctx, json!({"command": "cd b", "workdir": "a"})).await;
    assert_eq!(ctx.session.workspace.shell_cwd(), dir.path().join("a/b"));

    let (result, out) = call(&ctx, json!({"command": "pwd", "workdir": "missing"})).await;
    assert!(out.is_error);
    assert_eq!(result["status"], "error");
    assert!(
        result["error"]
            .as_str()
            .unwrap()
            .starts_with("Working directory does not exist")
    );

    let (result, out) = call(&ctx, json!({"command": "pwd", "workdir": "a;touch pwned"})).await;
    assert!(out.is_error);
    assert_eq!(result["status"], "blocked");
    assert_eq!(result["exit_code"], -1);
    assert!(!dir.path().join("pwned").exists());
}

#[tokio::test]
async fn a_vanished_shell_directory_falls_back_to_the_session_root() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = allow_all(dir.path());
    call(&ctx, json!({"command": "mkdir gone && cd gone"})).await;
    std::fs::remove_dir(dir.path().join("gone")).unwrap();
    let (result, _) = call(&ctx, json!({"command": "pwd"})).await;
    assert_eq!(result["output"], dir.path().display().to_string());
}

#[tokio::test]
async fn long_output_keeps_head_and_tail_and_ansi_is_stripped() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = allow_all(dir.path());
    let command = "printf 'START'; head -c 120000 /dev/zero | tr '\\0' a; printf '\\033[31mEND\\033[0m'";
    let (result, out) = call(&ctx, json!({"command": command})).await;
    let output = result["output"].as_str().unwrap();
    assert!(output.starts_with("STARTaaa"));
    assert!(output.ends_with("aaaEND"), "{}", &output[output.len() - 20..]);
    assert!(output.contains("characters omitted"));
    assert!(output.chars().count() < MAX_OUTPUT_CHARS + 200);
    assert!(!output.contains('\u{1b}'));
    let ToolDisplay::Terminal { output: shown, .. } = out.display else {
        panic!("terminal display expected")
    };
    assert_eq!(shown, output);
}

#[tokio::test]
async fn timeout_kills_the_whole_group_and_reports_124() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = allow_all(dir.path());
    let marker = unique_marker();
    // The `&` inside `sh -c` (a trailing one at top level gets background=true guidance).
    let command = format!("sh -c \"{} & wait\"", marked_sleep(&marker));
    let (result, out) = call(&ctx, json!({"command": command, "timeout": 1})).await;
    assert!(out.is_error);
    assert_eq!(result["exit_code"], 124);
    assert_eq!(result["error"], "Command timed out after 1 seconds");
    assert!(marker_gone(&marker).await, "grandchild {marker} survived the timeout");
}

#[tokio::test]
async fn cancel_kills_the_command_and_returns_promptly() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = allow_all(dir.path());
    // Cancel once the command runs (it wrote its pid); left alone it would run for 30 s and
    // exit 0, which the assertions below would catch.
    let cancel = ctx.cancel.clone();
    let pidfile = dir.path().join("pidfile");
    tokio::spawn(async move {
        while !std::fs::read_to_string(&pidfile).is_ok_and(|p| p.ends_with('\n')) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        cancel.cancel();
    });
    let marker = unique_marker();
    let command = format!("echo before; echo $$ > pidfile; {}", marked_sleep(&marker));
    let (result, out) = call(&ctx, json!({ "command": command })).await;
    assert!(out.is_error);
    assert_eq!(result["exit_code"], 130);
    assert_eq!(result["status"], "cancelled");
    assert_eq!(result["output"], "before\n[Command interrupted]");
    assert!(marker_gone(&marker).await);

    // Once the turn is cancelled, nothing new starts.
    let (result, out) = call(&ctx, json!({"command": "touch marker"})).await;
    assert!(out.is_error);
    assert_eq!(result["exit_code"], 130);
    assert!(!dir.path().join("marker").exists());
}

#[tokio::test]
async fn foreground_commands_that_would_linger_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = allow_all(dir.path());
    let (result, out) = call(&ctx, json!({"command": "touch marker &"})).await;
    assert!(out.is_error);
    assert_eq!(result["status"], "error");
    assert!(result["error"].as_str().unwrap().contains("background=true"));
    assert!(!dir.path().join("marker").exists());
}

#[tokio::test]
async fn invalid_commands_and_oversized_timeouts() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = allow_all(dir.path());
    let (result, out) = call(&ctx, json!({"command": 5})).await;
    assert!(out.is_error);
    assert_eq!(
        result,
        json!({"output": "", "exit_code": -1, "error": "Invalid command: expected string, got int", "status": "error"})
    );
    let (result, _) = call(&ctx, json!({})).await;
    assert_eq!(result["error"], "Invalid command: expected string, got NoneType");

    let (result, out) = call(&ctx, json!({"command": "echo ok", "timeout": 1000, "pty": true})).await;
    assert!(!out.is_error);
    assert_eq!(result["output"], "ok");
    assert!(
        result["timeout_note"]
            .as_str()
            .unwrap()
            .contains("capped at the foreground maximum of 600s")
    );
    assert!(
        result["pty_note"]
            .as_str()
            .unwrap()
            .contains("PTY mode is not available")
    );
}
