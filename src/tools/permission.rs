//! The permission gate every risky tool call passes: the tool describes the effect, the pure
//! policy (`safety::policy::decide`) decides with the session's mode and what the user already
//! remembered, and only an `Ask` reaches the `Approver` (the editor). The user's answer is
//! remembered here: "for this session" in the session state, "always in this project" in the
//! store — both keyed by the exact command, never by a category.

use std::path::{Path, PathBuf};

use super::approval;
use super::{ApprovalDecision, ApprovalRequest, ToolContext};
use crate::safety::command::{CommandAssessment, CommandContext, Risk};
use crate::safety::paths::{SensitiveRoots, sensitive_reason};
use crate::safety::policy::{CommandEffect, Decision, EditTarget, Effect, ProjectRule, Remembered, decide};
use crate::store::PermissionRule;

/// Why a command did not run (the text for the model).
#[derive(Debug, Clone, PartialEq)]
pub struct Blocked(pub String);

/// The canonical session cwd and temp dir: what "inside the project" means.
pub fn project_roots(ctx: &ToolContext) -> (PathBuf, PathBuf) {
    let root = ctx.session.workspace.root();
    let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    (canonical(&root), canonical(&std::env::temp_dir()))
}

/// Analyses `command` as it would run in `cwd`.
pub fn assess_command(ctx: &ToolContext, command: &str, cwd: &Path) -> CommandAssessment {
    let home = super::workspace::home_dir();
    let own_pids: Vec<u32> = ctx
        .session
        .state
        .processes
        .list()
        .iter()
        .filter_map(|p| u32::try_from(p.pid).ok())
        .collect();
    let exists = |p: &Path| std::fs::symlink_metadata(p).is_ok();
    crate::safety::command::assess(
        command,
        &CommandContext {
            cwd,
            home: &home,
            own_pids: &own_pids,
            exists: &exists,
        },
    )
}

/// The key remembered rules use: the exact command, marked when it runs unsandboxed.
pub fn rule_key(command: &str, unsandboxed: bool) -> String {
    match unsandboxed {
        true => format!("[unsandboxed] {command}"),
        false => command.to_string(),
    }
}

/// Decides a command; asks the user when the policy says so. `Ok(Some(note))` when the user
/// approved it, `Ok(None)` when no approval was needed.
pub async fn gate_command(ctx: &ToolContext, effect: CommandEffect) -> Result<Option<String>, Blocked> {
    let key = rule_key(&effect.command, effect.unsandboxed);
    let remembered = Remembered {
        session_command: ctx.session.state.command_allowed(&key),
        project_command: project_rule(ctx, &key).await,
        session_edits: false,
    };
    let hardline = effect.assessment.risk == Risk::Hardline;
    let reason = match decide(ctx.session.state.mode(), &Effect::Command(effect.clone()), &remembered) {
        Decision::Allow => return Ok(None),
        Decision::Refuse(reason) if hardline => return Err(Blocked(approval::hardline_message(&reason))),
        Decision::Refuse(reason) if remembered.project_command == Some(ProjectRule::Deny) => {
            return Err(Blocked(approval::denied_message(&reason, false)));
        }
        Decision::Refuse(reason) => return Err(Blocked(reason)),
        Decision::Ask(reason) => reason,
    };
    let request = ApprovalRequest::Command {
        command: effect.command.clone(),
        reason: reason.clone(),
        unsandboxed: effect.unsandboxed,
    };
    let decision = tokio::select! {
        decision = ctx.session.approver.request(&ctx.call_id, request) => decision,
        () = ctx.cancel.cancelled() => ApprovalDecision::Cancelled,
    };
    match decision {
        ApprovalDecision::AllowOnce => {}
        ApprovalDecision::AllowSession => ctx.session.state.allow_command(&key),
        ApprovalDecision::AllowAlways => save_rule(ctx, &key, ProjectRule::Allow).await,
        ApprovalDecision::DenyAlways => {
            save_rule(ctx, &key, ProjectRule::Deny).await;
            return Err(Blocked(approval::denied_message(&reason, false)));
        }
        ApprovalDecision::TimedOut => return Err(Blocked(approval::denied_message(&reason, true))),
        ApprovalDecision::Cancelled => return Err(Blocked(approval::cancelled_message())),
        ApprovalDecision::Deny => return Err(Blocked(approval::denied_message(&reason, false))),
    }
    if ctx.cancel.is_cancelled() {
        return Err(Blocked(approval::cancelled_message()));
    }
    Ok(Some(approval::approved_note(&reason)))
}

/// Where an edit of `path` really lands — a write follows a final symlink (the link stays, its
/// target changes), a removal does not (the link itself goes) — and whether that is sensitive.
pub fn edit_target(ctx: &ToolContext, path: &Path, final_link: FinalLink) -> EditTarget {
    let real = match (final_link, path.parent(), path.file_name()) {
        (FinalLink::Kept, Some(parent), Some(name)) => super::file_io::real_path(parent).join(name),
        _ => super::file_io::real_path(path),
    };
    let (project, temp) = project_roots(ctx);
    let roots = SensitiveRoots {
        home: super::file_io::real_path(&super::workspace::home_dir()),
        hermes_home: ctx
            .services
            .hermes_home
            .as_deref()
            .map(super::file_io::real_path)
            .unwrap_or_else(|| super::workspace::home_dir().join(".hermes")),
    };
    EditTarget {
        path: path.to_path_buf(),
        inside_project: real.starts_with(&project),
        in_temp: real.starts_with(&temp) && temp != Path::new("/"),
        sensitive: sensitive_reason(&real, &roots),
        real,
    }
}

/// Whether an edit's final name is followed when it is a symlink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FinalLink {
    /// Writing: the link's target is what changes.
    Followed,
    /// Deleting or moving away: the link itself is what goes.
    Kept,
}

/// Decides an edit of `target`; asks the user with the diff when the policy says so.
pub async fn gate_edit(
    ctx: &ToolContext,
    target: EditTarget,
    request: impl FnOnce(String) -> ApprovalRequest,
) -> ApprovalDecision {
    let remembered = Remembered {
        session_edits: ctx.session.state.edits_allowed_for_session(),
        ..Remembered::default()
    };
    let reason = match decide(ctx.session.state.mode(), &Effect::Edit(vec![target]), &remembered) {
        Decision::Allow => return ApprovalDecision::AllowOnce,
        Decision::Refuse(_) => return ApprovalDecision::Deny,
        Decision::Ask(reason) => reason,
    };
    let decision = tokio::select! {
        decision = ctx.session.approver.request(&ctx.call_id, request(reason)) => decision,
        () = ctx.cancel.cancelled() => ApprovalDecision::Cancelled,
    };
    if decision == ApprovalDecision::AllowSession {
        ctx.session.state.allow_edits_for_session();
    }
    decision
}

/// The rule saved for this exact command in this project, if any.
async fn project_rule(ctx: &ToolContext, key: &str) -> Option<ProjectRule> {
    let store = ctx.services.store.as_ref()?;
    let workspace = ctx.session.workspace.root().display().to_string();
    match store.rules(&workspace).await {
        Ok(rules) => rules
            .iter()
            .find(|r| r.command == key)
            .map(|r| match r.decision.as_str() {
                "allow" => ProjectRule::Allow,
                _ => ProjectRule::Deny,
            }),
        Err(e) => {
            // Failing closed: without the rules, the command is decided as if none existed.
            tracing::warn!(error = %e, "could not read permission rules");
            None
        }
    }
}

async fn save_rule(ctx: &ToolContext, key: &str, rule: ProjectRule) {
    let Some(store) = ctx.services.store.as_ref() else {
        return;
    };
    let rule = PermissionRule {
        workspace: ctx.session.workspace.root().display().to_string(),
        command: key.to_string(),
        decision: match rule {
            ProjectRule::Allow => "allow",
            ProjectRule::Deny => "deny",
        }
        .to_string(),
    };
    if let Err(e) = store.save_rule(rule).await {
        tracing::warn!(error = %e, "could not remember the permission rule");
    }
}
