//! `make [options] [VAR=value…] [targets…]` with the Makefile read through `read_file`: the
//! recipes of the named targets (the default goal when none) and of their prerequisites are
//! analysed as shell commands, in the Makefile's directory, as the host frame's commands.
//! Options are read from a table (`--eval`, `SHELL=` and unknown options are unknown); a
//! Makefile that cannot be read, a target without a rule that is not a file, and every
//! construct `makefile` does not follow make the command unknown.

use std::collections::HashSet;
use std::path::PathBuf;

use super::analysis::Analysis;
use super::makefile::{Auto, Makefile, Rule};
use super::options::Table;
use super::words::Arg;
use super::{Risk, env, options};

const MAKE: Table = Table::new("bBeiknqrRsStvwdLpP", "CfIjlWoO").optional("").long(
    &[
        "--always-make",
        "--environment-overrides",
        "--ignore-errors",
        "--keep-going",
        "--just-print",
        "--dry-run",
        "--recon",
        "--question",
        "--no-builtin-rules",
        "--no-builtin-variables",
        "--silent",
        "--quiet",
        "--no-keep-going",
        "--stop",
        "--touch",
        "--version",
        "--print-directory",
        "--no-print-directory",
        "--warn-undefined-variables",
        "--check-symlink-times",
        "--print-data-base",
        "--trace",
        "--no-silent",
    ],
    &[
        "--directory",
        "--file",
        "--makefile",
        "--include-dir",
        "--load-average",
        "--max-load",
        "--what-if",
        "--new-file",
        "--assume-new",
        "--old-file",
        "--assume-old",
    ],
    &[
        "--jobs",
        "--output-sync",
        "--debug",
        "--shuffle",
        "--eval",
        "--jobserver-auth",
    ],
);

/// Targets followed at most (prerequisites included).
const MAX_TARGETS: usize = 200;

pub(super) fn make(a: &mut Analysis, words: &[Arg], from: usize, depth: usize) {
    let args = &words[from..];
    // `-j 4`: a number after `-j` is its value.
    let mut args: Vec<Arg> = args.to_vec();
    if let Some(j) = args.iter().position(|w| w.text == "-j" || w.text == "--jobs")
        && args
            .get(j + 1)
            .is_some_and(|n| n.text.chars().all(|c| c.is_ascii_digit()))
    {
        let n = args.remove(j + 1);
        args[j].text = format!(
            "{}{}{}",
            args[j].text,
            if args[j].text == "-j" { "" } else { "=" },
            n.text
        );
    }
    let mut dir: PathBuf = a.cwd().to_path_buf();
    let mut makefiles: Vec<Arg> = Vec::new();
    let mut overrides = Vec::new();
    let mut goals = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let Some(p) = options::understood(a, "make", &args[i..], &MAKE) else {
            return;
        };
        for o in &p.options {
            match (o.name.as_str(), &o.value) {
                ("-C" | "--directory", Some(d)) => match d.lit() {
                    Some(d) => dir = super::paths::resolve(d, &dir, a.cx.home),
                    None => return a.flag(Risk::Unknown, "make -C to a directory that is not literal"),
                },
                ("-f" | "--file" | "--makefile", Some(f)) => makefiles.push(f.clone()),
                ("--eval", _) => return a.flag(Risk::Unknown, "make --eval runs Makefile text from the command line"),
                ("-t" | "--touch", _) => a.unvetted("touches targets (make -t)", false),
                _ => {}
            }
        }
        i += p.rest;
        if let Some(w) = args.get(i) {
            match env::split(w) {
                Some((name, value)) => {
                    if matches!(name, "SHELL" | "MAKEFLAGS" | "MAKEFILES" | ".SHELLFLAGS" | "MAKESHELL") {
                        return a.flag(Risk::Unknown, format!("make {name}= changes how recipes run"));
                    }
                    if !w.literal {
                        a.flag(
                            Risk::Unknown,
                            format!("make variable set to text that is not literal: {name}"),
                        );
                    }
                    overrides.push((name.to_owned(), value.to_owned()));
                }
                None => goals.push(w.clone()),
            }
            i += 1;
        }
    }
    a.host();
    let (name, text) = match read_makefile(a, &dir, &makefiles) {
        Ok(found) => found,
        Err(why) => return a.unvetted(&why, true),
    };
    let mut mf = Makefile::parse(&text, &overrides);
    if let Some(Some(goal)) = mf_default_goal(&mut mf) {
        mf.default_goal = Some(goal);
    }
    let goals: Vec<String> = match goals
        .iter()
        .map(|g| g.lit().map(str::to_owned))
        .collect::<Option<Vec<_>>>()
    {
        Some(g) if !g.is_empty() => g,
        Some(_) => mf.default_goal.clone().into_iter().collect(),
        None => return a.flag(Risk::Unknown, "make target is not literal"),
    };
    let recipes = plan(a, &mut mf, &dir, goals);
    for problem in std::mem::take(&mut mf.problems) {
        a.flag(Risk::Unknown, format!("{problem} ({name})"));
    }
    let shell_commands = std::mem::take(&mut mf.shell_commands);
    a.in_dir(dir, |a| {
        for command in shell_commands.iter().chain(recipes.iter()) {
            a.script(command, depth + 1);
        }
    });
}

fn mf_default_goal(mf: &mut Makefile) -> Option<Option<String>> {
    let goal = mf.expand("$(.DEFAULT_GOAL)", &Auto::default(), 0);
    (!goal.contains(super::makefile::UNRESOLVED) && !goal.trim().is_empty()).then(|| Some(goal.trim().to_owned()))
}

/// The Makefile `make` would read: `-f` files, else GNUmakefile, makefile, Makefile.
fn read_makefile(a: &mut Analysis, dir: &std::path::Path, given: &[Arg]) -> Result<(String, String), String> {
    if given.len() > 1 {
        return Err("make reads several Makefiles (-f)".into());
    }
    if let Some(file) = given.first() {
        let Some(name) = file.lit() else {
            return Err("make -f names a file that is not literal".into());
        };
        let path = super::paths::resolve(name, dir, a.cx.home);
        return a
            .read(&path)
            .map(|text| (name.to_owned(), text))
            .ok_or_else(|| format!("runs a Makefile the analysis cannot read: {name}"));
    }
    for name in ["GNUmakefile", "makefile", "Makefile"] {
        let path = dir.join(name);
        if (a.cx.exists)(&path) {
            return a
                .read(&path)
                .map(|text| (name.to_owned(), text))
                .ok_or_else(|| format!("runs a Makefile the analysis cannot read: {name}"));
        }
    }
    Err("runs make without a Makefile the analysis can read".into())
}

/// The recipe lines that would run for `goals`, prerequisites first, expanded.
fn plan(a: &mut Analysis, mf: &mut Makefile, dir: &std::path::Path, goals: Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut stack: Vec<String> = goals.into_iter().rev().collect();
    while let Some(target) = stack.pop() {
        if !seen.insert(target.clone()) {
            continue;
        }
        if seen.len() > MAX_TARGETS {
            a.flag(Risk::Unknown, "the Makefile has more targets than the analysis follows");
            break;
        }
        let (rules, stem) = rules_for(mf, &target);
        if rules.is_empty() {
            let exists = (a.cx.exists)(&super::paths::resolve(&target, dir, a.cx.home));
            if !exists && !target.contains(super::makefile::UNRESOLVED) {
                a.flag(
                    Risk::Unknown,
                    format!("make has no rule for {target} (a built-in rule may run)"),
                );
            }
            continue;
        }
        for rule in &rules {
            stack.extend(rule.prerequisites.iter().rev().cloned());
        }
        for rule in rules {
            let auto = Auto {
                target: &target,
                prerequisites: &rule.prerequisites,
                stem: stem.as_deref(),
            };
            for line in &rule.recipe {
                let expanded = mf.expand(line, &auto, 0);
                let command = expanded.trim_start_matches(['@', '-', '+', ' ', '\t']);
                if command.contains(super::makefile::UNRESOLVED) {
                    // Still analysed below (what is resolved may be recognised as dangerous).
                    a.flag(
                        Risk::Unknown,
                        format!("a recipe of {target} uses a variable or function the analysis cannot resolve"),
                    );
                }
                if !command.is_empty() {
                    out.push(command.to_owned());
                }
            }
        }
    }
    out
}

/// The explicit rules for `target`, else the first pattern rule matching it (with its stem).
fn rules_for(mf: &Makefile, target: &str) -> (Vec<Rule>, Option<String>) {
    let explicit: Vec<Rule> = mf
        .rules
        .iter()
        .filter(|r| r.targets.iter().any(|t| t == target))
        .cloned()
        .collect();
    if !explicit.is_empty() {
        return (explicit, None);
    }
    for rule in &mf.rules {
        for pattern in rule.targets.iter().filter(|t| t.contains('%')) {
            let (prefix, suffix) = pattern.split_once('%').unwrap_or((pattern, ""));
            if let Some(stem) = target
                .strip_prefix(prefix)
                .and_then(|r| r.strip_suffix(suffix))
                .filter(|s| !s.is_empty())
            {
                let mut rule = rule.clone();
                rule.prerequisites = rule.prerequisites.iter().map(|p| p.replacen('%', stem, 1)).collect();
                return (vec![rule], Some(stem.to_owned()));
            }
        }
    }
    (Vec::new(), None)
}
