//! Command analysis on a real shell parse: `assess` parses a command line with `brush-parser`,
//! walks every simple command it would run (lists, pipelines, compound commands, functions,
//! substitutions, process substitutions, `sh -c`, `eval`, wrappers such as `sudo`/`env`/
//! `xargs`/`find -exec`, scripts run by name — shell scripts, Makefile recipes, `package.json`
//! scripts — read through the injected `read_file`), decodes quoting, and classifies each by
//! effect. It fails closed: a program it does not know, an option a wrapper's table does not
//! list, an environment variable that makes a program run code, or a script it cannot read is
//! `Risk::Unknown` and never harmless. It is the second net behind the OS containment.
//!
//! Layout: `parse` (limits, parser calls) → `words` (quote decoding) → `walk` (AST traversal)
//! and `analysis` (findings, writes, cwd) with `frames` (one per simple command) → `wrappers` with `options` (commands that run
//! other commands), `env` (assignments) → `classify` and its siblings
//! `files`, `git`, `system`, `net`, `secrets`, `hardline`, `project`, `archives`, `tools`
//! (effects of one program); `scripts`, `makefile`, `package_json` (scripts run by name);
//! `runners` (awk/sed scripts, `su`); `redirects`; `paths` (lexical resolution); `glob`;
//! `known` and `read_only_programs` (what is known to be read-only or harmless); `pattern`
//! (rule patterns); `split` (`words`: the project's one shell lexer).

mod analysis;
mod archives;
mod classify;
mod env;
mod files;
mod flags;
mod frames;
mod git;
mod glob;
mod hardline;
mod known;
mod make;
mod makefile;
mod net;
mod options;
mod package_json;
mod parse;
mod paths;
mod pattern;
mod project;
pub(crate) mod read_only_programs;
mod redirects;
mod runners;
mod scripts;
mod secrets;
mod split;
mod system;
mod tools;
mod walk;
mod words;
mod wrappers;

#[cfg(test)]
mod tests;

use std::io::Read;
use std::path::{Path, PathBuf};

pub use pattern::RulePattern;
pub use secrets::is_secret_reason;
pub use split::words;

use super::paths::SensitiveRoots;

/// Longest command analysed; longer input is `Unknown` (the parser's cost grows with it).
pub const MAX_COMMAND_BYTES: usize = 64 * 1024;
/// Deepest nesting analysed (brackets, substitutions, `sh -c` levels); deeper is `Unknown`,
/// which keeps the recursive parser and our walk far from the stack limit.
pub const MAX_DEPTH: usize = 32;
/// Largest script, Makefile or `package.json` read to analyse what it runs; a larger one is
/// unknown (see [`read_bounded`]).
pub const MAX_SCRIPT_BYTES: usize = 256 * 1024;

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
    /// The project roots (absolute; canonical and as the session names them): a harmless
    /// change stays inside them or `temp`.
    pub roots: &'a [PathBuf],
    /// The temp dir commands may write to.
    pub temp: &'a Path,
    /// What `safety::paths::sensitive_reason` needs (home, `HERMES_HOME`): every named write
    /// target goes through the same check as a `write_file` edit.
    pub sensitive: &'a SensitiveRoots,
    /// Reads a script, Makefile or `package.json` the command would run, at most
    /// [`MAX_SCRIPT_BYTES`]; `None` when it is missing, unreadable, larger or not text.
    /// Injected like `exists` (production passes [`read_bounded`]).
    pub read_file: &'a dyn Fn(&Path) -> Option<String>,
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

/// One thing the analysis found, with its severity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub risk: Risk,
    pub reason: String,
}

/// A simple command a remembered rule has to cover before the line may run unasked: one that
/// is not harmless or that needs the network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleTarget {
    /// Its decoded argv after wrappers were peeled (non-literal words keep their source text).
    pub argv: Vec<String>,
    /// Program plus subcommand words (`cargo test`, `npm run build`, `python3 x.py`).
    pub pattern: RulePattern,
    /// Read-only, or an everyday change the analysis fully names.
    pub harmless: bool,
    /// Why it needs the network, if it does (`git fetch`).
    pub network: Option<String>,
    /// An `Unknown` finding belongs to it (an unknown program, a script in another language).
    pub unknown: bool,
}

/// The verdict on one command line.
#[derive(Debug, Clone, PartialEq)]
pub struct CommandAssessment {
    /// The most severe finding.
    pub risk: Risk,
    /// Human reasons, most severe first, e.g. "deletes files: dir (rm -rf)".
    pub reasons: Vec<String>,
    /// Every finding with its severity (the same texts as `reasons`).
    pub findings: Vec<Finding>,
    /// Every simple command only reads, nothing is written and nothing is unknown.
    pub read_only: bool,
    /// Every simple command is read-only or an everyday change whose effect the analysis fully
    /// names, inside the roots or temp, touching no sensitive path and overwriting nothing
    /// (`ls`, `git status`, `mkdir`, `echo x > new-file`). `read_only` implies it.
    pub harmless: bool,
    /// Every write target the analysis could name, resolved lexically against the cwd.
    pub write_targets: Vec<PathBuf>,
    /// Named write targets that `safety::paths::sensitive_reason` flags, with its reason.
    pub sensitive_writes: Vec<(PathBuf, String)>,
    /// Why the command needs the network (`curl`, `git fetch`, `npm install`…).
    pub network: Vec<String>,
    /// Literal program names found (for logs and cards).
    pub programs: Vec<String>,
    /// The decoded argv of every simple command after peeling wrappers.
    pub simple_commands: Vec<Vec<String>>,
    /// The simple commands a remembered rule must cover (not harmless, or needing the network).
    pub rule_targets: Vec<RuleTarget>,
    /// Why the command is not harmless where no rule can cover it: a program word that is not
    /// literal, text the analysis could not parse, an option it could not read, an environment
    /// variable it does not know… Empty when every such reason belongs to a `rule_targets` entry.
    pub unresolved: Vec<String>,
}

impl CommandAssessment {
    /// The distinct rule patterns of `rule_targets`, in order: what "always allow" would save.
    pub fn rule_patterns(&self) -> Vec<RulePattern> {
        let mut out: Vec<RulePattern> = Vec::new();
        for target in &self.rule_targets {
            if !out.contains(&target.pattern) {
                out.push(target.pattern.clone());
            }
        }
        out
    }

    /// The reasons of one severity, in order.
    pub fn reasons_of(&self, risk: Risk) -> impl Iterator<Item = &str> {
        self.findings
            .iter()
            .filter(move |f| f.risk == risk)
            .map(|f| f.reason.as_str())
    }

    /// The verdict on something the analysis cannot see into (a script in another language,
    /// a failure): unknown, and no rule pattern can cover it.
    pub fn unknown(reason: &str) -> Self {
        CommandAssessment {
            risk: Risk::Unknown,
            reasons: vec![reason.to_owned()],
            findings: vec![Finding {
                risk: Risk::Unknown,
                reason: reason.to_owned(),
            }],
            read_only: false,
            harmless: false,
            write_targets: Vec::new(),
            sensitive_writes: Vec::new(),
            network: Vec::new(),
            programs: Vec::new(),
            simple_commands: Vec::new(),
            rule_targets: Vec::new(),
            unresolved: vec![reason.to_owned()],
        }
    }
}

/// How the program modules hand a nested command back to the walk (see `analysis::Nested`).
const NESTED: analysis::Nested = analysis::Nested {
    peel: wrappers::peel,
    simple: classify::simple,
};

/// Parses and classifies `command` as it would run in `cx.cwd`. Never panics; anything it
/// cannot analyse (parse errors, limits, non-literal programs) is `Risk::Unknown`.
pub fn assess(command: &str, cx: &CommandContext) -> CommandAssessment {
    // The parser is third-party code fed hostile text: a panic in it must fail closed, not
    // take the turn down. (Stack depth is bounded up front by `MAX_DEPTH`.)
    let analysed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut analysis = analysis::Analysis::new(cx, NESTED);
        analysis.script(command, 0);
        analysis.finish()
    }));
    analysed.unwrap_or_else(|_| CommandAssessment::unknown("the command analyser failed on this input"))
}

/// Whether `command` only reads (for the read-only session mode).
pub fn is_read_only(command: &str, cx: &CommandContext) -> bool {
    assess(command, cx).read_only
}

/// Reads a regular text file of at most [`MAX_SCRIPT_BYTES`] (what production passes as
/// `CommandContext::read_file`). `None` for anything else: missing, a directory or device,
/// larger, or not UTF-8 (a binary program).
pub fn read_bounded(path: &Path) -> Option<String> {
    // Opening a named pipe would wait for a writer: only regular files are opened, and on
    // Unix without blocking in case one is swapped in between.
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(MAX_SCRIPT_BYTES as u64 + 1).read_to_end(&mut bytes).ok()?;
    if bytes.len() > MAX_SCRIPT_BYTES {
        return None;
    }
    String::from_utf8(bytes).ok()
}
