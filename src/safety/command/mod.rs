//! Command analysis on a real shell parse: `assess` parses a command line with `brush-parser`,
//! walks every simple command it would run (lists, pipelines, compound commands, functions,
//! substitutions, process substitutions, `sh -c`, `eval`, wrappers such as `sudo`/`env`/
//! `xargs`/`find -exec`), decodes quoting, and classifies each by effect. Anything it cannot
//! resolve to literal programs is `Risk::Unknown`, so safety never depends on recognising
//! every spelling of a dangerous command.
//!
//! Layout: `parse` (limits, parser calls) → `words` (quote decoding) → `walk` (AST traversal,
//! redirections) → `wrappers` (commands that run other commands) → `classify` and its
//! siblings `files`, `git`, `system`, `net`, `secrets`, `hardline` (effects of one program);
//! `runners` (programs that run operands, awk/sed scripts); `redirects`; `paths` (lexical
//! resolution); `read_only_programs` (the read-only knowledge); `split` (`words`: an argument
//! string split into words by the same parser — the project's one shell lexer).

mod classify;
mod files;
mod git;
mod hardline;
mod net;
mod parse;
mod paths;
pub(crate) mod read_only_programs;
mod redirects;
mod runners;
mod secrets;
mod split;
mod system;
mod walk;
mod words;
mod wrappers;

#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

pub use split::words;

/// Longest command analysed; longer input is `Unknown` (the parser's cost grows with it).
pub const MAX_COMMAND_BYTES: usize = 64 * 1024;
/// Deepest nesting analysed (brackets, substitutions, `sh -c` levels); deeper is `Unknown`,
/// which keeps the recursive parser and our walk far from the stack limit.
pub const MAX_DEPTH: usize = 32;

/// What the analysis needs to know about where the command runs.
pub struct CommandContext<'a> {
    /// Where the command runs (absolute).
    pub cwd: &'a Path,
    /// The user's home, for `~` and `$HOME`.
    pub home: &'a Path,
    /// Processes this session started (killing these is fine).
    pub own_pids: &'a [u32],
    /// File-exists test, injected so tables need no real files; production passes a
    /// `symlink_metadata` check.
    pub exists: &'a dyn Fn(&Path) -> bool,
}

/// How severe a finding is; ordered so the maximum is the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Risk {
    /// Known programs with no destructive effect.
    Safe,
    /// The analysis could not resolve what runs: ask.
    Unknown,
    /// Deletes, overwrites, leaks or rewrites something: ask.
    Destructive,
    /// Never runs, whatever the user or the mode says.
    Hardline,
}

/// The verdict on one command line.
#[derive(Debug, Clone, PartialEq)]
pub struct CommandAssessment {
    /// The most severe finding.
    pub risk: Risk,
    /// Human reasons, most severe first, e.g. "deletes files: dir (rm -rf)".
    pub reasons: Vec<String>,
    /// Every simple command only reads, nothing is written and nothing is unknown.
    pub read_only: bool,
    /// Every write target the analysis could name, resolved lexically against the cwd.
    pub write_targets: Vec<PathBuf>,
    /// Literal program names found (for logs and cards).
    pub programs: Vec<String>,
}

/// Parses and classifies `command` as it would run in `cx.cwd`. Never panics; anything it
/// cannot analyse (parse errors, limits, non-literal programs) is `Risk::Unknown`.
pub fn assess(command: &str, cx: &CommandContext) -> CommandAssessment {
    // The parser is third-party code fed hostile text: a panic in it must fail closed, not
    // take the turn down. (Stack depth is bounded up front by `MAX_DEPTH`.)
    let analysed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut analysis = walk::Analysis::new(cx);
        analysis.script(command, 0);
        analysis.finish()
    }));
    analysed.unwrap_or_else(|_| CommandAssessment {
        risk: Risk::Unknown,
        reasons: vec!["the command analyser failed on this input".to_owned()],
        read_only: false,
        write_targets: Vec::new(),
        programs: Vec::new(),
    })
}

/// Whether `command` only reads (for the read-only session mode).
pub fn is_read_only(command: &str, cx: &CommandContext) -> bool {
    assess(command, cx).read_only
}
