//! Programs that run a command given as their operands (`watch`, `flock`, `chroot`,
//! `ionice`, `strace`, `su -c`, `parallel`, `fd -x`, `busybox`…) and mini-languages that can
//! run programs or write files (`awk` `system()`/pipes/redirections, `sed` `e`/`w`).

use std::sync::LazyLock;

use regex::Regex;

use super::Risk;
use super::walk::Analysis;
use super::words::Arg;

/// How to find the command inside a runner's arguments.
pub(super) enum Runner {
    /// Options, then `n` positional words (a file, a directory, a mask), then the command.
    Skip(usize, &'static [&'static str]),
    /// The remaining words are joined and run by a shell (`watch`).
    Joined(&'static [&'static str]),
}

pub(super) fn runner(prog: &str) -> Option<Runner> {
    Some(match prog {
        "busybox" | "unbuffer" | "caffeinate" | "catchsegv" | "fakeroot" | "proxychains" | "proxychains4"
        | "torsocks" | "firejail" | "valgrind" | "ltrace" | "unshare" | "nsenter" | "systemd-run" | "doppler"
        | "op" => Runner::Skip(0, &["-u", "-o", "-e", "-p", "-t", "--unit", "--tool"]),
        "strace" => Runner::Skip(0, &["-e", "-o", "-p", "-s", "-u", "-E"]),
        "ionice" => Runner::Skip(0, &["-c", "-n", "-p", "-t"]),
        "taskset" | "chrt" | "flock" | "chroot" => Runner::Skip(1, &["-c", "-w", "-E", "-p"]),
        "watch" => Runner::Joined(&["-n", "-d", "--interval", "-x"]),
        _ => return None,
    })
}

/// The command words of a runner, or `None` when there is none.
pub(super) fn command_of<'w>(args: &'w [Arg], skip: usize, with_value: &[&str]) -> &'w [Arg] {
    let mut i = 0;
    while let Some(w) = args.get(i) {
        if w.text == "--" {
            i += 1;
            break;
        }
        if !(w.text.starts_with('-') && w.text.len() > 1) {
            break;
        }
        i += if with_value.contains(&w.text.as_str()) { 2 } else { 1 };
    }
    args.get(i + skip..).unwrap_or(&[])
}

/// `su [-] [user] [-c TEXT]`: a root shell without `-c`.
pub(super) fn su(a: &mut Analysis, args: &[Arg], depth: usize) {
    match args.iter().position(|w| w.text == "-c" || w.text == "--command") {
        Some(i) => match args.get(i + 1).and_then(Arg::lit) {
            Some(text) => a.script(text, depth + 1),
            None => a.flag(Risk::Unknown, "su -c text is not literal"),
        },
        None => a.flag(Risk::Unknown, "opens a shell as another user (su)"),
    }
}

static AWK_RUNS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"\bsystem\s*\(|\|\s*getline|\bprintf?\b[^;}]*(?:>|\|)|\bfflush\b.*\|"#).expect("static regex")
});
// GNU sed commands that run programs (`e`) or write files (`w`, `W`) at command position.
static SED_COMMAND_RUNS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[;{}\n])\s*[0-9$,/!~ ]*\s*[ewW](?:\s|$)").expect("static regex"));

/// Whether a sed script runs programs or writes files: `e`/`w` commands, or an `s` command
/// whose flags include `e` or `w` (delimiters and escapes honoured).
fn sed_runs(script: &str) -> bool {
    if SED_COMMAND_RUNS.is_match(script) {
        return true;
    }
    let chars: Vec<char> = script.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let at_command = i == 0 || matches!(chars[i - 1], ';' | '\n' | '{' | '}' | ' ' | '0'..='9' | '$' | '/');
        if chars[i] == 's' && at_command && i + 1 < chars.len() && !chars[i + 1].is_alphanumeric() {
            let delim = chars[i + 1];
            let mut j = i + 2;
            let mut parts = 0;
            while j < chars.len() && parts < 2 {
                if chars[j] == '\\' {
                    j += 1;
                } else if chars[j] == delim {
                    parts += 1;
                }
                j += 1;
            }
            let flags: String = chars[j.min(chars.len())..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            if parts == 2 && (flags.contains('e') || flags.contains('w')) {
                return true;
            }
            i = j;
        } else {
            i += 1;
        }
    }
    false
}

/// `awk` programs (the first operand, or `-f file`) that run commands or write files.
pub(super) fn awk(a: &mut Analysis, args: &[Arg]) {
    if args.iter().any(|w| w.text == "-f" || w.text.starts_with("--file")) {
        a.flag(Risk::Unknown, "awk runs a program file");
        return;
    }
    let program = args.iter().find(|w| !w.text.starts_with('-'));
    match program {
        Some(p) if !p.literal => a.flag(Risk::Unknown, format!("awk program is not literal: {}", p.text)),
        Some(p) if AWK_RUNS.is_match(&p.text) => a.flag(Risk::Unknown, "awk program runs commands or writes files"),
        _ => {}
    }
}

/// `sed` scripts with `e`/`w` commands or flags (in-place editing is judged in `files`).
pub(super) fn sed_script(a: &mut Analysis, args: &[Arg]) {
    let mut scripts = Vec::new();
    let mut it = args.iter();
    let mut explicit = false;
    while let Some(w) = it.next() {
        match w.text.as_str() {
            "-e" | "--expression" => {
                explicit = true;
                scripts.extend(it.next());
            }
            "-f" | "--file" => {
                a.flag(Risk::Unknown, "sed runs a script file");
                return;
            }
            _ => {}
        }
    }
    if !explicit {
        scripts.extend(args.iter().find(|w| !w.text.starts_with('-')));
    }
    for s in scripts {
        if !s.literal {
            a.flag(Risk::Unknown, format!("sed script is not literal: {}", s.text));
        } else if sed_runs(&s.text) {
            a.flag(Risk::Unknown, "sed script runs commands or writes files (e/w)");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{AWK_RUNS, sed_runs};

    #[test]
    fn mini_language_patterns() {
        assert!(AWK_RUNS.is_match(r#"BEGIN{system("rm f")}"#));
        assert!(AWK_RUNS.is_match(r#"{print > "out"}"#));
        assert!(!AWK_RUNS.is_match("{print $1}"));
        assert!(!AWK_RUNS.is_match("$3 > 5"));
        assert!(sed_runs("1e rm f"));
        assert!(sed_runs("s/x/rm f/e"));
        assert!(sed_runs("w out.txt"));
        assert!(!sed_runs("s/a/b/g"));
        assert!(!sed_runs("1,10p"));
        assert!(!sed_runs("s/hello/we/g"));
        assert!(!sed_runs("s/x/the end/"));
        assert!(sed_runs("s|a|b|gw out"));
    }
}
