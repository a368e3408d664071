//! `terminal(background=true)`: starting tracked processes and the notification flags.

use std::sync::Arc;

use serde_json::{Value, json};

use super::{allow_all, call};
use crate::runtime::ToolDisplay;
use crate::runtime::approver::DenyAll;
use crate::runtime::shell::testing::test_ctx;

#[tokio::test]
async fn background_starts_a_tracked_process_in_the_saved_environment() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = allow_all(dir.path());
    call(
        &ctx,
        json!({"command": "mkdir sub && cd sub && export HERMES_BG_VAR=from-env"}),
    )
    .await;
    let (result, out) = call(&ctx, json!({"command": "echo $HERMES_BG_VAR; pwd", "background": true})).await;
    assert!(!out.is_error);
    assert_eq!(result["output"], "Background process started");
    assert_eq!(result["exit_code"], 0);
    assert_eq!(result["error"], Value::Null);
    assert!(result["hint"].as_str().unwrap().contains("SILENTLY"));
    let id = result["session_id"].as_str().unwrap();
    assert!(id.starts_with("proc_") && id.len() == 17, "{id}");
    let process = ctx.session.state.processes.get(id).unwrap();
    assert_eq!(result["pid"], process.pid);
    assert_eq!(process.wait_exit().await, 0);
    assert_eq!(
        process.output(),
        format!("from-env\n{}\n", dir.path().join("sub").display())
    );
    assert!(matches!(out.display, ToolDisplay::Terminal { exit_code: None, .. }));
}

#[tokio::test]
async fn background_notifications_are_declined_in_acp() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = allow_all(dir.path());
    let (result, _) = call(
        &ctx,
        json!({"command": "true", "background": true, "notify_on_complete": true}),
    )
    .await;
    assert_eq!(result["notify_on_complete"], false);
    assert!(
        result["notify_unsupported"]
            .as_str()
            .unwrap()
            .contains("process(action='poll')")
    );
    assert!(result.get("hint").is_none());
    assert!(result.get("watch_patterns_ignored").is_none());

    let args = json!({"command": "true", "background": true, "notify_on_complete": true, "watch_patterns": ["ready"]});
    let (result, _) = call(&ctx, args).await;
    assert!(
        result["watch_patterns_ignored"]
            .as_str()
            .unwrap()
            .starts_with("watch_patterns ignored")
    );

    let (result, _) = call(
        &ctx,
        json!({"command": "true", "background": true, "watch_patterns": ["ready"]}),
    )
    .await;
    assert!(result.get("notify_unsupported").is_some());
    assert!(result.get("hint").is_none());
}

#[tokio::test]
async fn background_commands_go_through_approval_too() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = test_ctx(dir.path(), Arc::new(DenyAll));
    let (result, out) = call(
        &ctx,
        json!({"command": "touch marker; rm -rf scratch", "background": true}),
    )
    .await;
    assert!(out.is_error);
    assert_eq!(result["status"], "blocked");
    assert!(ctx.session.state.processes.list().is_empty());
}
