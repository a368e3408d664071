//! The permission bridge: `runtime::Approver` on top of `session/request_permission`. It belongs to
//! one session's running turn (never global state) and only asks: the mode and remembered rules
//! were applied by the policy before, so every request here is one the user must answer. What
//! the question says is `questions.rs`; this sends it and reads the answer.
//! A timeout or a failed request denies — and says it timed out, not that the user said no; the
//! outstanding request is cancelled. A cancelled turn answers cancelled. An answer naming an
//! option the question did not offer is a denial.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    RequestPermissionOutcome, RequestPermissionRequest, SessionId, ToolCallUpdate,
};
use futures::future::BoxFuture;
use tokio_util::sync::CancellationToken;

use super::questions::{self, Asker, Question};
use crate::runtime::{ApprovalDecision, ApprovalRequest, Approver};
use crate::session::Session;

/// Answers approval requests for one session's turn by asking the editor. The policy already
/// decided that the user must be asked (`runtime::permission`); this only renders the question.
pub struct AcpApprover {
    cx: ConnectionTo<Client>,
    timeout: Duration,
    /// The prompt's cancel token: a cancelled turn stops waiting for the answer.
    cancel: CancellationToken,
    /// Where the question goes: the session's own id, or a subagent's session.
    target: SessionId,
    /// The session folder, which paths in titles are relative to.
    cwd: PathBuf,
    /// Who asks: the agent, or a subagent working on a goal.
    asker: Asker,
}

impl AcpApprover {
    pub fn new(
        cx: ConnectionTo<Client>,
        session: Arc<Session>,
        timeout: Duration,
        cancel: CancellationToken,
    ) -> AcpApprover {
        AcpApprover {
            cx,
            target: SessionId::new(session.id.as_str()),
            cwd: session.settings().cwd,
            timeout,
            cancel,
            asker: Asker::default(),
        }
    }

    /// The same approver asking for a subagent working on `goal`, on session `target` (the
    /// child's own session when the editor shows it, else the parent's).
    pub fn for_subagent(mut self, goal: &str, target: &str) -> AcpApprover {
        self.asker.subagent_goal = Some(crate::text::clip(goal.trim(), 80));
        self.target = SessionId::new(target);
        self
    }

    /// Sends the question and waits for the answer, the timeout or the turn's cancellation.
    async fn ask(&self, call_id: &str, question: Question) -> ApprovalDecision {
        let request = RequestPermissionRequest::new(
            self.target.clone(),
            ToolCallUpdate::new(call_id.to_string(), question.fields.clone()),
            question.options.clone(),
        );
        let cancel = self.cancel.clone();
        // Dropping the pending request (timeout, cancel) sends `$/cancel_request` to the editor.
        let pending = self.cx.send_request(request).block_task();
        let outcome = tokio::select! {
            biased;
            _ = cancel.cancelled() => return ApprovalDecision::Cancelled,
            result = tokio::time::timeout(self.timeout, pending) => result,
        };
        match outcome {
            Err(_) => {
                tracing::warn!(
                    call_id,
                    timeout_s = self.timeout.as_secs(),
                    "permission request timed out; denying"
                );
                ApprovalDecision::TimedOut
            }
            Ok(Err(e)) => {
                tracing::warn!(call_id, error = %e, "permission request failed; denying");
                ApprovalDecision::TimedOut
            }
            Ok(Ok(response)) => match response.outcome {
                RequestPermissionOutcome::Selected(selected) => {
                    let id = &*selected.option_id.0;
                    if !question.offers(id) {
                        tracing::warn!(
                            call_id,
                            option = id,
                            "answer names an option that was not offered; denying"
                        );
                        return ApprovalDecision::Deny;
                    }
                    question.decision(id)
                }
                RequestPermissionOutcome::Cancelled => ApprovalDecision::Cancelled,
                _ => ApprovalDecision::Deny,
            },
        }
    }
}

impl Approver for AcpApprover {
    fn request<'a>(&'a self, call_id: &'a str, request: ApprovalRequest) -> BoxFuture<'a, ApprovalDecision> {
        Box::pin(async move {
            let shown = request.shown_input();
            let question = match request {
                ApprovalRequest::Command {
                    command,
                    reason,
                    unsandboxed,
                    remember_patterns,
                    ..
                } => questions::command(&self.asker, &command, &reason, unsandboxed, &remember_patterns, shown),
                ApprovalRequest::Edit {
                    real_path,
                    reason,
                    old_text,
                    new_text,
                    ..
                } => {
                    let edit = questions::Edit {
                        real_path,
                        reason,
                        old_text,
                        new_text,
                    };
                    questions::edit(&self.asker, edit, &self.cwd, shown)
                }
                ApprovalRequest::Plan { plan, steps } => questions::plan(&self.asker, &plan, steps.len(), shown),
            };
            self.ask(call_id, question).await
        })
    }
}
