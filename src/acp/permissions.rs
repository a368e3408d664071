//! The permission bridge: `tools::Approver` on top of `session/request_permission`. It belongs to
//! one session's running turn (never global state), applies the session's mode and remembered
//! rules first, and otherwise asks the editor, pointing at the tool card already announced.
//! A timeout or a failed request denies — and says it timed out, not that the user said no; the
//! outstanding request is cancelled. A cancelled turn answers cancelled.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    Diff, PermissionOption, PermissionOptionKind, RequestPermissionOutcome, RequestPermissionRequest, ToolCallContent,
    ToolCallStatus, ToolCallUpdate, ToolCallUpdateFields, ToolKind,
};
use futures::future::BoxFuture;
use serde_json::json;

use super::render::text_block;
use crate::session::Session;
use crate::store::{PermissionRule, Store};
use crate::tools::file_io::is_sensitive_edit_path;
use crate::tools::{ApprovalDecision, ApprovalRequest, Approver};

/// Option ids (the same as Hermes').
pub const ALLOW_ONCE: &str = "allow_once";
pub const ALLOW_SESSION: &str = "allow_session";
pub const ALLOW_ALWAYS: &str = "allow_always";
pub const DENY: &str = "deny";
pub const DENY_ALWAYS: &str = "deny_always";

/// Answers approval requests for one session's turn.
pub struct AcpApprover {
    cx: ConnectionTo<Client>,
    session: Arc<Session>,
    store: Store,
    timeout: Duration,
}

impl AcpApprover {
    pub fn new(cx: ConnectionTo<Client>, session: Arc<Session>, store: Store, timeout: Duration) -> AcpApprover {
        AcpApprover {
            cx,
            session,
            store,
            timeout,
        }
    }

    fn workspace(&self) -> String {
        self.session.settings().cwd.display().to_string()
    }

    async fn command(&self, call_id: &str, command: &str, description: &str, pattern_key: &str) -> ApprovalDecision {
        match self.session.settings().mode.as_str() {
            "yolo" => return ApprovalDecision::AllowOnce,
            // The registry refuses non-read-only commands before they get here; deny anyway.
            "read_only" => return ApprovalDecision::Deny,
            _ => {}
        }
        let workspace = self.workspace();
        match self.store.rules(&workspace).await {
            Ok(rules) => {
                if let Some(rule) = rules.iter().find(|r| r.command == command) {
                    tracing::info!(command, decision = %rule.decision, "remembered permission rule applied");
                    return if rule.decision == "allow" {
                        ApprovalDecision::AllowOnce
                    } else {
                        ApprovalDecision::Deny
                    };
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not read permission rules"),
        }
        let title = if description.is_empty() {
            command.to_string()
        } else {
            format!("{description}: {command}")
        };
        let fields = ToolCallUpdateFields::new()
            .title(title)
            .kind(ToolKind::Execute)
            .status(ToolCallStatus::Pending)
            .content(vec![text_block(&format!("{description}\n$ {command}"))])
            .raw_input(json!({"command": command, "description": description}));
        let options = vec![
            PermissionOption::new(ALLOW_ONCE, "Allow once", PermissionOptionKind::AllowOnce),
            PermissionOption::new(
                ALLOW_SESSION,
                format!("Allow for this session ({pattern_key})"),
                PermissionOptionKind::AllowAlways,
            ),
            PermissionOption::new(
                ALLOW_ALWAYS,
                "Always allow this command in this project",
                PermissionOptionKind::AllowAlways,
            ),
            PermissionOption::new(DENY, "Deny", PermissionOptionKind::RejectOnce),
            PermissionOption::new(
                DENY_ALWAYS,
                "Always deny this command in this project",
                PermissionOptionKind::RejectAlways,
            ),
        ];
        let decision = self.ask(call_id, fields, options).await;
        let remember = match decision {
            ApprovalDecision::AllowAlways => Some("allow"),
            ApprovalDecision::DenyAlways => Some("deny"),
            _ => None,
        };
        if let Some(decision) = remember {
            let rule = PermissionRule {
                workspace,
                command: command.to_string(),
                decision: decision.to_string(),
            };
            if let Err(e) = self.store.save_rule(rule).await {
                tracing::warn!(error = %e, "could not remember the permission rule");
            }
        }
        decision
    }

    async fn edit(
        &self,
        call_id: &str,
        tool: &str,
        path: &Path,
        old: Option<String>,
        new: String,
        args: serde_json::Value,
    ) -> ApprovalDecision {
        let sensitive = is_sensitive_edit_path(path);
        let cwd = self.session.settings().cwd;
        let auto = !sensitive
            && match self.session.settings().mode.as_str() {
                "yolo" | "dont_ask" => true,
                "accept_edits" => path.starts_with(&cwd) || path.starts_with(std::env::temp_dir()),
                "read_only" => return ApprovalDecision::Deny,
                _ => self.session.tool_state.edits_allowed_for_session(),
            };
        if auto {
            return ApprovalDecision::AllowOnce;
        }
        let fields = ToolCallUpdateFields::new()
            .title(format!("Approve edit: {}", path.display()))
            .kind(ToolKind::Edit)
            .status(ToolCallStatus::Pending)
            .content(vec![ToolCallContent::Diff(
                Diff::new(path.to_path_buf(), new).old_text(old),
            )])
            .raw_input(json!({"tool": tool, "arguments": args}));
        let options = vec![
            PermissionOption::new(ALLOW_ONCE, "Allow edit", PermissionOptionKind::AllowOnce),
            PermissionOption::new(
                ALLOW_SESSION,
                "Allow edits for the rest of this session",
                PermissionOptionKind::AllowAlways,
            ),
            PermissionOption::new(DENY, "Deny", PermissionOptionKind::RejectOnce),
        ];
        let decision = self.ask(call_id, fields, options).await;
        if decision == ApprovalDecision::AllowSession {
            self.session.tool_state.allow_edits_for_session();
        }
        decision
    }

    /// Sends the request and waits for the answer, the timeout or the turn's cancellation.
    async fn ask(
        &self,
        call_id: &str,
        fields: ToolCallUpdateFields,
        options: Vec<PermissionOption>,
    ) -> ApprovalDecision {
        let request = RequestPermissionRequest::new(
            self.session.id.clone(),
            ToolCallUpdate::new(call_id.to_string(), fields),
            options,
        );
        let cancel = self.session.turn_token().unwrap_or_default();
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

impl Approver for AcpApprover {
    fn request<'a>(&'a self, call_id: &'a str, request: ApprovalRequest) -> BoxFuture<'a, ApprovalDecision> {
        Box::pin(async move {
            match request {
                ApprovalRequest::Command {
                    command,
                    description,
                    pattern_key,
                } => self.command(call_id, &command, &description, &pattern_key).await,
                ApprovalRequest::Edit {
                    tool,
                    path,
                    old_text,
                    new_text,
                    arguments,
                } => self.edit(call_id, tool, &path, old_text, new_text, arguments).await,
            }
        })
    }
}
