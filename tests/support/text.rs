//! Reading what the agent sent: the text of its message chunks, and protocol JSON with ids
//! and times normalised for snapshots.

use serde_json::{Value, json};

/// Concatenated text of the `agent_message_chunk` updates.
pub fn agent_text(updates: &[Value]) -> String {
    chunk_text(updates, "agent_message_chunk")
}

pub fn chunk_text(updates: &[Value], kind: &str) -> String {
    updates
        .iter()
        .filter(|u| u["sessionUpdate"] == kind)
        .filter_map(|u| u["content"]["text"].as_str())
        .collect()
}

/// Replaces ids and times that change between runs, for snapshots.
pub fn normalize(value: &Value, session_id: &str) -> Value {
    let text = value.to_string().replace(session_id, "<session>");
    let mut v: Value = serde_json::from_str(&text).unwrap();
    scrub(&mut v);
    v
}

fn scrub(v: &mut Value) {
    match v {
        Value::Object(map) => {
            for (k, val) in map.iter_mut() {
                if k == "updatedAt" && val.is_string() {
                    *val = json!("<time>");
                } else {
                    scrub(val);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(scrub),
        _ => {}
    }
}
