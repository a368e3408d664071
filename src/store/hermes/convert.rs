//! Hermes' stored messages as ours. Hermes keeps OpenAI-shaped rows: text (or, behind the
//! `\x00json:` prefix, a JSON list of content parts), `tool_calls` as JSON, tool results with
//! their call id and tool name, reasoning in `reasoning` / `reasoning_content`. System rows are
//! dropped (we build our own system prompt). The result is kept valid for a provider: a tool
//! result that answers no call is dropped, a call that got no result gets one saying so.

use std::collections::HashSet;

use rusqlite::Connection;
use serde_json::Value;

use crate::transcript::{Message, Part, Role, ToolCall};

/// Hermes' marker for a content column holding JSON rather than text.
const JSON_PREFIX: &str = "\u{0}json:";
/// The result given to a call Hermes stored no result for (its turn was interrupted).
const NO_RESULT: &str = "No result was recorded for this call (the turn ended before it finished).";

/// The active messages of session `id`, in order, as ours.
pub(super) fn load_messages(conn: &Connection, id: &str) -> rusqlite::Result<Vec<Message>> {
    let mut stmt = conn.prepare(
        "SELECT id, role, content, tool_call_id, tool_calls, tool_name, reasoning, reasoning_content \
         FROM messages WHERE session_id = ?1 AND active = 1 ORDER BY id",
    )?;
    // The row id is read on its own so that a row whose columns are not what we expect (a
    // BLOB where text belongs) is skipped and logged by id instead of failing the import.
    let rows = stmt.query_map([id], |r| {
        let row = || {
            Ok(Row {
                role: r.get(1)?,
                content: r.get(2)?,
                tool_call_id: r.get(3)?,
                tool_calls: r.get(4)?,
                tool_name: r.get(5)?,
                reasoning: r.get::<_, Option<String>>(6)?.or(r.get(7)?),
            })
        };
        Ok((r.get::<_, i64>(0)?, row()))
    })?;
    let mut converted = Vec::new();
    for row in rows {
        let (row_id, row) = row?;
        match row {
            Ok(row) => converted.extend(row.into_message(id, row_id)),
            Err(rusqlite::Error::FromSqlConversionFailure(..) | rusqlite::Error::InvalidColumnType(..)) => {
                tracing::warn!(session = id, row_id, "skipping an unreadable Hermes message");
            }
            Err(e) => return Err(e),
        }
    }
    Ok(repair(converted))
}

/// One Hermes `messages` row (the columns we use).
struct Row {
    role: String,
    content: Option<String>,
    tool_call_id: Option<String>,
    tool_calls: Option<String>,
    tool_name: Option<String>,
    reasoning: Option<String>,
}

impl Row {
    /// Ours for this row; `None` for system rows, unknown roles and results naming no call.
    /// `session` and `row_id` only name the row in a warning.
    fn into_message(self, session: &str, row_id: i64) -> Option<Message> {
        let parts = self.content.as_deref().map(parts_of).unwrap_or_default();
        match self.role.as_str() {
            "user" => Some(Message {
                role: Some(Role::User),
                parts,
                ..Message::default()
            }),
            "assistant" => Some(Message {
                role: Some(Role::Assistant),
                parts,
                reasoning: self.reasoning.filter(|r| !r.trim().is_empty()),
                tool_calls: match self.tool_calls.as_deref().map(tool_calls_of) {
                    Some(Some(calls)) => calls,
                    Some(None) => {
                        // The calls are lost; `repair` then drops the results that answered them.
                        tracing::warn!(session, row_id, "unreadable tool_calls in a Hermes message");
                        Vec::new()
                    }
                    None => Vec::new(),
                },
                ..Message::default()
            }),
            "tool" => Some(Message {
                role: Some(Role::Tool),
                parts: if parts.is_empty() {
                    vec![text_part(String::new())]
                } else {
                    parts
                },
                tool_call_id: Some(self.tool_call_id.filter(|id| !id.is_empty())?),
                tool_name: self.tool_name,
                ..Message::default()
            }),
            // System prompts (ours replaces them) and anything unknown.
            _ => None,
        }
    }
}

fn text_part(text: String) -> Part {
    Part::Text { text }
}

/// A content column as parts: plain text, or the JSON list (or object) behind the prefix.
fn parts_of(content: &str) -> Vec<Part> {
    let Some(json) = content.strip_prefix(JSON_PREFIX) else {
        return if content.is_empty() {
            Vec::new()
        } else {
            vec![text_part(content.to_string())]
        };
    };
    let value: Value = serde_json::from_str(json).unwrap_or(Value::Null);
    let items = match value {
        Value::Array(items) => items,
        Value::Null => return vec![text_part(json.to_string())],
        other => vec![other],
    };
    items.iter().filter_map(part_of).collect()
}

fn part_of(item: &Value) -> Option<Part> {
    let kind = item.get("type").and_then(Value::as_str).unwrap_or("text");
    match kind {
        "image_url" => {
            let url = item.get("image_url").map(|i| i.get("url").unwrap_or(i))?;
            Some(Part::Image {
                url: url.as_str()?.to_string(),
            })
        }
        "image" => {
            // Anthropic-shaped: {source: {type: base64, media_type, data}}.
            let source = item.get("source")?;
            let data = source.get("data")?.as_str()?;
            let media = source.get("media_type").and_then(Value::as_str).unwrap_or("image/png");
            Some(Part::Image {
                url: format!("data:{media};base64,{data}"),
            })
        }
        _ => match item {
            Value::String(text) => Some(text_part(text.clone())),
            _ => Some(text_part(item.get("text").and_then(Value::as_str)?.to_string())),
        },
    }
}

/// The text of a content column (for a preview or a title).
pub(super) fn plain_text(content: &str) -> String {
    parts_of(content)
        .into_iter()
        .filter_map(|p| match p {
            Part::Text { text } => Some(text),
            Part::Image { .. } => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The `tool_calls` column: OpenAI's `[{id, type, function: {name, arguments}}]`, arguments as
/// text or (as some Hermes versions stored them) an object.
/// `None` when the column is not a JSON list (empty text counts as no calls).
fn tool_calls_of(text: &str) -> Option<Vec<ToolCall>> {
    if text.trim().is_empty() {
        return Some(Vec::new());
    }
    let Ok(Value::Array(calls)) = serde_json::from_str::<Value>(text) else {
        return None;
    };
    Some(
        calls
            .iter()
            .filter_map(|call| {
                let function = call.get("function").unwrap_or(call);
                let arguments = match function.get("arguments") {
                    Some(Value::String(s)) => s.clone(),
                    Some(Value::Null) | None => "{}".to_string(),
                    Some(other) => other.to_string(),
                };
                Some(ToolCall {
                    id: call.get("id")?.as_str()?.to_string(),
                    name: function.get("name")?.as_str()?.to_string(),
                    arguments,
                })
            })
            .collect(),
    )
}

/// Drops tool results that answer no open call and answers calls left open, so the history is
/// one a provider accepts.
fn repair(messages: Vec<Message>) -> Vec<Message> {
    let mut out: Vec<Message> = Vec::with_capacity(messages.len());
    let mut open: Vec<ToolCall> = Vec::new();
    for message in messages {
        if message.role() == Role::Tool {
            let id = message.tool_call_id.clone().unwrap_or_default();
            let Some(index) = open.iter().position(|c| c.id == id) else {
                continue;
            };
            let call = open.remove(index);
            out.push(Message {
                tool_name: message.tool_name.clone().or(Some(call.name)),
                ..message
            });
            continue;
        }
        close_open_calls(&mut out, &mut open);
        if message.role() == Role::Assistant {
            let mut seen = HashSet::new();
            open = message
                .tool_calls
                .iter()
                .filter(|c| seen.insert(c.id.clone()))
                .cloned()
                .collect();
        }
        out.push(message);
    }
    close_open_calls(&mut out, &mut open);
    out
}

fn close_open_calls(out: &mut Vec<Message>, open: &mut Vec<ToolCall>) {
    for call in open.drain(..) {
        out.push(Message::tool_result(&call, NO_RESULT.to_string(), true));
    }
}
