//! Structural findings on parsed shell words, checked after the regex catalogue: interpreters
//! given inline code (`python -c`, `node -e`, …), interpreter heredocs, `bash -c`/`-lc`, and
//! read tools that run a program (`rg --pre`, `sort --compress-program`, `man -P`, `ag --pager`).
//! Also yields the `-c`/`eval` payloads, which are scanned again as commands of their own.

use std::sync::LazyLock;

use regex::Regex;

use super::shell::top_level_segments;
use super::words::{basename, command_positions, deobfuscate_word, tokenize};

/// What one pass over a command found.
#[derive(Debug, Default, PartialEq)]
pub struct Scan {
    /// Finding descriptions (= approval keys), in order of appearance.
    pub findings: Vec<String>,
    /// Command strings handed to another shell (`bash -c '…'`, `eval …`).
    pub payloads: Vec<String>,
    /// A program-bearing command whose quoting cannot be parsed.
    pub malformed: bool,
}

static FAMILIES: LazyLock<[(Regex, &'static str); 6]> = LazyLock::new(|| {
    let re = |p: &str| Regex::new(p).expect("static regex");
    [
        (re(r"^(?:py(?:\.exe)?|python[23]?(?:\.\d+)*(?:\.exe)?)$"), "python"),
        (re(r"^node(?:js)?(?:\.exe)?$"), "node"),
        (re(r"^perl[0-9]*(?:\.\d+)*(?:\.exe)?$"), "perl"),
        (re(r"^ruby[0-9.]*(?:\.exe)?$"), "ruby"),
        (re(r"^php(?:\.exe)?$"), "php"),
        (re(r"^(?:powershell|pwsh)(?:\.exe)?$"), "powershell"),
    ]
});

fn interpreter_family(executable: &str) -> Option<&'static str> {
    let name = basename(executable).to_lowercase();
    FAMILIES
        .iter()
        .find(|(re, _)| re.is_match(&name))
        .map(|(_, family)| *family)
}

/// Options that execute inline code, per interpreter family.
fn exec_flags(family: &str) -> &'static [&'static str] {
    match family {
        "python" => &["-c"],
        "node" => &["-e", "--eval", "-p", "--print"],
        "perl" => &["-e", "--eval"],
        "ruby" => &["-e"],
        "php" => &["-r"],
        _ => &["-command", "-c", "-file", "-f"],
    }
}

/// Options that take a separate value, so that value is not read as a flag.
fn flags_with_arg(family: &str) -> &'static [&'static str] {
    match family {
        "python" => &["-W", "-X", "--check-hash-based-pycs"],
        "node" => &[
            "-C",
            "--conditions",
            "--cpu-prof-dir",
            "--diagnostic-dir",
            "--icu-data-dir",
            "--import",
            "--loader",
            "--openssl-config",
            "--require",
            "--title",
        ],
        "perl" => &["-0", "-F", "-I", "-M", "-m", "-x"],
        "ruby" => &["-C", "-E", "-F", "-I", "-K", "-r"],
        "php" => &["-c", "-d", "-z"],
        _ => &[
            "-configurationname",
            "-custompipename",
            "-executionpolicy",
            "-inputformat",
            "-outputformat",
            "-settingsfile",
            "-version",
            "-windowstyle",
            "-workingdirectory",
        ],
    }
}

fn interpreter_exec_flag(family: &str, args: &[String]) -> bool {
    let (flags, with_arg) = (exec_flags(family), flags_with_arg(family));
    let powershell = family == "powershell";
    let mut skip_value = false;
    for token in args {
        if std::mem::take(&mut skip_value) {
            continue;
        }
        if token == "--" || (!powershell && !token.starts_with('-')) {
            break;
        }
        let (option, attached) = match token.split_once('=') {
            Some((o, v)) => (o, Some(v)),
            None => (token.as_str(), None),
        };
        let comparable = if powershell {
            option.to_lowercase()
        } else {
            option.to_string()
        };
        if flags.contains(&comparable.as_str()) {
            return true;
        }
        // A bundle such as `-Bc` carries `-c` unless it is an option with its value glued on.
        let glued_value = with_arg
            .iter()
            .any(|s| !s.starts_with("--") && option.starts_with(s) && option.len() > s.len());
        if !powershell && !option.starts_with("--") && option.len() > 2 && !glued_value {
            let bundled = option[1..].chars().any(|c| flags.contains(&format!("-{c}").as_str()));
            if bundled {
                return true;
            }
        }
        skip_value = with_arg.contains(&comparable.as_str()) && attached.is_none();
    }
    false
}

const BASH_OPTIONS_WITH_ARG: &[&str] = &["-O", "+O", "-o", "+o", "--init-file", "--rcfile"];
const BASH_SHORT_LETTERS: &str = "ilrsDcabefhkmnptuvxBCEHPTOo";

/// Whether a shell gets `-c` (also inside bundles such as `-lc`), and the command it owns.
fn shell_exec_payload(args: &[String]) -> Option<Option<String>> {
    let mut index = 0;
    while let Some(token) = args.get(index) {
        if token == "--" || !(token.starts_with('-') || token.starts_with('+')) {
            break;
        }
        if BASH_OPTIONS_WITH_ARG.contains(&token.as_str()) {
            index += 2;
            continue;
        }
        let letters = &token[1..];
        if token.starts_with("--") || !letters.chars().all(|c| BASH_SHORT_LETTERS.contains(c)) {
            index += 1;
            continue;
        }
        let takes_option_arg = letters.contains(['O', 'o']);
        if !letters.contains('c') {
            index += 1 + usize::from(takes_option_arg);
            continue;
        }
        return Some(args.get(index + 1 + usize::from(takes_option_arg)).cloned());
    }
    None
}

/// Read-only tools with an option that runs a program.
fn read_tool_flags(tool: &str) -> Option<(&'static [&'static str], &'static [&'static str], &'static str)> {
    Some(match tool {
        "sort" => (
            &["--compress-program"],
            &[
                "--batch-size",
                "--buffer-size",
                "--compress-program",
                "--field-separator",
                "--files0-from",
                "--key",
                "--output",
                "--parallel",
                "--random-source",
                "--sort",
                "--temporary-directory",
            ],
            "koStT",
        ),
        "rg" => (
            &["--pre", "--hostname-bin"],
            &[
                "--after-context",
                "--before-context",
                "--color",
                "--colors",
                "--context",
                "--context-separator",
                "--dfa-size-limit",
                "--encoding",
                "--engine",
                "--field-context-separator",
                "--field-match-separator",
                "--file",
                "--generate",
                "--glob",
                "--hostname-bin",
                "--hyperlink-format",
                "--iglob",
                "--ignore-file",
                "--max-columns",
                "--max-count",
                "--max-depth",
                "--max-filesize",
                "--path-separator",
                "--pre",
                "--pre-glob",
                "--regex-size-limit",
                "--regexp",
                "--replace",
                "--sort",
                "--sortr",
                "--threads",
                "--type",
                "--type-add",
                "--type-clear",
                "--type-not",
            ],
            "efEmjgdtTABCMr",
        ),
        "ag" => (
            &["--pager"],
            &[
                "--ackmate-dir-filter",
                "--color-line-number",
                "--color-match",
                "--color-path",
                "--depth",
                "--filename-pattern",
                "--file-search-regex",
                "--ignore",
                "--ignore-dir",
                "--max-count",
                "--pager",
                "--path-to-ignore",
                "--width",
                "--workers",
            ],
            "gGmpW",
        ),
        "man" => (
            &["--pager", "--html", "-P", "-H"],
            &[
                "--config-file",
                "--encoding",
                "--extension",
                "--locale",
                "--manpath",
                "--pager",
                "--preprocessor",
                "--prompt",
                "--recode",
                "--sections",
                "--systems",
            ],
            "CRLmMSserEPp",
        ),
        _ => return None,
    })
}

/// The program-running option a read tool was given, if any.
fn read_tool_exec_flag(tool: &str, args: &[String]) -> Option<String> {
    let (flags, long_with_arg, short_with_arg) = read_tool_flags(tool)?;
    let mut index = 0;
    while let Some(token) = args.get(index) {
        if token == "--" {
            break;
        }
        let (option, mut payload) = match token.split_once('=') {
            Some((o, v)) => (o, Some(v.to_string())),
            None => (token.as_str(), None),
        };
        let mut matched = flags.contains(&option).then(|| option.to_string());
        if tool == "man" && (token.starts_with("-P") || token.starts_with("-H")) && token.len() > 2 {
            matched = Some(token[..2].to_string());
            payload = Some(token[2..].to_string());
        }
        if let Some(flag) = matched {
            let value = payload.or_else(|| args.get(index + 1).cloned());
            if value.as_deref().is_some_and(|v| !v.is_empty()) {
                return Some(flag);
            }
            index += 1;
            continue;
        }
        if long_with_arg.contains(&option) && payload.is_none() {
            index += 2;
            continue;
        }
        if token.starts_with('-') && !token.starts_with("--") && token.len() > 1 {
            let letters: Vec<char> = token[1..].chars().collect();
            let takes = letters.iter().position(|c| short_with_arg.contains(*c));
            index += match takes {
                Some(p) if p == letters.len() - 1 => 2,
                _ => 1,
            };
            continue;
        }
        index += 1;
    }
    None
}

/// Scans every command-position word of every top-level segment.
pub fn scan(command: &str) -> Scan {
    let mut out = Scan::default();
    for (_, segment) in top_level_segments(command) {
        for position in command_positions(segment) {
            for &(word_start, word_end) in &position.words {
                scan_word(segment, word_start, word_end, &mut out);
            }
        }
    }
    out
}

fn scan_word(segment: &str, word_start: usize, word_end: usize, out: &mut Scan) {
    let executable = deobfuscate_word(&segment[word_start..word_end]);
    let name = basename(&executable).to_lowercase();
    let family = interpreter_family(&executable);
    let program_bearing = family.is_some() || read_tool_flags(&name).is_some();
    let shell = matches!(name.as_str(), "bash" | "sh" | "zsh" | "ksh" | "dash");
    // Only these words need their arguments parsed; skipping the rest keeps a segment with
    // thousands of `$(…)` starts from being re-tokenized thousands of times.
    if !program_bearing && !shell && name != "eval" {
        return;
    }
    let Some(tokens) = tokenize(&segment[word_start..]) else {
        out.malformed |= program_bearing;
        return;
    };
    let args: Vec<String> = tokens.iter().skip(1).map(|t| t.value.clone()).collect();
    let push = |out: &mut Scan, finding: String| {
        if !out.findings.contains(&finding) {
            out.findings.push(finding);
        }
    };
    if let Some(family) = family {
        if interpreter_exec_flag(family, &args) {
            push(out, "script execution via -e/-c flag".to_string());
            return;
        }
        if args.iter().any(|a| a.starts_with("<<")) {
            push(out, "script execution via heredoc".to_string());
            return;
        }
    }
    if shell && let Some(payload) = shell_exec_payload(&args) {
        push(out, "shell command via -c/-lc flag".to_string());
        out.payloads.extend(payload);
    }
    if name == "eval" && !args.is_empty() {
        // Not a finding of its own (Hermes does not flag eval), but its text runs as a
        // command, so the catalogue gets to see it unquoted.
        out.payloads.push(args.join(" "));
    }
    if let Some(flag) = read_tool_exec_flag(&name, &args) {
        push(out, format!("arbitrary program execution via {name} {flag}"));
    }
}
