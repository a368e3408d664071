//! The texts the terminal tool returns when a command is blocked, denied, timed out or
//! approved, in Hermes' wording so models prompted against Hermes read them the same way.

use super::{MALFORMED_EXEC_DESCRIPTION, PARSER_LIMIT_DESCRIPTION};

/// Block reason for a hardline match (`"BLOCKED (hardline): <description>. …"`). Oversized or
/// unparseable payloads get Hermes' recovery hint, since they are usually a legitimate script
/// the model inlined rather than a forbidden operation.
pub fn hardline_message(description: &str) -> String {
    let mut message = format!(
        "BLOCKED (hardline): {description}. This command is on the unconditional blocklist and \
         cannot be executed via the agent — not even with --yolo, /yolo, approvals.mode=off, or \
         cron approve mode. If you genuinely need to run it, run it yourself in a terminal \
         outside the agent."
    );
    if description == PARSER_LIMIT_DESCRIPTION || description == MALFORMED_EXEC_DESCRIPTION {
        message.push_str(
            " RECOVERY: this block fires on oversized/unparseable inline command payloads \
             (heredocs, giant one-liners), not on the operation itself. Write the script to a \
             file with write_file, then run it: terminal(command=\"bash /path/script.sh\") or \
             \"python3 /path/script.py\". Do not retry inline.",
        );
    }
    message
}

/// The result text when the user did not approve a dangerous command.
///
/// `timed_out == false`: the user said no — Hermes' exact denial text. `timed_out == true`:
/// nobody answered the permission prompt in time. Hermes reports that as a denial too (its
/// bug B16); here the model is told the truth, so it does not conclude the user objected, but
/// it is still told not to run the command another way.
pub fn denied_message(description: &str, timed_out: bool) -> String {
    if timed_out {
        let what = if description.is_empty() {
            String::new()
        } else {
            format!(" ({description})")
        };
        return format!(
            "BLOCKED: The approval request for this command{what} timed out: nobody answered the \
             permission prompt, so the command was NOT run. The user did not deny it, but has \
             NOT consented to it either. Do NOT retry this command, do NOT rephrase it, and do \
             NOT attempt the same outcome via a different command. Tell the user what you \
             wanted to run and why, and wait for them to respond."
        );
    }
    "BLOCKED: User denied this command. The user has NOT consented to this action. Do NOT \
     retry this command, do NOT rephrase it, and do NOT attempt the same outcome via a \
     different command. Stop the current workflow and wait for the user to respond before \
     taking any further destructive or irreversible action."
        .to_string()
}

/// The result text when the turn was cancelled while the approval prompt was open.
pub fn cancelled_message() -> String {
    "BLOCKED: The turn was cancelled while this command was waiting for approval, so it was \
     NOT run. Do NOT retry it unless the user asks again."
        .to_string()
}

/// The `approval` note Hermes adds to the result of a command the user approved.
pub fn approved_note(description: &str) -> String {
    format!("Command required approval ({description}) and was approved by the user.")
}
