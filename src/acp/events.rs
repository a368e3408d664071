//! The event bridge: turns a running turn's `AgentEvent`s into `session/update` notifications,
//! in order, as they happen. It remembers which cards are open so that every card that started
//! also ends — a cancel or a provider error closes the rest as failed before the prompt
//! responds. (A panicking turn does not get there: its prompt answers with an internal error.) Completions are paired by call id; when an event lacks one, the oldest open
//! card of that tool name is used (the reference's FIFO rule).

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    CompactionStatus, CompactionSummaryChunk, CompactionUpdate, ContentBlock, ContentChunk, Notice, NoticeSeverity,
    SessionId, SessionNotification, SessionUpdate,
};

use super::cards;
use crate::agent::compaction::CompactionEvent;
use crate::agent::{AgentEvent, EventSink};
use crate::llm::meter::UsageMeter;
use crate::llm::rate_limits::clock;
use crate::sync::lock;

/// Open cards of one turn: their ids, and per tool name in the order they opened.
#[derive(Default)]
struct OpenCards {
    by_name: HashMap<String, VecDeque<String>>,
    ids: BTreeSet<String>,
}

/// Sends a turn's events to the editor.
pub struct AcpEventSink {
    cx: ConnectionTo<Client>,
    session_id: SessionId,
    notices: bool,
    compaction: bool,
    open: Mutex<OpenCards>,
    /// The session's meter: rate limits seen and low-limit notices already given.
    meter: Option<Arc<UsageMeter>>,
}

impl AcpEventSink {
    pub fn new(cx: ConnectionTo<Client>, session_id: &str, notices: bool, compaction: bool) -> AcpEventSink {
        AcpEventSink {
            cx,
            session_id: SessionId::new(session_id),
            notices,
            compaction,
            open: Mutex::new(OpenCards::default()),
            meter: None,
        }
    }

    /// Reports the rate limits of this turn's responses to the session's `meter`.
    pub fn with_meter(mut self, meter: Arc<UsageMeter>) -> AcpEventSink {
        self.meter = Some(meter);
        self
    }

    /// A notice when the editor shows them, else a thought line.
    fn notice(&self, text: String) {
        if self.notices {
            self.send(SessionUpdate::Notice(Notice::new(NoticeSeverity::Warning, text)));
        } else {
            self.send(SessionUpdate::AgentThoughtChunk(ContentChunk::new(ContentBlock::from(
                format!("{text}\n"),
            ))));
        }
    }

    pub fn send(&self, update: SessionUpdate) {
        if let Err(e) = self
            .cx
            .send_notification(SessionNotification::new(self.session_id.clone(), update))
        {
            tracing::debug!(error = %e, "could not send session/update (connection closing?)");
        }
    }

    /// Sends an agent text chunk (slash-command replies, notices without notice support).
    pub fn say(&self, text: &str) {
        self.send(SessionUpdate::AgentMessageChunk(ContentChunk::new(ContentBlock::from(
            text.to_string(),
        ))));
    }

    /// Closes every card still open as failed, with `reason`.
    pub fn close_open_cards(&self, reason: &str) {
        let open = std::mem::take(&mut *lock(&self.open));
        for id in open.ids {
            self.send(cards::abandoned(&id, reason));
        }
    }

    fn open_card(&self, call_id: &str, name: &str) {
        let mut open = lock(&self.open);
        open.by_name
            .entry(name.to_string())
            .or_default()
            .push_back(call_id.to_string());
        open.ids.insert(call_id.to_string());
    }

    /// The card a completion closes: its own id when open, else the oldest open card of `name`.
    fn take_card(&self, call_id: &str, name: &str) -> Option<String> {
        let mut open = lock(&self.open);
        let id = if open.ids.contains(call_id) {
            call_id.to_string()
        } else {
            open.by_name.get(name).and_then(|q| q.front().cloned())?
        };
        open.ids.remove(&id);
        if let Some(queue) = open.by_name.get_mut(name) {
            queue.retain(|x| *x != id);
            if queue.is_empty() {
                open.by_name.remove(name);
            }
        }
        Some(id)
    }
}

impl EventSink for AcpEventSink {
    fn emit(&self, event: AgentEvent) {
        match event {
            AgentEvent::Text(text) => self.send(SessionUpdate::AgentMessageChunk(ContentChunk::new(
                ContentBlock::from(text),
            ))),
            AgentEvent::Thought(text) => self.send(SessionUpdate::AgentThoughtChunk(ContentChunk::new(
                ContentBlock::from(text),
            ))),
            AgentEvent::ToolStarted {
                call_id,
                name,
                arguments,
                presentation,
            } => {
                self.open_card(&call_id, &name);
                self.send(cards::start(&call_id, &presentation, &arguments));
            }
            AgentEvent::ToolRunning { call_id, .. } => self.send(cards::running(&call_id)),
            AgentEvent::ToolProgress { call_id, text } => self.send(cards::progress(&call_id, &text)),
            AgentEvent::ToolFinished {
                call_id,
                name,
                output,
                outcome,
                duration,
                ..
            } => {
                let Some(id) = self.take_card(&call_id, &name) else {
                    tracing::warn!(call_id, name, "completion for a card that is not open");
                    return;
                };
                tracing::debug!(
                    call_id = id,
                    name,
                    ms = duration.as_millis() as u64,
                    error = output.is_error,
                    "tool finished"
                );
                for update in cards::finish(&id, &name, outcome, &output) {
                    self.send(update);
                }
            }
            AgentEvent::FallingBack {
                from,
                to,
                model,
                reason,
            } => {
                let text = format!("provider {from} failed ({reason}); continuing with {to} ({model})");
                if self.notices {
                    self.send(SessionUpdate::Notice(Notice::new(NoticeSeverity::Warning, text)));
                } else {
                    self.send(SessionUpdate::AgentThoughtChunk(ContentChunk::new(ContentBlock::from(
                        format!("{text}\n"),
                    ))));
                }
            }
            AgentEvent::Plan(items) => self.send(cards::plan(items)),
            AgentEvent::Notice(text) => {
                if self.notices {
                    self.send(SessionUpdate::Notice(Notice::new(NoticeSeverity::Warning, text)));
                } else {
                    self.send(SessionUpdate::AgentThoughtChunk(ContentChunk::new(ContentBlock::from(
                        format!("{text}\n"),
                    ))));
                }
            }
            AgentEvent::Compaction(event) => {
                if self.compaction {
                    self.send(compaction_update(event));
                }
            }
            AgentEvent::RateLimits(limits) => {
                let Some(meter) = &self.meter else { return };
                for text in meter.observe(&limits, chrono::Utc::now()) {
                    self.notice(text);
                }
            }
            AgentEvent::Retrying(notice) => {
                // A refused or dropped connection is not a busy provider.
                let what = if notice.reason.starts_with("connection") {
                    "provider unreachable"
                } else {
                    "provider busy"
                };
                // The reset time goes last so "provider busy (429), retrying" reads the same
                // with or without one.
                let until = notice
                    .rate_limited_until
                    .map(|when| format!(": rate limited until {}", clock(when, chrono::Utc::now())))
                    .unwrap_or_default();
                let text = format!(
                    "{what} ({}), retrying in {:.0} s (attempt {} of {}){until}",
                    notice.reason,
                    notice.delay.as_secs_f64().ceil(),
                    notice.retry + 1,
                    notice.max_retries + 1
                );
                if self.notices {
                    self.send(SessionUpdate::Notice(Notice::new(
                        NoticeSeverity::Warning,
                        format!("{} {text}", notice.provider),
                    )));
                } else {
                    self.send(SessionUpdate::AgentThoughtChunk(ContentChunk::new(ContentBlock::from(
                        format!("{text}\n"),
                    ))));
                }
            }
        }
    }
}

/// A compaction event as the update a client with `session.compaction` understands.
pub fn compaction_update(event: CompactionEvent) -> SessionUpdate {
    match event {
        CompactionEvent::Started { id } => {
            SessionUpdate::CompactionUpdate(CompactionUpdate::new(id, CompactionStatus::InProgress))
        }
        CompactionEvent::SummaryChunk { id, text } => {
            SessionUpdate::CompactionSummaryChunk(CompactionSummaryChunk::new(id, ContentBlock::from(text)))
        }
        CompactionEvent::Completed { id, summary, .. } => {
            let text = summary.unwrap_or_else(|| "Old tool outputs were cleared to make room.".to_string());
            SessionUpdate::CompactionUpdate(
                CompactionUpdate::new(id, CompactionStatus::Completed).summary(vec![ContentBlock::from(text)]),
            )
        }
        CompactionEvent::Cancelled { id } => {
            SessionUpdate::CompactionUpdate(CompactionUpdate::new(id, CompactionStatus::Cancelled))
        }
    }
}
