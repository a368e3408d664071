//! Commands: containment first, recognition second. Hardline never runs; read-only and plan
//! modes run only read-only commands, observe mode none. In every other mode but yolo, what the analysis recognises as
//! dangerous asks — destructive effects, secrets, sensitive writes, the network (unless
//! config opens it), running outside the sandbox, named writes outside the roots when not
//! contained. Beyond that: `default` asks for anything not known to be harmless;
//! `accept_edits`/`dont_ask` let a fully contained, undoable command run, and fall back to
//! allowlist semantics (only harmless runs unasked) otherwise. Remembered rules cover what
//! they name: an exact rule its command, a prefix rule the simple commands it names, and
//! never a recognised danger.

use std::path::PathBuf;

use super::concern::Concern;
use super::rules::{PrefixRule, cover_network, cover_unvetted};
use super::{Decision, Grant, Mode, ProjectRule, Question, Remember, Remembered};
use crate::safety::command::{CommandAssessment, Risk, is_secret_reason};

/// How much of the five promises the OS enforces for a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Containment {
    /// Every promise is enforced by the OS: writes confined, no network, secrets masked,
    /// sensitive paths read-only, no signals or IPC out, killed as a whole.
    Full,
    /// Some confinement (for example Landlock without namespaces).
    Partial,
    /// Nothing: sandbox off, the editor's terminal, no kernel support, an unsandboxed run.
    None,
}

/// A shell command, analysed, with what surrounds it.
#[derive(Debug, Clone, PartialEq)]
pub struct CommandEffect {
    pub command: String,
    pub assessment: CommandAssessment,
    pub containment: Containment,
    /// The model asked to run it outside the sandbox.
    pub unsandboxed: bool,
    /// The model asked for the network (`"network": true`).
    pub network_requested: bool,
    /// Config gives every command the network (`terminal.network: allow`).
    pub network_open: bool,
    /// Runs in the background (never read-only).
    pub background: bool,
    /// A checkpoint taken before it can restore everything it may change inside the project.
    pub undoable: bool,
    /// The canonical project roots (there may be several).
    pub roots: Vec<PathBuf>,
    pub temp: PathBuf,
}

impl CommandEffect {
    fn inside(&self, path: &std::path::Path) -> bool {
        self.roots.iter().any(|r| path.starts_with(r))
            || (self.temp != std::path::Path::new("/") && path.starts_with(&self.temp))
    }

    fn needs_network(&self) -> bool {
        !self.assessment.network.is_empty() || self.network_requested
    }
}

pub(super) fn decide_command(mode: Mode, c: &CommandEffect, remembered: &Remembered) -> Decision {
    let a = &c.assessment;
    if a.risk == Risk::Hardline {
        let reason = a.reasons.first().cloned().unwrap_or_else(|| "hardline".into());
        return Decision::Refuse(reason);
    }
    if !mode.runs_commands() {
        return Decision::Refuse(format!(
            "{} mode: commands do not run. {}",
            mode.name(),
            mode.refusal_note()
        ));
    }
    if mode.changes_nothing() {
        return match a.read_only && !c.background && !c.unsandboxed && !c.needs_network() {
            true => Decision::Allow(Grant::default()),
            false => Decision::Refuse(format!(
                "{} mode: only read-only commands may run (this one may change something). {}",
                mode.name(),
                mode.refusal_note()
            )),
        };
    }
    if remembered.project_command == Some(ProjectRule::Deny) {
        return Decision::Refuse("denied by a rule saved for this project (see /permissions)".to_string());
    }
    let full = c.containment == Containment::Full && !c.unsandboxed;
    let everything = Grant {
        network: c.network_open || c.needs_network(),
        sensitive_writes: !a.sensitive_writes.is_empty(),
    };
    // `yolo` consents to everything: the sandbox keeps confining writes and the network, but
    // no longer holds the files that run code later (a vendored clone can be deleted whole).
    if mode == Mode::Yolo {
        return Decision::Allow(Grant {
            sensitive_writes: true,
            ..everything
        });
    }
    if remembered.session_command || remembered.project_command == Some(ProjectRule::Allow) {
        return Decision::Allow(everything);
    }
    let hard = hard_concerns(c, full);
    let network_asked = hard.iter().any(|h| matches!(h, Concern::Network(_)));
    let beyond_network = hard.iter().any(|h| !matches!(h, Concern::Network(_)));
    let soft = soft_concerns(mode, c, full);
    // Prefix rules cover only what the analysis could attribute to literal simple commands,
    // and never a recognised danger.
    let rules_apply = !remembered.rules.is_empty() && a.unresolved.is_empty() && !beyond_network;
    let soft_covered = soft.is_empty() || (rules_apply && cover_unvetted(a, &remembered.rules));
    let rules_grant_network = rules_apply && cover_network(a, &remembered.rules, c.network_requested);
    let network_covered = !network_asked || rules_grant_network;
    let grant = Grant {
        network: c.network_open || c.needs_network() || rules_grant_network,
        sensitive_writes: !a.sensitive_writes.is_empty(),
    };
    let mut concerns: Vec<Concern> = hard
        .into_iter()
        .filter(|h| !(network_covered && matches!(h, Concern::Network(_))))
        .collect();
    if !soft_covered {
        concerns.extend(soft);
    }
    if concerns.is_empty() {
        return Decision::Allow(grant);
    }
    let remember = match a.unresolved.is_empty() && !beyond_network && !a.rule_targets.is_empty() {
        true => Remember::Patterns(remembered_rules(c)),
        false => Remember::Exact,
    };
    Decision::Ask(Question {
        concerns,
        grant,
        remember,
    })
}

/// The prefix rules "always" would save: one per distinct pattern, with the network for the
/// commands that need it (all of them when the model asked for it).
fn remembered_rules(c: &CommandEffect) -> Vec<PrefixRule> {
    let mut rules: Vec<PrefixRule> = Vec::new();
    for target in &c.assessment.rule_targets {
        let network = (target.network.is_some() || c.network_requested) && !c.network_open;
        match rules.iter_mut().find(|r| r.pattern == target.pattern) {
            Some(rule) => rule.network |= network,
            None => rules.push(PrefixRule {
                pattern: target.pattern.clone(),
                network,
            }),
        }
    }
    rules
}

/// What asks in every mode but yolo, whatever the containment.
fn hard_concerns(c: &CommandEffect, full: bool) -> Vec<Concern> {
    let a = &c.assessment;
    let mut out = Vec::new();
    for reason in a.reasons_of(Risk::Destructive) {
        out.push(match is_secret_reason(reason) {
            true => Concern::Secret(reason.to_owned()),
            false => Concern::Recognised(reason.to_owned()),
        });
    }
    for (path, why) in &a.sensitive_writes {
        out.push(Concern::Sensitive {
            path: path.clone(),
            why: why.clone(),
        });
    }
    if c.needs_network() && !c.network_open {
        out.push(Concern::Network(a.network.clone()));
    }
    if c.unsandboxed {
        out.push(Concern::Unsandboxed);
    }
    // Contained, a write outside fails; without containment, the named ones decide.
    if !full {
        for target in &a.write_targets {
            if !c.inside(target) && !a.sensitive_writes.iter().any(|(p, _)| p == target) {
                out.push(Concern::Outside(target.clone()));
            }
        }
    }
    out
}

/// What asks because the command is not known to be harmless, by mode and containment.
fn soft_concerns(mode: Mode, c: &CommandEffect, full: bool) -> Vec<Concern> {
    let a = &c.assessment;
    if a.harmless || a.risk == Risk::Destructive {
        return Vec::new();
    }
    let what = not_harmless(a);
    match mode {
        Mode::AcceptEdits | Mode::DontAsk if full && c.undoable => Vec::new(),
        Mode::AcceptEdits | Mode::DontAsk if full => vec![Concern::NotUndoable, Concern::NotHarmless(what)],
        Mode::AcceptEdits | Mode::DontAsk => vec![Concern::NotContained(c.containment), Concern::NotHarmless(what)],
        _ => vec![Concern::NotHarmless(what)],
    }
}

/// The unknown findings, then the simple commands the analysis cannot vouch for.
fn not_harmless(a: &CommandAssessment) -> Vec<String> {
    let mut what: Vec<String> = a.reasons_of(Risk::Unknown).map(str::to_owned).collect();
    for reason in &a.unresolved {
        if !what.contains(reason) {
            what.push(reason.clone());
        }
    }
    for target in a.rule_targets.iter().filter(|t| !t.harmless && !t.unknown) {
        let shown = format!("`{}`", target.pattern);
        if !what.contains(&shown) {
            what.push(shown);
        }
    }
    if what.is_empty() {
        what.push("the command's effect could not be determined".into());
    }
    what
}
