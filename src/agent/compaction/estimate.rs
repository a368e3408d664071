//! Rough token counts without a tokenizer, as Hermes counts them: about 4 characters (here:
//! UTF-8 bytes, which also weighs CJK text sensibly) per token, a flat 1 500 tokens per image,
//! and a small per-message overhead. Only lengths are summed, so a 150 000-token history is
//! measured in microseconds.

use serde_json::Value;

use crate::transcript::{Message, Part};

/// Bytes per token.
pub const BYTES_PER_TOKEN: u64 = 4;
/// Flat cost of one image part.
pub const IMAGE_TOKENS: u64 = 1_500;
/// Role, separators and ids of one message.
const MESSAGE_OVERHEAD_BYTES: u64 = 16;
/// `{"id":…,"type":"function","function":{"name":…,"arguments":…}}` around one call.
const CALL_OVERHEAD_BYTES: u64 = 64;

/// Tokens of one message as the provider sees it (reasoning and editor metadata are not sent).
pub fn message_tokens(message: &Message) -> u64 {
    let mut bytes = MESSAGE_OVERHEAD_BYTES;
    let mut images = 0;
    for part in &message.parts {
        match part {
            Part::Text { text } => bytes += text.len() as u64,
            Part::Image { .. } => images += 1,
        }
    }
    for call in &message.tool_calls {
        bytes += CALL_OVERHEAD_BYTES + (call.id.len() + call.name.len() + call.arguments.len()) as u64;
    }
    if let Some(id) = &message.tool_call_id {
        bytes += id.len() as u64;
    }
    if let Some(name) = &message.tool_name {
        bytes += name.len() as u64;
    }
    bytes.div_ceil(BYTES_PER_TOKEN) + images * IMAGE_TOKENS
}

/// Tokens of a list of messages.
pub fn estimate_tokens(messages: &[Message]) -> u64 {
    messages.iter().map(message_tokens).sum()
}

/// Tokens of a whole request: system prompt, history and tool schemas (what `usage_update` and
/// `/context` report when the provider has not told us the real count).
pub fn estimate_request_tokens(system_prompt: &str, history: &[Message], tools: &[Value]) -> u64 {
    let schema_bytes: u64 = tools.iter().map(|t| t.to_string().len() as u64).sum();
    (system_prompt.len() as u64).div_ceil(BYTES_PER_TOKEN)
        + estimate_tokens(history)
        + schema_bytes.div_ceil(BYTES_PER_TOKEN)
}

/// How full the context is, carried between model calls (and turns): the prompt tokens the
/// provider reported for the last call, and how many history messages that prompt held. The
/// next prompt is that count plus an estimate of everything appended since (the answer, tool
/// results, a new user message), so the check never waits for a call that would overflow.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ContextMeter {
    prompt_tokens: u64,
    history_len: usize,
    known: bool,
}

impl ContextMeter {
    /// Records a completed call: `prompt_tokens` from its usage, `history_len` = the number of
    /// history messages its request carried.
    pub fn record(&mut self, prompt_tokens: u64, history_len: usize) {
        *self = ContextMeter {
            prompt_tokens,
            history_len,
            known: prompt_tokens > 0,
        };
    }

    /// Forgets the measurement (after a compaction or `/reset` the old count is meaningless).
    pub fn reset(&mut self) {
        *self = ContextMeter::default();
    }

    /// The projected prompt size of the next call over `history`, or `None` when no call has
    /// reported usage yet (or the history shrank since, e.g. after a compaction).
    pub fn projected(&self, history: &[Message]) -> Option<u64> {
        if !self.known || history.len() < self.history_len {
            return None;
        }
        // Saturating: `prompt_tokens` is the provider's count (untrusted).
        Some(
            self.prompt_tokens
                .saturating_add(estimate_tokens(&history[self.history_len..])),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::{Role, ToolCall};

    #[test]
    fn counts_text_calls_and_images() {
        let text = Message::user("x".repeat(400));
        assert_eq!(message_tokens(&text), (400 + 16) / 4);
        let image = Message {
            role: Some(Role::User),
            parts: vec![Part::Image {
                url: "data:image/png;base64,AAAA".repeat(1000),
            }],
            ..Message::default()
        };
        assert_eq!(message_tokens(&image), 4 + IMAGE_TOKENS);
        let mut call = Message::assistant("");
        call.tool_calls.push(ToolCall {
            id: "c".into(),
            name: "terminal".into(),
            arguments: "y".repeat(100),
        });
        assert!(message_tokens(&call) > 100 / 4 + 16);
        let mut with_reasoning = Message::assistant("hi");
        with_reasoning.reasoning = Some("z".repeat(10_000));
        assert_eq!(
            message_tokens(&with_reasoning),
            message_tokens(&Message::assistant("hi"))
        );
        assert_eq!(estimate_tokens(&[text.clone(), text]), 2 * 104);
    }

    #[test]
    fn request_estimate_adds_system_and_schemas() {
        let history = vec![Message::user("hello")];
        let tools = vec![serde_json::json!({"name": "x".repeat(397)})];
        // `{"name":"…"}` is 397 + 11 bytes.
        let total = estimate_tokens(&history) + 10 + 102;
        assert_eq!(estimate_request_tokens(&"s".repeat(40), &history, &tools), total);
    }

    #[test]
    fn meter_projects_from_the_last_call() {
        let mut meter = ContextMeter::default();
        let mut history = vec![Message::user("a")];
        assert_eq!(meter.projected(&history), None);
        meter.record(1_000, 1);
        history.push(Message::assistant("x".repeat(84)));
        assert_eq!(meter.projected(&history), Some(1_025));
        assert_eq!(meter.projected(&[]), None);
        meter.reset();
        assert_eq!(meter.projected(&history), None);
    }
}
