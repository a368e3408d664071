//! What a compaction summary message looks like: its framing lines, and how to recognise one
//! (by its text, so a summary restored from the store is recognised too) so a later compaction
//! folds the earlier summary into the new one.

use crate::transcript::{Message, Part, Role};

/// The first line of every compaction summary message.
pub const SUMMARY_PREFIX: &str = "[Context compaction — summary of earlier conversation]";
/// Tells the model how to read the summary: reference, not a request.
pub(super) const SUMMARY_PREAMBLE: &str = "Earlier turns of this conversation were replaced by the summary below to free \
context space. It is background reference, not a new request: respond to the latest user message after it, and keep \
using tools as usual.";
/// Marks where the summary ends, so the model does not read the tail as part of it.
pub const SUMMARY_END: &str = "[End of context compaction summary — the conversation continues below.]";

/// Whether `message` is a compaction summary (by its meta, or by its text after a restore).
pub fn is_compaction_summary(message: &Message) -> bool {
    summary_body(message).is_some()
}

/// The summary text inside a compaction summary message, without the framing lines.
pub fn summary_body(message: &Message) -> Option<&str> {
    if message.role() != Role::User {
        return None;
    }
    let text = message.parts.iter().find_map(|p| match p {
        Part::Text { text } => Some(text.as_str()),
        Part::Image { .. } => None,
    })?;
    let body = text.strip_prefix(SUMMARY_PREFIX)?;
    let body = body.trim_start().strip_prefix(SUMMARY_PREAMBLE).unwrap_or(body);
    let body = body.trim_end().strip_suffix(SUMMARY_END).unwrap_or(body);
    Some(body.trim())
}
