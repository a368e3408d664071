//! The permission gate every risky tool call passes: the tool describes the effect, the pure
//! policy (`safety::policy::decide`) decides with the session's mode and what the user already
//! remembered, and only an `Ask` reaches the `Approver` (the editor). The user's answer is
//! remembered here: "for this session" in the session state, "always in this project" in the
//! store. A question about commands the analysis can attribute to literal simple commands is
//! remembered by their rule patterns (`cargo test …`, with the network when the question was
//! about it); any other by the exact command. The gate returns what an approval grants (the
//! network, writes to protected paths) for the sandbox to apply.

use std::path::{Path, PathBuf};

use super::approval;
use super::{ApprovalDecision, ApprovalRequest, ToolContext};
use crate::safety::command::{CommandAssessment, CommandContext, Risk, RulePattern, read_bounded};
use crate::safety::paths::{SensitiveRoots, sensitive_reason};
use crate::safety::policy::{
    CommandEffect, Decision, EditTarget, Effect, PrefixRule, ProjectRule, Remember, Remembered, RuleKey, decide,
    exact_key,
};
use crate::store::PermissionRule;

/// Why a command did not run (the text for the model).
#[derive(Debug, Clone, PartialEq)]
pub struct Blocked(pub String);

/// A command may run, and with what beyond its containment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Approval {
    /// The note for the model when the user approved it (`None`: no question was asked).
    pub note: Option<String>,
    /// It may use the network (approved, remembered, or `terminal.network: allow`).
    pub network: bool,
    /// The read-only protection of sensitive in-project paths is lifted for it (only after the
    /// user approved a question that named those writes, or an exact rule for it).
    pub sensitive_writes: bool,
}

/// The session's folders, canonical and de-duplicated (the cwd first), and the temp dir: what
/// "inside the project" means.
pub fn project_roots(ctx: &ToolContext) -> (Vec<PathBuf>, PathBuf) {
    let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let mut roots: Vec<PathBuf> = Vec::new();
    for root in ctx.session.workspace.roots() {
        let root = canonical(&root);
        if !roots.contains(&root) {
            roots.push(root);
        }
    }
    (roots, canonical(&std::env::temp_dir()))
}

/// The project roots for the analysis: canonical and as the session names them.
fn roots(ctx: &ToolContext) -> Vec<PathBuf> {
    let (mut roots, _) = project_roots(ctx);
    for named in ctx.session.workspace.roots() {
        if !roots.contains(&named) {
            roots.push(named);
        }
    }
    roots
}

/// Home and `HERMES_HOME`, canonical: what `sensitive_reason` needs.
fn sensitive_roots(ctx: &ToolContext) -> SensitiveRoots {
    SensitiveRoots {
        home: super::file_io::guards::real_path(&super::workspace::home_dir()),
        hermes_home: ctx
            .services
            .hermes_home
            .as_deref()
            .map(super::file_io::guards::real_path)
            .unwrap_or_else(|| super::workspace::home_dir().join(".hermes")),
    }
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
    let (_, temp) = project_roots(ctx);
    crate::safety::command::assess(
        command,
        &CommandContext {
            cwd,
            home: &home,
            own_pids: &own_pids,
            exists: &exists,
            roots: &roots(ctx),
            temp: &temp,
            sensitive: &sensitive_roots(ctx),
            read_file: &read_bounded,
        },
    )
}

/// The key an exact remembered rule uses: the command, marked when it runs unsandboxed or
/// asked for the network.
pub fn rule_key(command: &str, unsandboxed: bool) -> String {
    exact_key(command, unsandboxed, false)
}

/// The prefix rules remembered for this session or project that could cover `assessment`:
/// every prefix of each rule target's argv, looked up as a key (patterns are exact words).
fn prefix_rules(ctx: &ToolContext, assessment: &CommandAssessment, project: &[PermissionRule]) -> Vec<PrefixRule> {
    let mut out: Vec<PrefixRule> = project
        .iter()
        .filter(|r| r.decision == "allow")
        .filter_map(|r| match RuleKey::parse(&r.command) {
            RuleKey::Prefix(rule) => Some(rule),
            RuleKey::Exact { .. } => None,
        })
        .collect();
    for target in &assessment.rule_targets {
        for len in 1..=target.argv.len().min(8) {
            for network in [false, true] {
                let rule = PrefixRule {
                    pattern: RulePattern::new(target.argv[..len].to_vec()),
                    network,
                };
                if ctx.session.state.command_allowed(&rule.key()) && !out.contains(&rule) {
                    out.push(rule);
                }
            }
        }
    }
    out
}

/// Decides a command; asks the user when the policy says so.
pub async fn gate_command(ctx: &ToolContext, effect: CommandEffect) -> Result<Approval, Blocked> {
    let key = exact_key(&effect.command, effect.unsandboxed, effect.network_requested);
    let project = project_rules(ctx).await;
    let remembered = Remembered {
        session_command: ctx.session.state.command_allowed(&key),
        project_command: project
            .iter()
            .find(|r| r.command == key)
            .map(|r| match r.decision.as_str() {
                "allow" => ProjectRule::Allow,
                _ => ProjectRule::Deny,
            }),
        session_edits: false,
        rules: prefix_rules(ctx, &effect.assessment, &project),
    };
    let hardline = effect.assessment.risk == Risk::Hardline;
    let mode = ctx.session.state.mode();
    let question = match decide(mode, &Effect::Command(Box::new(effect.clone())), &remembered) {
        Decision::Allow(grant) => {
            return Ok(Approval {
                note: None,
                network: grant.network,
                sensitive_writes: grant.sensitive_writes,
            });
        }
        Decision::Refuse(reason) if hardline => return Err(Blocked(approval::hardline_message(&reason))),
        Decision::Refuse(reason) if remembered.project_command == Some(ProjectRule::Deny) => {
            return Err(Blocked(approval::denied_message(&reason, false)));
        }
        Decision::Refuse(reason) => return Err(Blocked(ctx.session.tools.with_way_out(mode, reason))),
        Decision::Ask(question) => question,
    };
    let reason = question.reason();
    let remember_keys: Vec<String> = match &question.remember {
        Remember::Exact => vec![key.clone()],
        Remember::Patterns(rules) => rules.iter().map(PrefixRule::key).collect(),
    };
    let request = ApprovalRequest::Command {
        command: effect.command.clone(),
        reason: reason.clone(),
        unsandboxed: effect.unsandboxed,
        concerns: question.concerns.clone(),
        remember_patterns: match &question.remember {
            Remember::Exact => Vec::new(),
            Remember::Patterns(rules) => rules.iter().map(|r| r.pattern.to_string()).collect(),
        },
        network: question.grant.network,
    };
    let decision = tokio::select! {
        decision = ctx.session.approver.request(&ctx.call_id, request) => decision,
        () = ctx.cancel.cancelled() => ApprovalDecision::Cancelled,
    };
    match decision {
        ApprovalDecision::AllowOnce => {}
        ApprovalDecision::AllowSession => {
            for k in &remember_keys {
                ctx.session.state.allow_command(k);
            }
        }
        ApprovalDecision::AllowAlways => {
            for k in &remember_keys {
                save_rule(ctx, k, ProjectRule::Allow).await;
            }
        }
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
    Ok(Approval {
        note: Some(approval::approved_note(&reason)),
        network: question.grant.network,
        sensitive_writes: question.grant.sensitive_writes,
    })
}

/// Where an edit of `path` really lands — a write follows a final symlink (the link stays, its
/// target changes), a removal does not (the link itself goes) — and whether that is sensitive.
pub fn edit_target(ctx: &ToolContext, path: &Path, final_link: FinalLink) -> EditTarget {
    let real = match (final_link, path.parent(), path.file_name()) {
        (FinalLink::Kept, Some(parent), Some(name)) => super::file_io::guards::real_path(parent).join(name),
        _ => super::file_io::guards::real_path(path),
    };
    let (project, temp) = project_roots(ctx);
    EditTarget {
        path: path.to_path_buf(),
        inside_project: project.iter().any(|root| real.starts_with(root)),
        in_temp: real.starts_with(&temp) && temp != Path::new("/"),
        sensitive: sensitive_reason(&real, &sensitive_roots(ctx)),
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
        Decision::Allow(_) => return ApprovalDecision::AllowOnce,
        Decision::Refuse(_) => return ApprovalDecision::Deny,
        Decision::Ask(question) => question.reason(),
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

/// The rules saved for this project (none when the store cannot say: fail closed).
async fn project_rules(ctx: &ToolContext) -> Vec<PermissionRule> {
    let Some(store) = ctx.services.store.as_ref() else {
        return Vec::new();
    };
    let workspace = ctx.session.workspace.root().display().to_string();
    match store.rules(&workspace).await {
        Ok(rules) => rules,
        Err(e) => {
            // Failing closed: without the rules, the command is decided as if none existed.
            tracing::warn!(error = %e, "could not read permission rules");
            Vec::new()
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
