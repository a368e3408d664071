//! Our OpenAI-style transcript → the Anthropic Messages `system` text and `messages` list.
//! Anthropic is stricter than chat completions: roles must alternate (so same-role neighbours
//! are merged and tool results become `tool_result` blocks in a user turn), every `tool_use`
//! needs its `tool_result` in the very next user turn, results come first in that turn, blank
//! text blocks and empty content arrays are rejected, and ids must match `[a-zA-Z0-9_-]+`.
//! An assistant message's signed thinking blocks (kept as `OpaqueReasoning` records) go back
//! first, unchanged and in order, as Anthropic requires when a tool loop continues; its plain
//! reasoning text is never sent otherwise.

use serde_json::{Map, Value, json};

use crate::transcript::{Message, OpaqueReasoning, Part, Role};

/// Stands in for a message whose content would otherwise be empty (Anthropic rejects that).
const EMPTY_USER: &str = "(empty message)";
/// The result given to a tool call whose own result never made it into the transcript (the
/// process was stopped between the call and its result).
const MISSING_RESULT: &str = "(no result: the tool call was interrupted before it finished)";
/// The media types Anthropic accepts for base64 images.
const IMAGE_TYPES: [&str; 4] = ["image/jpeg", "image/png", "image/gif", "image/webp"];

/// A conversation in Anthropic's shape.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Converted {
    /// The system prompt (every system message, joined); empty when there is none.
    pub system: String,
    /// `{"role": "user"|"assistant", "content": [blocks…]}`, alternating, starting with user.
    pub messages: Vec<Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    User,
    Assistant,
}

impl Side {
    fn as_str(self) -> &'static str {
        match self {
            Side::User => "user",
            Side::Assistant => "assistant",
        }
    }
}

struct Turn {
    side: Side,
    blocks: Vec<Value>,
}

/// Converts the request's messages, replaying thinking blocks of any endpoint.
pub fn convert(messages: &[Message]) -> Converted {
    convert_for(messages, "")
}

/// Converts the request's messages for the endpoint `issuer`: thinking blocks another endpoint
/// signed are left out (their signatures would not verify); an empty issuer replays them all.
pub fn convert_for(messages: &[Message], issuer: &str) -> Converted {
    let mut system: Vec<String> = Vec::new();
    let mut turns: Vec<Turn> = Vec::new();
    for message in messages {
        match message.role() {
            Role::System => {
                let text = message.text_content();
                if !text.trim().is_empty() {
                    system.push(text);
                }
            }
            Role::User => push(&mut turns, Side::User, user_blocks(message)),
            // An assistant message with nothing to say (only reasoning, or nothing) is dropped
            // rather than padded: its neighbours merge and the model loses nothing.
            Role::Assistant => push(&mut turns, Side::Assistant, assistant_blocks(message, issuer)),
            Role::Tool => push(&mut turns, Side::User, vec![tool_result_block(message)]),
        }
    }
    pair_tool_blocks(&mut turns);
    if turns.first().is_some_and(|t| t.side == Side::Assistant) {
        // The first message must come from the user (a history may start mid-conversation).
        turns.insert(
            0,
            Turn {
                side: Side::User,
                blocks: vec![text_block("(continuing an earlier conversation)")],
            },
        );
    }
    let messages = turns
        .into_iter()
        .map(|mut turn| {
            if turn.side == Side::User {
                // Tool results must open the user turn that answers the calls.
                turn.blocks.sort_by_key(|b| !is_type(b, "tool_result"));
            }
            if turn.blocks.is_empty() {
                turn.blocks.push(text_block(EMPTY_USER));
            }
            json!({"role": turn.side.as_str(), "content": turn.blocks})
        })
        .collect();
    Converted {
        system: system.join("\n\n"),
        messages,
    }
}

/// Appends blocks, merging into the previous turn when it is on the same side.
fn push(turns: &mut Vec<Turn>, side: Side, blocks: Vec<Value>) {
    if blocks.is_empty() && side == Side::Assistant {
        return;
    }
    match turns.last_mut() {
        Some(last) if last.side == side => last.blocks.extend(blocks),
        _ => turns.push(Turn { side, blocks }),
    }
}

fn user_blocks(message: &Message) -> Vec<Value> {
    let blocks: Vec<Value> = message
        .parts
        .iter()
        .filter_map(|part| match part {
            Part::Text { text } => (!text.trim().is_empty()).then(|| text_block(text)),
            Part::Image { url } => Some(image_block(url)),
        })
        .collect();
    if blocks.is_empty() {
        vec![text_block(EMPTY_USER)]
    } else {
        blocks
    }
}

fn assistant_blocks(message: &Message, issuer: &str) -> Vec<Value> {
    let mut blocks: Vec<Value> = message
        .opaque_reasoning
        .iter()
        .filter_map(|record| thinking_block(record, issuer))
        .collect();
    let thinking = blocks.len();
    let text = message.text_content();
    if !text.trim().is_empty() {
        blocks.push(text_block(&text));
    }
    for call in &message.tool_calls {
        blocks.push(json!({
            "type": "tool_use",
            "id": sanitize_id(&call.id),
            "name": call.name,
            "input": parse_arguments(&call.arguments),
        }));
    }
    if blocks.len() == thinking {
        // Thinking alone is no answer (Anthropic wants text or a call after it): dropped.
        blocks.clear();
    }
    blocks
}

/// A stored thinking record as the block to send back, when it is one of ours for `issuer`.
fn thinking_block(record: &OpaqueReasoning, issuer: &str) -> Option<Value> {
    if record.provider != super::REASONING_FORMAT
        || !(issuer.is_empty() || record.issuer.is_empty() || record.issuer == issuer)
    {
        return None;
    }
    let data = record.data.as_object()?;
    match data.get("type")?.as_str()? {
        "thinking" => {
            let signature = data.get("signature")?.as_str().filter(|s| !s.is_empty())?;
            let thinking = data.get("thinking").and_then(Value::as_str).unwrap_or("");
            Some(json!({"type": "thinking", "thinking": thinking, "signature": signature}))
        }
        "redacted_thinking" => {
            let payload = data.get("data")?.as_str().filter(|d| !d.is_empty())?;
            Some(json!({"type": "redacted_thinking", "data": payload}))
        }
        _ => None,
    }
}

/// Whether the conversation ends in a tool loop whose assistant turn does not open with a
/// thinking block: Anthropic then refuses a request with thinking on (the turn was made with
/// thinking off, or by another provider), so such a request goes without.
pub fn loop_lacks_thinking(messages: &[Value]) -> bool {
    let [.., assistant, last] = messages else {
        return false;
    };
    let blocks = |m: &Value| m.get("content").and_then(Value::as_array).cloned().unwrap_or_default();
    let answers_calls = last.get("role").and_then(Value::as_str) == Some("user")
        && blocks(last).iter().any(|b| is_type(b, "tool_result"));
    let first = blocks(assistant).into_iter().next();
    answers_calls && !first.is_some_and(|b| is_type(&b, "thinking") || is_type(&b, "redacted_thinking"))
}

/// A tool result; images the tool returned go inside it (every Claude since 3 reads images).
fn tool_result_block(message: &Message) -> Value {
    let text = message.text_content();
    let text = if text.trim().is_empty() {
        "(no output)".to_string()
    } else {
        text
    };
    let images: Vec<Value> = message
        .parts
        .iter()
        .filter_map(|part| match part {
            Part::Image { url } => Some(image_block(url)),
            Part::Text { .. } => None,
        })
        .collect();
    let content = if images.is_empty() {
        Value::String(text)
    } else {
        let mut blocks = vec![text_block(&text)];
        blocks.extend(images);
        Value::Array(blocks)
    };
    json!({
        "type": "tool_result",
        "tool_use_id": sanitize_id(message.tool_call_id.as_deref().unwrap_or("")),
        "content": content,
        "is_error": message.is_error,
    })
}

/// A tool call's arguments as the JSON object Anthropic wants; `{}` when they are not one
/// (a model that produced broken JSON still gets its call and the tool's error replayed).
pub fn parse_arguments(arguments: &str) -> Value {
    match serde_json::from_str::<Value>(arguments) {
        Ok(value @ Value::Object(_)) => value,
        _ => Value::Object(Map::new()),
    }
}

/// Anthropic requires tool ids matching `[a-zA-Z0-9_-]+`; ids from other providers may not.
pub fn sanitize_id(id: &str) -> String {
    let clean: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.is_empty() { "tool_0".to_string() } else { clean }
}

/// An image part: `data:` URLs become base64 sources, other URLs `url` sources. A data URL of
/// a type Anthropic rejects would fail every later request of the session, so it becomes a note.
pub fn image_block(url: &str) -> Value {
    let url = url.trim();
    let Some(rest) = url.strip_prefix("data:") else {
        return json!({"type": "image", "source": {"type": "url", "url": url}});
    };
    let (header, data) = rest.split_once(',').unwrap_or((rest, ""));
    let mut media_type = header.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    if media_type == "image/jpg" {
        media_type = "image/jpeg".into();
    }
    if !header.contains(";base64") || !IMAGE_TYPES.contains(&media_type.as_str()) {
        let shown = if media_type.is_empty() { "unknown" } else { &media_type };
        return text_block(&format!("[image omitted: {shown} is not a supported image format]"));
    }
    json!({"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}})
}

/// Every `tool_use` gets a `tool_result` in the next user turn (a missing one is supplied), and
/// a `tool_result` with no matching call in the turn before becomes plain text, so a history
/// damaged by a crash or an edit still makes a valid request.
fn pair_tool_blocks(turns: &mut Vec<Turn>) {
    let mut i = 0;
    while i < turns.len() {
        let calls: Vec<String> = match turns[i].side {
            Side::Assistant => ids(&turns[i].blocks, "tool_use", "id"),
            Side::User => Vec::new(),
        };
        if turns[i].side == Side::User {
            let answered: Vec<String> = match i.checked_sub(1).map(|p| &turns[p]) {
                Some(prev) => ids(&prev.blocks, "tool_use", "id"),
                None => Vec::new(),
            };
            for block in &mut turns[i].blocks {
                let id = block.get("tool_use_id").and_then(Value::as_str).unwrap_or("");
                if is_type(block, "tool_result") && !answered.iter().any(|a| a == id) {
                    let content = block.get("content").and_then(Value::as_str).unwrap_or("");
                    *block = text_block(&format!("[result of an earlier tool call {id}]\n{content}"));
                }
            }
        } else if !calls.is_empty() {
            if turns.get(i + 1).is_none_or(|t| t.side != Side::User) {
                turns.insert(
                    i + 1,
                    Turn {
                        side: Side::User,
                        blocks: Vec::new(),
                    },
                );
            }
            let next = &mut turns[i + 1].blocks;
            let have = ids(next, "tool_result", "tool_use_id");
            let missing: Vec<Value> = calls
                .iter()
                .filter(|id| !have.contains(id))
                .map(
                    |id| json!({"type": "tool_result", "tool_use_id": id, "content": MISSING_RESULT, "is_error": true}),
                )
                .collect();
            next.splice(0..0, missing);
        }
        i += 1;
    }
}

fn ids(blocks: &[Value], kind: &str, key: &str) -> Vec<String> {
    blocks
        .iter()
        .filter(|b| is_type(b, kind))
        .filter_map(|b| b.get(key).and_then(Value::as_str).map(str::to_string))
        .collect()
}

fn is_type(block: &Value, kind: &str) -> bool {
    block.get("type").and_then(Value::as_str) == Some(kind)
}

pub fn text_block(text: &str) -> Value {
    json!({"type": "text", "text": text})
}
