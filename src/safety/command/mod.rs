//! Command analysis on a real shell parse: every simple command a command line would run,
//! classified by effect. (Provisional: the assessment types; the analyser lands separately.)

use std::path::{Path, PathBuf};

/// What the analysis needs to know about where the command runs.
pub struct CommandContext<'a> {
    pub cwd: &'a Path,
    pub home: &'a Path,
    pub own_pids: &'a [u32],
    pub exists: &'a dyn Fn(&Path) -> bool,
}

/// How risky a command is, least to most.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Risk {
    Safe,
    Unknown,
    Destructive,
    Hardline,
}

/// The analysis of one command line.
#[derive(Debug, Clone, PartialEq)]
pub struct CommandAssessment {
    pub risk: Risk,
    pub reasons: Vec<String>,
    pub read_only: bool,
    pub write_targets: Vec<PathBuf>,
    pub programs: Vec<String>,
}

/// Provisional until the analyser lands: nothing is known, so everything asks.
pub fn assess(command: &str, _cx: &CommandContext) -> CommandAssessment {
    CommandAssessment {
        risk: Risk::Unknown,
        reasons: vec![format!("not analysed: {command}")],
        read_only: false,
        write_targets: Vec::new(),
        programs: Vec::new(),
    }
}
