//! Command safety for the terminal tool: Hermes' hardline catalogue (never run), its
//! dangerous-pattern catalogue (ask the user; the description is the "allow for session" key),
//! the normalisation that defeats spelling tricks, the parser limits, the read-only test, and
//! the block/denial texts. There is no LLM ("smart") approval: a model never approves its own
//! command; only the user, through the `Approver`, can.
//!
//! Layout: `normalize` (text clean-up, limits) → `shell`/`words` (lexing) → `detect` (variants,
//! matching) over `hardline`, `dangerous` and `structural` rules; `read_only` and `messages`.

mod dangerous;
mod detect;
mod hardline;
mod messages;
mod normalize;
mod read_only;
mod rule;
mod shell;
mod structural;
mod words;

#[cfg(test)]
mod tests;

use std::sync::LazyLock;

use regex::Regex;

pub use messages::{approved_note, cancelled_message, denied_message, hardline_message, sudo_stdin_message};
pub use normalize::{MAX_COMMAND_CHARS, MAX_SEPARATOR_FREE_CHARS, MAX_SEPARATORS};
pub use read_only::is_read_only;

/// Hardline description for commands too large or fragmented to analyse.
pub const PARSER_LIMIT_DESCRIPTION: &str = "command parser limit exceeded";
/// Hardline description for program-bearing commands whose quoting cannot be parsed.
pub const MALFORMED_EXEC_DESCRIPTION: &str = "command parser limit or malformed executable payload";

/// What the terminal tool must do with a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandVerdict {
    /// Run it.
    Safe,
    /// Ask the user first (unless `pattern_key` was already allowed for the session).
    Dangerous { pattern_key: String, description: String },
    /// Never run it, whatever the user or the mode says.
    Hardline { description: String },
}

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Dangerous,
    Hardline,
}

/// One catalogue entry a command matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub severity: Severity,
    /// The approval key (Hermes uses the description itself).
    pub pattern_key: String,
    pub description: String,
}

/// The most severe verdict for `command`: any hardline match wins over dangerous ones; among
/// dangerous matches the first in Hermes' order is reported.
pub fn classify(command: &str) -> CommandVerdict {
    let findings = findings(command);
    match findings.into_iter().next() {
        None => CommandVerdict::Safe,
        Some(f) if f.severity == Severity::Hardline => CommandVerdict::Hardline {
            description: f.description,
        },
        Some(f) => CommandVerdict::Dangerous {
            pattern_key: f.pattern_key,
            description: f.description,
        },
    }
}

/// Every finding for `command`: hardline matches first, then dangerous ones in the order
/// Hermes checks them, without duplicates. Useful to skip keys already allowed this session.
pub fn findings(command: &str) -> Vec<Finding> {
    detect::analyze(command, &normalize::Homes::from_env())
}

static SUDO_STDIN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[;&|`\n]|\$\()\s*sudo\s+-S\b").expect("static regex"));

/// `sudo -S` (password on stdin) when SUDO_PASSWORD is not set: the model would be guessing
/// a password, so Hermes blocks it outright. Returns the block text.
pub fn sudo_stdin_guard(command: &str) -> Option<String> {
    if std::env::var_os("SUDO_PASSWORD").is_some() {
        return None;
    }
    let normalized = normalize::normalize(command, &normalize::Homes::default());
    let marked = shell::mark_command_starts(&normalized);
    SUDO_STDIN.is_match(&marked).then(sudo_stdin_message)
}
