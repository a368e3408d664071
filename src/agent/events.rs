//! What a running turn reports upward. The agent never calls ACP: it emits `AgentEvent`s into an
//! `EventSink` that the protocol layer implements. The sink is synchronous and ordered, so an
//! event always reaches the editor before anything the turn does next (such as a permission
//! request that points at a card just announced). Tool cards travel described: the started and
//! finished events carry the tool's `Presentation` and `Outcome`, computed here from the
//! session's tools, so the protocol layer renders them without ever asking a tool.

use std::time::Duration;

use serde_json::Value;

use crate::llm::RetryNotice;
use crate::runtime::{Presentation, SessionScope, ToolOutput};
use crate::sync::lock;
use crate::tools::Outcome;

/// One thing that happened during a turn.
#[derive(Debug, Clone, PartialEq)]
pub enum AgentEvent {
    /// A piece of the answer text.
    Text(String),
    /// A piece of the model's reasoning.
    Thought(String),
    /// The model asked for a tool call; the card should appear (pending), as `presentation`
    /// (the tool's own description, computed here where the tool is at hand).
    ToolStarted {
        call_id: String,
        name: String,
        arguments: Value,
        presentation: Presentation,
    },
    /// The call began executing.
    ToolRunning { call_id: String, name: String },
    /// A running call's live text changed (replaces the previous progress text).
    ToolProgress { call_id: String, text: String },
    /// The call finished (successfully or not); `outcome` is how its tool reads the result.
    ToolFinished {
        call_id: String,
        name: String,
        arguments: Value,
        output: ToolOutput,
        outcome: Outcome,
        duration: Duration,
    },
    /// What a provider's response said about the caller's rate limits.
    RateLimits(crate::llm::rate_limits::RateLimits),
    /// A provider call failed and will be retried.
    Retrying(RetryNotice),
    /// The provider failed after its retries; the call continues on a fallback provider.
    FallingBack {
        from: String,
        to: String,
        model: String,
        reason: String,
    },
    /// Context compaction progress.
    Compaction(super::compaction::CompactionEvent),
    /// Something the user should know that is not part of the answer (an MCP server that
    /// stopped or is still connecting).
    Notice(String),
    /// A tool set the session's plan while it runs (the editor's plan view).
    Plan(Vec<crate::runtime::PlanItem>),
}

/// Receives a turn's events, in order.
pub trait EventSink: Send + Sync {
    fn emit(&self, event: AgentEvent);
}

impl AgentEvent {
    /// A call's card appears, described by the session's tools.
    pub fn tool_started(session: &SessionScope, call_id: &str, name: &str, arguments: Value) -> AgentEvent {
        let presentation = session.tools.present(name, &arguments, &session.workspace.root());
        AgentEvent::ToolStarted {
            call_id: call_id.to_string(),
            name: name.to_string(),
            arguments,
            presentation,
        }
    }

    /// A call's card ends, its result read by the session's tools.
    pub fn tool_finished(
        session: &SessionScope,
        call_id: &str,
        name: &str,
        arguments: Value,
        output: ToolOutput,
        duration: Duration,
    ) -> AgentEvent {
        let outcome = session
            .tools
            .outcome(name, &arguments, &output, &session.workspace.root());
        AgentEvent::ToolFinished {
            call_id: call_id.to_string(),
            name: name.to_string(),
            arguments,
            output,
            outcome,
            duration,
        }
    }
}

/// A tool's progress as turn events: live text updates its card, nested calls get cards of
/// their own (started and running at once, then finished), described by the session's tools.
pub struct SinkProgress {
    pub sink: super::Sink,
    pub session: std::sync::Arc<SessionScope>,
}

impl crate::runtime::ToolProgress for SinkProgress {
    fn content(&self, call_id: &str, text: String) {
        self.sink.emit(AgentEvent::ToolProgress {
            call_id: call_id.to_string(),
            text,
        });
    }

    fn nested_started(&self, call_id: &str, name: &str, arguments: &Value) {
        self.sink.emit(AgentEvent::tool_started(
            &self.session,
            call_id,
            name,
            arguments.clone(),
        ));
        self.sink.emit(AgentEvent::ToolRunning {
            call_id: call_id.to_string(),
            name: name.to_string(),
        });
    }

    fn nested_finished(&self, call_id: &str, name: &str, arguments: &Value, output: &ToolOutput, duration: Duration) {
        self.sink.emit(AgentEvent::tool_finished(
            &self.session,
            call_id,
            name,
            arguments.clone(),
            output.clone(),
            duration,
        ));
    }

    fn plan(&self, items: Vec<crate::runtime::PlanItem>) {
        self.sink.emit(AgentEvent::Plan(items));
    }
}

/// Drops every event (background work, tests that do not look).
#[derive(Debug, Default, Clone, Copy)]
pub struct NullSink;

impl EventSink for NullSink {
    fn emit(&self, _event: AgentEvent) {}
}

/// Collects events in memory (tests).
#[derive(Debug, Default)]
pub struct RecordingSink(pub std::sync::Mutex<Vec<AgentEvent>>);

impl EventSink for RecordingSink {
    fn emit(&self, event: AgentEvent) {
        lock(&self.0).push(event);
    }
}

/// The arguments of a tool call as JSON: parsed when valid, else `{"raw": "<text>"}` so the
/// editor still shows what the model sent.
pub fn arguments_value(raw: &str) -> Value {
    if raw.trim().is_empty() {
        return Value::Object(Default::default());
    }
    serde_json::from_str(raw).unwrap_or_else(|_| serde_json::json!({ "raw": raw }))
}
