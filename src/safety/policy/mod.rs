//! The approval policy: one pure function from (mode, what a tool call would do, what the user
//! already decided) to Allow / Ask / Refuse. Tools describe the effect, this module decides,
//! and only an `Ask` reaches the editor. An `Allow` and a question both say what running the
//! call is granted beyond its containment (the network, writes to protected paths).
//!
//! Commands are decided in `command` (containment first, recognition second), edits here;
//! `concern` names why a question is asked, `rules` reads remembered rules.

mod command;
mod concern;
mod rules;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_command;

use std::path::PathBuf;

pub use command::{CommandEffect, Containment};
pub use concern::{Concern, Promise, describe};
pub use rules::{PrefixRule, RuleKey, exact_key};

/// How much the agent may do without asking. Ids match Hermes for the first three.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    /// Ask before edits and before any command not known to be harmless.
    #[default]
    Default,
    /// Edits inside the project (and the temp dir) go through; contained, undoable commands run.
    AcceptEdits,
    /// As `AcceptEdits` (Hermes' third mode).
    DontAsk,
    /// No edits, only read-only commands.
    ReadOnly,
    /// Never ask; only hardline commands are refused. Offered only when the user enabled it.
    Yolo,
    /// Look and plan, change nothing: decided as `ReadOnly` (reads, read-only commands), and
    /// the agent hands back a plan for the user to approve, which switches the mode.
    Plan,
    /// Everything but running commands (Hermes' `observe`): edits are decided as in
    /// `Default`; no command runs, not even a read-only one.
    Observe,
}

impl Mode {
    pub const ALL: [Mode; 7] = [
        Mode::Default,
        Mode::AcceptEdits,
        Mode::DontAsk,
        Mode::ReadOnly,
        Mode::Yolo,
        Mode::Plan,
        Mode::Observe,
    ];

    /// The id the editor and the database use.
    pub fn id(self) -> &'static str {
        match self {
            Mode::Default => "default",
            Mode::AcceptEdits => "accept_edits",
            Mode::DontAsk => "dont_ask",
            Mode::ReadOnly => "read_only",
            Mode::Yolo => "yolo",
            Mode::Plan => "plan",
            Mode::Observe => "observe",
        }
    }

    pub fn from_id(id: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.id() == id)
    }

    /// Nothing may change: no edits, no agent state, only read-only commands, and a sandbox
    /// with nothing writable but the session's scratch folder (`read_only` and `plan`).
    pub fn changes_nothing(self) -> bool {
        matches!(self, Mode::ReadOnly | Mode::Plan)
    }

    /// Commands may run at all (every mode but `observe`).
    pub fn runs_commands(self) -> bool {
        self != Mode::Observe
    }

    /// The sentence a refusal in this mode ends with: how the user (or the agent) gets out.
    pub fn refusal_note(self) -> &'static str {
        match self {
            Mode::Plan => PLAN_NOTE,
            Mode::Observe => OBSERVE_NOTE,
            _ => READ_ONLY_NOTE,
        }
    }

    /// The mode's name as refusals start with it.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Default => "Default",
            Mode::AcceptEdits => "Accept-edits",
            Mode::DontAsk => "Don't-ask",
            Mode::ReadOnly => "Read-only",
            Mode::Yolo => "YOLO",
            Mode::Plan => "Plan",
            Mode::Observe => "Observe",
        }
    }

    /// The refusal of something that would change `what` in a mode that changes nothing
    /// (`None` in the other modes).
    pub fn change_refusal(self, what: &str) -> Option<String> {
        match self {
            Mode::ReadOnly | Mode::Plan => Some(format!("{} mode: {what}. {}", self.name(), self.refusal_note())),
            _ => None,
        }
    }
}

/// Where an edit really lands, resolved before deciding (symlinks followed).
#[derive(Debug, Clone, PartialEq)]
pub struct EditTarget {
    /// The path as the model gave it, resolved against the session cwd.
    pub path: PathBuf,
    /// Every existing component canonicalised: what the write would really change.
    pub real: PathBuf,
    /// `real` lies inside the (canonical) session cwd.
    pub inside_project: bool,
    /// `real` lies inside the system temp dir.
    pub in_temp: bool,
    /// Why the target is sensitive (shell rc, git hooks, credentials…), if it is.
    pub sensitive: Option<String>,
}

/// What a tool call would do.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Reads only.
    Read,
    /// Changes the agent's own state (memory, process control).
    AgentState,
    /// Writes (or deletes) these files.
    Edit(Vec<EditTarget>),
    Command(Box<CommandEffect>),
    /// A tool of an external (MCP) server, described by its annotations.
    External {
        read_only: bool,
        destructive: bool,
    },
}

/// A rule the user saved for this project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProjectRule {
    Allow,
    Deny,
}

/// What the user already decided that bears on this call.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Remembered {
    /// "Allow for this session" was given for this exact command (and flags).
    pub session_command: bool,
    /// An "always in this project" rule for this exact command (and flags).
    pub project_command: Option<ProjectRule>,
    /// "Allow edits for the rest of this session" was given.
    pub session_edits: bool,
    /// Prefix rules allowed for this session or always in this project.
    pub rules: Vec<PrefixRule>,
}

/// What running an allowed call may do beyond its containment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Grant {
    /// The command may use the network.
    pub network: bool,
    /// The read-only protection of sensitive in-project paths is lifted for it.
    pub sensitive_writes: bool,
}

/// What "this session" / "always in this project" would remember for a question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Remember {
    /// The exact command text (and its flags).
    Exact,
    /// These prefix rules (`cargo test …`), each granting the network when the question was
    /// about the network for the commands it names.
    Patterns(Vec<PrefixRule>),
}

/// A question for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    /// Why, most important first.
    pub concerns: Vec<Concern>,
    /// What approving grants.
    pub grant: Grant,
    pub remember: Remember,
}

impl Question {
    fn of(concerns: Vec<Concern>) -> Self {
        Question {
            concerns,
            grant: Grant::default(),
            remember: Remember::Exact,
        }
    }

    /// The concerns as one line (the card's reason).
    pub fn reason(&self) -> String {
        describe(&self.concerns)
    }
}

/// The verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Allow(Grant),
    Ask(Question),
    Refuse(String),
}

pub const READ_ONLY_NOTE: &str = "The session is in read-only mode; switch the mode in the editor to allow it.";
/// Said with every refusal in plan mode: nothing changes until the user approves a plan.
pub const PLAN_NOTE: &str = "Do not retry: present your plan to the user for approval instead; \
once they approve it, the mode changes and you can carry it out.";
/// Said with every refusal in observe mode.
pub const OBSERVE_NOTE: &str =
    "The session is in observe mode: no command runs, not even a read-only one; use the read, search and edit tools.";

/// The one decision function.
pub fn decide(mode: Mode, effect: &Effect, remembered: &Remembered) -> Decision {
    let allow = Decision::Allow(Grant::default());
    match effect {
        Effect::Read => allow,
        Effect::AgentState => match mode.change_refusal("the agent's state does not change") {
            Some(reason) => Decision::Refuse(reason),
            None => allow,
        },
        Effect::External { read_only: false, .. } if mode.changes_nothing() => Decision::Refuse(format!(
            "{} mode: external tools that may change something are disabled. {}",
            mode.name(),
            mode.refusal_note()
        )),
        Effect::External { destructive, .. } if *destructive && mode != Mode::Yolo => {
            Decision::Ask(Question::of(vec![Concern::ServerDestructive]))
        }
        Effect::External { .. } => allow,
        Effect::Edit(targets) => decide_edit(mode, targets, remembered),
        Effect::Command(command) => command::decide_command(mode, command, remembered),
    }
}

fn decide_edit(mode: Mode, targets: &[EditTarget], remembered: &Remembered) -> Decision {
    if let Some(reason) = mode.change_refusal("file edits are disabled") {
        return Decision::Refuse(reason);
    }
    if mode == Mode::Yolo {
        return Decision::Allow(Grant::default());
    }
    let mut concerns = Vec::new();
    for target in targets {
        if let Some(why) = &target.sensitive {
            concerns.push(Concern::Sensitive {
                path: target.real.clone(),
                why: why.clone(),
            });
        } else if !target.inside_project && !target.in_temp {
            concerns.push(Concern::Outside(target.real.clone()));
        } else if target.real != target.path {
            // A symlink inside the project: say where the edit really lands.
            concerns.push(Concern::EditThrough {
                real: target.real.clone(),
                path: target.path.clone(),
            });
        }
    }
    let escapes = targets
        .iter()
        .any(|t| t.sensitive.is_some() || (!t.inside_project && !t.in_temp));
    if escapes {
        return Decision::Ask(Question::of(concerns));
    }
    match mode {
        Mode::AcceptEdits | Mode::DontAsk => Decision::Allow(Grant::default()),
        _ if remembered.session_edits => Decision::Allow(Grant::default()),
        _ if concerns.is_empty() => Decision::Ask(Question::of(vec![Concern::Edit])),
        _ => Decision::Ask(Question::of(concerns)),
    }
}
