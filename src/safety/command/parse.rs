//! The parser boundary: size and nesting limits checked on the raw text before anything
//! recursive runs, then `brush-parser` (bash grammar) for programs and words.

use std::sync::LazyLock;

use brush_parser::ast::Program;
use brush_parser::word::WordPieceWithSource;
use brush_parser::{Parser, ParserOptions};

use super::{MAX_COMMAND_BYTES, MAX_DEPTH};

/// Why a text was not parsed.
#[derive(Debug, thiserror::Error)]
pub(super) enum ParseFailure {
    #[error("command too large to analyse")]
    TooLarge,
    #[error("command nested too deeply to analyse")]
    TooDeep,
    #[error("shell syntax not understood: {0}")]
    Syntax(String),
    #[error("redirect file descriptor out of range")]
    FdOutOfRange,
}

static OPTIONS: LazyLock<ParserOptions> = LazyLock::new(|| ParserOptions {
    // Tilde expansion is our job (against the injected home), not the parser's.
    tilde_expansion_at_word_start: true,
    ..ParserOptions::default()
});

/// Maximum bracket/substitution nesting in raw text, counted without regard to quoting
/// (over-counting only makes us more cautious). Compound keywords count too, since the
/// parser recurses on `if if if …` as it does on brackets.
fn nesting(text: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let mut word = String::new();
    let mut backticks = 0usize;
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_alphabetic() {
            word.push(c);
            continue;
        }
        match word.as_str() {
            "if" | "while" | "until" | "for" | "case" | "select" | "function" => depth += 1,
            "fi" | "done" | "esac" => depth = depth.saturating_sub(1),
            _ => {}
        }
        word.clear();
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth = depth.saturating_sub(1),
            '`' => backticks += 1,
            _ => {}
        }
        max = max.max(depth + backticks);
    }
    max
}

/// Whether a run of digits right before `<` or `>` is too large for a file descriptor:
/// brush-parser 0.4 unwraps the number as an `i32` and panics (found by `fuzz/command_assess`).
/// Bash refuses such a redirect too. Quoting is ignored (refusing more only makes us more
/// cautious).
fn fd_out_of_range(text: &str) -> bool {
    let mut value: u64 = 0;
    let mut digits = false;
    for b in text.bytes() {
        if b.is_ascii_digit() {
            value = value.saturating_mul(10).saturating_add(u64::from(b - b'0'));
            digits = true;
            continue;
        }
        if digits && matches!(b, b'<' | b'>') && value > i32::MAX as u64 {
            return true;
        }
        (value, digits) = (0, false);
    }
    false
}

fn check_limits(text: &str, depth: usize) -> Result<(), ParseFailure> {
    if text.len() > MAX_COMMAND_BYTES {
        return Err(ParseFailure::TooLarge);
    }
    if depth + nesting(text) > MAX_DEPTH {
        return Err(ParseFailure::TooDeep);
    }
    if fd_out_of_range(text) {
        return Err(ParseFailure::FdOutOfRange);
    }
    Ok(())
}

/// Parses a whole command line (or a `sh -c` string, or `$(…)` contents) at nesting `depth`.
pub(super) fn program(text: &str, depth: usize) -> Result<Program, ParseFailure> {
    check_limits(text, depth)?;
    let mut parser = Parser::new(std::io::Cursor::new(text.as_bytes()), &OPTIONS);
    parser.parse_program().map_err(|e| ParseFailure::Syntax(e.to_string()))
}

/// Splits one word into its pieces (quotes, expansions, substitutions).
pub(super) fn word(text: &str) -> Result<Vec<WordPieceWithSource>, ParseFailure> {
    if text.len() > MAX_COMMAND_BYTES {
        return Err(ParseFailure::TooLarge);
    }
    brush_parser::word::parse(text, &OPTIONS).map_err(|e| ParseFailure::Syntax(e.to_string()))
}

/// Splits a here-document body (quotes are literal there) into pieces.
pub(super) fn heredoc(text: &str) -> Result<Vec<WordPieceWithSource>, ParseFailure> {
    if text.len() > MAX_COMMAND_BYTES {
        return Err(ParseFailure::TooLarge);
    }
    brush_parser::word::parse_heredoc(text, &OPTIONS).map_err(|e| ParseFailure::Syntax(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::{ParseFailure, nesting, program};

    /// Regression (fuzz/command_assess crash-00d85246…): a huge redirect fd number panicked
    /// inside brush-parser.
    #[test]
    fn an_out_of_range_redirect_fd_is_refused_without_a_panic() {
        let crash = b"\xdd()(222222222222226>6>*>(";
        let text = String::from_utf8_lossy(crash);
        assert!(matches!(program(&text, 0), Err(ParseFailure::FdOutOfRange)));
        assert!(matches!(
            program("echo 99999999999>x", 0),
            Err(ParseFailure::FdOutOfRange)
        ));
        assert!(matches!(
            program("echo hi 2147483648<x", 0),
            Err(ParseFailure::FdOutOfRange)
        ));
        // In range, or not a redirect: parsed as before.
        assert!(program("echo 2147483647>x", 0).is_ok());
        assert!(program("echo 99999999999 > x", 0).is_ok());
    }

    #[test]
    fn nesting_counts_brackets_keywords_and_backticks() {
        assert_eq!(nesting("ls"), 0);
        assert_eq!(nesting("(a (b))"), 2);
        assert_eq!(nesting("if if true; then :; fi; then :; fi"), 2);
        assert_eq!(nesting("echo `a`"), 2);
    }
}
