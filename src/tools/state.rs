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

    /// Kills every background process (session close, server exit).
    pub fn shutdown(&self) {
        self.processes.kill_all();
    }
}
