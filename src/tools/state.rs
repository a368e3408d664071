//! Per-session tool state that outlives a single call: the todo list, background processes,
//! and the command patterns the user allowed for this session. Owned by the session; dropped
//! (and its processes killed) when the session closes.

use std::collections::HashSet;
use std::sync::Mutex;

use super::process::ProcessTable;
use super::todo::TodoList;

/// State shared by all tool calls of one session.
#[derive(Default)]
pub struct SessionToolState {
    pub todos: Mutex<TodoList>,
    pub processes: ProcessTable,
    /// Dangerous-command pattern keys approved "for this session".
    pub allowed_patterns: Mutex<HashSet<String>>,
    /// Whether the user allowed all file edits for the rest of this session.
    pub edits_allowed: std::sync::atomic::AtomicBool,
    /// The session is in read-only mode: no edits, no commands beyond read-only ones.
    read_only: std::sync::atomic::AtomicBool,
    /// `/steer` guidance waiting to be shown to the model with the next tool results.
    guidance: Mutex<Vec<String>>,
}

impl SessionToolState {
    pub fn pattern_allowed(&self, key: &str) -> bool {
        self.allowed_patterns
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(key)
    }

    pub fn allow_pattern(&self, key: &str) {
        self.allowed_patterns
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(key.to_string());
    }

    /// Queues guidance for the running turn.
    pub fn add_guidance(&self, text: &str) {
        self.guidance
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(text.to_string());
    }

    /// Takes the queued guidance (empty when none).
    pub fn take_guidance(&self) -> Vec<String> {
        std::mem::take(&mut *self.guidance.lock().unwrap_or_else(|p| p.into_inner()))
    }

    pub fn is_read_only(&self) -> bool {
        self.read_only.load(std::sync::atomic::Ordering::SeqCst)
    }

    pub fn set_read_only(&self, on: bool) {
        self.read_only.store(on, std::sync::atomic::Ordering::SeqCst);
    }

    pub fn edits_allowed_for_session(&self) -> bool {
        self.edits_allowed.load(std::sync::atomic::Ordering::SeqCst)
    }

    pub fn allow_edits_for_session(&self) {
        self.edits_allowed.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// Kills every background process (session close, server exit).
    pub fn shutdown(&self) {
        self.processes.kill_all();
    }
}
