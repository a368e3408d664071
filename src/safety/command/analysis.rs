//! The state of one analysis: findings, programs, write targets (each checked against the
//! sensitive paths, the roots and the temp dir), the cwd as `cd` moves it, and the frames of
//! the simple commands being classified (`frames`).

use std::path::{Path, PathBuf};

use super::frames::Frames;
use super::words::Arg;
use super::{CommandAssessment, CommandContext, Finding, MAX_DEPTH, Risk, parse, paths};
use crate::safety::paths::sensitive_reason;

/// Scripts, Makefiles and `package.json` files read per command line at most (a Makefile
/// calling `$(MAKE)` in every recipe must not read files without end).
const MAX_READS: u8 = 16;

/// Where a simple command's standard input comes from (a shell reading stdin runs it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stdin {
    Inherited,
    Pipe,
    File,
    Here,
}

/// The walk's entry points for a command nested in another one's words (`xargs rm`, `find
/// -exec`, `uv run pytest`, `git bisect run make`). The module root installs them, so a program
/// module hands a nested command back up without importing the walk above it: the analysis is
/// recursive, its modules are not a circle.
#[derive(Clone, Copy)]
pub(super) struct Nested {
    /// Peels wrappers (`env`, `nice`, `sudo`, `xargs`…) off the words and classifies what runs.
    pub peel: fn(&mut Analysis, &[Arg], Stdin, usize),
    /// Classifies words as the program already named (nothing left to peel).
    pub simple: fn(&mut Analysis, &str, &[Arg], Stdin, usize),
}

pub(super) struct Analysis<'a> {
    pub cx: &'a CommandContext<'a>,
    nested: Nested,
    findings: Vec<Finding>,
    programs: Vec<String>,
    writes: Vec<PathBuf>,
    sensitive: Vec<(PathBuf, String)>,
    network: Vec<String>,
    read_only: bool,
    /// Functions whose body we are in, for the fork-bomb test.
    pub(super) functions: Vec<String>,
    /// The current command runs alongside others (pipeline or `&`).
    pub(super) fanout: bool,
    /// Where the current command runs: `cd` in the line moves it.
    cwd: PathBuf,
    /// False after a `cd` to a directory that is not literal.
    cwd_known: bool,
    frames: Frames,
    /// The line turns on `dotglob` (or sets `GLOBIGNORE`): `*` matches dot files too.
    pub(super) dotglob: bool,
    reads_left: u8,
}

impl<'a> Analysis<'a> {
    pub fn new(cx: &'a CommandContext<'a>, nested: Nested) -> Self {
        Self {
            cx,
            nested,
            findings: Vec::new(),
            programs: Vec::new(),
            writes: Vec::new(),
            sensitive: Vec::new(),
            network: Vec::new(),
            read_only: true,
            functions: Vec::new(),
            fanout: false,
            cwd: cx.cwd.to_path_buf(),
            cwd_known: true,
            frames: Frames::default(),
            dotglob: false,
            reads_left: MAX_READS,
        }
    }

    /// Analyses `words` as a command of its own, wrappers peeled (see [`Nested`]).
    pub fn peel(&mut self, words: &[Arg], stdin: Stdin, depth: usize) {
        (self.nested.peel)(self, words, stdin, depth)
    }

    /// Classifies `words` as `prog` (see [`Nested`]).
    pub fn classify_as(&mut self, prog: &str, words: &[Arg], stdin: Stdin, depth: usize) {
        (self.nested.simple)(self, prog, words, stdin, depth)
    }

    /// Runs `words` plus an argument only known at run time, as a command of its own.
    pub fn inner(&mut self, words: &[Arg], extra: &str, stdin: Stdin, depth: usize) {
        let mut cmd = words.to_vec();
        cmd.push(Arg {
            text: extra.to_owned(),
            ..Arg::default()
        });
        self.open_frame();
        self.peel(&cmd, stdin, depth + 1);
        self.close_frame();
    }

    pub fn finish(mut self) -> CommandAssessment {
        // Stable: within a risk, reasons keep the order they were found in.
        self.findings.sort_by_key(|f| std::cmp::Reverse(f.risk));
        let mut reasons: Vec<String> = Vec::new();
        for f in &self.findings {
            if !reasons.contains(&f.reason) {
                reasons.push(f.reason.clone());
            }
        }
        let risk = self.findings.first().map_or(Risk::Safe, |f| f.risk);
        self.writes.dedup();
        let Frames {
            simple_commands,
            targets,
            unresolved,
            ..
        } = self.frames;
        let harmless = risk == Risk::Safe
            && unresolved.is_empty()
            && self.sensitive.is_empty()
            && targets.iter().all(|t| t.harmless);
        let read_only = self.read_only && harmless && self.writes.is_empty() && self.network.is_empty();
        CommandAssessment {
            risk,
            reasons,
            findings: self.findings,
            read_only,
            harmless,
            write_targets: self.writes,
            sensitive_writes: self.sensitive,
            network: self.network,
            programs: self.programs,
            simple_commands,
            rule_targets: targets,
            unresolved,
        }
    }

    /// Records a finding. `Unknown` ones no rule can cover (see [`Analysis::unvetted`] for
    /// those that belong to the program itself).
    pub fn flag(&mut self, risk: Risk, reason: impl Into<String>) {
        let reason = reason.into();
        if risk > Risk::Safe {
            self.read_only = false;
        }
        match risk {
            Risk::Safe => {}
            Risk::Unknown => self.opaque(&reason),
            Risk::Destructive | Risk::Hardline => self.frames.not_harmless(&reason),
        }
        self.findings.push(Finding { risk, reason });
    }

    /// Not harmless for a reason no rule can cover (inside a script host: the host's).
    pub fn opaque(&mut self, reason: &str) {
        self.read_only = false;
        self.frames.opaque(reason);
    }

    /// The current program is not harmless (a project command, an unknown program): a rule
    /// naming it may cover it. With `unknown`, the reason is also an `Unknown` finding.
    pub fn unvetted(&mut self, reason: &str, unknown: bool) {
        self.read_only = false;
        self.frames.unvetted(reason, unknown);
        if unknown {
            self.findings.push(Finding {
                risk: Risk::Unknown,
                reason: reason.to_owned(),
            });
        }
    }

    /// The current program needs the network.
    pub fn network(&mut self, reason: impl Into<String>) {
        let reason = reason.into();
        self.read_only = false;
        self.frames.network(&reason);
        if !self.network.contains(&reason) {
            self.network.push(reason);
        }
    }

    pub fn not_read_only(&mut self) {
        self.read_only = false;
    }

    pub fn open_frame(&mut self) {
        self.frames.open();
    }

    pub fn close_frame(&mut self) {
        self.frames.close();
    }

    /// The real program of the current frame is reached: `words` is its argv, the first
    /// `pattern_len` of them its rule pattern.
    pub fn program_words(&mut self, words: &[Arg], pattern_len: usize) {
        self.frames.program_words(words, pattern_len);
    }

    /// The rule pattern of the current frame takes `len` words.
    pub fn pattern_len(&mut self, len: usize) {
        self.frames.pattern_len(len);
    }

    /// The current frame only carries command text analysed on its own (`sh -c`, `eval`).
    pub fn carrier(&mut self) {
        self.frames.carrier();
    }

    /// The current frame runs a script whose commands fold into it.
    pub fn host(&mut self) {
        self.frames.host();
    }

    pub fn program_seen(&mut self, name: &str) {
        if !self.programs.iter().any(|p| p == name) {
            self.programs.push(name.to_owned());
        }
    }

    pub fn in_function_named(&self, name: &str) -> bool {
        self.fanout && self.functions.iter().any(|f| f == name)
    }

    /// Where the current command runs.
    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// `text` as an absolute path from where the current command runs.
    pub fn resolve(&self, text: &str) -> PathBuf {
        paths::resolve(text, &self.cwd, self.cx.home)
    }

    /// Inside a project root or the temp dir.
    pub fn inside(&self, path: &Path) -> bool {
        self.cx.roots.iter().any(|r| path.starts_with(r))
            || (self.cx.temp != Path::new("/") && path.starts_with(self.cx.temp))
    }

    /// Reads a file a command would run (bounded per line, see `MAX_READS`).
    pub fn read(&mut self, path: &Path) -> Option<String> {
        if self.reads_left == 0 {
            return None;
        }
        self.reads_left -= 1;
        (self.cx.read_file)(path)
    }

    /// `cd DIR` / `pushd DIR`: later commands of this shell run there.
    pub fn change_dir(&mut self, dir: Option<&Arg>) {
        match dir {
            None => self.cwd = self.cx.home.to_path_buf(),
            Some(d) if d.literal && d.text != "-" => self.cwd = self.resolve(&d.text),
            Some(_) => self.cwd_known = false,
        }
    }

    /// Runs `f` in a subshell: a `cd` inside does not outlive it.
    pub fn subshell(&mut self, f: impl FnOnce(&mut Self)) {
        let saved = (self.cwd.clone(), self.cwd_known);
        f(self);
        (self.cwd, self.cwd_known) = saved;
    }

    /// Runs `f` with the cwd at `dir` (`make -C dir`, `npm --prefix dir`), restored after.
    pub fn in_dir(&mut self, dir: PathBuf, f: impl FnOnce(&mut Self)) {
        let saved = (std::mem::replace(&mut self.cwd, dir), self.cwd_known);
        f(self);
        (self.cwd, self.cwd_known) = saved;
    }

    /// Records a write to `target`; `truncates` means an existing file loses its content.
    /// Returns whether the target existed. Non-literal targets are unknown. A write keeps the
    /// command harmless only when it creates something new inside the roots or temp that is
    /// not sensitive.
    pub fn write(&mut self, target: &Arg, truncates: bool, how: &str) -> bool {
        self.write_as(target, truncates, false, how)
    }

    /// A directory to create (`mkdir -p`): one that exists already is no change.
    pub fn write_dir(&mut self, target: &Arg, how: &str) -> bool {
        self.write_as(target, false, true, how)
    }

    fn write_as(&mut self, target: &Arg, truncates: bool, existing_ok: bool, how: &str) -> bool {
        let Some(text) = target.lit() else {
            self.flag(
                Risk::Unknown,
                format!("writes to a path that is not literal: {} ({how})", target.text),
            );
            return false;
        };
        if paths::is_stream(text) {
            return false;
        }
        self.read_only = false;
        if target.glob {
            // A pattern names whatever matches it when the command runs: maybe existing files.
            let path = self.resolve(text);
            if let Some(why) = sensitive_reason(&path, self.cx.sensitive) {
                self.sensitive.push((path, why));
            }
            let reason = format!("writes to files a pattern names: {text} ({how})");
            match truncates {
                true => self.flag(Risk::Unknown, reason),
                false => self.frames.not_harmless(&reason),
            }
            return false;
        }
        if paths::is_network_device(text) {
            self.network(format!("writes to {text}"));
            self.flag(Risk::Destructive, format!("sends data to the network: {text} ({how})"));
            return false;
        }
        if paths::is_block_device(text) {
            self.flag(Risk::Hardline, format!("writes to a raw block device: {text} ({how})"));
            return true;
        }
        if !self.cwd_known && !text.starts_with('/') {
            self.flag(
                Risk::Unknown,
                format!("writes to a relative path after cd to an unknown directory: {text}"),
            );
            return false;
        }
        let path = self.resolve(text);
        let exists = (self.cx.exists)(&path);
        if truncates && exists {
            self.flag(
                Risk::Destructive,
                format!("overwrites an existing file: {text} ({how})"),
            );
        }
        let sensitive = sensitive_reason(&path, self.cx.sensitive);
        let why = if let Some(why) = &sensitive {
            Some(format!("changes a sensitive file ({why}): {text}"))
        } else if !self.inside(&path) {
            Some(format!("writes outside the project: {text}"))
        } else if exists && !existing_ok {
            Some(format!("changes an existing file: {text} ({how})"))
        } else {
            None
        };
        if let Some(why) = why {
            self.frames.not_harmless(&why);
        }
        if let Some(reason) = sensitive
            && !self.sensitive.iter().any(|(p, _)| *p == path)
        {
            self.sensitive.push((path.clone(), reason));
        }
        if !self.writes.contains(&path) {
            self.writes.push(path);
        }
        exists
    }

    /// Parses and walks a script text (the command line, `sh -c` text, `$(…)` contents).
    pub fn script(&mut self, text: &str, depth: usize) {
        if depth == 0 {
            self.dotglob = text.contains("dotglob") || text.contains("GLOBIGNORE");
        }
        if depth > MAX_DEPTH {
            self.flag(Risk::Unknown, "command nested too deeply to analyse");
            return;
        }
        match parse::program(text, depth) {
            Ok(program) if depth > 0 => self.subshell(|a| a.program(&program, depth)),
            Ok(program) => self.program(&program, depth),
            Err(e) => self.flag(Risk::Unknown, e.to_string()),
        }
    }

    /// Walks a sourced script in the current shell: a `cd` inside outlives it.
    pub fn source_text(&mut self, text: &str, depth: usize) {
        if depth > MAX_DEPTH {
            self.flag(Risk::Unknown, "command nested too deeply to analyse");
            return;
        }
        match parse::program(text, depth) {
            Ok(program) => self.program(&program, depth),
            Err(e) => self.flag(Risk::Unknown, e.to_string()),
        }
    }
}
