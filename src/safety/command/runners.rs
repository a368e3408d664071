//! `find` (its `-exec` commands run on their own; `-delete`, `-fprint` judged here), `su -c`,
//! and mini-languages that can run programs or write files (`awk` `system()`/pipes/
//! redirections/`-i inplace`, `sed` `e`/`w`).

use std::sync::LazyLock;

use regex::Regex;

use super::Risk;
use super::analysis::{Analysis, Stdin};
use super::words::Arg;

/// `find … -exec cmd {} \;` (and `-execdir`/`-ok`/`-okdir`, `+`): each command runs on its own
/// (its `{}` only known at run time); `find` itself is judged without those parts.
pub(super) fn find(a: &mut Analysis, words: &[Arg], stdin: Stdin, depth: usize) {
    let args = &words[1..];
    if args
        .iter()
        .any(|w| matches!(w.text.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir"))
    {
        // The commands read what find finds: the starting points are read recursively.
        let roots: Vec<&Arg> = args
            .iter()
            .take_while(|w| !w.text.starts_with(['-', '(', '!']))
            .collect();
        super::secrets::read_directories(a, "find -exec", &roots);
    }
    let mut own = vec![words[0].clone()];
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        if !matches!(w.text.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            own.push(w.clone());
            continue;
        }
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
        a.open_frame();
        a.peel(&cmd, stdin, depth + 1);
        a.close_frame();
    }
    a.classify_as("find", &own, stdin, depth);
}

/// `find`'s own actions: `-delete`, and `-fprint`/`-fls` writing files.
pub(super) fn find_own(a: &mut Analysis, args: &[Arg]) {
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        match w.text.as_str() {
            "-delete" => a.flag(Risk::Destructive, "deletes files (find -delete)"),
            "-fprint" | "-fprint0" | "-fprintf" | "-fls" => {
                if let Some(target) = args.get(i) {
                    a.write(target, true, "find -fprint");
                }
            }
            _ => {}
        }
    }
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

/// `awk` programs (the first operand, or `-e`/`--source` texts) that run commands or write
/// files; program files (`-f`), libraries (`-i`, `-l`) and unknown options are unknown;
/// `-i inplace` edits the input files.
pub(super) fn awk(a: &mut Analysis, args: &[Arg]) {
    let mut programs: Vec<&Arg> = Vec::new();
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let t = w.text.as_str();
        if t == "--" || !t.starts_with('-') || t == "-" {
            if t != "--" {
                i -= 1;
            }
            break;
        }
        let (name, attached) = match t.strip_prefix("--") {
            Some(long) => (
                long.split_once('=').map_or(long, |(n, _)| n),
                long.split_once('=').map(|(_, v)| v),
            ),
            None => (t.get(1..2).unwrap_or("?"), t.get(2..).filter(|v| !v.is_empty())),
        };
        let mut value = || -> Option<String> {
            match attached {
                Some(v) => Some(v.to_owned()),
                None => {
                    i += 1;
                    args.get(i - 1).map(|v| v.text.clone())
                }
            }
        };
        match name {
            "v" | "assign" | "F" | "field-separator" | "W" => {
                value();
            }
            "e" | "source" => match attached {
                Some(_) => return a.flag(Risk::Unknown, "awk program text not understood"),
                None => {
                    programs.extend(args.get(i));
                    i += 1;
                }
            },
            "i" | "include" => {
                if value().is_some_and(|lib| lib.trim_end_matches(".awk") == "inplace") {
                    a.flag(Risk::Destructive, "edits files in place (awk -i inplace)");
                } else {
                    return a.flag(Risk::Unknown, "awk includes a library file");
                }
            }
            "b"
            | "c"
            | "C"
            | "g"
            | "M"
            | "N"
            | "n"
            | "P"
            | "r"
            | "S"
            | "s"
            | "t"
            | "L"
            | "lint"
            | "posix"
            | "traditional"
            | "sandbox"
            | "characters-as-bytes"
            | "bignum"
            | "re-interval"
            | "version" => {}
            _ => return a.flag(Risk::Unknown, format!("awk: option not understood or runs a file: {t}")),
        }
    }
    if programs.is_empty() {
        programs.extend(args.get(i));
    }
    for p in programs {
        match p.lit() {
            None => a.flag(Risk::Unknown, format!("awk program is not literal: {}", p.text)),
            Some(text) if AWK_RUNS.is_match(text) => a.flag(Risk::Unknown, "awk program runs commands or writes files"),
            Some(_) => {}
        }
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
