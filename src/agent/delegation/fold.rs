//! Children folded into the parent's `delegate_task` card (the editor shows no subagent
//! sessions, or no editor is attached): one live line per child on the card, and each child's
//! tool calls as nested cards of the parent session. Child call ids are prefixed with the parent
//! call and the child's index, so they never collide with the parent's or each other's, and the
//! same mapping is applied to the child's permission questions so they point at those cards.

use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;

use crate::agent::events::{AgentEvent, EventSink};
use crate::runtime::{ApprovalDecision, ApprovalRequest, Approver, ToolProgress};
use crate::sync::lock;
use crate::tools::delegate::{ChildLine, ChildState, progress_text};

/// The lines of one `delegate_task` call, shown as its card's live text.
pub struct Board {
    call_id: String,
    progress: Arc<dyn ToolProgress>,
    lines: Mutex<Vec<ChildLine>>,
}

impl Board {
    pub fn new(call_id: &str, progress: Arc<dyn ToolProgress>, goals: &[&str]) -> Board {
        let board = Board {
            call_id: call_id.to_string(),
            progress,
            lines: Mutex::new(goals.iter().map(|g| ChildLine::queued(g)).collect()),
        };
        board.show();
        board
    }

    /// Updates child `index`'s line and redraws the card.
    pub fn update(&self, index: usize, state: Option<ChildState>, step: Option<String>) {
        {
            let mut lines = lock(&self.lines);
            let Some(line) = lines.get_mut(index) else { return };
            if let Some(state) = state {
                line.state = state;
            }
            if step.is_some() {
                line.step = step;
            }
        }
        self.show();
    }

    fn show(&self) {
        let text = progress_text(&lock(&self.lines));
        self.progress.content(&self.call_id, text);
    }
}

/// The nested card id of a child's call.
pub fn nested_id(parent_call: &str, index: usize, child_call: &str) -> String {
    format!("{parent_call}.sub{index}.{child_call}")
}

/// A folded child's events: tool calls become nested cards, everything updates its line.
pub struct FoldSink {
    pub board: Arc<Board>,
    pub index: usize,
    pub parent_call: String,
}

impl EventSink for FoldSink {
    fn emit(&self, event: AgentEvent) {
        let progress = &self.board.progress;
        match event {
            AgentEvent::Text(_) => self.board.update(self.index, None, Some("writing".into())),
            AgentEvent::ToolStarted {
                call_id,
                name,
                arguments,
                ..
            } => {
                progress.nested_started(&nested_id(&self.parent_call, self.index, &call_id), &name, &arguments);
                self.board.update(self.index, None, Some(name));
            }
            AgentEvent::ToolProgress { call_id, text } => {
                progress.content(&nested_id(&self.parent_call, self.index, &call_id), text)
            }
            AgentEvent::ToolFinished {
                call_id,
                name,
                arguments,
                output,
                duration,
                ..
            } => progress.nested_finished(
                &nested_id(&self.parent_call, self.index, &call_id),
                &name,
                &arguments,
                &output,
                duration,
            ),
            // Reasoning, retries and notices stay inside the child; its answer is the result.
            _ => {}
        }
    }
}

/// A folded child's approver: the question points at the nested card of the call.
pub struct NestedApprover {
    pub inner: Arc<dyn Approver>,
    pub parent_call: String,
    pub index: usize,
}

impl Approver for NestedApprover {
    fn request<'a>(&'a self, call_id: &'a str, request: ApprovalRequest) -> BoxFuture<'a, ApprovalDecision> {
        Box::pin(async move {
            let id = nested_id(&self.parent_call, self.index, call_id);
            self.inner.request(&id, request).await
        })
    }
}
