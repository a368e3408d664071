//! Shell words for command detection: command-position words (through `sudo`/`env`/`nohup`/…
//! wrappers and `FOO=1` prefixes), word de-obfuscation (`"r"m`, `$(echo rm)`, `${x:-rm}`) and a
//! shlex-style (POSIX) tokenizer.

use std::sync::LazyLock;

use regex::Regex;

use super::shell::{
    backtick_end, command_starts, dollar_paren_end, is_space, next_boundary, read_word, skip_escaped, skip_space,
};

/// Commands that run the command named by a later word.
const WRAPPERS: &[&str] = &[
    "sudo", "doas", "env", "exec", "nohup", "setsid", "time", "command", "builtin", "nice", "timeout", "stdbuf",
    "xargs",
];

/// Wrapper options that consume the next word.
fn wrapper_option_takes_arg(wrapper: &str, option: &str) -> bool {
    let table: &[&str] = match wrapper {
        "sudo" | "doas" => &[
            "-u",
            "--user",
            "-g",
            "--group",
            "-h",
            "--host",
            "-p",
            "--prompt",
            "-c",
            "--close-from",
            "-C",
            "-D",
            "--chdir",
            "-r",
            "--role",
            "-t",
            "--type",
            "-T",
            "--command-timeout",
            "-U",
            "--other-user",
        ],
        "env" => &["-u", "--unset", "-C", "--chdir"],
        "nice" => &["-n", "--adjustment"],
        "timeout" => &["-s", "--signal", "-k", "--kill-after"],
        "stdbuf" => &["-i", "--input", "-o", "--output", "-e", "--error"],
        "time" => &["-f", "--format", "-o", "--output"],
        "exec" => &["-a"],
        "xargs" => &[
            "-a",
            "--arg-file",
            "-d",
            "--delimiter",
            "-E",
            "-I",
            "-L",
            "--max-lines",
            "-n",
            "--max-args",
            "-P",
            "--max-procs",
            "-s",
            "--max-chars",
            "--process-slot-var",
        ],
        _ => &[],
    };
    table.contains(&option)
}

/// `NAME=value` (an environment assignment prefix).
pub fn is_assignment(word: &str) -> bool {
    let Some((name, _)) = word.split_once('=') else {
        return false;
    };
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// The words at one command start: wrapper and assignment prefixes, then the command word.
#[derive(Debug, Clone, PartialEq)]
pub struct CommandPosition {
    /// Where the command (including its prefixes) starts.
    pub start: usize,
    /// `(start, end)` of every prefix word and, last, the command word when there is one.
    pub words: Vec<(usize, usize)>,
    /// Whether the last entry of `words` is the command word itself (not a prefix).
    pub has_command: bool,
}

/// Command-position words for every command start of `s`.
pub fn command_positions(s: &str) -> Vec<CommandPosition> {
    command_starts(s)
        .into_iter()
        .map(|start| command_position(s, start))
        .collect()
}

fn command_position(s: &str, start: usize) -> CommandPosition {
    let mut words = Vec::new();
    let (mut pos, mut wrapper, mut skip_arg, mut positional) = (start, None::<String>, false, 0);
    for _ in 0..12 {
        let (ws, we) = read_word(s, pos);
        if ws == we {
            break;
        }
        pos = we;
        let deob = deobfuscate_word(&s[ws..we]);
        let lower = deob.to_lowercase();
        if skip_arg {
            skip_arg = false;
            continue;
        }
        if let Some(w) = wrapper.as_deref() {
            if lower.starts_with('-') && lower.len() > 1 {
                // `command -v x` only looks `x` up; nothing runs.
                if w == "command" && lower.contains(['v', 'V']) {
                    return CommandPosition {
                        start,
                        words,
                        has_command: false,
                    };
                }
                let option = lower.split('=').next().unwrap_or_default();
                skip_arg = !lower.contains('=') && wrapper_option_takes_arg(w, option);
                continue;
            }
            if positional > 0 {
                positional -= 1;
                continue;
            }
        }
        words.push((ws, we));
        let name = lower.rsplit('/').next().unwrap_or_default();
        if WRAPPERS.contains(&name) {
            positional = usize::from(name == "timeout");
            wrapper = Some(name.to_string());
            continue;
        }
        if is_assignment(&deob) {
            wrapper = None;
            continue;
        }
        return CommandPosition {
            start,
            words,
            has_command: true,
        };
    }
    CommandPosition {
        start,
        words,
        has_command: false,
    }
}

static PARAM_REPLACEMENT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\$\{[^}/\s]+/[^}/]*/([^}]*)\}").expect("static regex"));
static PARAM_DEFAULT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\$\{[^}:\s]+:-([^}]*)\}").expect("static regex"));
static SIMPLE_LITERAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[A-Za-z0-9_./:@%+=,-]+$").expect("static regex"));

/// What a tiny literal substitution prints (`echo rm`, `printf %s rm`), without running it.
fn literal_substitution_output(script: &str) -> Option<String> {
    let tokens = tokenize(script)?;
    let words: Vec<&str> = tokens.iter().map(|t| t.value.as_str()).collect();
    let (command, mut args) = words.split_first()?;
    let literal = |w: &str| SIMPLE_LITERAL.is_match(w).then(|| w.to_string());
    match command.to_lowercase().as_str() {
        "echo" => {
            while args
                .first()
                .is_some_and(|a| a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| "nEe".contains(c)))
            {
                args = &args[1..];
            }
            if let [one] = args { literal(one) } else { None }
        }
        "printf" => match args {
            [one] => literal(one),
            ["%s", one] => literal(one),
            _ => None,
        },
        _ => None,
    }
}

fn replace_simple_substitutions(word: &str) -> String {
    let b = word.as_bytes();
    let mut out = String::with_capacity(word.len());
    let mut i = 0;
    while i < b.len() {
        let span = match b[i] {
            b'$' if b.get(i + 1) == Some(&b'(') => dollar_paren_end(word, i).map(|end| (i + 2, end - 1, end)),
            b'`' => backtick_end(word, i).map(|end| (i + 1, end - 1, end)),
            _ => None,
        };
        if let Some((inner_start, inner_end, end)) = span
            && let Some(text) = literal_substitution_output(&word[inner_start..inner_end])
        {
            out.push_str(&text);
            i = end;
            continue;
        }
        let ch_end = next_boundary(word, i);
        out.push_str(&word[i..ch_end]);
        i = ch_end;
    }
    out
}

/// Removes quotes and backslash escapes the way the shell would when building the word.
fn strip_word_syntax(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    let mut quote = None::<char>;
    let mut chars = word.chars().peekable();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) if c == q => quote = None,
            Some('"') if c == '\\' && chars.peek().is_some() => out.extend(chars.next()),
            Some(_) => out.push(c),
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '\\' && chars.peek().is_some() => out.extend(chars.next()),
            None => out.push(c),
        }
    }
    out
}

/// How shell syntax may spell a command word (`r''m`, `"rm"`, `$(echo rm)`, `${x:-rm}`).
pub fn deobfuscate_word(word: &str) -> String {
    let mut current = word.to_string();
    for _ in 0..2 {
        let replaced = replace_simple_substitutions(&current);
        let replaced = PARAM_REPLACEMENT.replace_all(&replaced, "$1");
        let replaced = PARAM_DEFAULT.replace_all(&replaced, "$1");
        let next = strip_word_syntax(&replaced);
        if next == current {
            break;
        }
        current = next;
    }
    current
}

/// One shell word after quote removal, with its raw span.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub value: String,
    pub start: usize,
    pub end: usize,
    /// Fully single-quoted (`'x'` or `k='x'`): inert data the shell never expands.
    pub single_quoted: bool,
    /// An unquoted run of `<`/`>` (a redirection or heredoc operator).
    pub operator: bool,
}

/// shlex-style (POSIX) split into words; `<`/`>` runs are separate operator tokens. `None`
/// when the quoting is malformed (unterminated quote or a trailing backslash).
pub fn tokenize(s: &str) -> Option<Vec<Token>> {
    let b = s.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    loop {
        i = skip_space(s, i);
        if i >= b.len() {
            return Some(tokens);
        }
        let start = i;
        if matches!(b[i], b'<' | b'>') {
            while i < b.len() && matches!(b[i], b'<' | b'>') {
                i += 1;
            }
            let value = s[start..i].to_string();
            tokens.push(Token {
                value,
                start,
                end: i,
                single_quoted: false,
                operator: true,
            });
            continue;
        }
        let mut value = String::new();
        while i < b.len() && !is_space(b[i]) && !matches!(b[i], b'<' | b'>') {
            match b[i] {
                b'\'' => {
                    let close = s[i + 1..].find('\'')? + i + 1;
                    value.push_str(&s[i + 1..close]);
                    i = close + 1;
                }
                b'"' => {
                    i += 1;
                    loop {
                        match *b.get(i)? {
                            b'"' => break,
                            b'\\' if matches!(b.get(i + 1), Some(b'"' | b'\\')) => {
                                value.push(b[i + 1] as char);
                                i += 2;
                            }
                            _ => {
                                let end = next_boundary(s, i);
                                value.push_str(&s[i..end]);
                                i = end;
                            }
                        }
                    }
                    i += 1;
                }
                b'\\' => {
                    if i + 1 >= b.len() {
                        return None;
                    }
                    let end = skip_escaped(s, i);
                    value.push_str(&s[i + 1..end]);
                    i = end;
                }
                _ => {
                    let end = next_boundary(s, i);
                    value.push_str(&s[i..end]);
                    i = end;
                }
            }
        }
        let raw = &s[start..i];
        let single_quoted = raw.len() >= 2 && raw.ends_with('\'') && (raw.starts_with('\'') || raw.contains("='"));
        tokens.push(Token {
            value,
            start,
            end: i,
            single_quoted,
            operator: false,
        });
    }
}

/// The last path component of an executable word.
pub fn basename(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}
