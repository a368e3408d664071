//! Scripts run by name: `bash x.sh`, `sh -c TEXT`, `. ./x.sh`/`source x.sh`, `./x.sh` (by its
//! shebang), and interpreters (`python3 x.py`, `node x.js`, …). A shell script is read through
//! the injected `read_file` and analysed by content, as a *host* whose commands fold into it;
//! a script in another language, one that cannot be read, or one read from stdin (`-`,
//! `/dev/stdin`, `/dev/fd/0`, `/proc/self/fd/0`) is unknown.

use std::path::Path;

use super::Risk;
use super::analysis::{Analysis, Stdin};
use super::words::Arg;

const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "yash", "fish", "tcsh", "csh",
];
/// Shells whose script files the bash grammar does not read.
const FOREIGN_SHELLS: &[&str] = &["fish", "tcsh", "csh"];
const INTERPRETERS: &[&str] = &[
    "python",
    "python2",
    "python3",
    "pypy",
    "pypy3",
    "perl",
    "ruby",
    "node",
    "nodejs",
    "php",
    "lua",
    "luajit",
    "Rscript",
    "julia",
    "tsx",
    "ts-node",
    "osascript",
    "pwsh",
    "powershell",
    "tclsh",
    "wish",
    "guile",
    "racket",
    "sbcl",
    "elixir",
    "groovy",
    "scala",
    "java",
    "jshell",
    "kotlin",
    "swift",
    "awk-script",
];

pub(super) fn is_shell(prog: &str) -> bool {
    SHELLS.contains(&prog)
}

pub(super) fn is_interpreter(prog: &str) -> bool {
    INTERPRETERS.iter().any(|i| prog == *i || versioned(prog, i))
}

/// `python3.12`, `perl5.36`.
fn versioned(prog: &str, base: &str) -> bool {
    prog.strip_prefix(base)
        .is_some_and(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// A path that is stdin or a device, not a script file (`-`, `/dev/stdin`, `/proc/self/fd/0`).
fn not_a_file(text: &str, resolved: &Path) -> bool {
    text == "-" || resolved.starts_with("/dev") || resolved.starts_with("/proc")
}

fn stdin_source(stdin: Stdin) -> &'static str {
    match stdin {
        Stdin::Pipe => "a pipe",
        Stdin::File => "a file",
        Stdin::Here => "a here-document",
        Stdin::Inherited => "stdin",
    }
}

/// `sh -c TEXT`, `bash -lc TEXT`, `bash x.sh`, or a shell reading its script from stdin.
pub(super) fn shell(a: &mut Analysis, words: &[Arg], stdin: Stdin, depth: usize) {
    let prog = words[0].text.rsplit('/').next().unwrap_or("sh").to_owned();
    let args = &words[1..];
    let mut i = 0;
    let mut inline = false;
    let mut from_stdin = false;
    while let Some(w) = args.get(i) {
        let t = w.text.as_str();
        if t == "--" || t == "-" {
            i += 1;
            from_stdin |= t == "-";
            break;
        }
        if !(t.starts_with('-') || t.starts_with('+')) || t.len() < 2 {
            break;
        }
        if !w.literal {
            return a.flag(Risk::Unknown, format!("{prog}: option is not literal: {}", w.text));
        }
        match t {
            "-o" | "+o" | "-O" | "+O" => i += 1,
            "--rcfile" | "--init-file" => {
                return a.flag(Risk::Unknown, format!("{prog} runs a start-up file ({t})"));
            }
            "--login" | "--noprofile" | "--norc" | "--posix" | "--restricted" | "--verbose" | "--noediting"
            | "--version" | "--help" | "--debugger" | "--pretty-print" => {}
            _ if t.starts_with("--") => {
                return a.flag(Risk::Unknown, format!("{prog}: option not understood: {t}"));
            }
            _ => {
                inline |= t.contains('c');
                from_stdin |= t.contains('s');
            }
        }
        i += 1;
    }
    let script = args.get(i);
    if inline {
        a.carrier();
        return match script.map(|s| s.lit()) {
            Some(Some(text)) => a.script(text, depth + 1),
            Some(None) => a.flag(Risk::Unknown, "a shell runs text that is not literal (sh -c)"),
            None => a.flag(Risk::Unknown, "sh -c without a command"),
        };
    }
    let Some(script) = script.filter(|_| !from_stdin) else {
        let how = if from_stdin { "stdin" } else { stdin_source(stdin) };
        return a.flag(Risk::Unknown, format!("a shell reads its script from {how}"));
    };
    let pattern_len = i + 2;
    a.program_words(words, pattern_len);
    run_file(a, script, &prog, depth, false);
}

/// `. FILE` / `source FILE`: the file runs in this shell.
pub(super) fn source(a: &mut Analysis, words: &[Arg], depth: usize) {
    let Some(file) = words.get(1) else { return };
    a.program_words(words, 2);
    run_file(a, file, "bash", depth, true);
}

/// Reads a shell script and analyses it as the host of the current frame.
fn run_file(a: &mut Analysis, file: &Arg, shell: &str, depth: usize, sourced: bool) {
    let Some(text) = file.lit() else {
        return a.flag(
            Risk::Unknown,
            format!("runs a script whose name is not literal: {}", file.text),
        );
    };
    let path = a.resolve(text);
    if not_a_file(text, &path) {
        return a.flag(
            Risk::Unknown,
            format!("{shell} reads its script from stdin or a device: {text}"),
        );
    }
    if FOREIGN_SHELLS.contains(&shell) {
        return a.unvetted(&format!("runs a {shell} script: {text}"), true);
    }
    let Some(content) = a.read(&path) else {
        return a.unvetted(&format!("runs a script the analysis cannot read: {text}"), true);
    };
    a.host();
    match sourced {
        true => a.source_text(&content, depth + 1),
        false => a.script(&content, depth + 1),
    }
}

/// A program named by a path (`./x.sh`, `scripts/build`, `/tmp/tool`): a shell script (by its
/// shebang, or none) is analysed by content; anything else is unknown.
pub(super) fn by_path(a: &mut Analysis, words: &[Arg], depth: usize) {
    let text = words[0].text.clone();
    a.program_words(words, 1);
    let path = a.resolve(&text);
    if not_a_file(&text, &path) {
        return a.flag(Risk::Unknown, format!("runs a device or stdin as a program: {text}"));
    }
    let Some(content) = a.read(&path) else {
        return a.unvetted(&format!("runs a program the analysis cannot read: {text}"), true);
    };
    match interpreter_of(&content) {
        Some(interp) if is_shell(&interp) && !FOREIGN_SHELLS.contains(&interp.as_str()) => {
            a.host();
            a.script(&content, depth + 1);
        }
        Some(interp) => a.unvetted(&format!("runs a {interp} script: {text}"), true),
        // No `#!`: the shell runs a text file as a shell script.
        None => {
            a.host();
            a.script(&content, depth + 1);
        }
    }
}

/// The program of a `#!` line (`/usr/bin/env -S bash -e` is `bash`); `None` without one.
fn interpreter_of(content: &str) -> Option<String> {
    let line = content.lines().next()?.strip_prefix("#!")?;
    let mut parts = line.split_whitespace();
    let mut prog = parts.next()?.rsplit('/').next()?.to_owned();
    if prog == "env" {
        prog = parts
            .find(|p| !p.starts_with('-') && !p.contains('='))
            .map(|p| p.rsplit('/').next().unwrap_or(p).to_owned())
            .unwrap_or_default();
    }
    Some(if prog.is_empty() { "unknown".into() } else { prog })
}

/// Options of interpreters that take the next word as their value.
const VALUED: &[&str] = &[
    "-W",
    "-X",
    "-Q",
    "-I",
    "-C",
    "-E",
    "-F",
    "-K",
    "-x",
    "--title",
    "--stack-size",
];
/// Options that load code named in their value (a module preloaded before the script).
const LOADS_CODE: &[&str] = &[
    "-r",
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
    "-M",
    "-m",
];

/// `python3 x.py`, `node x.js`: another language, so unknown; `-c`/`-e` code and code from
/// stdin no rule can cover; `perl -i`/`ruby -i` edit in place; `python -m pip` is `pip`.
pub(super) fn interpreter(a: &mut Analysis, words: &[Arg], stdin: Stdin, depth: usize) {
    let prog = words[0].text.rsplit('/').next().unwrap_or("python3").to_owned();
    let args = &words[1..];
    let texts: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    if matches!(
        texts.as_slice(),
        ["--version" | "-V" | "-v" | "--help" | "-h" | "version"]
    ) {
        return a.program_words(words, 2);
    }
    if (prog.starts_with("perl") || prog == "ruby")
        && texts
            .iter()
            .take_while(|t| **t != "--")
            .any(|t| t.starts_with('-') && !t.starts_with("--") && t.contains('i'))
    {
        a.flag(Risk::Destructive, format!("edits files in place ({prog} -i)"));
    }
    if prog.starts_with("python")
        && let Some(m) = texts.iter().position(|t| *t == "-m")
        && let Some(module) = args.get(m + 1)
    {
        return python_module(a, words, m + 3, module, stdin, depth);
    }
    let mut i = 0;
    while let Some(t) = texts.get(i) {
        if *t == "--" {
            i += 1;
            break;
        }
        if !t.starts_with('-') || *t == "-" {
            break;
        }
        let inline = matches!(
            *t,
            "-c" | "-e" | "-E" | "--eval" | "-p" | "--print" | "-r" | "--command"
        ) || (!t.starts_with("--") && (t.ends_with('e') || t.ends_with('c')) && prog != "php");
        if inline && !(prog == "node" && *t == "-r") {
            return a.flag(Risk::Unknown, format!("runs inline {prog} code"));
        }
        if LOADS_CODE.contains(t) || t.starts_with("-M") || t.starts_with("--require=") || t.starts_with("--import=") {
            return a.flag(Risk::Unknown, format!("{prog} loads code named by an option ({t})"));
        }
        i += if VALUED.contains(t) { 2 } else { 1 };
    }
    match args.get(i) {
        Some(script) if script.text != "-" => {
            let path = a.resolve(&script.text);
            if script.literal && not_a_file(&script.text, &path) {
                return a.flag(
                    Risk::Unknown,
                    format!("{prog} reads its program from stdin or a device"),
                );
            }
            a.program_words(words, i + 2);
            a.unvetted(&format!("runs a {prog} script: {}", script.text), true);
        }
        Some(_) => a.flag(Risk::Unknown, format!("{prog} reads its program from stdin")),
        None if stdin != Stdin::Inherited => a.flag(
            Risk::Unknown,
            format!("{prog} reads its program from {}", stdin_source(stdin)),
        ),
        None => {
            a.program_words(words, 1);
            a.unvetted(&format!("starts {prog} without a script"), true);
        }
    }
}

/// `python -m MODULE`: `pip` is judged as `pip`, a few standard modules are known.
fn python_module(a: &mut Analysis, words: &[Arg], rest: usize, module: &Arg, stdin: Stdin, depth: usize) {
    let name = module.text.as_str();
    let args = words.get(rest..).unwrap_or(&[]);
    a.program_words(words, rest);
    match name {
        "pip" | "pip3" => super::project::tool(a, "pip", words, rest, stdin, depth),
        "json.tool" | "tabnanny" | "py_compile" | "compileall" | "this" | "site" if args.len() <= 2 => {
            a.unvetted(&format!("runs python -m {name}"), false)
        }
        "venv" | "virtualenv" => {
            for dir in args.iter().filter(|w| !w.text.starts_with('-')) {
                a.write_dir(dir, "python -m venv");
            }
            a.unvetted("creates a virtual environment (python -m venv)", false);
        }
        _ => a.unvetted(&format!("runs the python module {name}"), true),
    }
}
