//! The deterministic summary used when no summariser answers (provider down, key rejected,
//! empty reply): the same sections as the model-written one, filled from what can be read
//! locally — the user's requests, the actions taken, files touched, errors seen, and any
//! earlier summary — so the conversation keeps its anchors instead of losing them.

use std::collections::HashSet;

use serde_json::Value;

use super::marker::summary_body;
use super::prune::{CLEARED_PREFIX, cleared_note};
use crate::safety::secrets::redact::redact;
use crate::text::clip;
use crate::transcript::{Message, Role};

/// Hard ceiling of the fallback text (characters), so it never becomes a second transcript.
const MAX_CHARS: usize = 8_000;
const EARLIER_SUMMARY_MAX: usize = 3_000;

/// A summary of `middle` built without a model.
pub fn fallback_summary(middle: &[Message]) -> String {
    let mut asks = Vec::new();
    let mut done = Vec::new();
    let mut blocked = Vec::new();
    let mut files = Vec::new();
    let mut seen_files = HashSet::new();
    let mut earlier = Vec::new();
    let calls: std::collections::HashMap<&str, (&str, &str)> = middle
        .iter()
        .flat_map(|m| m.tool_calls.iter())
        .map(|c| (c.id.as_str(), (c.name.as_str(), c.arguments.as_str())))
        .collect();
    for message in middle {
        if let Some(body) = summary_body(message) {
            earlier.push(clip(&redact(body), EARLIER_SUMMARY_MAX));
            continue;
        }
        let text = redact(&message.text_content());
        match message.role() {
            Role::User if !text.trim().is_empty() => asks.push(clip(&one_line(&text), 300)),
            Role::Assistant => {
                for call in &message.tool_calls {
                    crate::runtime::describe::collect_paths(
                        &serde_json::from_str(&call.arguments).unwrap_or(Value::Null),
                        &mut |p| {
                            if seen_files.insert(p.to_string()) {
                                files.push(p.to_string());
                            }
                        },
                    );
                }
                if message.tool_calls.is_empty() && !text.trim().is_empty() {
                    done.push(format!("Answered: {}", clip(&one_line(&text), 200)));
                }
            }
            Role::Tool => {
                let id = message.tool_call_id.as_deref().unwrap_or("");
                let (name, args) = calls
                    .get(id)
                    .copied()
                    .unwrap_or((message.tool_name.as_deref().unwrap_or("tool"), ""));
                let note = if text.starts_with(CLEARED_PREFIX) {
                    text.clone()
                } else {
                    cleared_note(name, args, &text)
                };
                let action = note.trim_start_matches(CLEARED_PREFIX).trim().to_string();
                if message.is_error {
                    blocked.push(format!("{name}: {}", clip(&one_line(&text), 240)));
                    done.push(format!("{action} (failed)"));
                } else {
                    done.push(action);
                }
            }
            _ => {}
        }
    }
    let bullets = |items: &[String], limit: usize| -> String {
        if items.is_empty() {
            return "None.".into();
        }
        let start = items.len().saturating_sub(limit);
        items[start..]
            .iter()
            .map(|i| format!("- {i}"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut text = format!(
        "## Goal\n{goal}\n\n## Constraints & Preferences\n- Built locally because the summary model was unavailable; it may be incomplete.\n- Verify current files, git state and test results instead of assuming details that are not here.\n\n## Progress\n### Done\n{done}\n### In Progress\nUnknown — continue from the recent messages after this summary.\n### Blocked\n{blocked}\n\n## Key Decisions\nNone recoverable without the summary model.\n\n## Relevant Files\n{files}\n\n## Next Steps\nContinue from the latest user message after this summary; check the current state with tools before relying on anything above.\n\n## Critical Context\nUser requests in the removed turns:\n{asks}\n{earlier}\nThis summary replaces {n} message(s).",
        goal = asks.first().map_or(
            "Unknown (no user request in the removed turns).".to_string(),
            |a| format!("As first stated in the removed turns: {a}")
        ),
        done = bullets(&done, 15),
        blocked = bullets(&blocked, 5),
        files = bullets(&files, 12),
        asks = bullets(&asks, 5),
        earlier = if earlier.is_empty() {
            String::new()
        } else {
            format!(
                "\nEarlier summary (from a previous compaction):\n{}\n",
                earlier.join("\n\n")
            )
        },
        n = middle.len(),
    );
    if text.len() > MAX_CHARS {
        let mut end = MAX_CHARS - 40;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push_str("\n…[fallback summary truncated]");
    }
    text
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::ToolCall;

    #[test]
    fn keeps_asks_actions_files_and_errors() {
        let mut call = Message::assistant("");
        call.tool_calls.push(ToolCall {
            id: "c1".into(),
            name: "terminal".into(),
            arguments: r#"{"command":"cargo test","workdir":"/w/crate"}"#.into(),
        });
        call.tool_calls.push(ToolCall {
            id: "c2".into(),
            name: "read_file".into(),
            arguments: r#"{"path":"src/lib.rs"}"#.into(),
        });
        let middle = vec![
            Message::user("Make the   tests pass"),
            call.clone(),
            Message::tool_result(&call.tool_calls[0], "error: 3 tests failed".into(), true),
            Message::tool_result(&call.tool_calls[1], "fn main() {}".into(), false),
            Message::assistant("Fixed the off-by-one."),
        ];
        let text = fallback_summary(&middle);
        assert_eq!(text, fallback_summary(&middle), "deterministic");
        assert!(text.contains("## Goal\nAs first stated in the removed turns: Make the tests pass"));
        assert!(text.contains("- terminal `cargo test` → 21 chars, 1 lines (failed)"));
        assert!(text.contains("- read_file src/lib.rs → 12 chars, 1 lines"));
        assert!(text.contains("- Answered: Fixed the off-by-one."));
        assert!(text.contains("### Blocked\n- terminal: error: 3 tests failed"));
        assert!(text.contains("## Relevant Files\n- /w/crate\n- src/lib.rs"));
        assert!(text.contains("This summary replaces 5 message(s)."));
        assert!(fallback_summary(&[]).contains("Unknown (no user request"));
        let huge = vec![Message::user("x ".repeat(50_000)); 40];
        assert!(fallback_summary(&huge).chars().count() <= MAX_CHARS);
    }
}
