//! One live session: the single owner of its cwd, model, mode, history, tools and processes.
//! Each setting has one home: the cwd and folders in the workspace and the mode in the tool
//! state (where tools read them), the rest behind a short-lived std lock (never held across an
//! `.await`) that every change holds, so changes apply one at a time and mid-turn; the history sits behind
//! an async lock that a turn holds from start to end, which also makes prompts of one session
//! run one after another. The prompts in flight and their cancel tokens live in the manager's
//! `Turns` registry, which exists before a session is restored.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::runtime::{SessionToolState, ToolRegistry, Workspace};
use crate::sync::lock;
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

/// What `SessionSettings` holds that has no other home: the cwd lives in the workspace and
/// the mode in the tool state, where tools read them, so neither is stored twice.
#[derive(Debug, Clone, PartialEq)]
struct OwnSettings {
    model: String,
    title: Option<String>,
    preferences: crate::store::SessionPreferences,
}

/// Everything small and mutable the session itself owns, behind one short std lock: a
/// `std::sync::Mutex` because it is never held across an `.await` (the history, which a turn
/// holds for its whole length, has its own async lock).
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
    /// Also the lock every settings change holds, so changes apply one at a time.
    own: Mutex<Own>,
    pub(crate) history: tokio::sync::Mutex<Vec<Message>>,
    pub workspace: Arc<Workspace>,
    pub tool_state: Arc<SessionToolState>,
    /// Automatic-compaction memory (last prompt size, loop guard), kept across turns.
    pub auto_compaction: Arc<Mutex<crate::agent::compaction::AutoCompaction>>,
    /// MCP servers of this session (they publish their tools through `set_tools`).
    pub(crate) mcp: Arc<tokio::sync::Mutex<Option<crate::mcp::McpSupervisor>>>,
    /// What the session's turns cost and the provider's rate limits as last seen.
    pub meter: Arc<crate::llm::meter::UsageMeter>,
}

impl Session {
    pub fn new(id: String, settings: SessionSettings, history: Vec<Message>, tools: ToolRegistry) -> Session {
        let tool_state = Arc::new(SessionToolState::default());
        tool_state.set_mode(settings.mode);
        let workspace = Workspace::new(settings.cwd.clone());
        workspace.set_additional(additional_folders(&settings));
        Session {
            id,
            workspace: Arc::new(workspace),
            own: Mutex::new(Own {
                settings: OwnSettings {
                    model: settings.model,
                    title: settings.title,
                    preferences: settings.preferences,
                },
                tools,
                system_prompt: None,
                queue: std::collections::VecDeque::new(),
                closed: false,
            }),
            history: tokio::sync::Mutex::new(history),
            tool_state,
            auto_compaction: Arc::default(),
            mcp: Arc::default(),
            meter: Arc::default(),
        }
    }

    pub fn settings(&self) -> SessionSettings {
        self.assemble(&lock(&self.own).settings)
    }

    /// The settings from their homes: the cwd from the workspace, the mode from the tool state.
    fn assemble(&self, own: &OwnSettings) -> SessionSettings {
        SessionSettings {
            cwd: self.workspace.root(),
            model: own.model.clone(),
            mode: self.tool_state.mode(),
            title: own.title.clone(),
            preferences: own.preferences.clone(),
        }
    }

    /// Changes settings; returns the new value.
    pub fn update_settings(&self, f: impl FnOnce(&mut SessionSettings)) -> SessionSettings {
        let mut own = lock(&self.own);
        let before = self.assemble(&own.settings);
        let mut guard = before.clone();
        f(&mut guard);
        // The prompt names the model, the folders and their context files, and the editor's text.
        let prompt_inputs_changed = guard.model != before.model
            || guard.cwd != before.cwd
            || guard.preferences.additional_directories != before.preferences.additional_directories
            || guard.preferences.system_prompt != before.preferences.system_prompt;
        if prompt_inputs_changed {
            own.system_prompt = None;
        }
        if guard.cwd != before.cwd {
            self.workspace.set_root(guard.cwd.clone());
        }
        if guard.preferences.additional_directories != before.preferences.additional_directories {
            self.workspace.set_additional(additional_folders(&guard));
        }
        if guard.mode != before.mode {
            self.tool_state.set_mode(guard.mode);
        }
        own.settings = OwnSettings {
            model: guard.model.clone(),
            title: guard.title.clone(),
            preferences: guard.preferences.clone(),
        };
        guard
    }

    /// The session's tool registry.
    pub fn tools(&self) -> ToolRegistry {
        lock(&self.own).tools.clone()
    }

    /// The cards of a stored `history` as this session's tools describe them (replay).
    pub fn stored_cards(&self, history: &[Message]) -> Vec<crate::agent::stored_cards::MessageCards> {
        crate::agent::stored_cards::stored_cards(history, &self.tools(), &self.workspace.root())
    }

    /// Replaces the tool registry (MCP servers connected or dropped); the system prompt, which
    /// lists the tools, is rebuilt on the next turn.
    pub fn set_tools(&self, tools: ToolRegistry) {
        let mut own = lock(&self.own);
        own.tools = tools;
        own.system_prompt = None;
    }

    /// The system prompt built for this session, if any.
    pub fn cached_system_prompt(&self) -> Option<String> {
        lock(&self.own).system_prompt.clone()
    }

    /// Keeps a freshly built system prompt (unless another turn stored one meanwhile, which
    /// wins: the prefix must stay stable for prompt caching). Returns the one in effect.
    pub fn cache_system_prompt(&self, built: String) -> String {
        lock(&self.own).system_prompt.get_or_insert(built).clone()
    }

    /// A copy of the history (waits for a running turn to finish).
    pub async fn history(&self) -> Vec<Message> {
        self.history.lock().await.clone()
    }

    /// Queues a prompt; returns how many are queued.
    pub fn enqueue(&self, text: &str) -> usize {
        let queue = &mut lock(&self.own).queue;
        queue.push_back(text.to_string());
        queue.len()
    }

    /// The next queued prompt.
    pub fn dequeue(&self) -> Option<String> {
        lock(&self.own).queue.pop_front()
    }

    /// Kills background processes and closes MCP servers; the session is unusable afterwards.
    /// The caller cancels its prompts first. Bounded: a server that does not close in time is
    /// dropped (which kills a stdio server's process).
    pub async fn close(&self) {
        lock(&self.own).closed = true;
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
        lock(&self.own).closed
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
