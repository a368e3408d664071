//! `session/load` replay: the stored history as the `session/update`s the live turns sent — the
//! user's original prompt blocks, thoughts, answer text, and tool cards with the same ids,
//! titles and final states (rendered by the same code as the live bridge). Long texts go out
//! in several chunks of at most `REPLAY_CHUNK` bytes: one frame must stay far below the 32 MiB
//! a TypeScript client accepts.

use agent_client_protocol::v1::schema::{ContentBlock, ContentChunk, Notice, NoticeSeverity, SessionUpdate};

use super::cards;
use super::events::compaction_update;
use super::user_content::user_blocks;
use crate::agent::compaction::{self, CompactionEvent};
use crate::agent::stored_cards::{MessageCards, stored_output};
use crate::transcript::{Message, Role};

/// Largest text in one replayed chunk.
pub const REPLAY_CHUNK: usize = 1024 * 1024;

/// The updates that reproduce `history` in the editor; `cards` describes its tool calls, one
/// entry per message (the session's `stored_cards`).
pub fn updates(history: &[Message], cards: &[MessageCards], compaction: bool) -> Vec<SessionUpdate> {
    let mut out = Vec::new();
    for (index, message) in history.iter().enumerate() {
        let described = cards.get(index).unwrap_or(&MessageCards::None);
        match message.role() {
            Role::User => {
                if is_internal(message) {
                    continue;
                }
                if compaction
                    && let (Some(id), Some(body)) =
                        (compaction::compaction_id(message), compaction::summary_body(message))
                {
                    let event = CompactionEvent::Completed {
                        id: id.to_string(),
                        summary: Some(body.to_string()),
                        used_fallback: false,
                    };
                    out.push(compaction_update(event));
                    continue;
                }
                for block in user_blocks(message) {
                    match block {
                        ContentBlock::Text(t) => {
                            for piece in pieces(&t.text, REPLAY_CHUNK) {
                                out.push(SessionUpdate::UserMessageChunk(ContentChunk::new(piece.into())));
                            }
                        }
                        other => out.push(SessionUpdate::UserMessageChunk(ContentChunk::new(other))),
                    }
                }
            }
            Role::Assistant => {
                if let Some(r) = message.reasoning.as_deref().filter(|r| !r.trim().is_empty()) {
                    for piece in pieces(r, REPLAY_CHUNK) {
                        out.push(SessionUpdate::AgentThoughtChunk(ContentChunk::new(piece.into())));
                    }
                }
                let text = message.text_content();
                if !text.trim().is_empty() {
                    for piece in pieces(&text, REPLAY_CHUNK) {
                        out.push(SessionUpdate::AgentMessageChunk(ContentChunk::new(piece.into())));
                    }
                }
                if let MessageCards::Calls(calls) = described {
                    for (call, card) in message.tool_calls.iter().zip(calls) {
                        out.push(cards::start(&call.id, &card.presentation, &card.arguments));
                    }
                }
            }
            Role::Tool => {
                let (Some(id), MessageCards::Result { name, outcome }) = (message.tool_call_id.as_deref(), described)
                else {
                    continue;
                };
                out.extend(cards::finish(id, name, outcome.clone(), &stored_output(message)));
            }
            Role::System => {}
        }
    }
    out
}

/// The notice for stored messages skipped as unreadable at load, if any: a `notice` for clients
/// that render them, else a thought chunk.
pub fn unreadable_notice(count: usize, notices: bool) -> Option<SessionUpdate> {
    if count == 0 {
        return None;
    }
    let text = if count == 1 {
        "1 stored message could not be read and was skipped".to_string()
    } else {
        format!("{count} stored messages could not be read and were skipped")
    };
    Some(if notices {
        SessionUpdate::Notice(Notice::new(NoticeSeverity::Warning, text))
    } else {
        SessionUpdate::AgentThoughtChunk(ContentChunk::new(format!("{text}\n").into()))
    })
}

/// `text` cut into pieces of at most `max` bytes, on character boundaries.
fn pieces(text: &str, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while rest.len() > max {
        let mut cut = max;
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        out.push(rest[..cut].to_string());
        rest = &rest[cut..];
    }
    out.push(rest.to_string());
    out
}

/// Notes the agent added itself (the budget summary request) are not the user's words.
fn is_internal(message: &Message) -> bool {
    message.meta.budget_note
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_of_tools_no_longer_registered_still_render() {
        let call = |id: &str, name: &str, args: &str| crate::transcript::ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: args.into(),
        };
        let (read, gone) = (
            call("c1", "read_file", r#"{"path":"a.rs"}"#),
            call("c2", "mcp_gone_x", "{}"),
        );
        let mut asked = Message::assistant("");
        asked.tool_calls = vec![read.clone(), gone.clone()];
        let history = vec![
            asked,
            Message::tool_result(&read, r#"{"content":"1|x","total_lines":1}"#.into(), false),
            Message::tool_result(&gone, r#"{"error":"boom"}"#.into(), true),
        ];
        // An empty registry: the built-in tool is still known, the MCP one falls back.
        let cards = crate::agent::stored_cards::stored_cards(
            &history,
            &crate::runtime::ToolRegistry::default(),
            std::path::Path::new("/w"),
        );
        let out: Vec<serde_json::Value> = updates(&history, &cards, false)
            .iter()
            .map(|u| serde_json::to_value(u).unwrap())
            .collect();
        assert_eq!(
            (out[0]["title"].as_str(), out[0]["kind"].as_str()),
            (Some("Read a.rs"), Some("read"))
        );
        // Kind "other" is ACP's default, left out of the frame.
        assert_eq!(out[1]["title"], "mcp_gone_x");
        assert_eq!(out[1]["kind"].as_str().unwrap_or("other"), "other");
        assert_eq!(out[3]["status"], "failed");
        assert!(
            out[3]["content"][0]["content"]["text"]
                .as_str()
                .unwrap()
                .contains("mcp_gone_x failed: boom")
        );
    }

    #[test]
    fn long_texts_are_cut_on_char_boundaries_and_nothing_is_lost() {
        let text = "é".repeat(5) + "abc";
        let cut = pieces(&text, 4);
        assert!(cut.iter().all(|p| p.len() <= 4), "{cut:?}");
        assert_eq!(cut.concat(), text);
        assert_eq!(pieces("", 4), [""]);
        let history = vec![Message::user("u".repeat(REPLAY_CHUNK * 2 + 10))];
        let updates = updates(&history, &[], false);
        assert_eq!(updates.len(), 3);
        for update in &updates {
            assert!(serde_json::to_string(update).unwrap().len() < REPLAY_CHUNK + 1024);
        }
    }
}
