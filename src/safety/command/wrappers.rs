//! Commands that run other commands: privilege wrappers (`sudo`, `doas`, `su`), `env`,
//! `command`/`builtin`/`exec`, scheduling and resource wrappers (`nice`, `nohup`, `timeout`,
//! `stdbuf`, `setsid`, `ionice`, `chrt`, `taskset`, `flock`, `setarch`, `prlimit`, `unshare`,
//! `chroot`), tracers (`strace`, `ltrace`, `valgrind`, `time`), `script`, `xvfb-run`, `watch`,
//! `xargs`, `parallel`, `find -exec`, `fd -x`, `eval`, `trap`, `alias`, `busybox`. Each reads
//! its options from a table (`wrapper_tables`); an option it does not list makes the command
//! unknown. Each is peeled off until the real program is reached, which `classify` judges;
//! shells, `source` and programs named by path go to `scripts`.

use super::options::{self, Parsed, Table};
use super::read_only_programs::simple_command_reads;
use super::walk::{Analysis, Simple, Stdin};
use super::words::Arg;
use super::wrapper_tables as t;
use super::{Risk, classify, env, runners, scripts};

/// Classifies one simple command (after its words were decoded and substitutions walked).
pub(super) fn run(a: &mut Analysis, s: Simple, depth: usize) {
    let texts: Vec<String> = s.words.iter().map(|w| w.text.clone()).collect();
    if !s.words[0].literal || !s.assigns.is_empty() || !simple_command_reads(&texts) {
        a.not_read_only();
    }
    for assign in &s.assigns {
        env::exported(a, assign, depth);
    }
    peel(a, &s.words, s.stdin, depth);
}

/// Reads `prog`'s options with `table`, or flags the command unknown.
pub(super) fn opts(a: &mut Analysis, prog: &str, args: &[Arg], table: &Table) -> Option<Parsed> {
    match options::parse(args, table) {
        Ok(parsed) => Some(parsed),
        Err(option) => {
            a.flag(Risk::Unknown, format!("{prog}: option not understood: {option}"));
            None
        }
    }
}

fn basename(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
}

/// Directories of system programs: `/usr/bin/rm` is `rm`; any other path is a file of its own.
fn system_program(name: &str) -> bool {
    ["/bin/", "/usr/bin/", "/sbin/", "/usr/sbin/", "/usr/local/bin/"]
        .iter()
        .any(|d| {
            name.strip_prefix(d)
                .is_some_and(|rest| !rest.is_empty() && !rest.contains('/'))
        })
}

/// An argument only known when the command runs.
pub(super) fn placeholder(text: &str) -> Arg {
    Arg {
        text: text.to_owned(),
        ..Arg::default()
    }
}

pub(super) fn peel(a: &mut Analysis, words: &[Arg], stdin: Stdin, depth: usize) {
    let mut words = words;
    loop {
        let Some((first, args)) = words.split_first() else {
            return;
        };
        let Some(name) = first.lit() else {
            a.flag(Risk::Unknown, format!("command word is not literal: {}", first.text));
            return;
        };
        if first.glob {
            a.flag(Risk::Unknown, format!("command word is a glob: {name}"));
            return;
        }
        if name.contains('/') && !system_program(name) {
            a.program_seen(name);
            return scripts::by_path(a, words, stdin, depth);
        }
        let prog = basename(name);
        a.program_seen(prog);
        let rest: &[Arg] = match prog {
            "sudo" | "doas" => match privileged(a, prog, args) {
                Some(rest) => rest,
                None => return,
            },
            "sudoedit" => return a.flag(Risk::Unknown, "edits files as another user (sudoedit)"),
            "su" | "runuser" => {
                a.flag(Risk::Unknown, format!("runs as another user ({prog})"));
                a.carrier();
                return runners::su(a, args, depth);
            }
            "pkexec" | "run0" => {
                a.flag(Risk::Unknown, format!("runs as another user ({prog})"));
                return;
            }
            "env" => match env_command(a, args, depth) {
                Some(rest) => rest,
                None => return,
            },
            "nice" => {
                // `nice -10 cmd`: an adjustment spelled like an option.
                let numeric = args
                    .first()
                    .is_some_and(|w| w.text.len() > 1 && w.text[1..].chars().all(|c| c.is_ascii_digit()));
                let args = if numeric { &args[1..] } else { args };
                match after(a, prog, args, &t::NICE, 0) {
                    Some(rest) => rest,
                    None => return,
                }
            }
            "nohup" => match after(a, prog, args, &t::NOHUP, 0) {
                Some(rest) => rest,
                None => return,
            },
            "setsid" => match after(a, prog, args, &t::SETSID, 0) {
                Some(rest) => rest,
                None => return,
            },
            "stdbuf" => match after(a, prog, args, &t::STDBUF, 0) {
                Some(rest) => rest,
                None => return,
            },
            "exec" => match after(a, prog, args, &t::EXEC, 0) {
                Some(rest) => rest,
                None => return,
            },
            "fakeroot" => match after(a, prog, args, &t::FAKEROOT, 0) {
                Some(rest) => rest,
                None => return,
            },
            "unbuffer" => match after(a, prog, args, &t::UNBUFFER, 0) {
                Some(rest) => rest,
                None => return,
            },
            "catchsegv" => args,
            "timeout" => match after(a, prog, args, &t::TIMEOUT, 1) {
                Some(rest) => rest,
                None => return,
            },
            "command" | "builtin" => {
                let Some(p) = opts(a, prog, args, &t::COMMAND) else {
                    return;
                };
                if p.has("-v") || p.has("-V") {
                    return; // a lookup, runs nothing
                }
                &args[p.rest..]
            }
            "time" => {
                let Some(p) = opts(a, prog, args, &t::TIME) else { return };
                if let Some(out) = p.value("-o").or(p.value("--output")) {
                    let append = p.has("-a") || p.has("--append");
                    a.write(out, !append, "time -o");
                }
                &args[p.rest..]
            }
            "ionice" | "chrt" | "taskset" => match scheduler(a, prog, args) {
                Some(rest) => rest,
                None => return,
            },
            "flock" => return flock(a, args, stdin, depth),
            "setarch" | "linux32" | "linux64" | "i386" | "x86_64" | "uname26" => match setarch(a, prog, args) {
                Some(rest) => rest,
                None => return,
            },
            "prlimit" => {
                let Some(p) = opts(a, prog, args, &t::PRLIMIT) else {
                    return;
                };
                if p.has("-p") || p.has("--pid") {
                    return a.unvetted("changes the limits of another process (prlimit --pid)", false);
                }
                &args[p.rest..]
            }
            "unshare" => {
                let Some(p) = opts(a, prog, args, &t::UNSHARE) else {
                    return;
                };
                if ["-R", "--root", "-w", "--wd"].iter().any(|o| p.has(o)) {
                    a.flag(Risk::Unknown, "runs in another directory or root (unshare --root/--wd)");
                }
                if p.rest >= args.len() {
                    return a.flag(Risk::Unknown, "starts a shell (unshare without a program)");
                }
                &args[p.rest..]
            }
            "chroot" => {
                let Some(p) = opts(a, prog, args, &t::CHROOT) else {
                    return;
                };
                a.flag(Risk::Unknown, "runs inside another root directory (chroot)");
                match args.get(p.rest + 1..) {
                    Some(rest) if !rest.is_empty() => rest,
                    _ => return,
                }
            }
            "nsenter" => {
                return a.flag(Risk::Unknown, "enters the namespaces of another process (nsenter)");
            }
            "systemd-run" => {
                return a.flag(
                    Risk::Unknown,
                    "starts the command through systemd, outside the sandbox (systemd-run)",
                );
            }
            "script" => return script(a, args, depth),
            "xvfb-run" => {
                let Some(p) = opts(a, prog, args, &t::XVFB_RUN) else {
                    return;
                };
                for file in p.values("-e").chain(p.values("--error-file")) {
                    a.write(file, false, "xvfb-run -e");
                }
                &args[p.rest..]
            }
            "strace" | "ltrace" => match tracer(a, prog, args, depth) {
                Some(rest) => rest,
                None => return,
            },
            "valgrind" => {
                let Some(p) = opts(a, prog, args, &t::VALGRIND) else {
                    return;
                };
                for o in &p.options {
                    if o.name.ends_with("-file")
                        && let Some(file) = &o.value
                    {
                        a.write(file, true, "valgrind --log-file");
                    }
                }
                &args[p.rest..]
            }
            "watch" => return watch(a, args, depth),
            "xargs" => return xargs(a, args, depth),
            "parallel" => return parallel(a, args, depth),
            "fd" | "fdfind" => return fd(a, words, stdin, depth),
            "find" => return super::runners::find(a, words, stdin, depth),
            "eval" => {
                a.carrier();
                return eval(a, args, depth);
            }
            "trap" => return trap(a, args, depth),
            "busybox" => match args.first() {
                Some(w) if !w.text.starts_with('-') => args,
                _ => return,
            },
            "cd" | "pushd" => {
                let dir = args.iter().find(|w| !w.text.starts_with('-') || w.text == "-");
                a.program_words(words, 1);
                return a.change_dir(dir);
            }
            "source" | "." => return scripts::source(a, words, depth),
            "alias" => {
                a.carrier();
                for def in args {
                    match def.lit().and_then(|d| d.split_once('=')) {
                        Some((_, body)) => a.script(body, depth + 1),
                        None if def.literal => {}
                        None => a.flag(Risk::Unknown, "alias body is not literal"),
                    }
                }
                return;
            }
            p if scripts::is_shell(p) => return scripts::shell(a, words, stdin, depth),
            p if scripts::is_interpreter(p) => return scripts::interpreter(a, words, stdin, depth),
            _ => return classify::simple(a, prog, words, stdin, depth),
        };
        words = rest;
    }
}

/// The words after `table`'s options and `skip` operands (`timeout DURATION`); `None` (and
/// the command is judged) when the options do not parse, or nothing would run.
fn after<'w>(a: &mut Analysis, prog: &str, args: &'w [Arg], table: &Table, skip: usize) -> Option<&'w [Arg]> {
    let p = opts(a, prog, args, table)?;
    args.get(p.rest + skip..).filter(|rest| !rest.is_empty())
}

/// `sudo`/`doas`: another user, so never harmless; a shell or editor without a command is
/// unknown; `-l`/`-v` run nothing.
fn privileged<'w>(a: &mut Analysis, prog: &str, args: &'w [Arg]) -> Option<&'w [Arg]> {
    let table = if prog == "sudo" { &t::SUDO } else { &t::DOAS };
    let p = opts(a, prog, args, table)?;
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
fn env_command<'w>(a: &mut Analysis, args: &'w [Arg], depth: usize) -> Option<&'w [Arg]> {
    // `env -` is `env -i`.
    let args = match args.first() {
        Some(w) if w.text == "-" => &args[1..],
        _ => args,
    };
    let p = opts(a, "env", args, &t::ENV)?;
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
        a.flag(Risk::Destructive, super::secrets::PRINTS_ENV);
        return None;
    }
    Some(rest)
}

/// `ionice`/`chrt`/`taskset`: a command after the options (and, for `chrt`/`taskset`, the
/// priority or mask), or other processes' settings (`-p`).
fn scheduler<'w>(a: &mut Analysis, prog: &str, args: &'w [Arg]) -> Option<&'w [Arg]> {
    let (table, skip) = match prog {
        "ionice" => (&t::IONICE, 0),
        "chrt" => (&t::CHRT, 1),
        _ => (&t::TASKSET, 1),
    };
    let p = opts(a, prog, args, table)?;
    let others = ["-p", "--pid", "-P", "--pgid", "-u", "--uid", "-m", "--max"];
    if others.iter().any(|o| p.has(o)) {
        a.unvetted(&format!("changes the scheduling of other processes ({prog} -p)"), false);
        return None;
    }
    args.get(p.rest + skip..).filter(|rest| !rest.is_empty())
}

/// `flock [options] FILE COMMAND…`, `flock [options] FILE -c TEXT`, or `flock FD`.
fn flock(a: &mut Analysis, args: &[Arg], stdin: Stdin, depth: usize) {
    let Some(p) = opts(a, "flock", args, &t::FLOCK) else {
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
fn setarch<'w>(a: &mut Analysis, prog: &str, args: &'w [Arg]) -> Option<&'w [Arg]> {
    let args = match args.first() {
        Some(arch) if prog == "setarch" && !arch.text.starts_with('-') => &args[1..],
        _ => args,
    };
    let p = opts(a, prog, args, &t::SETARCH)?;
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
fn script(a: &mut Analysis, args: &[Arg], depth: usize) {
    let mut i = 0;
    let mut parsed = Vec::new();
    let mut files = Vec::new();
    while i < args.len() {
        let Some(p) = opts(a, "script", &args[i..], &t::SCRIPT) else {
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
fn tracer<'w>(a: &mut Analysis, prog: &str, args: &'w [Arg], depth: usize) -> Option<&'w [Arg]> {
    let table = if prog == "strace" { &t::STRACE } else { &t::LTRACE };
    let p = opts(a, prog, args, table)?;
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
fn watch(a: &mut Analysis, args: &[Arg], depth: usize) {
    let Some(p) = opts(a, "watch", args, &t::WATCH) else {
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
fn xargs(a: &mut Analysis, args: &[Arg], depth: usize) {
    let Some(p) = opts(a, "xargs", args, &t::XARGS) else {
        return;
    };
    for file in p.values("-a").chain(p.values("--arg-file")) {
        super::secrets::check_read(a, file, "xargs -a");
    }
    let rest = &args[p.rest..];
    if rest.is_empty() {
        return; // echoes its input
    }
    inner(a, rest, "<arguments from stdin>", Stdin::Inherited, depth);
}

/// Runs `words` plus an argument only known at run time, as a command of its own.
pub(super) fn inner(a: &mut Analysis, words: &[Arg], extra: &str, stdin: Stdin, depth: usize) {
    let mut cmd = words.to_vec();
    cmd.push(placeholder(extra));
    a.open_frame();
    peel(a, &cmd, stdin, depth + 1);
    a.close_frame();
}

/// `parallel [options] command ::: arguments`.
fn parallel(a: &mut Analysis, args: &[Arg], depth: usize) {
    let Some(p) = opts(a, "parallel", args, &t::PARALLEL) else {
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
    inner(a, &rest[..end], "<arguments from parallel>", Stdin::Inherited, depth);
}

/// `fd … -x cmd` / `-X cmd`: the rest is a command run on every match.
fn fd(a: &mut Analysis, words: &[Arg], stdin: Stdin, depth: usize) {
    let args = &words[1..];
    let exec = ["-x", "--exec", "-X", "--exec-batch"];
    match args.iter().position(|w| exec.contains(&w.text.as_str())) {
        Some(i) => inner(a, &args[i + 1..], "<matched path>", stdin, depth),
        None => classify::simple(a, "fd", words, stdin, depth),
    }
}

pub(super) fn eval(a: &mut Analysis, args: &[Arg], depth: usize) {
    if args.iter().all(|w| w.literal) {
        let text: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
        a.script(&text.join(" "), depth + 1);
    } else {
        a.flag(Risk::Unknown, "eval of text that is not literal");
    }
}

/// `trap TEXT SIGNAL…`: the text runs later in this shell.
fn trap(a: &mut Analysis, args: &[Arg], depth: usize) {
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
