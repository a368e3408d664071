//! State shared by the protocol handlers: the session manager, the client's capabilities
//! (remembered at `initialize`, read-only afterwards), each session's queue that applies its
//! settings changes in arrival order, and when stdout last carried a frame.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use agent_client_protocol::v1::schema::{ClientCapabilities, ClientSessionCapabilities};
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
    serial: SettingsQueues,
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
            serial: SettingsQueues::default(),
            subagents: Arc::default(),
            traffic: super::wire::Traffic::default(),
        }
    }

    /// Runs `work` after every earlier `serially` work of the same session has finished.
    /// Handlers run on the SDK's dispatch loop in arrival order, so two quick `set_mode` calls
    /// apply in that order and memory always equals the database — which separate tasks would
    /// not guarantee. Another session's changes never wait behind these.
    pub fn serially(&self, session_id: &str, work: BoxFuture<'static, ()>) {
        self.serial.push(session_id, work);
    }

    /// Drops a closed or deleted session's settings queue (what is queued still runs).
    pub fn forget_session(&self, session_id: &str) {
        self.serial.forget(session_id);
    }

    pub fn set_client_caps(&self, caps: ClientCapabilities) {
        *lock(&self.client_caps) = caps;
    }

    pub fn client_caps(&self) -> ClientCapabilities {
        lock(&self.client_caps).clone()
    }

    /// Whether the client renders `compaction_update` / `compaction_summary_chunk`.
    pub fn supports_compaction(&self) -> bool {
        self.session_caps(|s| s.compaction.is_some())
    }

    /// Whether the client renders `type: "boolean"` config options.
    pub fn supports_boolean_options(&self) -> bool {
        self.session_caps(|s| s.config_options.as_ref().is_some_and(|c| c.boolean.is_some()))
    }

    /// Whether the client renders `notice` updates.
    pub fn supports_notices(&self) -> bool {
        self.session_caps(|s| s.notices.is_some())
    }

    /// `has` asked of the client's session capabilities (false when it sent none), read in
    /// place: these are asked on every options answer and update.
    fn session_caps(&self, has: impl FnOnce(&ClientSessionCapabilities) -> bool) -> bool {
        lock(&self.client_caps).session.as_ref().is_some_and(has)
    }
}

/// One queue per session, each drained by its own task in arrival order.
#[derive(Default)]
struct SettingsQueues(Mutex<HashMap<String, mpsc::UnboundedSender<BoxFuture<'static, ()>>>>);

impl SettingsQueues {
    fn push(&self, session_id: &str, work: BoxFuture<'static, ()>) {
        let mut queues = lock(&self.0);
        let sender = queues.entry(session_id.to_string()).or_insert_with(|| {
            let (sender, mut receiver) = mpsc::unbounded_channel::<BoxFuture<'static, ()>>();
            // Ends when the session's sender is dropped (`forget`) and the queue drained.
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

    fn forget(&self, session_id: &str) {
        lock(&self.0).remove(session_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_sessions_settings_changes_wait_only_for_its_own() {
        let queues = SettingsQueues::default();
        let (release, held) = tokio::sync::oneshot::channel::<()>();
        let (a_done, a_seen) = tokio::sync::oneshot::channel::<()>();
        let (a_next_done, mut a_next_seen) = tokio::sync::oneshot::channel::<()>();
        let (b_done, b_seen) = tokio::sync::oneshot::channel::<()>();
        queues.push(
            "a",
            Box::pin(async move {
                held.await.ok();
                a_done.send(()).ok();
            }),
        );
        queues.push("a", Box::pin(async move { a_next_done.send(()).unwrap_or(()) }));
        queues.push("b", Box::pin(async move { b_done.send(()).unwrap_or(()) }));
        // B's change runs while A's first one is still held; A's second waits behind it.
        tokio::time::timeout(std::time::Duration::from_secs(10), b_seen)
            .await
            .expect("b's change waited behind a's")
            .unwrap();
        assert!(
            a_next_seen.try_recv().is_err(),
            "a's second change ran before its first"
        );
        release.send(()).unwrap();
        a_seen.await.unwrap();
        a_next_seen.await.unwrap();
    }
}
