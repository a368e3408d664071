//! The approval policy: one pure function from (mode, what a tool call would do, what the user
//! already decided) to Allow / Ask(reason) / Refuse(reason). Tools describe the effect, this
//! module decides, and only an `Ask` reaches the editor. Modes govern the edit tools only: a
//! destructive or unknown command asks in every mode but yolo, a hardline one never runs.

use std::path::PathBuf;

use super::command::{CommandAssessment, Risk};

/// How much the agent may do without asking. Ids match Hermes for the first three.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    /// Ask before edits and before destructive or unknown commands.
    #[default]
    Default,
    /// Edits inside the project (and the temp dir) go through.
    AcceptEdits,
    /// As `AcceptEdits` (Hermes' third mode; commands still ask, edits outside still ask).
    DontAsk,
    /// No edits, only read-only commands.
    ReadOnly,
    /// Never ask; only hardline commands are refused. Offered only when the user enabled it.
    Yolo,
}

impl Mode {
    pub const ALL: [Mode; 5] = [
        Mode::Default,
        Mode::AcceptEdits,
        Mode::DontAsk,
        Mode::ReadOnly,
        Mode::Yolo,
    ];

    /// The id the editor and the database use.
    pub fn id(self) -> &'static str {
        match self {
            Mode::Default => "default",
            Mode::AcceptEdits => "accept_edits",
            Mode::DontAsk => "dont_ask",
            Mode::ReadOnly => "read_only",
            Mode::Yolo => "yolo",
        }
    }

    pub fn from_id(id: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.id() == id)
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

/// A shell command, analysed.
#[derive(Debug, Clone, PartialEq)]
pub struct CommandEffect {
    pub command: String,
    pub assessment: CommandAssessment,
    /// The command runs under the OS sandbox (writes confined to the project and temp).
    pub sandboxed: bool,
    /// The model asked to run it without the sandbox.
    pub unsandboxed: bool,
    /// Runs in the background (never read-only).
    pub background: bool,
    /// The canonical session cwd and temp dir: writes elsewhere are "outside".
    pub project: PathBuf,
    pub temp: PathBuf,
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
    Command(CommandEffect),
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Remembered {
    /// "Allow for this session" was given for this exact command.
    pub session_command: bool,
    /// An "always in this project" rule for this exact command.
    pub project_command: Option<ProjectRule>,
    /// "Allow edits for the rest of this session" was given.
    pub session_edits: bool,
}

/// The verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Allow,
    Ask(String),
    Refuse(String),
}

pub const READ_ONLY_NOTE: &str = "The session is in read-only mode; switch the mode in the editor to allow it.";

/// The one decision function.
pub fn decide(mode: Mode, effect: &Effect, remembered: &Remembered) -> Decision {
    match effect {
        Effect::Read => Decision::Allow,
        Effect::AgentState if mode == Mode::ReadOnly => Decision::Refuse(format!(
            "Read-only mode: this changes the agent's state. {READ_ONLY_NOTE}"
        )),
        Effect::AgentState => Decision::Allow,
        Effect::External { read_only, .. } if mode == Mode::ReadOnly && !read_only => {
            Decision::Refuse(format!("Read-only mode: external tools are disabled. {READ_ONLY_NOTE}"))
        }
        Effect::External { destructive, .. } if *destructive && mode != Mode::Yolo => {
            Decision::Ask("the tool's server marks it as destructive".to_string())
        }
        Effect::External { .. } => Decision::Allow,
        Effect::Edit(targets) => decide_edit(mode, targets, remembered),
        Effect::Command(command) => decide_command(mode, command, remembered),
    }
}

fn decide_edit(mode: Mode, targets: &[EditTarget], remembered: &Remembered) -> Decision {
    if mode == Mode::ReadOnly {
        return Decision::Refuse(format!("Read-only mode: file edits are disabled. {READ_ONLY_NOTE}"));
    }
    if mode == Mode::Yolo {
        return Decision::Allow;
    }
    let mut reasons = Vec::new();
    for target in targets {
        if let Some(why) = &target.sensitive {
            reasons.push(format!("sensitive file ({why}): {}", target.real.display()));
        } else if !target.inside_project && !target.in_temp {
            reasons.push(format!("writes outside the project: {}", target.real.display()));
        } else if target.real != target.path {
            // A symlink inside the project: say where the edit really lands.
            reasons.push(format!(
                "edits {} (through {})",
                target.real.display(),
                target.path.display()
            ));
        }
    }
    let escapes = targets
        .iter()
        .any(|t| t.sensitive.is_some() || (!t.inside_project && !t.in_temp));
    if escapes {
        return Decision::Ask(reasons.join("; "));
    }
    match mode {
        Mode::AcceptEdits | Mode::DontAsk => Decision::Allow,
        _ if remembered.session_edits => Decision::Allow,
        _ if reasons.is_empty() => Decision::Ask("edit".to_string()),
        _ => Decision::Ask(reasons.join("; ")),
    }
}

fn decide_command(mode: Mode, command: &CommandEffect, remembered: &Remembered) -> Decision {
    let assessment = &command.assessment;
    if assessment.risk == Risk::Hardline {
        let reason = assessment.reasons.first().cloned().unwrap_or_else(|| "hardline".into());
        return Decision::Refuse(reason);
    }
    if mode == Mode::ReadOnly {
        return match assessment.read_only && !command.background && !command.unsandboxed {
            true => Decision::Allow,
            false => Decision::Refuse(format!(
                "Read-only mode: only read-only commands may run (this one may change something). {READ_ONLY_NOTE}"
            )),
        };
    }
    if remembered.project_command == Some(ProjectRule::Deny) {
        return Decision::Refuse("denied by a rule saved for this project (see /permissions)".to_string());
    }
    if mode == Mode::Yolo {
        return Decision::Allow;
    }
    let concerns = command_concerns(command);
    if concerns.is_empty() || remembered.session_command || remembered.project_command == Some(ProjectRule::Allow) {
        return Decision::Allow;
    }
    Decision::Ask(concerns.join("; "))
}

/// Everything about a command that needs the user's click.
pub fn command_concerns(command: &CommandEffect) -> Vec<String> {
    let assessment = &command.assessment;
    let mut concerns = Vec::new();
    if matches!(assessment.risk, Risk::Destructive | Risk::Unknown) {
        concerns.extend(assessment.reasons.iter().cloned());
        if concerns.is_empty() {
            concerns.push("the command's effect could not be determined".to_string());
        }
    }
    if command.unsandboxed {
        concerns.push("runs without the OS sandbox (writes anywhere the user can)".to_string());
    }
    // Without the sandbox, nothing confines writes: the ones the analysis can name decide.
    if !command.sandboxed || command.unsandboxed {
        for target in &assessment.write_targets {
            if !target.starts_with(&command.project) && !target.starts_with(&command.temp) {
                concerns.push(format!("writes outside the project: {}", target.display()));
            }
        }
    }
    concerns
}

#[cfg(test)]
mod tests;
