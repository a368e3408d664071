//! Subagents in the editor (`agent::delegation::SubagentHost`). When the client advertised
//! `subagents`, each `delegate_task` child is an ACP subagent session: announced on the parent
//! session with `subagent_update` (title = goal, state running → idle with its stop reason),
//! its own text, thoughts and tool cards sent as `session/update`s of the child's id, its
//! permission questions asked on that session, and a `session/cancel` naming it cancels that
//! child alone (`ChildRoutes`). Otherwise children fold into the parent's card and only their
//! questions come through here, naming the child's goal.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    ContentBlock, ContentChunk, ErrorStopReason, IdleStateUpdate, IdleStopReason, RunningStateUpdate,
    SessionCancelCapabilities, SessionUpdate, StateUpdate, SubagentSessionCapabilities, SubagentUpdate,
};
use tokio_util::sync::CancellationToken;

use super::events::AcpEventSink;
use super::permissions::AcpApprover;
use crate::agent::Sink;
use crate::agent::delegation::{ChildChannel, ChildEnd, ChildInfo, SubagentHost};
use crate::session::Session;
use crate::sync::lock;

/// Running children shown as sessions, by child session id: where `session/cancel` finds them.
#[derive(Default)]
pub struct ChildRoutes(Mutex<HashMap<String, CancellationToken>>);

impl ChildRoutes {
    /// Cancels the child `session_id` names; false when it is not a running child.
    pub fn cancel(&self, session_id: &str) -> bool {
        match lock(&self.0).get(session_id) {
            Some(token) => {
                token.cancel();
                true
            }
            None => false,
        }
    }
}

/// The editor side of one parent turn's children.
pub struct AcpSubagents {
    pub cx: ConnectionTo<Client>,
    pub session: Arc<Session>,
    /// The parent session's sink: announcements go there, in order with its own updates.
    pub parent: Arc<AcpEventSink>,
    /// Whether the client renders subagent sessions.
    pub show_sessions: bool,
    pub cwd: PathBuf,
    pub notices: bool,
    pub compaction: bool,
    pub approval_timeout: Duration,
    pub routes: Arc<ChildRoutes>,
    /// Open child sessions' sinks, closed (their open cards ended) when the child ends.
    pub open: Mutex<HashMap<String, Arc<AcpEventSink>>>,
}

impl SubagentHost for AcpSubagents {
    fn open(&self, child: &ChildInfo<'_>) -> ChildChannel {
        let target = if self.show_sessions {
            child.id
        } else {
            self.session.id.as_str()
        };
        let approver = AcpApprover::new(
            self.cx.clone(),
            self.session.clone(),
            self.approval_timeout,
            child.cancel.clone(),
        )
        .for_subagent(child.goal, target);
        if !self.show_sessions {
            return ChildChannel {
                events: None,
                approver: Arc::new(approver),
            };
        }
        let mut update = SubagentUpdate::new(child.id.to_string())
            .title(crate::text::clip(child.goal.trim(), 120))
            .capabilities(SubagentSessionCapabilities::new().cancel(SessionCancelCapabilities::new()))
            .state(StateUpdate::Running(RunningStateUpdate::new()))
            .cwd(self.cwd.clone());
        if let Some(context) = child.context.filter(|c| !c.trim().is_empty()) {
            update = update.description(context.to_string());
        }
        lock(&self.routes.0).insert(child.id.to_string(), child.cancel.clone());
        self.parent.send(SessionUpdate::SubagentUpdate(update));
        let sink = Arc::new(AcpEventSink::new(
            self.cx.clone(),
            child.id,
            self.notices,
            self.compaction,
        ));
        // The child's session opens with its task, as a user turn would.
        sink.send(SessionUpdate::UserMessageChunk(ContentChunk::new(ContentBlock::from(
            child.goal.to_string(),
        ))));
        lock(&self.open).insert(child.id.to_string(), sink.clone());
        ChildChannel {
            events: Some(sink as Sink),
            approver: Arc::new(approver),
        }
    }

    fn close(&self, child_id: &str, end: &ChildEnd) {
        lock(&self.routes.0).remove(child_id);
        let Some(sink) = lock(&self.open).remove(child_id) else {
            return;
        };
        let reason = match end {
            ChildEnd::Cancelled => "Cancelled by the user.",
            _ => "The subagent ended before this tool call finished.",
        };
        sink.close_open_cards(reason);
        let stop = match end {
            ChildEnd::Completed => IdleStopReason::EndTurn,
            ChildEnd::MaxIterations => IdleStopReason::MaxTurnRequests,
            ChildEnd::Cancelled => IdleStopReason::Cancelled,
            ChildEnd::Failed(_) => IdleStopReason::Error(ErrorStopReason::new()),
        };
        let state = StateUpdate::Idle(IdleStateUpdate::new().stop_reason(stop));
        self.parent.send(SessionUpdate::SubagentUpdate(
            SubagentUpdate::new(child_id.to_string()).state(state),
        ));
    }
}
