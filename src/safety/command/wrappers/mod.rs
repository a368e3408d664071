//! Commands that run other commands: privilege wrappers (`sudo`, `doas`, `su`), `env`,
//! `command`/`builtin`/`exec`, scheduling and resource wrappers (`nice`, `nohup`, `timeout`,
//! `stdbuf`, `setsid`, `ionice`, `chrt`, `taskset`, `flock`, `setarch`, `prlimit`, `unshare`,
//! `chroot`), tracers (`strace`, `ltrace`, `valgrind`, `time`), `script`, `xvfb-run`, `watch`,
//! `xargs`, `parallel`, `find -exec`, `fd -x`, `eval`, `trap`, `alias`, `busybox`. Each reads
//! its options from a table (`wrapper_tables`); an option it does not list makes the command
//! unknown. Each is peeled off until the real program is reached, which `classify` judges;
//! shells, `source` and programs named by path go to `scripts`. `each` reads the wrappers
//! with more to them than options and a command; `tables` holds the option tables.

mod each;
mod tables;

use super::analysis::{Analysis, Stdin};
use super::options;
use super::read_only_programs::simple_command_reads;
use super::words::Arg;
use super::{Risk, classify, env, runners, scripts};
pub(super) use each::eval;
use each::{
    after, env_command, fd, flock, parallel, privileged, scheduler, script, setarch, tracer, trap, watch, xargs,
};
use tables as t;

/// A simple command ready for classification.
#[derive(Debug)]
pub(super) struct Simple {
    /// `NAME=value` prefixes, decoded.
    pub assigns: Vec<Arg>,
    pub words: Vec<Arg>,
    pub stdin: Stdin,
}

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
            return scripts::by_path(a, words, depth);
        }
        let prog = basename(name);
        a.program_seen(prog);
        // A wrapper's arm gives the words of the command it runs, or `None` when there is
        // nothing more to read (the wrapper was flagged, or runs nothing).
        let rest: Option<&[Arg]> = match prog {
            "sudo" | "doas" => privileged(a, prog, args),
            "sudoedit" => return a.flag(Risk::Unknown, "edits files as another user (sudoedit)"),
            "su" | "runuser" => {
                a.flag(Risk::Unknown, format!("runs as another user ({prog})"));
                a.carrier();
                return runners::su(a, args, depth);
            }
            "run0" => return a.flag(Risk::Unknown, "runs as another user through systemd (run0)"),
            "pkexec" => {
                a.flag(Risk::Unknown, "runs as another user (pkexec)");
                after(a, prog, args, &t::PKEXEC, 0)
            }
            "env" => env_command(a, args, depth),
            "nice" => {
                // `nice -10 cmd`: an adjustment spelled like an option.
                let numeric = args.first().is_some_and(|w| {
                    w.text
                        .strip_prefix('-')
                        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
                });
                let args = if numeric { &args[1..] } else { args };
                after(a, prog, args, &t::NICE, 0)
            }
            "nohup" => after(a, prog, args, &t::NOHUP, 0),
            "setsid" => after(a, prog, args, &t::SETSID, 0),
            "stdbuf" => after(a, prog, args, &t::STDBUF, 0),
            "exec" => after(a, prog, args, &t::EXEC, 0),
            "fakeroot" => after(a, prog, args, &t::FAKEROOT, 0),
            "unbuffer" => after(a, prog, args, &t::UNBUFFER, 0),
            "catchsegv" => Some(args),
            "timeout" => after(a, prog, args, &t::TIMEOUT, 1),
            "command" | "builtin" => {
                let Some(p) = options::understood(a, prog, args, &t::COMMAND) else {
                    return;
                };
                if p.has("-v") || p.has("-V") {
                    return; // a lookup, runs nothing
                }
                Some(&args[p.rest..])
            }
            "time" => {
                let Some(p) = options::understood(a, prog, args, &t::TIME) else {
                    return;
                };
                if let Some(out) = p.value("-o").or(p.value("--output")) {
                    let append = p.has("-a") || p.has("--append");
                    a.write(out, !append, "time -o");
                }
                Some(&args[p.rest..])
            }
            "ionice" | "chrt" | "taskset" => scheduler(a, prog, args),
            "flock" => return flock(a, args, stdin, depth),
            "setarch" | "linux32" | "linux64" | "i386" | "x86_64" | "uname26" => setarch(a, prog, args),
            "prlimit" => {
                let Some(p) = options::understood(a, prog, args, &t::PRLIMIT) else {
                    return;
                };
                if p.has("-p") || p.has("--pid") {
                    return a.unvetted("changes the limits of another process (prlimit --pid)", false);
                }
                Some(&args[p.rest..])
            }
            "unshare" => {
                let Some(p) = options::understood(a, prog, args, &t::UNSHARE) else {
                    return;
                };
                if ["-R", "--root", "-w", "--wd"].iter().any(|o| p.has(o)) {
                    a.flag(Risk::Unknown, "runs in another directory or root (unshare --root/--wd)");
                }
                if p.rest >= args.len() {
                    return a.flag(Risk::Unknown, "starts a shell (unshare without a program)");
                }
                Some(&args[p.rest..])
            }
            "chroot" => {
                let Some(p) = options::understood(a, prog, args, &t::CHROOT) else {
                    return;
                };
                a.flag(Risk::Unknown, "runs inside another root directory (chroot)");
                args.get(p.rest + 1..).filter(|rest| !rest.is_empty())
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
                let Some(p) = options::understood(a, prog, args, &t::XVFB_RUN) else {
                    return;
                };
                for file in p.values("-e").chain(p.values("--error-file")) {
                    a.write(file, false, "xvfb-run -e");
                }
                Some(&args[p.rest..])
            }
            "strace" | "ltrace" => tracer(a, prog, args, depth),
            "valgrind" => {
                let Some(p) = options::understood(a, prog, args, &t::VALGRIND) else {
                    return;
                };
                for o in &p.options {
                    if o.name.ends_with("-file")
                        && let Some(file) = &o.value
                    {
                        a.write(file, true, "valgrind --log-file");
                    }
                }
                Some(&args[p.rest..])
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
                Some(w) if !w.text.starts_with('-') => Some(args),
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
        let Some(rest) = rest else { return };
        words = rest;
    }
}
