//! One live session: the single owner of its cwd, model, mode, history, tools and processes.
//! A session's state sits behind two locks and two owners:
//!
//! - **`SessionState`**, everything small and mutable (the settings with the one cwd and the one
//!   mode, the tools, the cached system prompt, the queue, what the user allowed, `/steer`
//!   guidance, the tools' own state such as the todo list, auto-compaction's memory and the
//!   usage meter), behind one short `std::sync::Mutex`. A std mutex because it is never held
//!   across an `.await`: every holder copies out or changes a field and lets go, so it never
//!   waits on the editor, the model or the disk. The lower layers hold a `sync::Part` of it
//!   (the workspace its folders, the tool state its memory, the meter its account), so each
//!   value has one home and no layer names this type.
//! - **the conversation**, behind an async lock the running turn holds from start to end, which
//!   also makes prompts of one session run one after another.
//! - background processes have their owner (`SessionToolState::processes`) and MCP servers theirs
//!   (`mcp`), each ended on close.
//!
//! Settings changes from the editor are serialised per session by the protocol layer's gate
//! (`acp::state::SettingsQueues`). The prompts in flight and their cancel tokens live in the
//! manager's `Turns` registry, which exists before a session is restored.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::agent::compaction::AutoCompaction;
use crate::llm::meter::{MeterState, UsageMeter};
use crate::runtime::state::ToolMemory;
use crate::runtime::workspace::Folders;
use crate::runtime::{SessionToolState, ToolRegistry, Workspace};
use crate::sync::{Part, lock};
use crate::transcript::Message;

/// The settings of a session the editor can see and change.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionSettings {
    pub cwd: PathBuf,
    pub model: String,
    pub mode: crate::safety::policy::Mode,
    pub title: Option<String>,
    /// Choices that override config.yaml for this session (auto-compaction).
    pub preferences: crate::store::SessionPreferences,
}

/// What `SessionSettings` holds besides the cwd (the folders' field) and the mode (the tool
/// memory's field), so neither is stored twice.
#[derive(Debug, Clone, PartialEq)]
struct OwnSettings {
    model: String,
    title: Option<String>,
    preferences: crate::store::SessionPreferences,
}

/// Everything small and mutable of one session (see the module header for why one std mutex).
struct SessionState {
    own: Own,
    /// The workspace's part: the cwd, the other folders, the shell's directory.
    folders: Folders,
    /// The tool state's part: the mode, what the user allowed, guidance, the tools' slots.
    tools: ToolMemory,
    /// Automatic-compaction memory (last prompt size, loop guard), kept across turns.
    compaction: AutoCompaction,
    /// What the session's turns cost and the provider's rate limits as last seen.
    meter: MeterState,
}

/// The session's own fields of its state.
struct Own {
    settings: OwnSettings,
    /// The session's tools: the built-in set plus any MCP servers it connected.
    tools: ToolRegistry,
    /// Built once per session (prompt caching depends on a stable prefix); cleared when the
    /// model, the folders, the editor's prompt or the tools change.
    system_prompt: Option<String>,
    /// Prompts queued with `/queue`, run after the current turn, inside its request.
    queue: std::collections::VecDeque<String>,
    closed: bool,
}

/// A live session.
pub struct Session {
    pub id: String,
    state: Arc<Mutex<SessionState>>,
    /// The conversation: the running turn holds it from start to end.
    pub(crate) history: tokio::sync::Mutex<Vec<Message>>,
    /// Over the state's folders.
    pub workspace: Arc<Workspace>,
    /// Over the state's tool memory; owns the background processes.
    pub tool_state: Arc<SessionToolState>,
    /// The state's auto-compaction memory, for the turns.
    pub auto_compaction: Part<AutoCompaction>,
    /// MCP servers of this session, their owner (they publish their tools through `set_tools`).
    pub(crate) mcp: Arc<tokio::sync::Mutex<Option<crate::mcp::McpSupervisor>>>,
    /// Over the state's usage account.
    pub meter: Arc<UsageMeter>,
}

impl Session {
    pub fn new(id: String, settings: SessionSettings, history: Vec<Message>, tools: ToolRegistry) -> Session {
        let mut folders = Folders::new(settings.cwd.clone());
        folders.set_additional(additional_folders(&settings));
        let state = Arc::new(Mutex::new(SessionState {
            own: Own {
                settings: OwnSettings {
                    model: settings.model,
                    title: settings.title,
                    preferences: settings.preferences,
                },
                tools,
                system_prompt: None,
                queue: std::collections::VecDeque::new(),
                closed: false,
            },
            folders,
            tools: ToolMemory::in_mode(settings.mode),
            compaction: AutoCompaction::default(),
            meter: MeterState::default(),
        }));
        Session {
            id,
            workspace: Arc::new(Workspace::on(Part::of(&state, |s| &mut s.folders))),
            tool_state: Arc::new(SessionToolState::on(Part::of(&state, |s| &mut s.tools))),
            auto_compaction: Part::of(&state, |s| &mut s.compaction),
            meter: Arc::new(UsageMeter::on(Part::of(&state, |s| &mut s.meter))),
            history: tokio::sync::Mutex::new(history),
            mcp: Arc::default(),
            state,
        }
    }

    /// The session's own fields, under the state's lock (which the closure must not re-enter
    /// through the workspace, the tool state or the meter).
    fn with_own<R>(&self, f: impl FnOnce(&mut Own) -> R) -> R {
        f(&mut lock(&self.state).own)
    }

    pub fn settings(&self) -> SessionSettings {
        assemble(&lock(&self.state))
    }

    /// Changes settings; returns the new value. All of it under one lock: a reader never sees
    /// the cwd of one change with the mode of another.
    pub fn update_settings(&self, f: impl FnOnce(&mut SessionSettings)) -> SessionSettings {
        let mut state = lock(&self.state);
        let state = &mut *state;
        let before = assemble(state);
        let mut guard = before.clone();
        f(&mut guard);
        // The prompt names the model, the folders and their context files, and the editor's text.
        let prompt_inputs_changed = guard.model != before.model
            || guard.cwd != before.cwd
            || guard.preferences.additional_directories != before.preferences.additional_directories
            || guard.preferences.system_prompt != before.preferences.system_prompt;
        if prompt_inputs_changed {
            state.own.system_prompt = None;
        }
        if guard.cwd != before.cwd {
            state.folders.set_root(guard.cwd.clone());
        }
        if guard.preferences.additional_directories != before.preferences.additional_directories {
            state.folders.set_additional(additional_folders(&guard));
        }
        state.tools.set_mode(guard.mode);
        state.own.settings = OwnSettings {
            model: guard.model.clone(),
            title: guard.title.clone(),
            preferences: guard.preferences.clone(),
        };
        guard
    }

    /// The session's tool registry.
    pub fn tools(&self) -> ToolRegistry {
        self.with_own(|own| own.tools.clone())
    }

    /// The cards of a stored `history` as this session's tools describe them (replay).
    pub fn stored_cards(&self, history: &[Message]) -> Vec<crate::agent::stored_cards::MessageCards> {
        crate::agent::stored_cards::stored_cards(history, &self.tools(), &self.workspace.root())
    }

    /// Replaces the tool registry (MCP servers connected or dropped); the system prompt, which
    /// lists the tools, is rebuilt on the next turn.
    pub fn set_tools(&self, tools: ToolRegistry) {
        self.with_own(|own| {
            own.tools = tools;
            own.system_prompt = None;
        });
    }

    /// The system prompt built for this session, if any.
    pub fn cached_system_prompt(&self) -> Option<String> {
        self.with_own(|own| own.system_prompt.clone())
    }

    /// Keeps a freshly built system prompt (unless another turn stored one meanwhile, which
    /// wins: the prefix must stay stable for prompt caching). Returns the one in effect.
    pub fn cache_system_prompt(&self, built: String) -> String {
        self.with_own(|own| own.system_prompt.get_or_insert(built).clone())
    }

    /// A copy of the history (waits for a running turn to finish).
    pub async fn history(&self) -> Vec<Message> {
        self.history.lock().await.clone()
    }

    /// Queues a prompt; returns how many are queued.
    pub fn enqueue(&self, text: &str) -> usize {
        self.with_own(|own| {
            own.queue.push_back(text.to_string());
            own.queue.len()
        })
    }

    /// The next queued prompt.
    pub fn dequeue(&self) -> Option<String> {
        self.with_own(|own| own.queue.pop_front())
    }

    /// Kills background processes and closes MCP servers; the session is unusable afterwards.
    /// The caller cancels its prompts first. Bounded: a server that does not close in time is
    /// dropped (which kills a stdio server's process).
    pub async fn close(&self) {
        self.with_own(|own| own.closed = true);
        let state = self.tool_state.clone();
        // Killing process groups waits a short grace between SIGTERM and SIGKILL.
        if let Err(e) = tokio::task::spawn_blocking(move || state.shutdown()).await {
            tracing::warn!(error = %e, "killing the session's processes failed");
        }
        // Waits for servers still connecting too (they hold the lock), within the same bound.
        let close = async {
            if let Some(connections) = self.mcp.lock().await.take() {
                connections.close().await;
            }
        };
        if tokio::time::timeout(MCP_CLOSE_LIMIT, close).await.is_err() {
            tracing::warn!(session = %self.id, "MCP servers did not close in time; dropped");
        }
    }

    pub fn is_closed(&self) -> bool {
        self.with_own(|own| own.closed)
    }
}

/// The settings from their homes: the cwd from the folders, the mode from the tool memory.
fn assemble(state: &SessionState) -> SessionSettings {
    let own = &state.own.settings;
    SessionSettings {
        cwd: state.folders.root().to_path_buf(),
        model: own.model.clone(),
        mode: state.tools.mode(),
        title: own.title.clone(),
        preferences: own.preferences.clone(),
    }
}

/// The session's folders beside its cwd, as its preferences keep them.
fn additional_folders(settings: &SessionSettings) -> Vec<PathBuf> {
    (settings.preferences.additional_directories.iter())
        .map(PathBuf::from)
        .collect()
}

/// How long closing waits for MCP servers to shut down gracefully.
const MCP_CLOSE_LIMIT: std::time::Duration = std::time::Duration::from_millis(1000);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::safety::policy::Mode;

    fn session() -> Session {
        let settings = SessionSettings {
            cwd: PathBuf::from("/work/a"),
            model: "m".into(),
            mode: Mode::Default,
            title: None,
            preferences: Default::default(),
        };
        Session::new("s1".into(), settings, Vec::new(), ToolRegistry::default())
    }

    /// The cwd and the mode have one home each: what the settings say, the workspace and the
    /// tool state see, and the other way round.
    #[test]
    fn the_settings_the_workspace_and_the_tool_state_read_one_state() {
        let session = session();
        session.workspace.set_shell_cwd(PathBuf::from("/work/a/sub"));
        let changed = session.update_settings(|s| {
            s.cwd = PathBuf::from("/work/b");
            s.mode = Mode::Plan;
            s.preferences.additional_directories = vec!["/work/lib".into()];
        });
        assert_eq!(changed.cwd, PathBuf::from("/work/b"));
        assert_eq!(session.workspace.root(), PathBuf::from("/work/b"));
        assert_eq!(session.workspace.shell_cwd(), PathBuf::from("/work/b"));
        assert_eq!(session.workspace.additional(), [PathBuf::from("/work/lib")]);
        assert_eq!(session.tool_state.mode(), Mode::Plan);
        // The plan tool switches the mode through the tool state; the settings see it.
        session.tool_state.set_mode(Mode::AcceptEdits);
        assert_eq!(session.settings().mode, Mode::AcceptEdits);
        session.workspace.set_root(PathBuf::from("/work/c"));
        assert_eq!(session.settings().cwd, PathBuf::from("/work/c"));
    }

    #[test]
    fn the_meter_and_auto_compaction_keep_their_values_in_the_session_state() {
        let session = session();
        session.meter.record_turn(Some(0.5));
        session.meter.record_turn(None);
        let spend = session.meter.spend();
        assert_eq!(
            (spend.last_turn, spend.session, spend.unpriced_turns),
            (None, Some(0.5), 1)
        );
        session.auto_compaction.with(|auto| auto.record_call(1000, 0, 10_000));
        let projected = session.auto_compaction.clone().with(|auto| auto.projected(&[]));
        assert_eq!(projected, Some(1000), "the recorded call is remembered");
    }
}
