//! The wrappers with more to them than options and a command: privilege wrappers, `env`,
//! schedulers that can name other processes, `flock -c`, `setarch`'s leading architecture,
//! `script -c` and its logs, tracers' output and attach options, `watch`'s joined text,
//! `xargs`/`parallel`/`fd -x` commands with arguments known only at run time, `eval`, `trap`.

use super::super::analysis::{Analysis, Stdin};
use super::super::options;
use super::super::options::Table;
use super::super::words::Arg;
use super::super::{Risk, env};
use super::peel;
use super::tables as t;

/// The words after `table`'s options and `skip` operands (`timeout DURATION`); `None` (and
/// the command is judged) when the options do not parse, or nothing would run.
pub(super) fn after<'w>(
    a: &mut Analysis,
    prog: &str,
    args: &'w [Arg],
    table: &Table,
    skip: usize,
) -> Option<&'w [Arg]> {
    let p = options::understood(a, prog, args, table)?;
    args.get(p.rest + skip..).filter(|rest| !rest.is_empty())
}

/// `sudo`/`doas`: another user, so never harmless; a shell or editor without a command is
/// unknown; `-l`/`-v` run nothing.
pub(super) fn privileged<'w>(a: &mut Analysis, prog: &str, args: &'w [Arg]) -> Option<&'w [Arg]> {
    let table = if prog == "sudo" { &t::SUDO } else { &t::DOAS };
    let p = options::understood(a, prog, args, table)?;
    if p.has("-e") || p.has("--edit") {
        a.flag(Risk::Unknown, format!("edits files as another user ({prog} -e)"));
        return None;
    }
    let rest = &args[p.rest..];
    if rest.is_empty() {
        if ["-s", "-i", "--shell", "--login"].iter().any(|o| p.has(o)) {
            a.flag(Risk::Unknown, format!("opens a root shell or editor ({prog})"));
        }
        return None;
    }
    a.flag(Risk::Unknown, format!("runs as another user ({prog})"));
    Some(rest)
}

/// `env [-i] [-u NAME] [-C DIR] [-S TEXT] [NAME=value…] [command…]`; `None` once handled.
pub(super) fn env_command<'w>(a: &mut Analysis, args: &'w [Arg], depth: usize) -> Option<&'w [Arg]> {
    // `env -` is `env -i`.
    let args = match args.first() {
        Some(w) if w.text == "-" => &args[1..],
        _ => args,
    };
    let p = options::understood(a, "env", args, &t::ENV)?;
    if let Some(text) = p.value("-S").or(p.value("--split-string")) {
        a.carrier();
        match text.lit() {
            Some(s) => {
                let mut line = s.to_owned();
                for w in &args[p.rest..] {
                    line.push(' ');
                    line.push_str(&w.text);
                }
                a.script(&line, depth + 1)
            }
            None => a.flag(Risk::Unknown, "env -S text is not literal"),
        }
        return None;
    }
    if p.value("-C").or(p.value("--chdir")).is_some() {
        a.flag(Risk::Unknown, "runs in another directory (env -C)");
    }
    let mut i = p.rest;
    while let Some(w) = args.get(i).filter(|w| env::split(w).is_some()) {
        env::exported(a, w, depth);
        i += 1;
    }
    let rest = &args[i..];
    if rest.is_empty() {
        a.flag(Risk::Destructive, super::super::secrets::PRINTS_ENV);
        return None;
    }
    Some(rest)
}

/// `ionice`/`chrt`/`taskset`: a command after the options (and, for `chrt`/`taskset`, the
/// priority or mask), or other processes' settings (`-p`).
pub(super) fn scheduler<'w>(a: &mut Analysis, prog: &str, args: &'w [Arg]) -> Option<&'w [Arg]> {
    let (table, skip) = match prog {
        "ionice" => (&t::IONICE, 0),
        "chrt" => (&t::CHRT, 1),
        _ => (&t::TASKSET, 1),
    };
    let p = options::understood(a, prog, args, table)?;
    let others = ["-p", "--pid", "-P", "--pgid", "-u", "--uid", "-m", "--max"];
    if others.iter().any(|o| p.has(o)) {
        a.unvetted(&format!("changes the scheduling of other processes ({prog} -p)"), false);
        return None;
    }
    args.get(p.rest + skip..).filter(|rest| !rest.is_empty())
}

/// `flock [options] FILE COMMAND…`, `flock [options] FILE -c TEXT`, or `flock FD`.
pub(super) fn flock(a: &mut Analysis, args: &[Arg], stdin: Stdin, depth: usize) {
    let Some(p) = options::understood(a, "flock", args, &t::FLOCK) else {
        return;
    };
    let rest = &args[p.rest..];
    let text = p.value("-c").or(p.value("--command")).cloned().or_else(|| {
        rest.get(1)
            .filter(|w| w.text == "-c" || w.text == "--command")
            .and_then(|_| rest.get(2).cloned())
    });
    if let Some(text) = text {
        a.carrier();
        match text.lit() {
            Some(s) => a.script(s, depth + 1),
            None => a.flag(Risk::Unknown, "flock -c text is not literal"),
        }
        return;
    }
    if rest.len() > 1 {
        peel(a, &rest[1..], stdin, depth);
    }
}

/// `setarch ARCH [options] [program…]` (or `linux32 …`): no program runs a shell.
pub(super) fn setarch<'w>(a: &mut Analysis, prog: &str, args: &'w [Arg]) -> Option<&'w [Arg]> {
    let args = match args.first() {
        Some(arch) if prog == "setarch" && !arch.text.starts_with('-') => &args[1..],
        _ => args,
    };
    let p = options::understood(a, prog, args, &t::SETARCH)?;
    if p.has("--list") || p.has("--show") {
        return None;
    }
    let rest = &args[p.rest..];
    if rest.is_empty() {
        a.flag(Risk::Unknown, format!("starts a shell ({prog} without a program)"));
        return None;
    }
    Some(rest)
}

/// `script [options] [file]`: `-c TEXT` is a command line; the file and logs are writes;
/// without `-c` it starts an interactive shell. Options may follow the file.
pub(super) fn script(a: &mut Analysis, args: &[Arg], depth: usize) {
    let mut i = 0;
    let mut parsed = Vec::new();
    let mut files = Vec::new();
    while i < args.len() {
        let Some(p) = options::understood(a, "script", &args[i..], &t::SCRIPT) else {
            return;
        };
        i += p.rest;
        parsed.extend(p.options);
        if let Some(file) = args.get(i) {
            files.push(file);
            i += 1;
        }
    }
    let append = parsed.iter().any(|o| o.name == "-a" || o.name == "--append");
    for file in &files {
        a.write(file, !append, "script");
    }
    for o in &parsed {
        let log = o.name.starts_with("--log") || matches!(o.name.as_str(), "-B" | "-I" | "-O" | "-T");
        if log && let Some(file) = &o.value {
            a.write(file, true, "script log");
        }
    }
    match parsed.iter().find(|o| o.name == "-c" || o.name == "--command") {
        Some(o) => {
            a.carrier();
            match o.value.as_ref().and_then(Arg::lit) {
                Some(text) => a.script(text, depth + 1),
                None => a.flag(Risk::Unknown, "script -c text is not literal"),
            }
        }
        None => a.flag(Risk::Unknown, "starts an interactive shell (script without -c)"),
    }
}

/// `strace`/`ltrace`: `-o` writes, `-p` attaches to another process, `-u` runs as another
/// user, `-E NAME=value` sets the environment.
pub(super) fn tracer<'w>(a: &mut Analysis, prog: &str, args: &'w [Arg], depth: usize) -> Option<&'w [Arg]> {
    let table = if prog == "strace" { &t::STRACE } else { &t::LTRACE };
    let p = options::understood(a, prog, args, table)?;
    for out in p.values("-o").chain(p.values("--output")) {
        a.write(out, true, &format!("{prog} -o"));
    }
    if ["-p", "--attach"].iter().any(|o| p.has(o)) {
        a.flag(Risk::Unknown, format!("attaches to another process ({prog} -p)"));
    }
    if ["-u", "--user"].iter().any(|o| p.has(o)) {
        a.flag(Risk::Unknown, format!("runs as another user ({prog} -u)"));
    }
    for assign in p.values("-E").chain(p.values("--env")) {
        if env::split(assign).is_some() {
            env::exported(a, assign, depth);
        }
    }
    args.get(p.rest..).filter(|rest| !rest.is_empty())
}

/// `watch [options] TEXT…` runs its words joined by a shell; `-x` runs them as a command.
pub(super) fn watch(a: &mut Analysis, args: &[Arg], depth: usize) {
    let Some(p) = options::understood(a, "watch", args, &t::WATCH) else {
        return;
    };
    let rest = &args[p.rest..];
    if p.has("-x") || p.has("--exec") {
        return peel(a, rest, Stdin::Inherited, depth + 1);
    }
    a.carrier();
    eval(a, rest, depth);
}

/// `xargs [options] command…`: the command gets extra arguments from stdin we cannot see.
pub(super) fn xargs(a: &mut Analysis, args: &[Arg], depth: usize) {
    let Some(p) = options::understood(a, "xargs", args, &t::XARGS) else {
        return;
    };
    for file in p.values("-a").chain(p.values("--arg-file")) {
        super::super::secrets::check_read(a, file, "xargs -a");
    }
    let rest = &args[p.rest..];
    if rest.is_empty() {
        return; // echoes its input
    }
    // `-I R` / `-i[R]` / `--replace[=R]`: every word holding R gets stdin text spliced in.
    let replace = p
        .value("-I")
        .or(p.value("-i"))
        .or(p.value("--replace"))
        .map(|r| r.text.clone())
        .or_else(|| (p.has("-i") || p.has("--replace")).then(|| "{}".to_owned()));
    let words: Vec<Arg> = rest
        .iter()
        .map(|w| match &replace {
            Some(r) if !r.is_empty() && w.text.contains(r.as_str()) => Arg {
                text: w.text.clone(),
                ..Arg::default()
            },
            _ => w.clone(),
        })
        .collect();
    a.inner(&words, "<arguments from stdin>", Stdin::Inherited, depth);
}

/// `parallel [options] command ::: arguments`.
pub(super) fn parallel(a: &mut Analysis, args: &[Arg], depth: usize) {
    let Some(p) = options::understood(a, "parallel", args, &t::PARALLEL) else {
        return;
    };
    let rest = &args[p.rest..];
    let end = rest
        .iter()
        .position(|w| w.text.starts_with(":::"))
        .unwrap_or(rest.len());
    if end == 0 {
        return a.flag(Risk::Unknown, "parallel reads its commands from stdin");
    }
    a.inner(&rest[..end], "<arguments from parallel>", Stdin::Inherited, depth);
}

/// `fd … -x cmd` / `-X cmd`: the rest is a command run on every match.
pub(super) fn fd(a: &mut Analysis, words: &[Arg], stdin: Stdin, depth: usize) {
    let args = &words[1..];
    let exec = ["-x", "--exec", "-X", "--exec-batch"];
    match args.iter().position(|w| exec.contains(&w.text.as_str())) {
        Some(i) => a.inner(&args[i + 1..], "<matched path>", stdin, depth),
        None => a.classify_as("fd", words, stdin, depth),
    }
}

pub(in super::super) fn eval(a: &mut Analysis, args: &[Arg], depth: usize) {
    if args.iter().all(|w| w.literal) {
        let text: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
        a.script(&text.join(" "), depth + 1);
    } else {
        a.flag(Risk::Unknown, "eval of text that is not literal");
    }
}

/// `trap TEXT SIGNAL…`: the text runs later in this shell.
pub(super) fn trap(a: &mut Analysis, args: &[Arg], depth: usize) {
    a.carrier();
    match args.first() {
        None => {}
        Some(w) if w.literal && (w.text.starts_with('-') || w.text.is_empty()) => {}
        Some(w) => match w.lit() {
            Some(text) => a.script(text, depth + 1),
            None => a.flag(Risk::Unknown, "trap text is not literal"),
        },
    }
}
