//! Per-session tool state that outlives a single call: background processes, the session's
//! mode (the policy reads it on every call), what the user allowed for this session (exact
//! commands, edits), and one slot per tool that keeps state of its own (the todo list), keyed
//! by the slot's type so a stateful tool adds nothing here. Owned by the session; dropped (and
//! its processes killed) when the session closes.

use std::any::{Any, TypeId};
use std::collections::{HashMap, HashSet};

use super::processes::ProcessTable;
use crate::safety::policy::Mode;
use crate::sync::Part;

/// State shared by all tool calls of one session: its background processes (their own
/// owner), and everything small as a part of the session's state (behind its one short std
/// lock, never held across an `.await`).
#[derive(Default)]
pub struct SessionToolState {
    pub processes: ProcessTable,
    small: Part<ToolMemory>,
}

/// What the tools remember of a session, as the session's state holds it.
#[derive(Default)]
pub struct ToolMemory {
    /// Each stateful tool's own state, by its type (`T: Default` is created on first use).
    tool_slots: HashMap<TypeId, Box<dyn Any + Send>>,
    /// Exact commands (rule keys) the user allowed "for this session".
    allowed_commands: HashSet<String>,
    /// Whether the user allowed edits inside the project for the rest of this session.
    edits_allowed: bool,
    /// The session's mode: its one home (the session's settings read it from here).
    mode: Mode,
    /// `/steer` guidance waiting to be shown to the model with the next tool results.
    guidance: Vec<String>,
}

impl ToolMemory {
    /// Starts in `mode`, nothing allowed yet.
    pub fn in_mode(mode: Mode) -> ToolMemory {
        ToolMemory {
            mode,
            ..ToolMemory::default()
        }
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    pub fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
    }
}

impl SessionToolState {
    /// The tool state over `memory`, a part of a session's state.
    pub fn on(memory: Part<ToolMemory>) -> SessionToolState {
        SessionToolState {
            processes: ProcessTable::default(),
            small: memory,
        }
    }

    /// Runs `f` on the session's slot of type `T` (a tool's own state, such as the todo list),
    /// created empty on first use. Under the session's one short lock: `f` must not block,
    /// await, or reach any other part of the session (its workspace, mode, meter), which would
    /// deadlock; read those before.
    pub fn with_slot<T: Default + Send + 'static, R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        self.small.with(|small| {
            let slot = (small.tool_slots.entry(TypeId::of::<T>()))
                .or_insert_with(|| Box::new(T::default()))
                .downcast_mut::<T>()
                .expect("a slot holds the type it is keyed by");
            f(slot)
        })
    }

    pub fn command_allowed(&self, key: &str) -> bool {
        self.small.with(|s| s.allowed_commands.contains(key))
    }

    pub fn allow_command(&self, key: &str) {
        self.small.with(|s| s.allowed_commands.insert(key.to_string()));
    }

    /// The commands (rule keys) allowed for this session, sorted (`/permissions` lists them and
    /// can keep them as project rules).
    pub fn session_commands(&self) -> Vec<String> {
        let mut keys: Vec<String> = self.small.with(|s| s.allowed_commands.iter().cloned().collect());
        keys.sort();
        keys
    }

    /// Queues guidance for the running turn.
    pub fn add_guidance(&self, text: &str) {
        self.small.with(|s| s.guidance.push(text.to_string()));
    }

    /// Takes the queued guidance (empty when none).
    pub fn take_guidance(&self) -> Vec<String> {
        self.small.with(|s| std::mem::take(&mut s.guidance))
    }

    pub fn mode(&self) -> Mode {
        self.small.with(|s| s.mode)
    }

    pub fn set_mode(&self, mode: Mode) {
        self.small.with(|s| s.mode = mode);
    }

    /// Nothing may change in the session's mode (`read_only`, `plan`).
    pub fn is_read_only(&self) -> bool {
        self.mode().changes_nothing()
    }

    pub fn edits_allowed_for_session(&self) -> bool {
        self.small.with(|s| s.edits_allowed)
    }

    pub fn allow_edits_for_session(&self) {
        self.small.with(|s| s.edits_allowed = true);
    }

    /// Kills every background process (session close, server exit).
    pub fn shutdown(&self) {
        self.processes.kill_all();
    }
}
