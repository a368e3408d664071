//! Which prompts each session has in flight, from the moment a `session/prompt` arrives until
//! its answer is sent. A prompt is admitted synchronously by the protocol handler (before any
//! await), so its cancel token exists before the session is restored, before MCP servers
//! connect and before the previous turn releases the history: a `session/cancel` in any of
//! those windows is never lost. `$/cancel_request` cancels exactly the prompt it names. The
//! ticket is a guard: whatever ends the prompt — an answer, an error, a panic — removes it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::sync::lock;

/// The prompts in flight, per session id.
#[derive(Default)]
pub struct Turns {
    inner: Mutex<HashMap<String, Vec<Entry>>>,
    next_id: AtomicU64,
    /// Woken whenever a prompt leaves, so `close` can wait for the session to go idle.
    left: Notify,
}

struct Entry {
    id: u64,
    token: CancellationToken,
    running: Arc<AtomicBool>,
}

/// One admitted prompt. Dropping it removes the prompt from the registry.
pub struct TurnTicket {
    turns: Arc<Turns>,
    session_id: String,
    id: u64,
    token: CancellationToken,
    running: Arc<AtomicBool>,
}

impl Turns {
    /// Admits a prompt of `session_id`: its cancel token exists from now on.
    pub fn admit(self: &Arc<Turns>, session_id: &str) -> TurnTicket {
        self.admit_in(&mut self.lock(), session_id)
    }

    /// Admits a prompt only when the session has none in flight (running or waiting), checked
    /// and done under one lock, so two callers racing for an idle session admit one prompt.
    pub fn admit_if_idle(self: &Arc<Turns>, session_id: &str) -> Option<TurnTicket> {
        let mut map = self.lock();
        if map.get(session_id).is_some_and(|entries| !entries.is_empty()) {
            return None;
        }
        Some(self.admit_in(&mut map, session_id))
    }

    fn admit_in(self: &Arc<Turns>, map: &mut HashMap<String, Vec<Entry>>, session_id: &str) -> TurnTicket {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let token = CancellationToken::new();
        let running = Arc::new(AtomicBool::new(false));
        map.entry(session_id.to_string()).or_default().push(Entry {
            id,
            token: token.clone(),
            running: running.clone(),
        });
        TurnTicket {
            turns: self.clone(),
            session_id: session_id.to_string(),
            id,
            token,
            running,
        }
    }

    /// Cancels every prompt of the session admitted so far (running or waiting). Returns
    /// whether there was one.
    pub fn cancel_session(&self, session_id: &str) -> bool {
        let map = self.lock();
        let entries = map.get(session_id).map(Vec::as_slice).unwrap_or_default();
        for entry in entries {
            entry.token.cancel();
        }
        !entries.is_empty()
    }

    /// Cancels every prompt of every session (shutdown).
    pub fn cancel_all(&self) {
        for entry in self.lock().values().flatten() {
            entry.token.cancel();
        }
    }

    /// Whether a turn of the session is running (not merely waiting for its turn).
    /// Whether the session has a prompt in flight, running or waiting to run.
    pub fn has_prompts(&self, session_id: &str) -> bool {
        self.lock().get(session_id).is_some_and(|entries| !entries.is_empty())
    }

    pub fn is_running(&self, session_id: &str) -> bool {
        self.lock()
            .get(session_id)
            .is_some_and(|entries| entries.iter().any(|e| e.running.load(Ordering::SeqCst)))
    }

    /// Waits until the session has no prompt in flight, at most `limit`. Returns whether it
    /// went idle.
    pub async fn wait_idle(&self, session_id: &str, limit: Duration) -> bool {
        let idle = async {
            loop {
                let left = self.left.notified();
                if !self.lock().contains_key(session_id) {
                    return;
                }
                left.await;
            }
        };
        tokio::time::timeout(limit, idle).await.is_ok()
    }

    /// Waits until no session has a prompt in flight, at most `limit`.
    pub async fn wait_all_idle(&self, limit: Duration) -> bool {
        let idle = async {
            loop {
                let left = self.left.notified();
                if self.lock().is_empty() {
                    return;
                }
                left.await;
            }
        };
        tokio::time::timeout(limit, idle).await.is_ok()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Vec<Entry>>> {
        lock(&self.inner)
    }
}

impl TurnTicket {
    /// The prompt's cancel token (the turn and everything it starts use it).
    pub fn token(&self) -> &CancellationToken {
        &self.token
    }

    /// Cancels this prompt only (`$/cancel_request`).
    pub fn cancel(&self) {
        self.token.cancel();
    }

    /// The prompt got the session's history: it is the running turn now.
    pub fn mark_running(&self) {
        self.running.store(true, Ordering::SeqCst);
    }

    pub fn session_id(&self) -> &str {
        &self.session_id
    }
}

impl Drop for TurnTicket {
    fn drop(&mut self) {
        let mut map = self.turns.lock();
        if let Some(entries) = map.get_mut(&self.session_id) {
            entries.retain(|e| e.id != self.id);
            if entries.is_empty() {
                map.remove(&self.session_id);
            }
        }
        drop(map);
        self.turns.left.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn cancel_reaches_waiting_prompts_and_tickets_clean_up() {
        let turns = Arc::new(Turns::default());
        let first = turns.admit("s");
        let second = turns.admit("s");
        let other = turns.admit("t");
        first.mark_running();
        assert!(turns.is_running("s"));
        assert!(!turns.is_running("t"));
        // `$/cancel_request` on the waiting prompt cancels only that one.
        second.cancel();
        assert!(second.token().is_cancelled());
        assert!(!first.token().is_cancelled());
        // `session/cancel` cancels everything of the session, nothing of another.
        assert!(turns.cancel_session("s"));
        assert!(first.token().is_cancelled());
        assert!(!other.token().is_cancelled());
        drop(first);
        assert!(!turns.is_running("s"));
        assert!(!turns.wait_idle("s", Duration::from_millis(10)).await);
        drop(second);
        assert!(turns.wait_idle("s", Duration::from_millis(10)).await);
        assert!(!turns.cancel_session("s"));
    }

    #[test]
    fn only_an_idle_session_admits_through_admit_if_idle() {
        let turns = Arc::new(Turns::default());
        let first = turns.admit_if_idle("s").expect("idle");
        assert!(turns.has_prompts("s"), "admitted counts before it runs");
        assert!(turns.admit_if_idle("s").is_none(), "a waiting prompt makes it busy");
        assert!(turns.admit_if_idle("t").is_some(), "other sessions are separate");
        drop(first);
        assert!(!turns.has_prompts("s"));
        assert!(turns.admit_if_idle("s").is_some());
    }

    #[tokio::test]
    async fn a_panicking_prompt_still_leaves() {
        let turns = Arc::new(Turns::default());
        let ticket = turns.admit("s");
        ticket.mark_running();
        let task = tokio::spawn(async move {
            let _ticket = ticket;
            panic!("boom");
        });
        assert!(task.await.is_err());
        assert!(!turns.is_running("s"));
        assert!(turns.wait_all_idle(Duration::from_millis(10)).await);
    }
}
