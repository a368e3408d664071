//! The approval seam: tools ask before running a dangerous command or editing a file, and an
//! `Approver` answers. The editor bridge implements it with `session/request_permission`; the
//! model can never approve its own action. Without a bridge, `DenyAll` refuses everything.

use std::path::PathBuf;

use futures::future::BoxFuture;
use serde_json::Value;

use crate::safety::policy::Concern;

/// What a tool wants to do, after the policy decided it needs the user's click.
#[derive(Debug, Clone, PartialEq)]
pub enum ApprovalRequest {
    /// A shell command.
    Command {
        command: String,
        /// Why it needs approval: the concerns as one line, shown on the card.
        reason: String,
        /// It would run without the OS sandbox.
        unsandboxed: bool,
        /// Why it needs approval, structured: each concern names the promise it is about and
        /// displays as the card's words ("needs the network (curl)", "cannot be undone").
        concerns: Vec<Concern>,
        /// What "for this session" / "always in this project" would remember: these rule
        /// patterns (`cargo test …`), or, when empty, the exact command.
        remember_patterns: Vec<String>,
        /// Approving lets the command use the network.
        network: bool,
    },
    /// A file edit, with whole-file texts for the diff.
    Edit {
        tool: &'static str,
        /// The path the model named (resolved against the session cwd).
        path: PathBuf,
        /// What the write would really change (symlinks followed).
        real_path: PathBuf,
        /// Why it needs approval, shown on the card.
        reason: String,
        old_text: Option<String>,
        new_text: String,
        arguments: Value,
    },
    /// A plan to approve before plan mode ends. The answers mean: `AllowSession` (the
    /// `allow_always` option) approve and switch to `accept_edits`; `AllowOnce` approve and
    /// switch to `default`; a denial keep planning.
    Plan {
        /// The plan in Markdown, as the model wrote it.
        plan: String,
        /// Its steps, as the plan view shows them.
        steps: Vec<String>,
    },
}

impl ApprovalRequest {
    /// The request as the raw input the editor shows with the question: what would run or
    /// change and why (the texts of an edit go in its diff, not here).
    pub fn shown_input(&self) -> Value {
        match self {
            ApprovalRequest::Command {
                command,
                reason,
                unsandboxed,
                concerns,
                remember_patterns,
                network,
            } => serde_json::json!({
                "command": command,
                "reason": reason,
                "unsandboxed": unsandboxed,
                "concerns": concerns.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "remember": remember_patterns,
                "network": network,
            }),
            ApprovalRequest::Edit {
                tool,
                path,
                real_path,
                reason,
                arguments,
                ..
            } => serde_json::json!({
                "tool": tool,
                "path": path,
                "real_path": real_path,
                "reason": reason,
                "arguments": arguments,
            }),
            ApprovalRequest::Plan { plan, steps } => serde_json::json!({
                "plan": plan,
                "steps": steps,
            }),
        }
    }
}

/// The user's answer (or why there was none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApprovalDecision {
    AllowOnce,
    /// Allow this exact command, or edits inside the project, for the rest of the session.
    AllowSession,
    /// Allow this command in this project from now on (persisted).
    AllowAlways,
    Deny,
    DenyAlways,
    /// Nobody answered in time: treated as a denial, reported as a timeout.
    TimedOut,
    /// The turn was cancelled while waiting.
    Cancelled,
}

impl ApprovalDecision {
    pub fn is_allowed(self) -> bool {
        matches!(
            self,
            ApprovalDecision::AllowOnce | ApprovalDecision::AllowSession | ApprovalDecision::AllowAlways
        )
    }
}

/// Answers approval requests for one turn.
pub trait Approver: Send + Sync {
    /// `call_id` is the tool call the request belongs to (its card is already announced).
    fn request<'a>(&'a self, call_id: &'a str, request: ApprovalRequest) -> BoxFuture<'a, ApprovalDecision>;
}

/// Refuses everything: the safe default when no editor can be asked.
#[derive(Debug, Default, Clone, Copy)]
pub struct DenyAll;

impl Approver for DenyAll {
    fn request<'a>(&'a self, _call_id: &'a str, _request: ApprovalRequest) -> BoxFuture<'a, ApprovalDecision> {
        Box::pin(async { ApprovalDecision::Deny })
    }
}

/// Allows everything it is asked (tests that are not about approvals). Yolo mode never gets
/// here: the policy allows before asking.
#[derive(Debug, Default, Clone, Copy)]
pub struct AllowAll;

impl Approver for AllowAll {
    fn request<'a>(&'a self, _call_id: &'a str, _request: ApprovalRequest) -> BoxFuture<'a, ApprovalDecision> {
        Box::pin(async { ApprovalDecision::AllowOnce })
    }
}
