//! The walk over the parsed program: every list, pipeline, compound command, function body,
//! substitution and process substitution, down to simple commands (each in its own frame,
//! handed to `env` for its assignments and to `wrappers` for its words) and their
//! redirections (`redirects`). The state it fills is `analysis::Analysis`.

use brush_parser::ast::{
    AndOr, Command, CommandPrefixOrSuffixItem, CompoundCommand, CompoundList, ElseClause, ExtendedTestExpr,
    FunctionDefinition, Pipeline, ProcessSubstitutionKind, Program, SeparatorOperator, SimpleCommand, Word,
};

use super::analysis::{Analysis, Stdin};
use super::words::{Arg, Decoded, decode};
use super::{MAX_DEPTH, Risk, parse};

impl Analysis<'_> {
    pub(super) fn program(&mut self, program: &Program, depth: usize) {
        for complete in &program.complete_commands {
            self.list(complete, depth, Stdin::Inherited);
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
        self.open_frame();
        self.simple_in_frame(cmd, depth, stdin);
        self.close_frame();
    }

    fn simple_in_frame(&mut self, cmd: &SimpleCommand, depth: usize, stdin: Stdin) {
        let mut stdin = stdin;
        let mut assigns = Vec::new();
        let mut words = Vec::new();
        let items = cmd.prefix.iter().flat_map(|p| p.0.iter());
        let suffix = cmd.suffix.iter().flat_map(|s| s.0.iter());
        let mut push_items = |this: &mut Self, item: &CommandPrefixOrSuffixItem, prefix: bool, words: &mut Vec<Arg>| {
            match item {
                CommandPrefixOrSuffixItem::IoRedirect(r) => this.redirect(r, depth, &mut stdin),
                CommandPrefixOrSuffixItem::Word(w) => {
                    let arg = this.word(w, depth);
                    match arg.glob && arg.text.contains('{') {
                        true => words.extend(super::words::brace_expand(&arg)),
                        false => words.push(arg),
                    }
                }
                CommandPrefixOrSuffixItem::AssignmentWord(_, w) => {
                    let arg = this.word(w, depth);
                    if prefix {
                        assigns.push(arg);
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
            // Assignments and redirections only: shell variables, unless they are ones the
            // shell itself acts on (`PATH`, `PS4`, `BASH_ENV`…).
            for assign in &assigns {
                super::env::shell_variable(self, assign, depth);
            }
            return;
        }
        super::wrappers::run(self, super::wrappers::Simple { assigns, words, stdin }, depth);
    }
}

impl Analysis<'_> {
    /// Decodes a word and walks the commands its substitutions would run.
    pub fn word(&mut self, word: &Word, depth: usize) -> Arg {
        self.text_word(&word.value, depth, false)
    }

    pub fn text_word(&mut self, text: &str, depth: usize, heredoc: bool) -> Arg {
        let pieces = if heredoc {
            parse::heredoc(text)
        } else {
            parse::word(text)
        };
        let pieces = match pieces {
            Ok(p) => p,
            Err(e) => {
                self.flag(Risk::Unknown, e.to_string());
                return Arg {
                    text: text.to_owned(),
                    ..Arg::default()
                };
            }
        };
        let Decoded {
            arg,
            substitutions,
            opaque,
        } = decode(&pieces, text, self.cx.home, self.cwd());
        if let Some(reason) = opaque {
            self.flag(Risk::Unknown, reason);
        }
        for s in substitutions {
            self.script(&s, depth + 1);
        }
        arg
    }
}
