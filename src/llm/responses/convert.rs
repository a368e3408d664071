//! Our transcript as Responses API input items (Hermes' `_chat_messages_to_responses_input`):
//! system messages become `instructions`; user messages `input_text`/`input_image` parts;
//! an assistant answer becomes its encrypted reasoning items (replayed so a tool loop keeps its
//! reasoning), its text as `output_text`, then one `function_call` per tool call; tool results
//! become `function_call_output` items matched by call id.

use std::collections::HashSet;

use serde_json::{Value, json};

use super::REASONING_FORMAT;
use crate::transcript::{Message, OpaqueReasoning, Part, Role};

/// The instructions (system prompt) and the input items of a request to `issuer`.
/// `accepts_images`: whether images a tool returned go to the model (user images always do).
pub fn input_items(messages: &[Message], issuer: &str, accepts_images: bool) -> (String, Vec<Value>) {
    let mut instructions: Vec<String> = Vec::new();
    let mut items = Vec::with_capacity(messages.len() + 4);
    // With `store: false` the server cannot look items up by id, and one reasoning item may
    // not appear twice in an input.
    let mut seen_reasoning: HashSet<String> = HashSet::new();
    for message in messages {
        match message.role() {
            Role::System => {
                let text = message.text_content();
                if !text.trim().is_empty() {
                    instructions.push(text);
                }
            }
            Role::User => items.push(user_item(message)),
            Role::Assistant => assistant_items(message, issuer, &mut seen_reasoning, &mut items),
            Role::Tool => {
                if let Some(item) = tool_output(message, accepts_images) {
                    items.push(item);
                }
            }
        }
    }
    (instructions.join("\n\n"), items)
}

fn user_item(message: &Message) -> Value {
    let mut content: Vec<Value> = message
        .parts
        .iter()
        .map(|part| match part {
            Part::Text { text } => json!({"type": "input_text", "text": text}),
            Part::Image { url } => json!({"type": "input_image", "image_url": url}),
        })
        .collect();
    if content.is_empty() {
        content.push(json!({"type": "input_text", "text": ""}));
    }
    json!({"type": "message", "role": "user", "content": content})
}

fn assistant_items(message: &Message, issuer: &str, seen: &mut HashSet<String>, items: &mut Vec<Value>) {
    let mut replayed = false;
    for record in &message.opaque_reasoning {
        if let Some(item) = replay_reasoning(record, issuer, seen) {
            items.push(item);
            replayed = true;
        }
    }
    let text = message.text_content();
    if !text.is_empty() {
        items.push(json!({"type": "message", "role": "assistant",
            "content": [{"type": "output_text", "text": text}]}));
    } else if replayed {
        // The API wants an item after each reasoning item (`missing_following_item`); Hermes
        // sends an empty assistant message when the answer had no text.
        items.push(json!({"role": "assistant", "content": ""}));
    }
    for call in &message.tool_calls {
        let arguments = call.arguments.trim();
        items.push(json!({
            "type": "function_call",
            "call_id": call.id,
            "name": call.name,
            "arguments": if arguments.is_empty() { "{}" } else { arguments },
        }));
    }
}

/// A stored reasoning record as an input item, when it is ours to send: this API's format,
/// minted by this endpoint (a record from elsewhere would fail the whole request), carrying
/// encrypted content, not sent already. The id goes: nothing is stored server-side to find.
fn replay_reasoning(record: &OpaqueReasoning, issuer: &str, seen: &mut HashSet<String>) -> Option<Value> {
    if record.provider != REASONING_FORMAT || (!record.issuer.is_empty() && record.issuer != issuer) {
        return None;
    }
    let data = record.data.as_object()?;
    let encrypted = data.get("encrypted_content")?.as_str().filter(|e| !e.is_empty())?;
    if let Some(id) = data.get("id").and_then(Value::as_str)
        && !seen.insert(id.to_string())
    {
        return None;
    }
    let summary = data.get("summary").cloned().unwrap_or_else(|| json!([]));
    Some(json!({"type": "reasoning", "encrypted_content": encrypted, "summary": summary}))
}

fn tool_output(message: &Message, accepts_images: bool) -> Option<Value> {
    let call_id = message
        .tool_call_id
        .as_deref()
        .map(str::trim)
        .filter(|id| !id.is_empty())?;
    let images: Vec<Value> = message
        .parts
        .iter()
        .filter_map(|part| match part {
            Part::Image { url } if accepts_images => Some(json!({"type": "input_image", "image_url": url})),
            _ => None,
        })
        .collect();
    let text = message.text_content();
    let output = if images.is_empty() {
        Value::String(text)
    } else {
        // The output may be a list of parts: the text, then the images the tool returned.
        let mut parts = vec![json!({"type": "input_text", "text": text})];
        parts.extend(images);
        Value::Array(parts)
    };
    Some(json!({"type": "function_call_output", "call_id": call_id, "output": output}))
}
