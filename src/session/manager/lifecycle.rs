//! The manager's side of turn ownership: which prompts are in flight, cancelling them, and
//! closing sessions — one, or all at shutdown — within bounds, so every child ends.

use std::sync::Arc;
use std::time::Duration;

use super::SessionManager;
use crate::session::SessionError;
use crate::session::turns::Turns;

/// How long `session/close` waits for a cancelled turn to wind down.
const CLOSE_TURN_LIMIT: Duration = Duration::from_secs(5);

/// How long shutdown waits for cancelled turns (the whole exit must fit in two seconds).
const SHUTDOWN_TURN_LIMIT: Duration = Duration::from_millis(1200);

impl SessionManager {
    /// Once per process: why commands run without the OS sandbox (no Landlock), if they do.
    pub fn sandbox_notice_once(&self) -> Option<String> {
        let text = crate::runtime::shell::sandbox::unavailable_notice(&self.services.tools)?;
        (!self
            .sandbox_notice_shown
            .swap(true, std::sync::atomic::Ordering::SeqCst))
        .then_some(text)
    }

    /// The prompts in flight (admitted by the protocol layer the moment they arrive).
    pub fn turns(&self) -> &Arc<Turns> {
        &self.turns
    }

    /// Cancels every prompt of a session (running or waiting). Returns whether there was one.
    pub fn cancel(&self, id: &str) -> bool {
        self.turns.cancel_session(id)
    }

    /// Whether a turn of the session is running.
    pub fn is_running(&self, id: &str) -> bool {
        self.turns.is_running(id)
    }

    /// Cancels a session's prompts, waits (bounded) for its turn to end — which kills and
    /// releases its commands — then kills its background processes, closes its MCP servers and
    /// drops it from memory. Returns whether it was live.
    pub async fn close(&self, id: &str) -> bool {
        let removed = self.map().remove(id);
        self.turns.cancel_session(id);
        if !self.turns.wait_idle(id, CLOSE_TURN_LIMIT).await {
            tracing::warn!(
                session = id,
                "the turn did not end in time after cancel; closing anyway"
            );
        }
        if let Some(session) = &removed {
            session.close().await;
        }
        removed.is_some()
    }

    /// Closes (if live) and deletes a session. Errors when it does not exist anywhere.
    pub async fn delete(&self, id: &str) -> Result<(), SessionError> {
        let was_live = self.close(id).await;
        let existed = self.store().delete_session(id).await?;
        if !existed && !was_live {
            return Err(SessionError::NotFound(id.to_string()));
        }
        Ok(())
    }

    /// Closes every session (stdin closed, or a signal): cancels every prompt, gives the turns
    /// a moment to kill and release their commands, then closes all sessions concurrently.
    /// Bounded so the process can exit within two seconds.
    pub async fn close_all(&self) {
        self.turns.cancel_all();
        if !self.turns.wait_all_idle(SHUTDOWN_TURN_LIMIT).await {
            tracing::warn!("some turns did not end in time at shutdown");
        }
        let sessions: Vec<_> = self.map().drain().map(|(_, s)| s).collect();
        futures::future::join_all(sessions.iter().map(|s| s.close())).await;
    }
}
