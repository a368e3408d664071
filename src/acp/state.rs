//! State shared by the protocol handlers: the session manager, the client's capabilities
//! (remembered at `initialize`, read-only afterwards), each session's queue that applies its
//! settings changes in arrival order, and when stdout last carried a frame.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use agent_client_protocol::v1::schema::ClientCapabilities;
use futures::future::BoxFuture;
use tokio::sync::mpsc;

use crate::session::SessionManager;
use crate::sync::lock;

/// Shared by every handler.
pub struct AcpState {
    pub manager: Arc<SessionManager>,
    client_caps: Mutex<ClientCapabilities>,
    /// Each session's settings changes run one at a time in arrival order (see
    /// [`AcpState::serially`]); sessions do not wait for each other.
    serial: Mutex<HashMap<String, mpsc::UnboundedSender<BoxFuture<'static, ()>>>>,
    /// Running subagent sessions, so `session/cancel` naming one cancels that child.
    pub subagents: Arc<super::subagents::ChildRoutes>,
    /// When stdout last carried a frame (a running turn's keepalive reads it).
    pub traffic: super::wire::Traffic,
}

impl AcpState {
    pub fn new(manager: Arc<SessionManager>) -> AcpState {
        AcpState {
            manager,
            client_caps: Mutex::new(ClientCapabilities::default()),
            serial: Mutex::default(),
            subagents: Arc::default(),
            traffic: super::wire::Traffic::default(),
        }
    }

    /// Runs `work` after every earlier `serially` work of the same session has finished.
    /// Handlers run on the SDK's dispatch loop in arrival order, so two quick `set_mode` calls
    /// apply in that order and memory always equals the database — which separate tasks would
    /// not guarantee. Another session's changes never wait behind these.
    pub fn serially(&self, session_id: &str, work: BoxFuture<'static, ()>) {
        let mut queues = lock(&self.serial);
        let sender = queues.entry(session_id.to_string()).or_insert_with(|| {
            let (sender, mut receiver) = mpsc::unbounded_channel::<BoxFuture<'static, ()>>();
            // Ends when the session's sender is dropped (`forget_session`) and the queue drained.
            tokio::spawn(async move {
                while let Some(work) = receiver.recv().await {
                    work.await;
                }
            });
            sender
        });
        if sender.send(work).is_err() {
            tracing::error!(
                session = session_id,
                "the settings queue stopped; a settings change was dropped"
            );
        }
    }

    /// Drops a closed or deleted session's settings queue (what is queued still runs).
    pub fn forget_session(&self, session_id: &str) {
        lock(&self.serial).remove(session_id);
    }

    pub fn set_client_caps(&self, caps: ClientCapabilities) {
        *lock(&self.client_caps) = caps;
    }

    pub fn client_caps(&self) -> ClientCapabilities {
        lock(&self.client_caps).clone()
    }

    /// Whether the client renders `compaction_update` / `compaction_summary_chunk`.
    pub fn supports_compaction(&self) -> bool {
        self.client_caps()
            .session
            .as_ref()
            .is_some_and(|s| s.compaction.is_some())
    }

    /// Whether the client renders `notice` updates.
    pub fn supports_notices(&self) -> bool {
        self.client_caps().session.as_ref().is_some_and(|s| s.notices.is_some())
    }
}
