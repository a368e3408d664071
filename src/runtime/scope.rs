//! The session scope of a turn: what every tool call of one turn shares — the session's id,
//! workspace, per-session tool state and tools, and the editor seams (approvals, files,
//! terminals, questions) of the prompt being run. Built once per turn by the session manager.

use std::path::PathBuf;
use std::sync::Arc;

use super::{Approver, FileSystem, LocalFs, LocalTerminals, SessionToolState, TerminalHost, ToolRegistry, Workspace};

/// The session as one turn (and each of its tool calls) sees it.
#[derive(Clone)]
pub struct SessionScope {
    pub session_id: String,
    /// The session's cwd; every path a tool touches resolves against it.
    pub workspace: Arc<Workspace>,
    /// Per-session tool state (mode, processes, todo, read dedup…), kept across turns.
    pub state: Arc<SessionToolState>,
    /// The session's tools for this turn: the built-in set plus connected MCP servers.
    pub tools: ToolRegistry,
    pub approver: Arc<dyn Approver>,
    pub fs: Arc<dyn FileSystem>,
    /// Runs foreground commands in the editor's terminal when it offers one.
    pub terminals: Arc<dyn TerminalHost>,
    /// Shows `clarify` questions to the user (an editor form); `NoClarifier` without one.
    pub clarifier: Arc<dyn super::seams::clarify::Clarifier>,
    /// The model this turn talks to, for tools that ask a model themselves; `None` in tests.
    pub model: Option<SessionModel>,
    /// Runs `delegate_task`'s children (the agent layer); `None` where no turn loop exists.
    pub delegator: Option<Arc<dyn super::seams::delegate::Delegator>>,
    /// Snapshots the session folder before the turn's first change (`/undo`); per turn.
    pub checkpoints: Arc<dyn super::checkpoint::Checkpoints>,
    /// Switches the session's mode when the user approves a plan (persisted, announced).
    pub modes: Arc<dyn super::seams::modes::ModeSwitch>,
}

/// A session's provider and model as a tool sees them (`vision_analyze` asks it about an image
/// when no vision model is configured).
#[derive(Clone)]
pub struct SessionModel {
    pub provider: Arc<dyn crate::llm::Provider>,
    pub model: String,
    /// The wire format, which decides the image limits.
    pub api_mode: crate::llm::ApiMode,
}

impl SessionScope {
    /// A session rooted at `cwd` on the local disk with no editor and no tools registered:
    /// what tests and benches run tools against.
    pub fn local(session_id: &str, cwd: PathBuf, approver: Arc<dyn Approver>) -> SessionScope {
        let state = Arc::new(SessionToolState::default());
        SessionScope {
            session_id: session_id.to_string(),
            workspace: Arc::new(Workspace::new(cwd)),
            modes: Arc::new(super::seams::modes::LocalModeSwitch(state.clone())),
            state,
            tools: ToolRegistry::default(),
            approver,
            fs: Arc::new(LocalFs),
            terminals: Arc::new(LocalTerminals),
            clarifier: Arc::new(super::seams::clarify::NoClarifier),
            model: None,
            delegator: None,
            checkpoints: Arc::new(super::checkpoint::NoCheckpoints),
        }
    }
}
