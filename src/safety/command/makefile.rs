//! A Makefile as the analysis reads it: variables, explicit and pattern rules with their
//! recipes, the default goal, and expansion of `$(VAR)`, `${VAR}`, automatic variables and
//! substitution references. What the analysis cannot evaluate — functions (`$(wildcard …)`),
//! variables set in conditionals or `define`, the environment — expands to a shell parameter
//! (`${MAKE_UNRESOLVED}`), so the recipe is still analysed and the unknown part stays
//! non-literal there. `$(shell …)` text is collected to be analysed as a command; `$(eval …)`,
//! `$(call …)`, `include` and other constructs that define rules are reported as problems.

use std::collections::HashMap;

/// What an unresolved expansion becomes in a recipe: a shell parameter, so never literal.
pub(super) const UNRESOLVED: &str = "${MAKE_UNRESOLVED}";
/// Deepest nested expansion followed.
const MAX_EXPANSION: usize = 12;

/// One rule: targets, prerequisites and recipe lines (unexpanded).
#[derive(Debug, Clone, Default)]
pub(super) struct Rule {
    pub targets: Vec<String>,
    pub prerequisites: Vec<String>,
    pub recipe: Vec<String>,
}

#[derive(Debug, Default)]
pub(super) struct Makefile {
    /// Variables with their unexpanded values; `None` when the value is not known.
    vars: HashMap<String, Option<String>>,
    pub rules: Vec<Rule>,
    pub default_goal: Option<String>,
    /// Constructs the analysis does not follow (each makes the command unknown).
    pub problems: Vec<String>,
    /// `$(shell …)` and `!=` command texts found while parsing or expanding.
    pub shell_commands: Vec<String>,
}

/// Automatic variables of one recipe.
#[derive(Debug, Default)]
pub(super) struct Auto<'r> {
    pub target: &'r str,
    pub prerequisites: &'r [String],
    pub stem: Option<&'r str>,
}

/// Built-in variables GNU make defines.
const BUILTIN: &[(&str, &str)] = &[
    ("MAKE", "make"),
    ("RM", "rm -f"),
    ("CC", "cc"),
    ("CXX", "g++"),
    ("AR", "ar"),
    ("AS", "as"),
    ("LD", "ld"),
    ("SHELL", "/bin/sh"),
    ("ARFLAGS", "rv"),
    ("CFLAGS", ""),
    ("CXXFLAGS", ""),
    ("CPPFLAGS", ""),
    ("LDFLAGS", ""),
    ("LDLIBS", ""),
    ("MAKEFLAGS", ""),
];

/// Joins backslash-continued lines.
fn logical_lines(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut pending: Option<String> = None;
    for raw in text.lines() {
        let line = match pending.take() {
            Some(mut p) => {
                p.push(' ');
                p.push_str(raw.trim_start());
                p
            }
            None => raw.to_owned(),
        };
        match line.strip_suffix('\\') {
            Some(head) if !head.ends_with('\\') => pending = Some(head.to_owned()),
            _ => out.push(line),
        }
    }
    out.extend(pending);
    out
}

/// A `#` comment outside a recipe (an escaped `\#` stays).
fn strip_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'#' && (i == 0 || bytes[i - 1] != b'\\') {
            return &line[..i];
        }
    }
    line
}

/// `NAME op value` of an assignment line (op one of `=`, `:=`, `::=`, `:::=`, `?=`, `+=`, `!=`).
fn assignment(line: &str) -> Option<(&str, &str, &str)> {
    let eq = line.find('=')?;
    let head = &line[..eq];
    let (name, op) = ["::", ":::", ":", "?", "+", "!"]
        .iter()
        .filter_map(|op| head.strip_suffix(op).map(|n| (n, *op)))
        .max_by_key(|(_, op)| op.len())
        .unwrap_or((head, ""));
    let name = name.trim();
    let name = ["override ", "export ", "private "]
        .iter()
        .fold(name, |n, p| n.strip_prefix(p).unwrap_or(n).trim());
    let valid = !name.is_empty() && !name.contains([' ', '\t', ':', '#', '=']);
    valid.then(|| (name, op, line[eq + 1..].trim()))
}

impl Makefile {
    pub fn parse(text: &str, overrides: &[(String, String)]) -> Makefile {
        let mut mf = Makefile::default();
        for (name, value) in BUILTIN {
            mf.vars.insert((*name).to_owned(), Some((*value).to_owned()));
        }
        let mut current: Option<usize> = None;
        let mut conditional = 0usize;
        let mut define: Option<String> = None;
        for line in logical_lines(text) {
            if let Some(name) = &define {
                if line.trim() == "endef" {
                    mf.vars.insert(name.clone(), None);
                    define = None;
                }
                continue;
            }
            if let Some(recipe) = line.strip_prefix('\t') {
                match current {
                    Some(rule) => mf.rules[rule].recipe.push(recipe.to_owned()),
                    None => mf.problems.push("a recipe line outside a rule".into()),
                }
                continue;
            }
            let trimmed = strip_comment(&line).trim();
            if trimmed.is_empty() {
                continue;
            }
            let word = trimmed.split_whitespace().next().unwrap_or("");
            match word {
                "ifeq" | "ifneq" | "ifdef" | "ifndef" => {
                    conditional += 1;
                    continue;
                }
                "else" => continue,
                "endif" => {
                    conditional = conditional.saturating_sub(1);
                    continue;
                }
                "define" => {
                    let name = trimmed.split_whitespace().nth(1).unwrap_or("").to_owned();
                    define = Some(name);
                    continue;
                }
                "include" | "-include" | "sinclude" => {
                    mf.problems
                        .push(format!("the Makefile includes another file: {trimmed}"));
                    continue;
                }
                "vpath" | "unexport" => continue,
                _ => {}
            }
            if trimmed.starts_with(".RECIPEPREFIX") || trimmed.starts_with(".SHELLFLAGS") {
                mf.problems
                    .push(format!("the Makefile changes how recipes run: {trimmed}"));
                continue;
            }
            if let Some((name, op, value)) = assignment(trimmed) {
                current = None;
                mf.assign(name, op, value, conditional > 0);
                continue;
            }
            // `export NAME` / `override NAME` without a value change no recipe text.
            if trimmed.starts_with("export ") || trimmed.starts_with("override ") {
                continue;
            }
            match trimmed.find(':') {
                Some(colon) => current = Some(mf.rule(trimmed, colon)),
                None if trimmed.starts_with("$(") => {
                    mf.problems.push(format!("the Makefile evaluates text: {trimmed}"))
                }
                None => mf.problems.push(format!("a Makefile line not understood: {trimmed}")),
            }
        }
        for (name, value) in overrides {
            mf.vars.insert(name.clone(), Some(value.clone()));
        }
        if mf
            .vars
            .get("SHELL")
            .is_some_and(|v| !matches!(v.as_deref(), Some("/bin/sh" | "/bin/bash" | "sh" | "bash")))
        {
            mf.problems
                .push("the Makefile runs its recipes with another SHELL".into());
        }
        mf
    }

    fn assign(&mut self, name: &str, op: &str, value: &str, conditional: bool) {
        if conditional {
            self.vars.insert(name.to_owned(), None);
            return;
        }
        let value = match op {
            "!" => {
                self.shell_commands.push(value.to_owned());
                None
            }
            "?" if self.vars.contains_key(name) && !BUILTIN.iter().any(|(n, _)| *n == name) => return,
            "+" => self.vars.get(name).cloned().flatten().map(|old| {
                if old.is_empty() {
                    value.to_owned()
                } else {
                    format!("{old} {value}")
                }
            }),
            // `:=` expands now: everything it refers to is defined above, as in make.
            ":" | "::" | ":::" => Some(self.expand(value, &Auto::default(), 0)),
            _ => Some(value.to_owned()),
        };
        self.vars.insert(name.to_owned(), value);
    }

    /// Adds the rule on `line` (colon at `colon`); returns its index.
    fn rule(&mut self, line: &str, colon: usize) -> usize {
        let (head, rest) = (&line[..colon], line[colon + 1..].trim_start_matches(':'));
        let (prereqs, inline) = match rest.split_once(';') {
            Some((p, r)) => (p, Some(r.trim())),
            None => (rest, None),
        };
        let targets: Vec<String> = self
            .expand(head, &Auto::default(), 0)
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        // Target-specific variables (`t: VAR = x`), static patterns (`objs: %.o: %.c`).
        let prereqs = match prereqs.find(':') {
            Some(at) => &prereqs[at + 1..],
            None => prereqs,
        };
        if let Some((name, _, _)) = assignment(prereqs.trim()) {
            self.vars.insert(name.to_owned(), None);
        }
        let prerequisites = self
            .expand(prereqs, &Auto::default(), 0)
            .split_whitespace()
            .filter(|p| *p != "|")
            .map(str::to_owned)
            .collect();
        if self.default_goal.is_none()
            && let Some(first) = targets.iter().find(|t| !t.starts_with('.') && !t.contains('%'))
        {
            self.default_goal = Some(first.clone());
        }
        self.rules.push(Rule {
            targets,
            prerequisites,
            recipe: inline.map(str::to_owned).into_iter().collect(),
        });
        self.rules.len() - 1
    }

    /// Expands make references in `text`; unknown ones become [`UNRESOLVED`].
    pub fn expand(&mut self, text: &str, auto: &Auto, depth: usize) -> String {
        if depth > MAX_EXPANSION {
            return UNRESOLVED.to_owned();
        }
        let mut out = String::with_capacity(text.len());
        let mut chars = text.char_indices().peekable();
        while let Some((_, c)) = chars.next() {
            if c != '$' {
                out.push(c);
                continue;
            }
            let Some(&(j, next)) = chars.peek() else {
                break;
            };
            chars.next();
            match next {
                '$' => out.push('$'),
                '(' | '{' => {
                    let close = if next == '(' { ')' } else { '}' };
                    let Some(end) = matching(text, j, next, close) else {
                        out.push_str(UNRESOLVED);
                        break;
                    };
                    let inner = &text[j + 1..end];
                    while chars.peek().is_some_and(|(k, _)| *k <= end) {
                        chars.next();
                    }
                    let value = self.reference(inner, auto, depth);
                    out.push_str(&value);
                }
                _ => out.push_str(&self.automatic(next, auto).unwrap_or_else(|| UNRESOLVED.to_owned())),
            }
        }
        out
    }

    /// The value of `$(inner)`: a variable, a substitution reference, or a function.
    fn reference(&mut self, inner: &str, auto: &Auto, depth: usize) -> String {
        if let Some((function, args)) = inner.split_once([' ', '\t']) {
            return match function {
                "shell" => {
                    let command = self.expand(args, auto, depth + 1);
                    self.shell_commands.push(command);
                    UNRESOLVED.to_owned()
                }
                "eval" | "call" | "file" | "guile" | "load" => {
                    self.problems.push(format!("the Makefile uses $({function} …)"));
                    UNRESOLVED.to_owned()
                }
                _ => UNRESOLVED.to_owned(),
            };
        }
        let name = self.expand(inner, auto, depth + 1);
        if let Some((var, subst)) = name.split_once(':') {
            return match (self.variable(var, auto, depth), subst.split_once('=')) {
                (Some(value), Some((from, to))) if !from.contains('%') => value
                    .split_whitespace()
                    .map(|w| match w.strip_suffix(from) {
                        Some(base) => format!("{base}{to}"),
                        None => w.to_owned(),
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
                _ => UNRESOLVED.to_owned(),
            };
        }
        self.variable(&name, auto, depth)
            .unwrap_or_else(|| UNRESOLVED.to_owned())
    }

    fn variable(&mut self, name: &str, auto: &Auto, depth: usize) -> Option<String> {
        if name.chars().count() == 1 {
            return self.automatic(name.chars().next()?, auto);
        }
        if name == "CURDIR" {
            return None;
        }
        let value = self.vars.get(name)?.clone()?;
        Some(self.expand(&value, auto, depth + 1))
    }

    fn automatic(&self, c: char, auto: &Auto) -> Option<String> {
        match c {
            '@' if !auto.target.is_empty() => Some(auto.target.to_owned()),
            '<' => auto.prerequisites.first().cloned(),
            '^' | '+' | '?' => Some(auto.prerequisites.join(" ")),
            '*' => auto.stem.map(str::to_owned),
            _ => None,
        }
    }
}

/// The index of the bracket closing the one at `open` (nesting counted).
fn matching(text: &str, open: usize, left: char, right: char) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text[open..].char_indices() {
        if c == left {
            depth += 1;
        } else if c == right {
            depth -= 1;
            if depth == 0 {
                return Some(open + i);
            }
        }
    }
    None
}
