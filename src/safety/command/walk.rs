//! The walk over the parsed program: every list, pipeline, compound command, function body,
//! substitution and process substitution, down to simple commands (handed to `wrappers`) and
//! their redirections (`redirects`). It also owns the findings, programs and write targets collected.

use std::path::PathBuf;

use brush_parser::ast::{
    AndOr, Command, CommandPrefixOrSuffixItem, CompoundCommand, CompoundList, ElseClause, ExtendedTestExpr,
    FunctionDefinition, Pipeline, ProcessSubstitutionKind, Program, SeparatorOperator, SimpleCommand,
};

use super::words::Arg;
use super::{CommandAssessment, CommandContext, MAX_DEPTH, Risk, parse, paths};

/// Where a simple command's standard input comes from (a shell reading stdin runs it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stdin {
    Inherited,
    Pipe,
    File,
    Here,
}

/// A simple command ready for classification.
#[derive(Debug)]
pub(super) struct Simple {
    /// `NAME=value` prefixes, decoded.
    pub assigns: Vec<String>,
    pub words: Vec<Arg>,
    pub stdin: Stdin,
}

pub(super) struct Analysis<'a> {
    pub cx: &'a CommandContext<'a>,
    findings: Vec<(Risk, String)>,
    programs: Vec<String>,
    writes: Vec<PathBuf>,
    read_only: bool,
    /// Functions whose body we are in, for the fork-bomb test.
    functions: Vec<String>,
    /// The current command runs alongside others (pipeline or `&`).
    fanout: bool,
    /// Where the current command runs: `cd` in the line moves it.
    cwd: PathBuf,
    /// False after a `cd` to a directory that is not literal.
    cwd_known: bool,
}

impl<'a> Analysis<'a> {
    pub fn new(cx: &'a CommandContext<'a>) -> Self {
        Self {
            cx,
            findings: Vec::new(),
            programs: Vec::new(),
            writes: Vec::new(),
            read_only: true,
            functions: Vec::new(),
            fanout: false,
            cwd: cx.cwd.to_path_buf(),
            cwd_known: true,
        }
    }

    pub fn finish(mut self) -> CommandAssessment {
        // Stable: within a risk, reasons keep the order they were found in.
        self.findings.sort_by_key(|f| std::cmp::Reverse(f.0));
        let mut reasons: Vec<String> = Vec::new();
        for (_, r) in &self.findings {
            if !reasons.contains(r) {
                reasons.push(r.clone());
            }
        }
        let risk = self.findings.first().map_or(Risk::Safe, |f| f.0);
        self.writes.dedup();
        CommandAssessment {
            risk,
            reasons,
            read_only: self.read_only && risk == Risk::Safe && self.writes.is_empty(),
            write_targets: self.writes,
            programs: self.programs,
        }
    }

    pub fn flag(&mut self, risk: Risk, reason: impl Into<String>) {
        if risk > Risk::Safe {
            self.read_only = false;
        }
        self.findings.push((risk, reason.into()));
    }

    pub fn not_read_only(&mut self) {
        self.read_only = false;
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
    pub fn cwd(&self) -> &std::path::Path {
        &self.cwd
    }

    /// `text` as an absolute path from where the current command runs.
    pub fn resolve(&self, text: &str) -> PathBuf {
        paths::resolve(text, &self.cwd, self.cx.home)
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
    fn subshell(&mut self, f: impl FnOnce(&mut Self)) {
        let saved = (self.cwd.clone(), self.cwd_known);
        f(self);
        (self.cwd, self.cwd_known) = saved;
    }

    /// Records a write to `target`; `truncates` means an existing file loses its content.
    /// Returns whether the target existed. Non-literal targets are unknown.
    pub fn write(&mut self, target: &Arg, truncates: bool, how: &str) -> bool {
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
        if !self.writes.contains(&path) {
            self.writes.push(path);
        }
        exists
    }

    /// Parses and walks a script text (the command line, `sh -c` text, `$(…)` contents).
    pub fn script(&mut self, text: &str, depth: usize) {
        if depth > MAX_DEPTH {
            self.flag(Risk::Unknown, "command nested too deeply to analyse");
            return;
        }
        match parse::program(text, depth) {
            Ok(program) if depth > 0 => self.subshell(|a| a.program(&program, depth, Stdin::Inherited)),
            Ok(program) => self.program(&program, depth, Stdin::Inherited),
            Err(e) => self.flag(Risk::Unknown, e.to_string()),
        }
    }

    fn program(&mut self, program: &Program, depth: usize, stdin: Stdin) {
        for complete in &program.complete_commands {
            self.list(complete, depth, stdin);
        }
    }

    pub(super) fn list(&mut self, list: &CompoundList, depth: usize, stdin: Stdin) {
        for item in &list.0 {
            let outer = self.fanout;
            self.fanout |= matches!(item.1, SeparatorOperator::Async);
            self.pipeline(&item.0.first, depth, stdin);
            for next in &item.0.additional {
                match next {
                    AndOr::And(p) | AndOr::Or(p) => self.pipeline(p, depth, stdin),
                }
            }
            self.fanout = outer;
        }
    }

    fn pipeline(&mut self, pipeline: &Pipeline, depth: usize, stdin: Stdin) {
        let outer = self.fanout;
        self.fanout |= pipeline.seq.len() > 1;
        let alone = pipeline.seq.len() == 1;
        for (i, command) in pipeline.seq.iter().enumerate() {
            let input = if i == 0 { stdin } else { Stdin::Pipe };
            // Every part of a real pipeline runs in its own subshell.
            if alone {
                self.command(command, depth, input);
            } else {
                self.subshell(|a| a.command(command, depth, input));
            }
        }
        self.fanout = outer;
    }

    fn command(&mut self, command: &Command, depth: usize, stdin: Stdin) {
        match command {
            Command::Simple(simple) => self.simple(simple, depth, stdin),
            Command::Compound(compound, redirects) => {
                let mut stdin = stdin;
                for r in redirects.iter().flat_map(|r| r.0.iter()) {
                    self.redirect(r, depth, &mut stdin);
                }
                self.compound(compound, depth, stdin);
            }
            Command::Function(f) => self.function(f, depth),
            Command::ExtendedTest(test, redirects) => {
                let mut stdin = stdin;
                for r in redirects.iter().flat_map(|r| r.0.iter()) {
                    self.redirect(r, depth, &mut stdin);
                }
                self.test_expr(&test.expr, depth);
            }
        }
    }

    fn function(&mut self, f: &FunctionDefinition, depth: usize) {
        self.functions.push(f.fname.value.clone());
        let mut stdin = Stdin::Inherited;
        for r in f.body.1.iter().flat_map(|r| r.0.iter()) {
            self.redirect(r, depth, &mut stdin);
        }
        self.subshell(|a| a.compound(&f.body.0, depth + 1, stdin));
        self.functions.pop();
    }

    fn compound(&mut self, compound: &CompoundCommand, depth: usize, stdin: Stdin) {
        if depth > MAX_DEPTH {
            self.flag(Risk::Unknown, "command nested too deeply to analyse");
            return;
        }
        let d = depth + 1;
        match compound {
            CompoundCommand::Arithmetic(a) => {
                self.arithmetic(&a.expr.value);
                // bash re-reads `((cmd))` that is not arithmetic as nested subshells.
                if brush_parser::arithmetic::parse(&a.expr.value).is_err() {
                    self.script(&format!("({})", a.expr.value), d);
                }
            }
            CompoundCommand::ArithmeticForClause(f) => {
                for e in [&f.initializer, &f.condition, &f.updater].into_iter().flatten() {
                    self.arithmetic(&e.value);
                }
                self.list(&f.body.list, d, stdin);
            }
            CompoundCommand::BraceGroup(b) => self.list(&b.list, d, stdin),
            CompoundCommand::Subshell(s) => self.subshell(|a| a.list(&s.list, d, stdin)),
            CompoundCommand::ForClause(f) => {
                for w in f.values.iter().flatten() {
                    self.word(w, d);
                }
                self.list(&f.body.list, d, stdin);
            }
            CompoundCommand::CaseClause(c) => {
                self.word(&c.value, d);
                for item in &c.cases {
                    for p in &item.patterns {
                        self.word(p, d);
                    }
                    if let Some(cmd) = &item.cmd {
                        self.list(cmd, d, stdin);
                    }
                }
            }
            CompoundCommand::IfClause(i) => {
                self.list(&i.condition, d, stdin);
                self.list(&i.then, d, stdin);
                for ElseClause { condition, body } in i.elses.iter().flatten() {
                    if let Some(c) = condition {
                        self.list(c, d, stdin);
                    }
                    self.list(body, d, stdin);
                }
            }
            CompoundCommand::WhileClause(w) | CompoundCommand::UntilClause(w) => {
                self.list(&w.0, d, stdin);
                self.list(&w.1.list, d, stdin);
            }
            CompoundCommand::Coprocess(c) => self.command(&c.body, d, stdin),
        }
    }

    fn arithmetic(&mut self, text: &str) {
        if text.contains("$(") || text.contains('`') {
            self.flag(Risk::Unknown, format!("substitution inside arithmetic: {text}"));
        }
    }

    fn test_expr(&mut self, expr: &ExtendedTestExpr, depth: usize) {
        match expr {
            ExtendedTestExpr::And(a, b) | ExtendedTestExpr::Or(a, b) => {
                self.test_expr(a, depth);
                self.test_expr(b, depth);
            }
            ExtendedTestExpr::Not(a) | ExtendedTestExpr::Parenthesized(a) => self.test_expr(a, depth),
            ExtendedTestExpr::UnaryTest(_, w) => {
                self.word(w, depth);
            }
            ExtendedTestExpr::BinaryTest(_, a, b) => {
                self.word(a, depth);
                self.word(b, depth);
            }
        }
    }

    fn simple(&mut self, cmd: &SimpleCommand, depth: usize, stdin: Stdin) {
        let mut stdin = stdin;
        let mut assigns = Vec::new();
        let mut words = Vec::new();
        let items = cmd.prefix.iter().flat_map(|p| p.0.iter());
        let suffix = cmd.suffix.iter().flat_map(|s| s.0.iter());
        let mut push_items = |this: &mut Self, item: &CommandPrefixOrSuffixItem, prefix: bool, words: &mut Vec<Arg>| {
            match item {
                CommandPrefixOrSuffixItem::IoRedirect(r) => this.redirect(r, depth, &mut stdin),
                CommandPrefixOrSuffixItem::Word(w) => words.push(this.word(w, depth)),
                CommandPrefixOrSuffixItem::AssignmentWord(_, w) => {
                    let arg = this.word(w, depth);
                    if prefix {
                        assigns.push(arg.text);
                    } else {
                        words.push(arg);
                    }
                }
                CommandPrefixOrSuffixItem::ProcessSubstitution(kind, sub) => {
                    // `>(cmd)` reads what the outer command writes.
                    let input = match kind {
                        ProcessSubstitutionKind::Write => Stdin::Pipe,
                        ProcessSubstitutionKind::Read => Stdin::Inherited,
                    };
                    this.list(&sub.list, depth + 1, input);
                    words.push(Arg {
                        text: "<(…)".to_owned(),
                        ..Arg::default()
                    });
                }
            }
        };
        for item in items {
            push_items(self, item, true, &mut words);
        }
        if let Some(w) = &cmd.word_or_name {
            words.push(self.word(w, depth));
        }
        for item in suffix {
            push_items(self, item, false, &mut words);
        }
        if words.is_empty() {
            return; // assignments and redirections only
        }
        super::wrappers::run(self, Simple { assigns, words, stdin }, depth);
    }
}
