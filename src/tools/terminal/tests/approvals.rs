//! Destructive and hardline commands through the permission gate: what runs, what is blocked,
//! what is remembered (the exact command, never a category).

use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use serde_json::json;

use super::{allow_all, call};
use crate::runtime::approval;
use crate::runtime::approver::DenyAll;
use crate::runtime::shell::testing::test_ctx;
use crate::runtime::{ApprovalDecision, ApprovalRequest, Approver};

/// Answers every request with one decision and records what was asked.
struct Scripted {
    decision: ApprovalDecision,
    asked: Mutex<Vec<ApprovalRequest>>,
}

impl Scripted {
    fn new(decision: ApprovalDecision) -> Arc<Scripted> {
        Arc::new(Scripted {
            decision,
            asked: Mutex::new(Vec::new()),
        })
    }

    fn asked(&self) -> Vec<ApprovalRequest> {
        self.asked.lock().unwrap().clone()
    }
}

impl Approver for Scripted {
    fn request<'a>(&'a self, _call_id: &'a str, request: ApprovalRequest) -> BoxFuture<'a, ApprovalDecision> {
        self.asked.lock().unwrap().push(request);
        Box::pin(async { self.decision })
    }
}

#[tokio::test]
async fn hardline_commands_never_run_even_when_everything_is_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = allow_all(dir.path());
    let command = "mkfs.hermestest /dev/hermes-test-none 2>/dev/null; touch marker";
    let (result, out) = call(&ctx, json!({"command": command})).await;
    assert!(out.is_error);
    assert_eq!(result["status"], "blocked");
    assert_eq!(result["exit_code"], -1);
    assert_eq!(result["output"], "");
    assert!(result["error"].as_str().unwrap().starts_with("BLOCKED"));
    assert!(!dir.path().join("marker").exists());
}

#[tokio::test]
async fn denied_dangerous_commands_are_blocked_and_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = test_ctx(dir.path(), Arc::new(DenyAll));
    let (result, out) = call(&ctx, json!({"command": "touch marker && rm -rf scratch"})).await;
    assert!(out.is_error);
    assert_eq!(result["status"], "blocked");
    assert_eq!(result["exit_code"], -1);
    assert!(result["error"].as_str().unwrap().starts_with("BLOCKED"));
    assert!(!dir.path().join("marker").exists());
}

#[tokio::test]
async fn approved_dangerous_commands_run_with_the_approval_note() {
    let dir = tempfile::tempdir().unwrap();
    let approver = Scripted::new(ApprovalDecision::AllowOnce);
    let ctx = test_ctx(dir.path(), approver.clone());
    let (result, out) = call(&ctx, json!({"command": "touch marker && rm -rf scratch"})).await;
    assert!(!out.is_error);
    assert_eq!(result["exit_code"], 0);
    assert!(dir.path().join("marker").exists());
    let asked = approver.asked();
    let [
        ApprovalRequest::Command {
            command,
            reason,
            unsandboxed: false,
            ..
        },
    ] = asked.as_slice()
    else {
        panic!("one command approval expected, got {asked:?}")
    };
    assert_eq!(command, "touch marker && rm -rf scratch");
    assert_eq!(
        result["approval"],
        format!("Command required approval ({reason}) and was approved by the user.")
    );
    // "Allow once" is not remembered.
    assert!(!ctx.session.state.command_allowed(command));
    call(&ctx, json!({"command": "rm -rf scratch"})).await;
    assert_eq!(approver.asked().len(), 2);
}

#[tokio::test]
async fn allow_for_session_is_remembered_in_the_session_state() {
    let dir = tempfile::tempdir().unwrap();
    let approver = Scripted::new(ApprovalDecision::AllowSession);
    let ctx = test_ctx(dir.path(), approver.clone());
    let (first, _) = call(&ctx, json!({"command": "mkdir -p scratch && rm -rf scratch"})).await;
    assert!(first.get("approval").is_some());
    let ApprovalRequest::Command { command, .. } = &approver.asked()[0] else {
        panic!("command request")
    };
    assert!(ctx.session.state.command_allowed(command));
    let (second, out) = call(&ctx, json!({"command": "mkdir -p scratch && rm -rf scratch"})).await;
    assert!(!out.is_error);
    assert_eq!(approver.asked().len(), 1, "an allowed command is not asked again");
    assert!(second.get("approval").is_none());
    // The rule names the exact command: another recursive delete asks again.
    call(&ctx, json!({"command": "mkdir -p other && rm -rf other"})).await;
    assert_eq!(approver.asked().len(), 2, "a different command is asked");
}

#[tokio::test]
async fn an_unanswered_approval_is_reported_as_a_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let approver = Scripted::new(ApprovalDecision::TimedOut);
    let ctx = test_ctx(dir.path(), approver.clone());
    let (result, out) = call(&ctx, json!({"command": "touch marker && rm -rf scratch"})).await;
    assert!(out.is_error);
    let ApprovalRequest::Command { reason, .. } = &approver.asked()[0] else {
        panic!("command request")
    };
    assert_eq!(result["error"], approval::denied_message(reason, true));
    assert_ne!(result["error"], approval::denied_message(reason, false));
    assert!(!dir.path().join("marker").exists());
}
