//! TEMPORARY stand-in for the command-safety catalogue, written only so the `terminal` tool can
//! compile and be tested on its own branch. The real module (hardline and dangerous patterns,
//! normalisation, the exact Hermes wording) replaces this file at merge; nothing beyond the four
//! items below may be relied upon.

/// How a shell command is treated before it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandVerdict {
    Safe,
    /// Needs the user's approval; `pattern_key` is what "allow for session" remembers.
    Dangerous {
        pattern_key: String,
        description: String,
    },
    /// Never runs, whatever the user says.
    Hardline {
        description: String,
    },
}

/// Classifies a command (temporary rules: `rm -rf /` and `mkfs` are hardline, `rm -r…` is a
/// recursive delete).
pub fn classify(command: &str) -> CommandVerdict {
    if command.contains("rm -rf /") {
        return CommandVerdict::Hardline {
            description: "recursive delete of root".into(),
        };
    }
    if command.contains("mkfs") {
        return CommandVerdict::Hardline {
            description: "format filesystem".into(),
        };
    }
    if command.contains("rm -r") {
        return CommandVerdict::Dangerous {
            pattern_key: "recursive delete".into(),
            description: "recursive delete".into(),
        };
    }
    CommandVerdict::Safe
}

/// The error text for a hardline block.
pub fn hardline_message(description: &str) -> String {
    format!("BLOCKED (hardline): {description}. This command can never be run.")
}

/// The error text when the user denied the command or did not answer in time.
pub fn denied_message(description: &str, timed_out: bool) -> String {
    if timed_out {
        format!("BLOCKED: Approval request timed out ({description}). Do NOT retry this command.")
    } else {
        format!("BLOCKED: User denied this command ({description}). Do NOT retry this command.")
    }
}
