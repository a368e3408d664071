//! `session/load` replay: the stored history as the `session/update`s the live turns sent — the
//! user's original prompt blocks, thoughts, answer text, and tool cards with the same ids,
//! titles and final states (rendered by the same code as the live bridge).

use std::collections::HashMap;
use std::path::Path;

use agent_client_protocol::v1::schema::{ContentBlock, ContentChunk, SessionUpdate};
use serde_json::Value;

use super::cards;
use super::events::compaction_update;
use crate::agent::compress::{self, CompactionEvent};
use crate::agent::events::arguments_value;
use crate::tools::{ToolOutput, display_from_meta};
use crate::transcript::{Message, Role};

/// The updates that reproduce `history` in the editor.
pub fn updates(history: &[Message], cwd: &Path, compaction: bool) -> Vec<SessionUpdate> {
    let mut out = Vec::new();
    let mut call_args: HashMap<&str, (&str, Value)> = HashMap::new();
    for message in history {
        match message.role() {
            Role::User => {
                if is_internal(message) {
                    continue;
                }
                if compaction
                    && let (Some(id), Some(body)) = (compress::compaction_id(message), compress::summary_body(message))
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
                    out.push(SessionUpdate::UserMessageChunk(ContentChunk::new(block)));
                }
            }
            Role::Assistant => {
                if let Some(r) = message.reasoning.as_deref().filter(|r| !r.trim().is_empty()) {
                    out.push(SessionUpdate::AgentThoughtChunk(ContentChunk::new(ContentBlock::from(
                        r.to_string(),
                    ))));
                }
                let text = message.text_content();
                if !text.trim().is_empty() {
                    out.push(SessionUpdate::AgentMessageChunk(ContentChunk::new(ContentBlock::from(
                        text,
                    ))));
                }
                for call in &message.tool_calls {
                    let args = arguments_value(&call.arguments);
                    out.push(cards::start(&call.id, &call.name, &args, cwd));
                    call_args.insert(&call.id, (&call.name, args));
                }
            }
            Role::Tool => {
                let Some(id) = message.tool_call_id.as_deref() else {
                    continue;
                };
                let (name, args) = call_args
                    .get(id)
                    .map(|(n, a)| (n.to_string(), a.clone()))
                    .unwrap_or_else(|| {
                        (
                            message.tool_name.clone().unwrap_or_default(),
                            Value::Object(Default::default()),
                        )
                    });
                let output = ToolOutput {
                    content: message.text_content(),
                    is_error: message.is_error,
                    display: display_from_meta(message.meta.as_ref()),
                };
                out.extend(cards::finish(id, &name, &args, &output));
            }
            Role::System => {}
        }
    }
    out
}

/// Notes the agent added itself (the budget summary request) are not the user's words.
fn is_internal(message: &Message) -> bool {
    message.meta.as_ref().is_some_and(|m| m.get("budget_note").is_some())
}

/// The blocks the user sent, from the stored original prompt when present.
fn user_blocks(message: &Message) -> Vec<ContentBlock> {
    if let Some(original) = message.meta.as_ref().and_then(|m| m.get("prompt"))
        && let Ok(blocks) = serde_json::from_value::<Vec<ContentBlock>>(original.clone())
        && !blocks.is_empty()
    {
        return blocks;
    }
    let text = message.text_content();
    if text.is_empty() {
        Vec::new()
    } else {
        vec![ContentBlock::from(text)]
    }
}
