//! Shell builtins and small utilities that change nothing outside the shell itself (`set`,
//! `shopt`, `read`, `wait`, `sleep`…), with the few forms that do: `set -a` exports every later
//! assignment, `hash -p` and `enable -f` change what a name runs, `fc` opens an editor.

use super::Risk;
use super::analysis::Analysis;
use super::words::Arg;

/// Builtins and utilities judged here (everything else is in a table of its own).
pub(super) const BUILTINS: &[&str] = &[
    ":",
    "set",
    "shopt",
    "unset",
    "unalias",
    "hash",
    "enable",
    "umask",
    "ulimit",
    "read",
    "readarray",
    "mapfile",
    "wait",
    "jobs",
    "bg",
    "fg",
    "disown",
    "suspend",
    "exit",
    "logout",
    "return",
    "break",
    "continue",
    "shift",
    "getopts",
    "let",
    "times",
    "caller",
    "help",
    "history",
    "fc",
    "bind",
    "complete",
    "compopt",
    "sleep",
    "usleep",
    "yes",
    "expr",
    "factor",
    "numfmt",
    "cal",
    "tput",
    "clear",
    "tty",
    "logname",
    "users",
    "who",
    "hostid",
    "getconf",
    "lscpu",
    "nproc",
    "bc",
];

pub(super) fn builtin(a: &mut Analysis, prog: &str, args: &[Arg]) {
    let texts: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    match prog {
        "set"
            if texts
                .iter()
                .any(|t| (t.starts_with('-') && !t.starts_with("--") && t.contains('a')) || *t == "allexport") =>
        {
            a.flag(
                Risk::Unknown,
                "set -a exports every later assignment to the programs it runs",
            )
        }
        "hash" if texts.iter().any(|t| t.starts_with("-p")) => {
            a.flag(Risk::Unknown, "hash -p makes a name run another program")
        }
        "enable" => a.flag(Risk::Unknown, "enable changes or loads shell builtins"),
        // Array subscripts in arithmetic are expanded: `let 'x=a[$(cmd)]'` runs cmd.
        "let" if texts.iter().any(|t| t.contains("$(") || t.contains('`')) => {
            a.flag(Risk::Unknown, "substitution inside let arithmetic")
        }
        "mapfile" | "readarray" if texts.iter().any(|t| t.starts_with("-C")) => {
            a.flag(Risk::Unknown, format!("{prog} -C runs a callback command"))
        }
        "fc" if !texts.contains(&"-l") => a.flag(Risk::Unknown, "fc opens an editor and runs its text"),
        "bind" | "complete" | "compopt" if texts.iter().any(|t| t.starts_with("-x") || t.starts_with("-C")) => {
            a.flag(Risk::Unknown, format!("{prog} sets a command to run later"))
        }
        "history" if texts.iter().any(|t| t.starts_with("-w") || t.starts_with("-a")) => {
            a.unvetted("writes the shell history file (history -w)", false)
        }
        _ => {}
    }
}
