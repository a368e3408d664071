//! The cards of a stored history, for `session/load` replay: each stored call described by the
//! session's tools exactly as the live turn's events described it (`Presentation` when the call
//! starts, `Outcome` when its result arrives), so the protocol layer replays from data and
//! never holds a tool. Results are paired with their calls by id, in history order.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use super::events::arguments_value;
use crate::runtime::{Presentation, ToolOutput, ToolRegistry};
use crate::tools::Outcome;
use crate::transcript::{Message, Role};

/// What replay draws for one stored message's tool calls.
#[derive(Debug, Clone, PartialEq)]
pub enum MessageCards {
    /// Neither a call nor a result.
    None,
    /// An assistant message's calls, in the message's order.
    Calls(Vec<StoredCall>),
    /// A tool result: the name of the call it answers and how its tool reads the result.
    Result { name: String, outcome: Outcome },
}

/// One stored call as its card starts.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredCall {
    /// The arguments as JSON (the card's raw input).
    pub arguments: Value,
    pub presentation: Presentation,
}

/// The cards of `history`, one entry per message (same order), described by `tools` with
/// paths resolved against `cwd`.
pub fn stored_cards(history: &[Message], tools: &ToolRegistry, cwd: &Path) -> Vec<MessageCards> {
    let mut calls: HashMap<&str, (&str, Value)> = HashMap::new();
    history
        .iter()
        .map(|message| match message.role() {
            Role::Assistant => MessageCards::Calls(
                message
                    .tool_calls
                    .iter()
                    .map(|call| {
                        let arguments = arguments_value(&call.arguments);
                        let presentation = tools.present(&call.name, &arguments, cwd);
                        calls.insert(&call.id, (&call.name, arguments.clone()));
                        StoredCall {
                            arguments,
                            presentation,
                        }
                    })
                    .collect(),
            ),
            Role::Tool => {
                let Some(id) = message.tool_call_id.as_deref() else {
                    return MessageCards::None;
                };
                let (name, arguments) = calls
                    .get(id)
                    .map(|(name, arguments)| (name.to_string(), arguments.clone()))
                    .unwrap_or_else(|| {
                        (
                            message.tool_name.clone().unwrap_or_default(),
                            Value::Object(Default::default()),
                        )
                    });
                let outcome = tools.outcome(&name, &arguments, &stored_output(message), cwd);
                MessageCards::Result { name, outcome }
            }
            Role::User | Role::System => MessageCards::None,
        })
        .collect()
}

/// A stored tool result as the output its card ends with.
pub fn stored_output(message: &Message) -> ToolOutput {
    ToolOutput {
        content: message.text_content(),
        is_error: message.is_error,
        display: message.meta.display.clone(),
        images: Vec::new(),
    }
}
