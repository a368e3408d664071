//! The cheap first pass (pure, no model call): bulky old tool outputs in the middle are
//! replaced by a one-line "[old tool output cleared] …" note that still says what the call did.
//! Used on its own only when that brings the prompt comfortably below the threshold; the
//! editor metadata of each result is kept, so a replayed card still shows the original.

use std::collections::HashMap;

use serde_json::Value;

use super::estimate::message_tokens;
use super::plan::Plan;
use crate::text::thousands;
use crate::transcript::{Message, Part, Role};

/// What a cleared tool output starts with.
pub const CLEARED_PREFIX: &str = "[old tool output cleared]";
/// Outputs at most this long are left alone (a note would not be much shorter).
const MIN_PRUNE_BYTES: usize = 600;

/// The history with the middle's bulky tool outputs cleared, if that alone brings the
/// projected prompt down to `threshold − tail_budget` (leaving room to grow, so the next call
/// does not trigger again at once). `None` when a summary is needed, and always for `/compact`.
pub fn prune(history: &[Message], plan: &Plan) -> Option<Vec<Message>> {
    if plan.manual {
        return None;
    }
    let (pruned, freed) = prune_middle(history, plan);
    if freed == 0 {
        return None;
    }
    let target = plan.threshold.saturating_sub(plan.tail_budget);
    (plan.prompt_tokens.saturating_sub(freed) <= target).then_some(pruned)
}

/// Clears every bulky tool output in the middle; returns the new history and the tokens freed.
pub fn prune_middle(history: &[Message], plan: &Plan) -> (Vec<Message>, u64) {
    let calls: HashMap<&str, (&str, &str)> = history
        .iter()
        .flat_map(|m| m.tool_calls.iter())
        .map(|c| (c.id.as_str(), (c.name.as_str(), c.arguments.as_str())))
        .collect();
    let mut out = history.to_vec();
    let mut freed = 0;
    for message in &mut out[plan.head_end..plan.tail_start] {
        if message.role() != Role::Tool {
            continue;
        }
        let text = message.text_content();
        if text.len() <= MIN_PRUNE_BYTES || text.starts_with(CLEARED_PREFIX) {
            continue;
        }
        let (name, arguments) = message
            .tool_call_id
            .as_deref()
            .and_then(|id| calls.get(id).copied())
            .unwrap_or((message.tool_name.as_deref().unwrap_or("tool"), ""));
        let before = message_tokens(message);
        message.parts = vec![Part::Text {
            text: cleared_note(name, arguments, &text),
        }];
        freed += before.saturating_sub(message_tokens(message));
    }
    (out, freed)
}

/// `[old tool output cleared] terminal `cargo test` → 4,210 chars, 87 lines`: the tool says
/// what the call did (`Tool::brief`).
pub fn cleared_note(tool: &str, arguments: &str, output: &str) -> String {
    let args: Value = serde_json::from_str(arguments).unwrap_or(Value::Null);
    let what = crate::tools::catalog::brief(tool, &args);
    let lines = output.lines().count();
    let size = format!("{} chars, {lines} lines", thousands(output.chars().count() as u64));
    match what {
        Some(what) => format!("{CLEARED_PREFIX} {tool} {what} → {size}"),
        None => format!("{CLEARED_PREFIX} {tool} → {size}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_say_what_the_call_did() {
        let out = "line\n".repeat(3);
        assert_eq!(
            cleared_note("terminal", r#"{"command":"cargo test"}"#, &out),
            "[old tool output cleared] terminal `cargo test` → 15 chars, 3 lines"
        );
        assert_eq!(
            cleared_note("read_file", r#"{"path":"src/main.rs","offset":1}"#, "x"),
            "[old tool output cleared] read_file src/main.rs → 1 chars, 1 lines"
        );
        assert_eq!(
            cleared_note("mcp_thing", "not json", &"y".repeat(1234)),
            "[old tool output cleared] mcp_thing → 1,234 chars, 1 lines"
        );
        assert!(cleared_note("web", r#"{"url":"https://e.x"}"#, "").contains("url=https://e.x"));
    }
}
