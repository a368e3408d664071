//! Ordinary tools with an option that writes a file, edits in place or runs a program:
//! `sort -o`, `uniq IN OUT`, `tree -o`, `xxd IN OUT`, `iconv -o`, `shuf -o`, `sponge`,
//! `patch`, `dos2unix`, `yq -i`, compilers' `-o`; `rg --pre`, `sort --compress-program`,
//! `sqlite3 .shell`, `gdb -ex`, `vim -c`/`+cmd`, `emacs --eval`, `less +cmd`, `man -P`;
//! batch editors (`ed`, `ex`, `vim -es`); programs that talk to a daemon outside the sandbox
//! (`tmux`, `screen`); and readers that print the environment (`jq env`, `ps e`). `editors`
//! judges vim and sqlite3.

mod editors;

use super::analysis::{Analysis, Stdin};
use super::flags::{has_long, has_short, option_arg, option_arg_prefix, positional, short_value};
use super::options::has_long_prefix;
use super::words::Arg;
use super::{Risk, secrets};
use editors::{sqlite, vim};

const TOOLS: &[&str] = &[
    "sqlite3",
    "gdb",
    "lldb",
    "vim",
    "vi",
    "nvim",
    "view",
    "vimdiff",
    "gvim",
    "rvim",
    "ex",
    "exim",
    "emacs",
    "emacsclient",
    "nano",
    "pico",
    "micro",
    "kak",
    "hx",
    "helix",
    "joe",
    "mcedit",
    "ed",
    "red",
    "less",
    "more",
    "most",
    "bat",
    "batcat",
    "pg",
    "man",
    "tmux",
    "screen",
    "byobu",
    "zellij",
    "rg",
    "sort",
    "uniq",
    "tree",
    "file",
    "date",
    "hostname",
    "fd",
    "fdfind",
    "patch",
    "sponge",
    "dos2unix",
    "unix2dos",
    "mac2unix",
    "xxd",
    "yq",
    "jq",
    "iconv",
    "split",
    "csplit",
    "shuf",
    "ps",
];

pub(super) fn is_tool(prog: &str) -> bool {
    TOOLS.contains(&prog)
}

pub(super) fn tool(a: &mut Analysis, prog: &str, words: &[Arg], stdin: Stdin) {
    let args = &words[1..];
    match prog {
        "sqlite3" => sqlite(a, args, stdin),
        "gdb" | "lldb" => {
            let runs = ["-ex", "-x", "-iex", "-ix", "-o", "-O", "-s", "-S", "-p", "-batch", "-k"];
            let long = [
                "--command",
                "--eval-command",
                "--init-command",
                "--init-eval-command",
                "--batch",
                "--pid",
                "--source",
                "--one-line",
            ];
            if args.iter().any(|w| runs.contains(&w.text.as_str())) || has_long_prefix(args, &long) {
                a.flag(
                    Risk::Unknown,
                    format!("{prog} runs debugger commands or attaches to a process"),
                );
            } else {
                a.unvetted(&format!("runs a program under a debugger ({prog})"), true);
            }
        }
        "vim" | "vi" | "nvim" | "view" | "vimdiff" | "gvim" | "rvim" | "ex" | "exim" => vim(a, prog, args),
        "emacs" | "emacsclient" => {
            let runs = [
                "--batch",
                "-batch",
                "--script",
                "-l",
                "--load",
                "--eval",
                "-f",
                "--funcall",
                "-x",
                "-e",
            ];
            if args.iter().any(|w| {
                runs.iter()
                    .any(|r| w.text == *r || w.text.starts_with(&format!("{r}=")))
            }) {
                a.flag(Risk::Unknown, format!("{prog} runs Lisp code from the command line"));
            } else {
                a.flag(Risk::Unknown, format!("opens an interactive editor ({prog})"));
            }
        }
        "nano" | "pico" | "micro" | "kak" | "hx" | "helix" | "joe" | "mcedit" => {
            a.flag(Risk::Unknown, format!("opens an interactive editor ({prog})"))
        }
        "ed" | "red" => a.flag(Risk::Destructive, format!("edits files with a batch editor ({prog})")),
        "less" | "more" | "most" | "pg" => {
            let runs = args
                .iter()
                .any(|w| w.text.starts_with('+') || matches!(w.text.as_str(), "-k" | "-o" | "-O"))
                || has_long_prefix(args, &["--lesskey-file", "--lesskey-src", "--log-file", "--LOG-FILE"]);
            if runs {
                a.flag(
                    Risk::Unknown,
                    format!("{prog} runs commands or writes a log named by an option"),
                );
            }
        }
        "bat" | "batcat" if has_long_prefix(args, &["--pager"]) => {
            a.flag(Risk::Unknown, "bat runs a pager named by --pager")
        }
        "man" => {
            let runs = args
                .iter()
                .any(|w| w.text.starts_with("-P") || w.text.starts_with("-H"))
                || has_long_prefix(args, &["--pager", "--html", "--preprocessor", "--browser"]);
            if runs {
                a.flag(Risk::Unknown, "man runs a pager or browser named by an option");
            }
        }
        "tmux" | "screen" | "byobu" | "zellij" => a.flag(
            Risk::Unknown,
            format!("talks to a {prog} server outside the sandbox (its commands run there)"),
        ),
        "rg" if has_long_prefix(args, &["--pre", "--hostname-bin"]) => {
            a.flag(Risk::Unknown, "rg runs a preprocessor program (--pre)")
        }
        "sort" | "shuf" | "iconv" | "tree" => {
            if has_long_prefix(args, &["--compress-program"]) {
                a.flag(Risk::Unknown, "sort runs a compression program (--compress-program)");
            }
            let valued = match prog {
                "sort" => "ktoST",
                "shuf" => "ino",
                "iconv" => "fto",
                _ => "LPIo",
            };
            let out = short_value(args, 'o', valued).or_else(|| option_arg_prefix(args, "--output", None));
            if let Some(out) = out {
                a.write(&out, true, &format!("{prog} -o"));
            }
        }
        "uniq" => {
            if let Some(out) = positional(
                args,
                &["-f", "-s", "-w", "--skip-fields", "--skip-chars", "--check-chars"],
            )
            .get(1)
            {
                a.write(out, true, "uniq OUTPUT");
            }
        }
        "xxd" => {
            if let Some(out) = positional(args, &["-c", "-g", "-l", "-o", "-s", "-C", "-n"]).get(1) {
                a.write(out, true, "xxd OUTFILE");
            }
        }
        "file" if has_short(args, 'C') || has_long(args, &["--compile"]) => {
            a.unvetted("compiles a magic file (file -C)", false)
        }
        "date"
            if args
                .iter()
                .any(|w| w.text.starts_with("-s") || w.text.starts_with("--set")) =>
        {
            a.unvetted("sets the system clock (date -s)", false)
        }
        "hostname" if !positional(args, &["-F", "--file"]).is_empty() || has_short(args, 'F') => {
            a.unvetted("sets the host name", false)
        }
        "patch" => {
            if let Some(out) = option_arg(args, "--output", Some("-o")) {
                a.write(&out, true, "patch -o");
            } else if !has_long_prefix(args, &["--dry-run"]) {
                a.flag(Risk::Destructive, "patches files in place (patch)");
            }
        }
        "sponge" => {
            let append = has_short(args, 'a');
            for f in positional(args, &[]) {
                a.write(f, !append, "sponge");
            }
        }
        "dos2unix" | "unix2dos" | "mac2unix" => match has_short(args, 'n') || has_long(args, &["--newfile"]) {
            true => {
                if let Some(out) = positional(args, &[]).get(1) {
                    a.write(out, true, prog);
                }
            }
            false => a.flag(Risk::Destructive, format!("converts files in place ({prog})")),
        },
        "yq" | "jq" => {
            if prog == "yq" && (has_short(args, 'i') || has_long_prefix(args, &["--inplace"])) {
                a.flag(Risk::Destructive, "edits files in place (yq -i)");
            }
            let filter = positional(
                args,
                &[
                    "--arg",
                    "--argjson",
                    "--rawfile",
                    "--slurpfile",
                    "--indent",
                    "-f",
                    "--from-file",
                ],
            );
            if filter
                .first()
                .is_some_and(|f| ["env", "$ENV", "strenv(", "env("].iter().any(|e| f.text.contains(e)))
            {
                a.flag(Risk::Destructive, secrets::PRINTS_ENV);
            }
            if has_short(args, 'f') || has_long(args, &["--from-file"]) {
                a.flag(Risk::Unknown, format!("{prog} reads its filter from a file"));
            }
        }
        "split" | "csplit" => a.unvetted(&format!("writes files the analysis cannot name ({prog})"), false),
        // BSD-style `ps e`/`ps auxe` prints each process's environment.
        "ps" if args
            .iter()
            .any(|w| (!w.text.starts_with('-') && w.text.contains('e')) || w.text == "-E") =>
        {
            a.flag(Risk::Destructive, secrets::PRINTS_ENV)
        }
        // `fd`/`fdfind` without `-x`, `file`, `date`, `hostname`: they only read.
        _ => {}
    }
}

/// Compilers and converters with `-o`: the output is a write; options that name a program
/// or plugin to run are unknown.
pub(super) fn compiler(a: &mut Analysis, prog: &str, args: &[Arg]) {
    let runs = args.iter().any(|w| {
        let t = w.text.as_str();
        t == "-wrapper"
            || t.starts_with("-fplugin")
            || t.starts_with("-B")
            || t.contains("-specs")
            || t == "-Xclang"
            || t.starts_with("-fuse-ld=/")
            || t.starts_with("-fuse-ld=.")
            || t.starts_with('@')
            || t.starts_with("--filter")
            || t.starts_with("--lua-filter")
            || t == "-F"
            || t == "-L" && prog == "pandoc"
            || t.starts_with("--defaults")
            || (prog == "pandoc" && t == "-d")
            || t.contains("linker=")
    });
    if runs {
        a.flag(
            Risk::Unknown,
            format!("{prog} runs a program or plugin named by an option"),
        );
    }
    let output = option_arg(args, "--output", Some("-o"));
    let compiles_only = ["-c", "-E", "-S", "-fsyntax-only", "--version", "-v"]
        .iter()
        .any(|o| args.iter().any(|w| w.text == *o));
    match output {
        Some(out) => {
            a.write(&out, true, &format!("{prog} -o"));
        }
        None if matches!(prog, "gcc" | "g++" | "cc" | "c++" | "clang" | "clang++" | "ld")
            && !compiles_only
            && !args.is_empty() =>
        {
            a.write(&Arg::literal("a.out"), true, prog);
        }
        None => {}
    }
    a.unvetted(&format!("compiles or converts files ({prog})"), false);
}
