//! Commands that run other commands: `sudo`/`doas`, `env`, `command`/`builtin`/`exec`,
//! `nice`/`nohup`/`timeout`/`time`/`stdbuf`/`setsid`, `xargs`, `find -exec`, shells with
//! `-c` or reading stdin, `eval`, `source`, `alias`, and inline interpreter code. Each is
//! peeled off until the real program is reached, which `classify` judges.

use super::read_only_programs::simple_command_reads;
use super::runners::{self, Runner};
use super::walk::{Analysis, Simple, Stdin};
use super::words::Arg;
use super::{Risk, classify};

const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish", "tcsh", "csh"];
const INTERPRETERS: &[&str] = &[
    "python",
    "python2",
    "python3",
    "perl",
    "ruby",
    "node",
    "nodejs",
    "php",
    "lua",
    "deno",
    "bun",
    "osascript",
];

/// Classifies one simple command (after its words were decoded and substitutions walked).
pub(super) fn run(a: &mut Analysis, s: Simple, depth: usize) {
    let mut texts = s.assigns.clone();
    texts.extend(s.words.iter().map(|w| w.text.clone()));
    if !s.words[0].literal || !simple_command_reads(&texts) {
        a.not_read_only();
    }
    peel(a, &s.words, s.stdin, depth);
}

fn opt(arg: &Arg) -> bool {
    arg.text.starts_with('-') && arg.text.len() > 1
}

/// Skips leading options; those in `with_value` consume the next word too.
fn skip_options<'w>(args: &'w [Arg], with_value: &[&str]) -> &'w [Arg] {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if a.text == "--" {
            return &args[i + 1..];
        }
        if !opt(a) {
            break;
        }
        i += if with_value.contains(&a.text.as_str()) { 2 } else { 1 };
    }
    args.get(i..).unwrap_or(&[])
}

fn basename(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
}

fn peel(a: &mut Analysis, words: &[Arg], stdin: Stdin, depth: usize) {
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
        let prog = basename(name);
        a.program_seen(prog);
        words = match prog {
            "sudo" | "doas" => {
                let rest = skip_options(args, &["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T"]);
                let shell = ["-s", "-i", "--shell", "--login", "-e", "--edit"];
                if rest.is_empty() && args.iter().any(|w| shell.contains(&w.text.as_str())) {
                    a.flag(Risk::Unknown, format!("opens a root shell or editor ({prog})"));
                }
                rest
            }
            "su" => return runners::su(a, args, depth),
            "fd" | "fdfind" => return fd(a, args, stdin, depth),
            "parallel" => {
                let rest = skip_options(args, &["-j", "-n", "-N", "-S", "--jobs", "-a", "--arg-file"]);
                let end = rest
                    .iter()
                    .position(|w| w.text.starts_with(":::"))
                    .unwrap_or(rest.len());
                let mut cmd = rest[..end].to_vec();
                cmd.push(placeholder("<arguments from parallel>"));
                return peel(a, &cmd, Stdin::Inherited, depth + 1);
            }
            "command" | "builtin" => {
                if args.first().is_some_and(|x| matches!(x.text.as_str(), "-v" | "-V")) {
                    return; // a lookup, runs nothing
                }
                skip_options(args, &[])
            }
            "exec" => skip_options(args, &["-a"]),
            "nohup" | "setsid" | "time" => skip_options(args, &["-o", "-f"]),
            "nice" => skip_options(args, &["-n"]),
            "stdbuf" => skip_options(args, &["-i", "-o", "-e"]),
            "timeout" => {
                let rest = skip_options(args, &["-s", "-k", "--signal", "--kill-after"]);
                rest.get(1..).unwrap_or(&[])
            }
            "env" => match env_command(a, args, depth) {
                Some(rest) => rest,
                None => return,
            },
            "xargs" => return xargs(a, args, depth),
            "find" => return find(a, args, stdin, depth),
            "eval" => return eval(a, args, depth),
            "cd" | "pushd" => {
                let dir = args.iter().find(|w| !w.text.starts_with('-') || w.text == "-");
                return a.change_dir(dir);
            }
            "source" | "." => {
                if !args.first().is_some_and(|f| f.literal) {
                    a.flag(Risk::Unknown, "sources a file that is not literal");
                }
                return;
            }
            "alias" => {
                for def in args {
                    match def.lit().and_then(|d| d.split_once('=')) {
                        Some((_, body)) => a.script(body, depth + 1),
                        None if def.literal => {}
                        None => a.flag(Risk::Unknown, "alias body is not literal"),
                    }
                }
                return;
            }
            p if SHELLS.contains(&p) => return shell(a, args, stdin, depth),
            p if runners::runner(p).is_some() => match runners::runner(p) {
                Some(Runner::Skip(n, with_value)) => runners::command_of(args, n, with_value),
                Some(Runner::Joined(with_value)) => {
                    let rest = runners::command_of(args, 0, with_value);
                    return eval(a, rest, depth);
                }
                None => return,
            },
            p if INTERPRETERS.iter().any(|i| p == *i || versioned(p, i)) => {
                return interpreter(a, prog, args, stdin, depth);
            }
            _ => return classify::simple(a, prog, args, stdin, depth),
        };
    }
}

/// `python3.12`, `perl5.36`.
fn versioned(prog: &str, base: &str) -> bool {
    prog.strip_prefix(base)
        .is_some_and(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// `env [-i] [-u NAME] [-C DIR] [-S TEXT] [NAME=value…] [command…]`; `None` once handled.
fn env_command<'w>(a: &mut Analysis, args: &'w [Arg], depth: usize) -> Option<&'w [Arg]> {
    let mut i = 0;
    while let Some(w) = args.get(i) {
        let t = w.text.as_str();
        if t == "--" {
            i += 1;
            break;
        }
        if t == "-S" || t.starts_with("--split-string") {
            let text = if t == "-S" { args.get(i + 1) } else { Some(w) };
            match text.and_then(Arg::lit) {
                Some(s) => a.script(s.trim_start_matches("--split-string="), depth + 1),
                None => a.flag(Risk::Unknown, "env -S text is not literal"),
            }
            return None;
        }
        if matches!(t, "-u" | "-C" | "--unset" | "--chdir") {
            i += 2;
        } else if opt(w) {
            i += 1;
        } else {
            break;
        }
    }
    while args.get(i).is_some_and(|w| is_assignment(&w.text)) {
        i += 1;
    }
    let rest = args.get(i..).unwrap_or(&[]);
    if rest.is_empty() {
        a.flag(Risk::Destructive, super::secrets::PRINTS_ENV);
        return None;
    }
    Some(rest)
}

pub(super) fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// `xargs [options] command…`: the command gets extra arguments from stdin we cannot see.
fn xargs(a: &mut Analysis, args: &[Arg], depth: usize) {
    let with_value = [
        "-a",
        "-I",
        "-L",
        "-n",
        "-P",
        "-d",
        "-E",
        "-s",
        "--arg-file",
        "--delimiter",
    ];
    let rest = skip_options(args, &with_value);
    if rest.is_empty() {
        return; // echoes its input
    }
    let mut words = rest.to_vec();
    words.push(placeholder("<arguments from stdin>"));
    peel(a, &words, Stdin::Inherited, depth + 1);
}

/// An argument only known when the command runs.
fn placeholder(text: &str) -> Arg {
    Arg {
        text: text.to_owned(),
        ..Arg::default()
    }
}

/// `fd … -x cmd` / `-X cmd`: the rest is a command run on every match.
fn fd(a: &mut Analysis, args: &[Arg], stdin: Stdin, depth: usize) {
    let exec = ["-x", "--exec", "-X", "--exec-batch"];
    if let Some(i) = args.iter().position(|w| exec.contains(&w.text.as_str())) {
        let mut cmd = args[i + 1..].to_vec();
        cmd.push(placeholder("<matched path>"));
        peel(a, &cmd, stdin, depth + 1);
    }
}

/// `find … -exec cmd {} \;` (and `-execdir`/`-ok`/`-okdir`, `+`), `-delete`, `-fprint`.
fn find(a: &mut Analysis, args: &[Arg], stdin: Stdin, depth: usize) {
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        match w.text.as_str() {
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                let mut cmd = Vec::new();
                while let Some(x) = args.get(i) {
                    i += 1;
                    if x.literal && (x.text == ";" || x.text == "+") {
                        break;
                    }
                    cmd.push(if x.literal && x.text.contains("{}") {
                        Arg {
                            text: x.text.clone(),
                            ..Arg::default()
                        }
                    } else {
                        x.clone()
                    });
                }
                peel(a, &cmd, stdin, depth + 1);
            }
            "-delete" => a.flag(Risk::Destructive, "deletes files (find -delete)"),
            "-fprint" | "-fprint0" | "-fprintf" | "-fls" => {
                if let Some(target) = args.get(i) {
                    a.write(target, true, "find -fprint");
                }
            }
            _ => {}
        }
    }
    super::secrets::check_args(a, "find", args);
}

fn eval(a: &mut Analysis, args: &[Arg], depth: usize) {
    if args.iter().all(|w| w.literal) {
        let text: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
        a.script(&text.join(" "), depth + 1);
    } else {
        a.flag(Risk::Unknown, "eval of text that is not literal");
    }
}

/// `sh -c TEXT`, `bash -lc TEXT`, `sh script.sh`, or a shell reading its script from stdin.
fn shell(a: &mut Analysis, args: &[Arg], stdin: Stdin, depth: usize) {
    let mut i = 0;
    let mut inline = false;
    let mut from_stdin = false;
    while let Some(w) = args.get(i) {
        let t = w.text.as_str();
        if t == "--" || t == "-" {
            i += 1;
            break;
        }
        if !(t.starts_with('-') || t.starts_with('+')) || t.len() < 2 {
            break;
        }
        if matches!(t, "-o" | "+o" | "-O" | "+O" | "--rcfile" | "--init-file") {
            i += 1;
        } else if !t.starts_with("--") {
            inline |= t.contains('c');
            from_stdin |= t.contains('s');
        }
        i += 1;
    }
    let script = args.get(i);
    if inline {
        match script.map(|s| s.lit()) {
            Some(Some(text)) => a.script(text, depth + 1),
            Some(None) => a.flag(Risk::Unknown, "a shell runs text that is not literal (sh -c)"),
            None => a.flag(Risk::Unknown, "sh -c without a command"),
        }
    } else if script.is_none() || from_stdin {
        let how = match stdin {
            Stdin::Pipe => "a pipe",
            Stdin::File => "a file",
            Stdin::Here => "a here-document",
            Stdin::Inherited => "stdin",
        };
        a.flag(Risk::Unknown, format!("a shell reads its script from {how}"));
    } else if !script.is_some_and(|s| s.literal) {
        a.flag(Risk::Unknown, "a shell runs a script whose name is not literal");
    }
}

/// `python -c CODE`, `perl -e CODE`, `node -e`, code from stdin; `perl -i` edits in place;
/// `python -m pip uninstall`.
fn interpreter(a: &mut Analysis, prog: &str, args: &[Arg], stdin: Stdin, depth: usize) {
    let texts: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    if prog.starts_with("perl")
        && texts
            .iter()
            .any(|t| t.starts_with('-') && !t.starts_with("--") && t.contains('i'))
    {
        a.flag(Risk::Destructive, "edits files in place (perl -i)");
    }
    if let Some(m) = texts.iter().position(|t| *t == "-m")
        && let Some(module) = args.get(m + 1)
    {
        return classify::simple(a, &module.text, &args[m + 2..], stdin, depth);
    }
    let inline = texts.iter().any(|t| {
        matches!(*t, "-c" | "-e" | "-E" | "--eval" | "-p" | "--print" | "-r")
            || (t.starts_with('-') && !t.starts_with("--") && (t.ends_with('e') || t.ends_with('c')))
    });
    let has_script = texts.iter().any(|t| !t.starts_with('-'));
    if inline {
        a.flag(Risk::Unknown, format!("runs inline {prog} code"));
    } else if !has_script && stdin != Stdin::Inherited || texts.contains(&"-") {
        a.flag(Risk::Unknown, format!("{prog} reads its program from stdin"));
    }
}
