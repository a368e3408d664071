//! The conversation as the agent keeps it: OpenAI-style messages (system, user, assistant with
//! tool calls, tool results). A leaf module of plain data that every layer may use; the store
//! persists it, providers translate it to their wire formats, the ACP layer replays it.
//! `meta.rs` holds what a message carries for the editor and our bookkeeping (never sent to a
//! model), `display.rs` how a tool result is shown, `content.rs` what the user sent,
//! `reasoning.rs` the provider-opaque reasoning an answer hands back to its provider.

use serde::{Deserialize, Serialize};

mod content;
mod display;
mod meta;
mod reasoning;

pub use content::{ResourceBody, UserContent};
pub use display::{FileChange, ToolDisplay};
pub use meta::{CompactionMark, Interruption, MessageMeta};
pub use reasoning::OpaqueReasoning;

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
    Tool,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        match s {
            "system" => Some(Role::System),
            "user" => Some(Role::User),
            "assistant" => Some(Role::Assistant),
            "tool" => Some(Role::Tool),
            _ => None,
        }
    }
}

/// One piece of a multimodal user message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Part {
    Text {
        text: String,
    },
    /// An image as a `data:` URL or a remote URL.
    Image {
        url: String,
    },
}

/// A function call the model asked for. `arguments` is the raw JSON text the model produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: String,
}

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Message {
    pub role: Option<Role>,
    /// Text parts (and images for user messages). Empty for tool-call-only assistant messages.
    pub parts: Vec<Part>,
    /// Reasoning text the provider streamed alongside an assistant answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// For assistant messages: reasoning the provider handed out opaquely (encrypted Responses
    /// API items) and wants back on the next request, before the tool calls it led to. Stored
    /// with the message; older rows have none. See `OpaqueReasoning`.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "reasoning::lenient_list"
    )]
    pub opaque_reasoning: Vec<OpaqueReasoning>,
    /// For `Role::Tool`: the call this message answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// For `Role::Tool`: the tool's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// For `Role::Tool`: whether the result is an error.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
    /// Data for the editor and our bookkeeping, never sent to the model (e.g. how a tool result
    /// is rendered, so a replay shows the same card as the live turn). Read tolerantly: a stored
    /// value this build cannot decode leaves the default instead of losing the message.
    #[serde(
        default,
        skip_serializing_if = "MessageMeta::is_empty",
        deserialize_with = "meta::lenient"
    )]
    pub meta: MessageMeta,
}

impl Message {
    pub fn role(&self) -> Role {
        self.role.unwrap_or(Role::User)
    }

    pub fn system(text: impl Into<String>) -> Message {
        Message::text(Role::System, text)
    }

    pub fn user(text: impl Into<String>) -> Message {
        Message::text(Role::User, text)
    }

    pub fn assistant(text: impl Into<String>) -> Message {
        Message::text(Role::Assistant, text)
    }

    pub fn text(role: Role, text: impl Into<String>) -> Message {
        let text = text.into();
        let parts = if text.is_empty() {
            Vec::new()
        } else {
            vec![Part::Text { text }]
        };
        Message {
            role: Some(role),
            parts,
            ..Message::default()
        }
    }

    pub fn tool_result(call: &ToolCall, content: String, is_error: bool) -> Message {
        Message {
            role: Some(Role::Tool),
            parts: vec![Part::Text { text: content }],
            tool_call_id: Some(call.id.clone()),
            tool_name: Some(call.name.clone()),
            is_error,
            ..Message::default()
        }
    }

    /// All text parts joined with newlines (images left out).
    pub fn text_content(&self) -> String {
        let mut out = String::new();
        for part in &self.parts {
            if let Part::Text { text } = part {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(text);
            }
        }
        out
    }

    pub fn has_images(&self) -> bool {
        self.parts.iter().any(|p| matches!(p, Part::Image { .. }))
    }
}

/// Token counts reported by a provider for one model call (or summed over a turn).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub reasoning_tokens: u64,
    pub cache_read_tokens: u64,
    pub cache_write_tokens: u64,
}

impl Usage {
    pub fn total(&self) -> u64 {
        self.input_tokens.saturating_add(self.output_tokens)
    }

    pub fn add(&mut self, other: &Usage) {
        // Saturating: counts come from providers (untrusted); an overflow must not panic.
        self.input_tokens = self.input_tokens.saturating_add(other.input_tokens);
        self.output_tokens = self.output_tokens.saturating_add(other.output_tokens);
        self.reasoning_tokens = self.reasoning_tokens.saturating_add(other.reasoning_tokens);
        self.cache_read_tokens = self.cache_read_tokens.saturating_add(other.cache_read_tokens);
        self.cache_write_tokens = self.cache_write_tokens.saturating_add(other.cache_write_tokens);
    }
}
