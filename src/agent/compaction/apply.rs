//! Building the new live history (pure): the first exchange, ONE user-role message holding
//! the summary — marked as a context compaction in its text (for the model) and in its `meta`
//! (for the editor and replay) — then the protected tail.

use super::marker::{SUMMARY_END, SUMMARY_PREAMBLE, SUMMARY_PREFIX};
use super::plan::Plan;
use crate::transcript::{CompactionMark, Message, MessageMeta, Part, Role};

/// The new live history: `history[..head_end]`, the summary message, `history[tail_start..]`.
pub fn apply(history: &[Message], plan: &Plan, summary: &str) -> Vec<Message> {
    let mut out = Vec::with_capacity(plan.head_end + 1 + history.len() - plan.tail_start);
    out.extend_from_slice(&history[..plan.head_end]);
    out.push(summary_message(plan, summary));
    out.extend_from_slice(&history[plan.tail_start..]);
    out
}

/// The user-role message carrying `summary`, its `meta.compaction` saying what it replaced.
pub fn summary_message(plan: &Plan, summary: &str) -> Message {
    let text = format!(
        "{SUMMARY_PREFIX}\n{SUMMARY_PREAMBLE}\n\n{}\n\n{SUMMARY_END}",
        summary.trim()
    );
    Message {
        role: Some(Role::User),
        parts: vec![Part::Text { text }],
        meta: MessageMeta {
            compaction: Some(CompactionMark {
                id: plan.id.clone(),
                replaced_messages: plan.tail_start - plan.head_end,
                replaced_tokens: plan.middle_tokens,
                fallback: None,
            }),
            ..MessageMeta::default()
        },
        ..Message::default()
    }
}

/// The compaction id in a summary message's meta.
pub fn compaction_id(message: &Message) -> Option<&str> {
    message.meta.compaction.as_ref().map(|c| c.id.as_str())
}

#[cfg(test)]
mod tests {
    use super::super::marker::{is_compaction_summary, summary_body};
    use super::*;

    fn plan(head_end: usize, tail_start: usize) -> Plan {
        Plan {
            id: "compaction_x".into(),
            head_end,
            tail_start,
            prompt_tokens: 0,
            threshold: 0,
            tail_budget: 0,
            history_tokens: 0,
            middle_tokens: 42,
            manual: false,
            instructions: None,
        }
    }

    #[test]
    fn replaces_the_middle_with_one_marked_user_message() {
        let history: Vec<Message> = (0..6).map(|i| Message::user(format!("m{i}"))).collect();
        let out = apply(&history, &plan(2, 4), "## Goal\nShip it.");
        assert_eq!(out.len(), 5);
        assert_eq!(out[..2], history[..2]);
        assert_eq!(out[3..], history[4..]);
        let summary = &out[2];
        assert_eq!(summary.role(), Role::User);
        assert!(summary.text_content().starts_with(SUMMARY_PREFIX));
        assert!(summary.text_content().ends_with(SUMMARY_END));
        assert_eq!(summary_body(summary), Some("## Goal\nShip it."));
        assert_eq!(compaction_id(summary), Some("compaction_x"));
        assert_eq!(summary.meta.compaction.as_ref().unwrap().replaced_messages, 2);
        assert!(is_compaction_summary(summary));
        assert!(!is_compaction_summary(&history[0]));
        // Restored without meta (e.g. another client), the text alone still identifies it.
        let mut bare = summary.clone();
        bare.meta = MessageMeta::default();
        assert_eq!(summary_body(&bare), Some("## Goal\nShip it."));
    }
}
