//! The permission bridge: `tools::Approver` on top of `session/request_permission`. It belongs to
//! one session's running turn (never global state) and only asks: the mode and remembered rules
//! were applied by the policy before, so every request here is one the user must answer. It
//! points at the tool card already announced and says why approval is needed.
//! A timeout or a failed request denies — and says it timed out, not that the user said no; the
//! outstanding request is cancelled. A cancelled turn answers cancelled.

use std::sync::Arc;
use std::time::Duration;

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    Diff, PermissionOption, PermissionOptionKind, RequestPermissionOutcome, RequestPermissionRequest, SessionId,
    ToolCallContent, ToolCallUpdate, ToolCallUpdateFields, ToolKind,
};
use futures::future::BoxFuture;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::render::text_block;
use crate::session::Session;
use crate::tools::{ApprovalDecision, ApprovalRequest, Approver};

/// Option ids (the same as Hermes').
pub const ALLOW_ONCE: &str = "allow_once";
pub const ALLOW_SESSION: &str = "allow_session";
pub const ALLOW_ALWAYS: &str = "allow_always";
pub const DENY: &str = "deny";
pub const DENY_ALWAYS: &str = "deny_always";

/// Answers approval requests for one session's turn by asking the editor. The policy already
/// decided that the user must be asked (`tools::permission`); this only renders the question.
pub struct AcpApprover {
    cx: ConnectionTo<Client>,
    timeout: Duration,
    /// The prompt's cancel token: a cancelled turn stops waiting for the answer.
    cancel: CancellationToken,
    /// Where the question goes: the session's own id, or a subagent's session.
    target: SessionId,
    /// The goal of the subagent asking, named in the question.
    subagent: Option<String>,
}

/// Labels quote the command; a long one is cut so the buttons stay readable.
fn quoted(command: &str) -> String {
    let line = command.lines().next().unwrap_or_default();
    let mut cut: String = line.chars().take(60).collect();
    if cut.len() < command.len() {
        cut.push('…');
    }
    format!("`{cut}`")
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
            timeout,
            cancel,
            subagent: None,
        }
    }

    /// The same approver asking for a subagent working on `goal`, on session `target` (the
    /// child's own session when the editor shows it, else the parent's).
    pub fn for_subagent(mut self, goal: &str, target: &str) -> AcpApprover {
        self.subagent = Some(crate::text::clip(goal.trim(), 80));
        self.target = SessionId::new(target);
        self
    }

    /// The question's opening words.
    fn needs(&self) -> String {
        match &self.subagent {
            Some(goal) => format!("Subagent \u{201c}{goal}\u{201d} needs your approval"),
            None => "Needs your approval".to_string(),
        }
    }

    async fn command(
        &self,
        call_id: &str,
        command: &str,
        reason: &str,
        unsandboxed: bool,
        shown: Value,
    ) -> ApprovalDecision {
        let sandbox_note = if unsandboxed { " (without the sandbox)" } else { "" };
        // The card keeps its own title and status: clients that apply this as an update of
        // the card must not be left with a question as its title.
        let fields = ToolCallUpdateFields::new()
            .kind(ToolKind::Execute)
            .content(vec![text_block(&format!("{}: {reason}\n$ {command}", self.needs()))])
            .raw_input(shown);
        let shown = quoted(command);
        let options = vec![
            PermissionOption::new(ALLOW_ONCE, "Allow once", PermissionOptionKind::AllowOnce),
            PermissionOption::new(
                ALLOW_SESSION,
                format!("Allow {shown}{sandbox_note} for this session"),
                PermissionOptionKind::AllowAlways,
            ),
            PermissionOption::new(
                ALLOW_ALWAYS,
                format!("Always allow {shown}{sandbox_note} in this project"),
                PermissionOptionKind::AllowAlways,
            ),
            PermissionOption::new(DENY, "Deny", PermissionOptionKind::RejectOnce),
            PermissionOption::new(
                DENY_ALWAYS,
                format!("Always deny {shown} in this project"),
                PermissionOptionKind::RejectAlways,
            ),
        ];
        self.ask(call_id, fields, options).await
    }

    async fn edit(&self, call_id: &str, edit: EditQuestion, shown: Value) -> ApprovalDecision {
        let fields = ToolCallUpdateFields::new()
            .kind(ToolKind::Edit)
            .content(vec![
                text_block(&format!("{}: {}", self.needs(), edit.reason)),
                ToolCallContent::Diff(Diff::new(edit.real_path.clone(), edit.new_text).old_text(edit.old_text)),
            ])
            .raw_input(shown);
        let mut options = vec![PermissionOption::new(
            ALLOW_ONCE,
            "Allow edit",
            PermissionOptionKind::AllowOnce,
        )];
        // "For the session" covers ordinary edits in the project; a sensitive or outside
        // target asks every time, so offering it there would promise what it does not do.
        if edit.reason == "edit" {
            options.push(PermissionOption::new(
                ALLOW_SESSION,
                "Allow edits in this project for the rest of this session",
                PermissionOptionKind::AllowAlways,
            ));
        }
        options.push(PermissionOption::new(DENY, "Deny", PermissionOptionKind::RejectOnce));
        self.ask(call_id, fields, options).await
    }

    /// Sends the request and waits for the answer, the timeout or the turn's cancellation.
    async fn ask(
        &self,
        call_id: &str,
        fields: ToolCallUpdateFields,
        options: Vec<PermissionOption>,
    ) -> ApprovalDecision {
        let request = RequestPermissionRequest::new(
            self.target.clone(),
            ToolCallUpdate::new(call_id.to_string(), fields),
            options,
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
                RequestPermissionOutcome::Selected(selected) => match &*selected.option_id.0 {
                    ALLOW_ONCE => ApprovalDecision::AllowOnce,
                    ALLOW_SESSION => ApprovalDecision::AllowSession,
                    ALLOW_ALWAYS => ApprovalDecision::AllowAlways,
                    DENY_ALWAYS => ApprovalDecision::DenyAlways,
                    _ => ApprovalDecision::Deny,
                },
                RequestPermissionOutcome::Cancelled => ApprovalDecision::Cancelled,
                _ => ApprovalDecision::Deny,
            },
        }
    }
}

/// An edit question, unpacked from the request.
struct EditQuestion {
    real_path: std::path::PathBuf,
    reason: String,
    old_text: Option<String>,
    new_text: String,
}

impl Approver for AcpApprover {
    fn request<'a>(&'a self, call_id: &'a str, request: ApprovalRequest) -> BoxFuture<'a, ApprovalDecision> {
        Box::pin(async move {
            let shown = request.shown_input();
            match request {
                ApprovalRequest::Command {
                    command,
                    reason,
                    unsandboxed,
                    ..
                } => self.command(call_id, &command, &reason, unsandboxed, shown).await,
                ApprovalRequest::Edit {
                    real_path,
                    reason,
                    old_text,
                    new_text,
                    ..
                } => {
                    let question = EditQuestion {
                        real_path,
                        reason,
                        old_text,
                        new_text,
                    };
                    self.edit(call_id, question, shown).await
                }
            }
        })
    }
}
