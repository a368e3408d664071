//! How stored messages and sessions look in `session_search` results (Hermes' `_shape_message`
//! and session metadata): slim JSON objects, long contents cut with a marker, ANSI escapes
//! stripped, and human-readable dates.

use serde_json::{Map, Value, json};

use crate::runtime::shell::ansi::strip_ansi;
use crate::store::{FoundMessage, SessionRecord, iso8601};

/// No message is cut below this many characters, whatever the budget.
const MIN_CAP: usize = 300;

/// Every session in our database came through ACP.
pub const SOURCE: &str = "acp";

/// Generated context-compaction handoffs: machine text, kept out of bookends.
const COMPACTION_PREFIXES: &[&str] = &["[CONTEXT COMPACTION", "[CONTEXT SUMMARY]:"];

/// `March 04, 2026 at 02:15 PM` in local time, as Hermes shows session dates.
pub fn when(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| {
            t.with_timezone(&chrono::Local)
                .format("%B %d, %Y at %I:%M %p")
                .to_string()
        })
        .unwrap_or_else(|| "unknown".to_string())
}

/// Whether a message is a compaction summary rather than real conversation.
pub fn is_compaction_summary(m: &FoundMessage) -> bool {
    let text = m.message.text_content();
    let text = text.trim_start();
    COMPACTION_PREFIXES.iter().any(|p| text.starts_with(p))
}

/// One message for the model: id, role, content, timestamp and, when present, the tool-call
/// fields; `anchor: true` on the anchor; contents over `max_chars` cut with `…` and flagged
/// (tool-call arguments are cut the same way).
pub fn message(m: &FoundMessage, anchor: Option<i64>, max_chars: Option<usize>) -> Value {
    let raw = m.message.text_content();
    let raw = if raw.contains('\x1b') { strip_ansi(&raw) } else { raw };
    let total = raw.chars().count();
    let mut out = Map::new();
    out.insert("id".into(), json!(m.id));
    out.insert("role".into(), json!(m.role));
    match max_chars {
        Some(max) if total > max => {
            let cut: String = raw.chars().take(max).collect();
            out.insert("content".into(), json!(format!("{cut}…")));
            out.insert("content_truncated".into(), json!(true));
            out.insert("original_content_chars".into(), json!(total));
        }
        _ => {
            out.insert("content".into(), json!(raw));
        }
    }
    out.insert("timestamp".into(), json!(iso8601(m.created_at)));
    if let Some(name) = &m.message.tool_name {
        out.insert("tool_name".into(), json!(name));
    }
    if !m.message.tool_calls.is_empty() {
        let calls: Vec<Value> = m
            .message
            .tool_calls
            .iter()
            .map(|c| {
                let arguments = match max_chars {
                    Some(max) if c.arguments.chars().count() > max => {
                        format!("{}…", c.arguments.chars().take(max).collect::<String>())
                    }
                    _ => c.arguments.clone(),
                };
                json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": arguments}})
            })
            .collect();
        out.insert("tool_calls".into(), json!(calls));
    }
    if let Some(id) = &m.message.tool_call_id {
        out.insert("tool_call_id".into(), json!(id));
    }
    if anchor == Some(m.id) {
        out.insert("anchor".into(), json!(true));
    }
    Value::Object(out)
}

/// The largest per-message cap, at most `preferred`, that keeps the text of `list` (contents
/// and tool-call arguments) within `budget` characters, so a long window never overflows the
/// tool-result limit and gets cut mid-JSON.
pub fn cap_within(list: &[FoundMessage], preferred: usize, budget: usize) -> usize {
    let sizes: Vec<usize> = list
        .iter()
        .flat_map(|m| {
            std::iter::once(m.message.text_content().chars().count())
                .chain(m.message.tool_calls.iter().map(|c| c.arguments.chars().count()))
        })
        .collect();
    let total = |cap: usize| sizes.iter().map(|&n| n.min(cap)).sum::<usize>();
    let (mut lo, mut hi) = (MIN_CAP.min(preferred), preferred);
    if total(hi) <= budget {
        return hi;
    }
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if total(mid) <= budget { lo = mid } else { hi = mid - 1 }
    }
    lo
}

/// Shapes a list of messages.
pub fn messages(list: &[FoundMessage], anchor: Option<i64>, max_chars: Option<usize>) -> Vec<Value> {
    list.iter().map(|m| message(m, anchor, max_chars)).collect()
}

/// `session_meta` of scroll and read results (plus the session's working directory).
pub fn session_meta(info: &SessionRecord) -> Value {
    json!({
        "when": when(info.created_at),
        "source": SOURCE,
        "model": info.model,
        "title": info.title,
        "cwd": info.cwd,
    })
}

/// The first user message, cut to 60 characters, as a browse preview.
pub fn preview(info: &SessionRecord) -> String {
    let text = info.preview.as_deref().unwrap_or("").trim();
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= 60 {
        flat
    } else {
        format!("{}...", flat.chars().take(60).collect::<String>())
    }
}

/// One row of the browse (recent sessions) result.
pub fn browse_row(info: &SessionRecord) -> Value {
    json!({
        "session_id": info.id,
        "title": info.title,
        "source": SOURCE,
        "cwd": info.cwd,
        "started_at": iso8601(info.created_at),
        "last_active": iso8601(info.updated_at),
        "message_count": info.message_count,
        "preview": preview(info),
    })
}
