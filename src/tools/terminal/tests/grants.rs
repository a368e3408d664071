//! What the permission gate grants and remembers: the network and sensitive writes only when
//! the question named them, the `network` argument as a question of its own, and "for this
//! session" remembered as a rule pattern that covers exactly what it names.

use std::path::Path;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use serde_json::json;

use super::call;
use crate::runtime::permission::{self, Approval};
use crate::runtime::shell::testing::test_ctx;
use crate::runtime::{ApprovalDecision, ApprovalRequest, Approver, ToolContext};
use crate::safety::policy::{CommandEffect, Concern, Containment};

/// Answers every request with one decision and records what was asked.
struct Recorder {
    decision: ApprovalDecision,
    asked: Mutex<Vec<ApprovalRequest>>,
}

impl Recorder {
    fn new(decision: ApprovalDecision) -> Arc<Recorder> {
        Arc::new(Recorder {
            decision,
            asked: Mutex::new(Vec::new()),
        })
    }

    fn asked(&self) -> Vec<ApprovalRequest> {
        self.asked.lock().unwrap().clone()
    }
}

impl Approver for Recorder {
    fn request<'a>(&'a self, _call_id: &'a str, request: ApprovalRequest) -> BoxFuture<'a, ApprovalDecision> {
        self.asked.lock().unwrap().push(request);
        Box::pin(async { self.decision })
    }
}

/// The command's effect as `terminal` builds it, contained and undoable.
fn effect(ctx: &ToolContext, dir: &Path, command: &str, network: bool) -> CommandEffect {
    let (project, temp) = permission::project_roots(ctx);
    CommandEffect {
        command: command.into(),
        assessment: permission::assess_command(ctx, command, dir),
        containment: Containment::Full,
        unsandboxed: false,
        network_requested: network,
        network_open: false,
        background: false,
        undoable: true,
        roots: project,
        temp,
    }
}

#[tokio::test]
async fn approvals_grant_what_the_question_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".git/hooks")).unwrap();
    let recorder = Recorder::new(ApprovalDecision::AllowOnce);
    let ctx = test_ctx(dir.path(), recorder.clone());
    let gate = |command: &'static str, network: bool| {
        let effect = effect(&ctx, dir.path(), command, network);
        permission::gate_command(&ctx, effect)
    };
    assert_eq!(gate("ls", false).await.unwrap(), Approval::default());
    let curl = gate("curl -s https://example.com", false).await.unwrap();
    assert!(curl.network && !curl.sensitive_writes && curl.note.is_some());
    let hook = gate("echo x > .git/hooks/pre-commit", false).await.unwrap();
    assert!(hook.sensitive_writes && !hook.network);
    let asked = gate("ls", true).await.unwrap();
    assert!(asked.network);
    let requests = recorder.asked();
    assert_eq!(requests.len(), 3, "ls asks only with the network: {requests:?}");
    let ApprovalRequest::Command { concerns, network, .. } = &requests[2] else {
        panic!("a command question")
    };
    assert_eq!(concerns, &[Concern::Network(vec![])]);
    assert!(network);
}

#[tokio::test]
async fn allow_for_the_session_remembers_the_pattern_and_covers_only_it() {
    let dir = tempfile::tempdir().unwrap();
    let recorder = Recorder::new(ApprovalDecision::AllowSession);
    let ctx = test_ctx(dir.path(), recorder.clone());
    let gate = |command: &'static str| {
        let effect = effect(&ctx, dir.path(), command, false);
        permission::gate_command(&ctx, effect)
    };
    gate("cargo test").await.unwrap();
    let ApprovalRequest::Command { remember_patterns, .. } = &recorder.asked()[0] else {
        panic!("a command question")
    };
    assert_eq!(remember_patterns, &["cargo test …"]);
    assert!(ctx.session.state.command_allowed("cargo test …"));
    gate("cargo test --lib -- --nocapture").await.unwrap();
    assert_eq!(recorder.asked().len(), 1, "covered by the remembered pattern");
    gate("cargo build").await.unwrap();
    gate("cargo test; rm -rf target").await.unwrap();
    assert_eq!(recorder.asked().len(), 3, "`cargo build` and an `rm` beside it ask");
}

#[tokio::test]
async fn the_network_argument_asks_and_a_denial_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let recorder = Recorder::new(ApprovalDecision::Deny);
    let ctx = test_ctx(dir.path(), recorder.clone());
    let (result, out) = call(&ctx, json!({"command": "touch marker", "network": true})).await;
    assert!(out.is_error);
    assert_eq!(result["status"], "blocked");
    assert!(!dir.path().join("marker").exists());
    let ApprovalRequest::Command { reason, .. } = &recorder.asked()[0] else {
        panic!("a command question")
    };
    assert_eq!(reason, "needs the network (the model asked for it)");
}
