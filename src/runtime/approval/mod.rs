//! The texts the terminal tool returns when a command is blocked, denied, timed out or
//! approved, in Hermes' wording so models prompted against Hermes read them the same way.
//! What asks and what is refused is decided elsewhere: the command analysis
//! (`safety::command`) and the policy (`safety::policy`), through `runtime::permission`.

mod messages;

#[cfg(test)]
mod tests;

pub use messages::{approved_note, cancelled_message, denied_message, hardline_message};

/// Hardline description for commands too large or fragmented to analyse.
pub const PARSER_LIMIT_DESCRIPTION: &str = "command parser limit exceeded";
/// Hardline description for program-bearing commands whose quoting cannot be parsed.
pub const MALFORMED_EXEC_DESCRIPTION: &str = "command parser limit or malformed executable payload";
