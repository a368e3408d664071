//! Folds a provider's stream events into one assistant message: text, reasoning, tool calls
//! assembled from their fragments (by index), opaque reasoning records, usage and finish reason.

use super::StreamEvent;
use crate::transcript::{Message, OpaqueReasoning, Part, Role, ToolCall, Usage};

/// The finished result of one model call.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Assembled {
    pub message: Message,
    pub usage: Option<Usage>,
    pub finish_reason: Option<String>,
}

/// Collects stream events.
#[derive(Debug, Default)]
pub struct Assembler {
    text: String,
    reasoning: String,
    calls: Vec<(usize, ToolCall)>,
    opaque: Vec<OpaqueReasoning>,
    usage: Option<Usage>,
    finish_reason: Option<String>,
}

impl Assembler {
    pub fn push(&mut self, event: &StreamEvent) {
        match event {
            StreamEvent::Text(t) => self.text.push_str(t),
            StreamEvent::Reasoning(r) => self.reasoning.push_str(r),
            StreamEvent::ToolCallDelta {
                index,
                id,
                name,
                arguments,
            } => {
                let pos = match self.calls.iter().position(|(i, _)| i == index) {
                    Some(pos) => pos,
                    None => {
                        self.calls.push((
                            *index,
                            ToolCall {
                                id: String::new(),
                                name: String::new(),
                                arguments: String::new(),
                            },
                        ));
                        self.calls.len() - 1
                    }
                };
                let call = &mut self.calls[pos].1;
                if let Some(id) = id.as_deref().filter(|s| !s.is_empty()) {
                    call.id = id.to_string();
                }
                if let Some(name) = name.as_deref().filter(|s| !s.is_empty()) {
                    call.name.push_str(name);
                }
                call.arguments.push_str(arguments);
            }
            StreamEvent::OpaqueReasoning(r) => self.opaque.push(r.clone()),
            StreamEvent::Usage(u) => self.usage = Some(*u),
            StreamEvent::Finish(reason) => self.finish_reason = Some(reason.clone()),
            // Not part of the answer: the turn reports them to the session as they arrive.
            StreamEvent::RateLimits(_) => {}
        }
    }

    /// Whether anything visible has been produced.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty() && self.reasoning.is_empty() && self.calls.is_empty()
    }

    pub fn finish(mut self) -> Assembled {
        self.calls.sort_by_key(|(i, _)| *i);
        let parts = if self.text.is_empty() {
            Vec::new()
        } else {
            vec![Part::Text { text: self.text }]
        };
        let message = Message {
            role: Some(Role::Assistant),
            parts,
            reasoning: (!self.reasoning.is_empty()).then_some(self.reasoning),
            tool_calls: self
                .calls
                .into_iter()
                .map(|(_, c)| c)
                .filter(|c| !c.name.is_empty())
                .collect(),
            opaque_reasoning: self.opaque,
            ..Message::default()
        };
        Assembled {
            message,
            usage: self.usage,
            finish_reason: self.finish_reason,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_call_fragments_are_joined_by_index() {
        let mut a = Assembler::default();
        let delta = |index, id: Option<&str>, name: Option<&str>, args: &str| StreamEvent::ToolCallDelta {
            index,
            id: id.map(String::from),
            name: name.map(String::from),
            arguments: args.into(),
        };
        for e in [
            StreamEvent::Reasoning("think".into()),
            StreamEvent::Text("Hel".into()),
            StreamEvent::Text("lo".into()),
            delta(1, Some("b"), Some("read_file"), "{\"pa"),
            delta(0, Some("a"), Some("terminal"), "{}"),
            delta(1, None, None, "th\":1}"),
            StreamEvent::Finish("tool_calls".into()),
        ] {
            a.push(&e);
        }
        let done = a.finish();
        assert_eq!(done.message.text_content(), "Hello");
        assert_eq!(done.message.reasoning.as_deref(), Some("think"));
        let calls: Vec<_> = done
            .message
            .tool_calls
            .iter()
            .map(|c| (c.id.as_str(), c.name.as_str(), c.arguments.as_str()))
            .collect();
        assert_eq!(calls, [("a", "terminal", "{}"), ("b", "read_file", "{\"path\":1}")]);
        assert_eq!(done.finish_reason.as_deref(), Some("tool_calls"));
    }
}
