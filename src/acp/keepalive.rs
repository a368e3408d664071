//! Keeping the connection visibly alive during a long silent turn (a quiet build, `sleep`):
//! VS Code's ACP client ends an agent after a period without traffic. Once nothing has been
//! written to stdout for the configured interval (`acp.keepalive_interval_s`, 45 s by default)
//! while a turn runs, the turn's session gets an empty `agent_message_chunk` — Hermes' payload,
//! a `session/update` every client accepts and none shows (CodeCompanion skips empty chunks,
//! Zed appends nothing visible). Silence is measured at the stdout writer, so any frame of any
//! session postpones it.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{ContentBlock, ContentChunk, SessionId, SessionNotification, SessionUpdate};

use super::wire::Traffic;
use crate::sync::lock;

/// Sends keepalives for one turn until stopped (or dropped). Stopping waits for a keepalive
/// being sent, so none follows the turn's `session/prompt` response.
pub struct Keepalive {
    stopped: Arc<Mutex<bool>>,
    task: tokio::task::JoinHandle<()>,
}

impl Keepalive {
    /// Starts keepalives on `session_id` after `interval` of silence; `None` when turned off.
    pub fn start(
        cx: &ConnectionTo<Client>,
        session_id: &str,
        traffic: &Traffic,
        interval: Option<Duration>,
    ) -> Option<Keepalive> {
        let interval = interval?;
        let stopped = Arc::new(Mutex::new(false));
        let (cx, traffic, flag) = (cx.clone(), traffic.clone(), stopped.clone());
        let session_id = SessionId::new(session_id);
        let task = tokio::spawn(async move {
            loop {
                let quiet = traffic.quiet_for();
                if quiet < interval {
                    // Wakes when the connection would have been quiet for a whole interval.
                    tokio::time::sleep(interval - quiet).await;
                    continue;
                }
                {
                    let stopped = lock(&flag);
                    if *stopped {
                        return;
                    }
                    let chunk = SessionUpdate::AgentMessageChunk(ContentChunk::new(ContentBlock::from(String::new())));
                    if cx
                        .send_notification(SessionNotification::new(session_id.clone(), chunk))
                        .is_err()
                    {
                        return;
                    }
                    tracing::debug!(session = %session_id.0, quiet_ms = quiet.as_millis() as u64, "keepalive");
                }
                // The frame is marked once written; until then, wait a whole interval.
                tokio::time::sleep(interval).await;
            }
        });
        Some(Keepalive { stopped, task })
    }

    /// No keepalive after this returns.
    pub fn stop(&self) {
        *lock(&self.stopped) = true;
        self.task.abort();
    }
}

impl Drop for Keepalive {
    fn drop(&mut self) {
        self.stop();
    }
}
