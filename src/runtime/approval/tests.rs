//! Block and denial texts follow Hermes' wording shapes.

use super::{
    MALFORMED_EXEC_DESCRIPTION, PARSER_LIMIT_DESCRIPTION, approved_note, cancelled_message, denied_message,
    hardline_message,
};

#[test]
fn hardline_message_names_the_reason_and_recovery_for_parser_limits() {
    let message = hardline_message("fork bomb");
    assert!(message.starts_with("BLOCKED (hardline): fork bomb. This command is on the unconditional blocklist"));
    assert!(message.contains("run it yourself in a terminal outside the agent."));
    assert!(!message.contains("RECOVERY"));
    for description in [PARSER_LIMIT_DESCRIPTION, MALFORMED_EXEC_DESCRIPTION] {
        let message = hardline_message(description);
        assert!(message.starts_with(&format!("BLOCKED (hardline): {description}.")));
        assert!(message.contains("RECOVERY:") && message.contains("write_file"));
    }
}

#[test]
fn denial_and_timeout_texts_differ() {
    let denied = denied_message("recursive delete", false);
    assert_eq!(
        denied,
        "BLOCKED: User denied this command. The user has NOT consented to this action. Do NOT \
         retry this command, do NOT rephrase it, and do NOT attempt the same outcome via a \
         different command. Stop the current workflow and wait for the user to respond before \
         taking any further destructive or irreversible action."
    );
    let timed_out = denied_message("recursive delete", true);
    assert!(timed_out.starts_with("BLOCKED: The approval request for this command (recursive delete) timed out"));
    assert!(timed_out.contains("nobody answered") && timed_out.contains("did not deny"));
    assert!(!timed_out.contains("User denied"));
    assert!(!denied_message("", true).contains("()"));
    assert!(cancelled_message().contains("NOT run"));
    assert_eq!(
        approved_note("recursive delete"),
        "Command required approval (recursive delete) and was approved by the user."
    );
}
