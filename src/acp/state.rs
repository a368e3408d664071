//! State shared by the protocol handlers: the session manager, the client's capabilities
//! (remembered at `initialize`, read-only afterwards), the queue that applies settings
//! changes in arrival order, and when stdout last carried a frame.

use std::sync::{Arc, Mutex, OnceLock};

use agent_client_protocol::v1::schema::ClientCapabilities;
use futures::future::BoxFuture;
use tokio::sync::mpsc;

use crate::session::SessionManager;
use crate::sync::lock;

/// Shared by every handler.
pub struct AcpState {
    pub manager: Arc<SessionManager>,
    client_caps: Mutex<ClientCapabilities>,
    /// Settings changes run one at a time in arrival order (see [`AcpState::serially`]).
    serial: OnceLock<mpsc::UnboundedSender<BoxFuture<'static, ()>>>,
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
            serial: OnceLock::new(),
            subagents: Arc::default(),
            traffic: super::wire::Traffic::default(),
        }
    }

    /// Runs `work` after every earlier `serially` work has finished. Handlers run on the SDK's
    /// dispatch loop in arrival order, so two quick `set_mode` calls apply in that order and
    /// memory always equals the database — which separate tasks would not guarantee.
    pub fn serially(&self, work: BoxFuture<'static, ()>) {
        let sender = self.serial.get_or_init(|| {
            let (sender, mut receiver) = mpsc::unbounded_channel::<BoxFuture<'static, ()>>();
            tokio::spawn(async move {
                while let Some(work) = receiver.recv().await {
                    work.await;
                }
            });
            sender
        });
        if sender.send(work).is_err() {
            tracing::error!("the settings queue stopped; a settings change was dropped");
        }
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
