//! Typed metadata a message carries for the editor and our own bookkeeping, never sent to a
//! model: how a tool result is shown, whether an answer was cut short, what a compaction summary
//! replaced, what the user attached. Stored inside the message's JSON body in the shape earlier
//! versions wrote (`changes`, `terminal`, `interrupted`, `budget_note`, `compaction`), so old
//! rows load unchanged; reading is tolerant: a field this build cannot decode is dropped, never
//! the whole message.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};

use super::content::UserContent;
use super::display::{FileChange, ToolDisplay};

/// Everything a message carries besides what the model sees. `Default` is "nothing".
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(from = "Stored", into = "Stored")]
pub struct MessageMeta {
    /// For tool results: what the editor showed, so a replay renders the same card.
    pub display: ToolDisplay,
    /// For assistant messages: the answer was cut short (kept for the history, skipped for the
    /// model when nothing was produced).
    pub interrupted: Option<Interruption>,
    /// For user-role messages the agent wrote itself (the budget summary request): not the
    /// user's words, so a replay hides it.
    pub budget_note: bool,
    /// For the user-role message holding a compaction summary.
    pub compaction: Option<CompactionMark>,
    /// For user messages: the blocks the user sent (empty when the text says it all).
    pub user_content: Vec<UserContent>,
    /// For user messages written by versions before `user_content` existed: the prompt exactly
    /// as the editor sent it, in the protocol's JSON. Opaque here; only the ACP layer reads it.
    pub legacy_prompt: Option<serde_json::Value>,
}

impl MessageMeta {
    pub fn is_empty(&self) -> bool {
        *self == MessageMeta::default()
    }

    /// The mark of the note the agent adds itself when the step budget is spent.
    pub fn budget_note() -> MessageMeta {
        MessageMeta {
            budget_note: true,
            ..MessageMeta::default()
        }
    }

    /// The mark of an answer cut short.
    pub fn interrupted(why: Interruption) -> MessageMeta {
        MessageMeta {
            interrupted: Some(why),
            ..MessageMeta::default()
        }
    }
}

/// Why an answer stopped before the model finished it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Interruption {
    /// The user cancelled the turn.
    Cancelled,
}

/// What a compaction summary message stands for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompactionMark {
    /// The compaction's id (`compactionId` on the wire).
    pub id: String,
    /// How many messages and (estimated) tokens the summary replaced.
    #[serde(default)]
    pub replaced_messages: usize,
    #[serde(default)]
    pub replaced_tokens: u64,
    /// Why the local fallback summary was used instead of the model's, if it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<String>,
}

/// The stored shape: the display as `changes` / `terminal` keys, each field read on its own.
#[derive(Clone, Default, Serialize, Deserialize)]
struct Stored {
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    changes: Option<Vec<FileChange>>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    terminal: Option<StoredTerminal>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    interrupted: Option<Interruption>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not", deserialize_with = "lenient")]
    budget_note: bool,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    compaction: Option<CompactionMark>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "lenient")]
    user_content: Vec<UserContent>,
    /// Earlier versions stored the protocol's prompt blocks under `prompt`.
    #[serde(default, rename = "prompt", skip_serializing_if = "Option::is_none")]
    legacy_prompt: Option<serde_json::Value>,
}

#[derive(Clone, Serialize, Deserialize)]
struct StoredTerminal {
    #[serde(default)]
    command: String,
    #[serde(default)]
    output: String,
    #[serde(default)]
    exit_code: Option<i64>,
}

impl From<Stored> for MessageMeta {
    fn from(s: Stored) -> MessageMeta {
        let display = match (s.changes, s.terminal) {
            (Some(changes), _) => ToolDisplay::Changes(changes),
            (None, Some(t)) => ToolDisplay::Terminal {
                command: t.command,
                output: t.output,
                exit_code: t.exit_code,
            },
            (None, None) => ToolDisplay::None,
        };
        MessageMeta {
            display,
            interrupted: s.interrupted,
            budget_note: s.budget_note,
            compaction: s.compaction,
            user_content: s.user_content,
            legacy_prompt: s.legacy_prompt,
        }
    }
}

impl From<MessageMeta> for Stored {
    fn from(m: MessageMeta) -> Stored {
        let (changes, terminal) = match m.display {
            ToolDisplay::None => (None, None),
            ToolDisplay::Changes(changes) => (Some(changes), None),
            ToolDisplay::Terminal {
                command,
                output,
                exit_code,
            } => (
                None,
                Some(StoredTerminal {
                    command,
                    output,
                    exit_code,
                }),
            ),
        };
        Stored {
            changes,
            terminal,
            interrupted: m.interrupted,
            budget_note: m.budget_note,
            compaction: m.compaction,
            user_content: m.user_content,
            legacy_prompt: m.legacy_prompt,
        }
    }
}

/// Reads any JSON, then `T` from it, falling back to `T::default()` when it does not fit: a
/// stored value from another version must not make its whole message unreadable.
pub(super) fn lenient<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned + Default,
{
    let value = serde_json::Value::deserialize(deserializer)?;
    Ok(serde_json::from_value(value).unwrap_or_else(|e| {
        tracing::debug!(error = %e, "ignoring stored message metadata this build cannot read");
        T::default()
    }))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::transcript::{Message, ResourceBody};

    fn decode(body: serde_json::Value) -> Message {
        serde_json::from_value(body).unwrap()
    }

    #[test]
    fn rows_in_the_format_of_earlier_versions_load() {
        let tool = decode(json!({
            "role": "tool", "parts": [{"type": "text", "text": "{}"}], "tool_call_id": "c1",
            "meta": {"changes": [{"path": "/w/a.rs", "old_text": null, "new_text": "x"}]}
        }));
        let change = FileChange {
            path: "/w/a.rs".into(),
            old_text: None,
            new_text: Some("x".into()),
        };
        assert_eq!(tool.meta.display, ToolDisplay::Changes(vec![change]));
        let shell = decode(json!({"role": "tool", "parts": [], "tool_call_id": "c2",
            "meta": {"terminal": {"command": "ls", "output": "a", "exit_code": 0}}}));
        assert_eq!(
            shell.meta.display,
            ToolDisplay::Terminal {
                command: "ls".into(),
                output: "a".into(),
                exit_code: Some(0)
            }
        );
        let cut = decode(json!({"role": "assistant", "parts": [], "meta": {"interrupted": "cancelled"}}));
        assert_eq!(cut.meta.interrupted, Some(Interruption::Cancelled));
        let note = decode(json!({"role": "user", "parts": [], "meta": {"budget_note": true}}));
        assert!(note.meta.budget_note);
        let summary = decode(json!({"role": "user", "parts": [], "meta": {"compaction":
            {"id": "compaction_1", "replaced_messages": 4, "replaced_tokens": 900, "fallback": "offline"}}}));
        assert_eq!(
            summary.meta.compaction,
            Some(CompactionMark {
                id: "compaction_1".into(),
                replaced_messages: 4,
                replaced_tokens: 900,
                fallback: Some("offline".into())
            })
        );
        let acp = json!([{"type": "text", "text": "hi"}, {"type": "image", "data": "AA", "mimeType": "image/png"}]);
        let prompt = decode(json!({"role": "user", "parts": [], "meta": {"prompt": acp}}));
        assert_eq!(prompt.meta.legacy_prompt, Some(acp));
        assert!(prompt.meta.user_content.is_empty());
    }

    #[test]
    fn the_stored_shape_round_trips_and_stays_the_old_one() {
        let mut message = Message::user("see");
        message.meta.interrupted = Some(Interruption::Cancelled);
        message.meta.display = ToolDisplay::Terminal {
            command: "ls".into(),
            output: String::new(),
            exit_code: None,
        };
        message.meta.user_content = vec![UserContent::Resource {
            uri: "file:///a".into(),
            mime_type: None,
            body: ResourceBody::Text("t".into()),
        }];
        let stored = serde_json::to_value(&message).unwrap();
        assert_eq!(stored["meta"]["interrupted"], "cancelled");
        assert_eq!(stored["meta"]["terminal"]["command"], "ls");
        assert_eq!(serde_json::from_value::<Message>(stored).unwrap(), message);
        let plain = serde_json::to_value(Message::user("x")).unwrap();
        assert!(plain.get("meta").is_none(), "{plain}");
    }

    #[test]
    fn unreadable_metadata_is_dropped_not_the_message() {
        let odd = decode(json!({"role": "user", "parts": [{"type": "text", "text": "kept"}],
            "meta": {"interrupted": "by aliens", "budget_note": "yes", "compaction": {"no_id": 1}, "future_key": 1}}));
        assert_eq!(odd.text_content(), "kept");
        assert!(odd.meta.is_empty(), "{:?}", odd.meta);
        let not_an_object = decode(json!({"role": "user", "parts": [], "meta": 7}));
        assert!(not_an_object.meta.is_empty());
    }
}
