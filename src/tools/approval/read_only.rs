//! `is_read_only`: true only for commands that clearly just read (for a read-only mode).
//! This file splits the command into simple commands; `read_only_programs.rs` judges each.
//! Conservative by construction: anything it does not understand — substitutions, subshells,
//! heredocs, redirects into files, unknown programs, options that write or run programs — is
//! not read-only.

use super::normalize::{light_normalize, parser_limit_exceeded};
use crate::safety::command::read_only_programs::simple_command_reads;

/// Whether every part of `command` only reads. Pipes and `;`/`&&`/`||` chains qualify only
/// when each command does; output redirection only to `/dev/null` or another descriptor.
pub fn is_read_only(command: &str) -> bool {
    let text = light_normalize(command);
    if text.trim().is_empty() || parser_limit_exceeded(command) {
        return false;
    }
    match split_commands(&text) {
        Some(commands) => commands.iter().all(|words| simple_command_reads(words)),
        None => false,
    }
}

/// Words of the simple command being read, and the commands finished so far.
#[derive(Default)]
struct Split {
    commands: Vec<Vec<String>>,
    words: Vec<String>,
    word: String,
    in_word: bool,
    /// The current word is all digits so far (a descriptor number before `>`).
    digits_only: bool,
}

impl Split {
    fn end_word(&mut self) {
        if self.in_word {
            self.words.push(std::mem::take(&mut self.word));
        }
        self.in_word = false;
        self.digits_only = true;
    }

    fn end_command(&mut self) {
        self.end_word();
        self.commands.push(std::mem::take(&mut self.words));
    }

    fn quoted(&mut self, text: &[char]) {
        self.word.extend(text);
        self.in_word = true;
        self.digits_only = false;
    }
}

/// Splits into simple commands (lists of words), or `None` for anything not understood.
fn split_commands(text: &str) -> Option<Vec<Vec<String>>> {
    let chars: Vec<char> = text.chars().collect();
    let mut st = Split {
        digits_only: true,
        ..Split::default()
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            ' ' | '\t' | '\r' => st.end_word(),
            '\n' | ';' | '|' => {
                st.end_command();
                if next == Some('|') || (c == '|' && next == Some('&')) {
                    i += 1;
                }
            }
            '&' if next == Some('>') => {
                st.end_word();
                i = redirect(&chars, i + 1)?;
                continue;
            }
            '&' => {
                st.end_command();
                if next == Some('&') {
                    i += 1;
                }
            }
            '>' | '<' => {
                // `2>`: the digits were a descriptor number, not a word.
                if st.in_word && st.digits_only {
                    st.word.clear();
                    st.in_word = false;
                }
                st.end_word();
                i = if c == '<' {
                    input_redirect(&chars, i)?
                } else {
                    redirect(&chars, i)?
                };
                continue;
            }
            '`' | '(' | ')' => return None,
            '$' if next == Some('{') => {
                // `${VAR}` is fine as long as it is a plain expansion.
                let close = chars[i..].iter().position(|&c| c == '}')? + i;
                if chars[i + 2..close].iter().any(|c| !(c.is_alphanumeric() || *c == '_')) {
                    return None;
                }
                st.quoted(&chars[i..=close]);
                i = close + 1;
                continue;
            }
            '$' if matches!(next, Some('(' | '[')) => return None,
            '#' if !st.in_word => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '\'' => {
                let close = chars[i + 1..].iter().position(|&c| c == '\'')? + i + 1;
                st.quoted(&chars[i + 1..close]);
                i = close + 1;
                continue;
            }
            '"' => {
                let mut j = i + 1;
                let mut value = Vec::new();
                loop {
                    match *chars.get(j)? {
                        '"' => break,
                        '`' => return None,
                        '$' if chars.get(j + 1) == Some(&'(') => return None,
                        '\\' => {
                            value.extend(chars.get(j + 1));
                            j += 2;
                        }
                        other => {
                            value.push(other);
                            j += 1;
                        }
                    }
                }
                st.quoted(&value);
                i = j + 1;
                continue;
            }
            '\\' => {
                st.quoted(&[*chars.get(i + 1)?]);
                i += 2;
                continue;
            }
            other => {
                st.digits_only &= other.is_ascii_digit();
                st.word.push(other);
                st.in_word = true;
            }
        }
        i += 1;
    }
    st.end_command();
    Some(st.commands.into_iter().filter(|c| !c.is_empty()).collect())
}

/// An output redirection starting at `i` (`>`, `>>`, `>|`, `>&N`): allowed only into
/// `/dev/null` or another descriptor. Returns the index after its target.
fn redirect(chars: &[char], mut i: usize) -> Option<usize> {
    i += 1;
    if matches!(chars.get(i), Some('>' | '|')) {
        i += 1;
    }
    if chars.get(i) == Some(&'&') {
        i += 1;
        let start = i;
        while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '-') {
            i += 1;
        }
        return (i > start).then_some(i);
    }
    while chars.get(i).is_some_and(|c| *c == ' ' || *c == '\t') {
        i += 1;
    }
    let target: String = chars[i..]
        .iter()
        .take_while(|c| !c.is_whitespace() && !";|&".contains(**c))
        .collect();
    (target == "/dev/null").then_some(i + target.chars().count())
}

/// An input redirection (`< file`, `<<< word`); heredocs (`<<`) are refused since their body
/// lines would be read as commands here.
fn input_redirect(chars: &[char], mut i: usize) -> Option<usize> {
    i += 1;
    match (chars.get(i), chars.get(i + 1)) {
        (Some('<'), Some('<')) => i += 2,
        (Some('<' | '>' | '('), _) => return None,
        (Some('&'), _) => return None,
        _ => {}
    }
    while chars.get(i).is_some_and(|c| *c == ' ' || *c == '\t') {
        i += 1;
    }
    let start = i;
    while i < chars.len() && !chars[i].is_whitespace() && !";|&<>()`$".contains(chars[i]) {
        i += 1;
    }
    (i > start).then_some(i)
}
