//! The `SessionManager`: the id → live session map plus everything needed to create, restore,
//! fork, list, close and delete sessions, and to run a prompt turn on one. Sessions that are not
//! in memory are restored from the store on demand.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::agent::compress::{self, CompressionConfig};
use crate::agent::{self, AgentError, CompactionSettings, CompactionTarget, Sink, TurnContext, TurnOutcome};
use crate::config::{Config, ProviderSettings};
use crate::llm::{Provider, RetryPolicy};
use crate::store::{SessionPatch, SessionRecord, Store, StoreError, iso8601, now_ms};
use crate::tools::{Approver, FileSystem, TerminalHost, ToolRegistry, ToolServices};
use crate::transcript::{Message, Role};

use super::catalog::ModelCatalog;
use super::live::{Session, SessionSettings};
use super::modes::{self, DEFAULT_MODE};

/// Page size of `session/list` (Hermes uses 50).
pub const LIST_PAGE_SIZE: usize = 50;

/// Why a session operation failed.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// No session with that id, in memory or in the store.
    #[error("session not found: {0}")]
    NotFound(String),
    /// The editor sent a relative or empty cwd.
    #[error("cwd must be an absolute path, got '{0}'")]
    InvalidCwd(String),
    /// No provider is configured (or it cannot be used).
    #[error("{0}")]
    NoProvider(String),
    /// An unknown value for a setting.
    #[error("{0}")]
    InvalidValue(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Agent(#[from] AgentError),
}

/// What the protocol layer supplies to a turn: where events go and how to reach the editor.
#[derive(Clone)]
pub struct TurnSeams {
    pub events: Sink,
    pub approver: Arc<dyn Approver>,
    pub fs: Arc<dyn FileSystem>,
    pub terminals: Arc<dyn TerminalHost>,
}

/// One entry of `session/list`.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionSummary {
    pub id: String,
    pub cwd: String,
    pub title: String,
    pub updated_at: String,
}

/// Owns the live sessions.
pub struct SessionManager {
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    store: Store,
    config: Arc<Config>,
    provider: Result<(ProviderSettings, Arc<dyn Provider>), String>,
    catalog: ModelCatalog,
    tools: ToolRegistry,
    services: Arc<ToolServices>,
    retry: RetryPolicy,
    compression: CompressionConfig,
    fallbacks: Vec<(Arc<dyn Provider>, String)>,
}

impl SessionManager {
    pub fn new(
        config: Arc<Config>,
        store: Store,
        provider: Result<(ProviderSettings, Arc<dyn Provider>), String>,
        tools: ToolRegistry,
        retry: RetryPolicy,
    ) -> SessionManager {
        let catalog = ModelCatalog::new(config.file.model_choices.clone());
        let compression = CompressionConfig::from_config_file(&config.home.join("config.yaml"));
        let fallbacks = config
            .fallbacks
            .iter()
            .filter_map(|settings| {
                match crate::llm::from_settings(settings, config.file.prompt_cache_ttl, crate::llm::http::client()) {
                    Ok(provider) => Some((provider, settings.model.clone())),
                    Err(e) => {
                        tracing::warn!(provider = %settings.id, "skipping a fallback provider: {e}");
                        None
                    }
                }
            })
            .collect();
        if let Ok((_, p)) = &provider {
            catalog.spawn_fetch(p.clone());
        }
        let services = Arc::new(ToolServices {
            hermes_home: Some(config.home.clone()),
            store: Some(store.clone()),
        });
        SessionManager {
            sessions: Mutex::new(HashMap::new()),
            store,
            config,
            provider,
            catalog,
            tools,
            services,
            retry,
            compression,
            fallbacks,
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn tools(&self) -> &ToolRegistry {
        &self.tools
    }

    /// The provider, or a message saying how to configure one.
    pub fn provider(&self) -> Result<&(ProviderSettings, Arc<dyn Provider>), SessionError> {
        self.provider.as_ref().map_err(|e| SessionError::NoProvider(e.clone()))
    }

    /// The models to offer for a session whose current model is `current`.
    pub async fn models(&self, current: &str) -> Vec<String> {
        self.catalog.models(current).await
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Session>>> {
        self.sessions.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A live session, if in memory.
    pub fn get(&self, id: &str) -> Option<Arc<Session>> {
        self.map().get(id).cloned()
    }

    /// A live session, restoring it from the store when needed.
    pub async fn get_or_restore(&self, id: &str) -> Result<Arc<Session>, SessionError> {
        if let Some(s) = self.get(id) {
            return Ok(s);
        }
        let (record, history) = self
            .store
            .load_session(id)
            .await?
            .ok_or_else(|| SessionError::NotFound(id.to_string()))?;
        let settings = SessionSettings {
            cwd: PathBuf::from(&record.cwd),
            model: record.model.clone().unwrap_or_else(|| self.default_model()),
            mode: record
                .mode
                .clone()
                .filter(|m| modes::is_valid_mode(m, self.config.yolo_allowed))
                .unwrap_or_else(|| DEFAULT_MODE.into()),
            title: record.title.clone(),
            title_from_user: record.title_source.as_deref() == Some("user"),
        };
        let session = Arc::new(Session::new(record.id.clone(), settings, history, self.tools.clone()));
        // Another request may have restored it meanwhile: keep the first.
        Ok(self.map().entry(record.id).or_insert(session).clone())
    }

    fn default_model(&self) -> String {
        self.provider.as_ref().map(|(s, _)| s.model.clone()).unwrap_or_default()
    }

    /// Creates a new session in `cwd`.
    pub async fn create(&self, cwd: &Path) -> Result<Arc<Session>, SessionError> {
        check_cwd(cwd)?;
        let (settings, _) = self.provider()?;
        let mut model = settings.model.clone();
        if model.is_empty() {
            model = self.catalog.models("").await.into_iter().next().ok_or_else(|| {
                SessionError::NoProvider(format!(
                    "No model configured for provider '{}'. Set model.default in {}/config.yaml.",
                    settings.id,
                    self.config.home.display()
                ))
            })?;
        }
        let id = uuid::Uuid::new_v4().to_string();
        let session_settings = SessionSettings {
            cwd: cwd.to_path_buf(),
            model,
            mode: DEFAULT_MODE.into(),
            title: None,
            title_from_user: false,
        };
        self.store
            .create_session(
                record_for(&id, &session_settings, Some(settings.id.clone()), None),
                Vec::new(),
            )
            .await?;
        let session = Arc::new(Session::new(
            id.clone(),
            session_settings,
            Vec::new(),
            self.tools.clone(),
        ));
        self.map().insert(id, session.clone());
        Ok(session)
    }

    /// Copies a session's history and settings into a new session in `cwd`.
    pub async fn fork(&self, source_id: &str, cwd: &Path) -> Result<Arc<Session>, SessionError> {
        check_cwd(cwd)?;
        let source = self.get_or_restore(source_id).await?;
        let history = source.history().await;
        let mut settings = source.settings();
        settings.cwd = cwd.to_path_buf();
        settings.title = settings.title.map(|t| format!("{t} (fork)"));
        let id = uuid::Uuid::new_v4().to_string();
        let provider = self.provider.as_ref().ok().map(|(s, _)| s.id.clone());
        self.store
            .create_session(
                record_for(&id, &settings, provider, Some(source_id.to_string())),
                history.clone(),
            )
            .await?;
        let session = Arc::new(Session::new(id.clone(), settings, history, self.tools.clone()));
        self.map().insert(id, session.clone());
        Ok(session)
    }

    /// Moves a session to another cwd (load/resume from another folder).
    pub async fn update_cwd(&self, session: &Session, cwd: &Path) -> Result<(), SessionError> {
        check_cwd(cwd)?;
        if session.settings().cwd == cwd {
            return Ok(());
        }
        session.update_settings(|s| s.cwd = cwd.to_path_buf());
        let patch = SessionPatch {
            cwd: Some(cwd.display().to_string()),
            ..Default::default()
        };
        self.store.patch_session(&session.id, patch).await?;
        Ok(())
    }

    /// Switches the session's model (persisted).
    pub async fn set_model(&self, session: &Session, model: &str) -> Result<(), SessionError> {
        let model = model.trim();
        if model.is_empty() {
            return Err(SessionError::InvalidValue("model id must not be empty".into()));
        }
        session.update_settings(|s| s.model = model.to_string());
        self.store
            .patch_session(
                &session.id,
                SessionPatch {
                    model: Some(model.to_string()),
                    ..Default::default()
                },
            )
            .await?;
        Ok(())
    }

    /// Switches the session's mode (persisted).
    pub async fn set_mode(&self, session: &Session, mode: &str) -> Result<(), SessionError> {
        if !modes::is_valid_mode(mode, self.config.yolo_allowed) {
            let ids: Vec<_> = modes::available_modes(self.config.yolo_allowed)
                .iter()
                .map(|m| m.id)
                .collect();
            return Err(SessionError::InvalidValue(format!(
                "unknown mode '{mode}'; expected one of: {}",
                ids.join(", ")
            )));
        }
        session.update_settings(|s| s.mode = mode.to_string());
        self.store
            .patch_session(
                &session.id,
                SessionPatch {
                    mode: Some(mode.to_string()),
                    ..Default::default()
                },
            )
            .await?;
        Ok(())
    }

    /// Sets an automatic title unless one exists. Returns the title when it was set.
    pub async fn auto_title(&self, session: &Session) -> Result<Option<String>, SessionError> {
        if session.settings().title.is_some() {
            return Ok(None);
        }
        let history = session.history.lock().await;
        let Some(first) = history.iter().find(|m| m.role() == Role::User) else {
            return Ok(None);
        };
        let title = title_from(&first.text_content());
        drop(history);
        if title.is_empty() {
            return Ok(None);
        }
        session.update_settings(|s| s.title = Some(title.clone()));
        self.store
            .patch_session(
                &session.id,
                SessionPatch {
                    title: Some((title.clone(), "auto")),
                    ..Default::default()
                },
            )
            .await?;
        Ok(Some(title))
    }

    /// Sessions with history, newest first.
    pub async fn list(
        &self,
        cwd: Option<&Path>,
        cursor: Option<String>,
    ) -> Result<(Vec<SessionSummary>, Option<String>), SessionError> {
        let page = self
            .store
            .list_sessions(cwd.map(|c| c.display().to_string()), cursor, LIST_PAGE_SIZE)
            .await?;
        let summaries = page
            .sessions
            .into_iter()
            .map(|r| SessionSummary {
                title: r
                    .title
                    .clone()
                    .or_else(|| r.preview.as_deref().map(title_from).filter(|t| !t.is_empty()))
                    .unwrap_or_else(|| {
                        Path::new(&r.cwd)
                            .file_name()
                            .map(|n| n.to_string_lossy().into_owned())
                            .unwrap_or_else(|| "New thread".into())
                    }),
                updated_at: iso8601(r.updated_at),
                cwd: r.cwd,
                id: r.id,
            })
            .collect();
        Ok((summaries, page.next_cursor))
    }

    /// Cancels a session's turn, kills its processes and drops it from memory.
    pub fn close(&self, id: &str) -> bool {
        let removed = self.map().remove(id);
        if let Some(session) = &removed {
            session.close();
        }
        removed.is_some()
    }

    /// Closes (if live) and deletes a session. Errors when it does not exist anywhere.
    pub async fn delete(&self, id: &str) -> Result<(), SessionError> {
        let was_live = self.close(id);
        let existed = self.store.delete_session(id).await?;
        if !existed && !was_live {
            return Err(SessionError::NotFound(id.to_string()));
        }
        Ok(())
    }

    /// Closes every session (server shutdown).
    pub fn close_all(&self) {
        let sessions: Vec<_> = self.map().drain().map(|(_, s)| s).collect();
        for session in sessions {
            session.close();
        }
    }

    /// Runs one prompt turn. Turns of one session run one after another.
    pub async fn run_prompt(
        &self,
        session: &Arc<Session>,
        user: Message,
        seams: TurnSeams,
    ) -> Result<TurnOutcome, SessionError> {
        let (provider_settings, provider) = self.provider()?;
        // Wait for MCP servers still connecting, so their tools are offered from the start.
        drop(session.mcp.lock().await);
        let mut history = session.history.lock().await;
        if session.is_closed() {
            return Err(SessionError::NotFound(session.id.clone()));
        }
        let cancel = session.begin_turn();
        let settings = session.settings();
        let tools = session.tools();
        let system_prompt = session.system_prompt(|| {
            agent::prompt::build(&agent::prompt::PromptInputs {
                hermes_home: &self.config.home,
                cwd: &settings.cwd,
                model: &settings.model,
                provider: &provider_settings.id,
                tool_names: tools.tools().map(|t| t.name()).collect(),
            })
        });
        let ctx = TurnContext {
            session_id: session.id.clone(),
            provider: provider.clone(),
            model: settings.model.clone(),
            system_prompt,
            tools,
            workspace: session.workspace.clone(),
            approver: seams.approver,
            fs: seams.fs,
            terminals: seams.terminals,
            tool_state: session.tool_state.clone(),
            services: self.services.clone(),
            max_iterations: self.config.max_iterations,
            retry: self.retry,
            cancel,
            events: seams.events,
            store: self.store.clone(),
            compaction: self.compaction_settings(session, &settings.model),
            fallbacks: self.fallbacks.clone(),
        };
        let result = agent::run_turn(&ctx, &mut history, user).await;
        session.end_turn();
        Ok(result?)
    }

    /// The context window of `model` (config `model.context_length` wins).
    pub fn context_window(&self, model: &str) -> u64 {
        compress::context_window(model, self.config.file.context_length)
    }

    pub fn compression(&self) -> &CompressionConfig {
        &self.compression
    }

    fn compaction_settings(&self, session: &Session, model: &str) -> CompactionSettings {
        CompactionSettings::new(
            self.compression.clone(),
            model,
            self.config.file.context_length,
            session.auto_compaction.clone(),
        )
    }

    /// `/compact`: compacts the conversation now. Returns the reply text.
    pub async fn compact_now(&self, session: &Arc<Session>, events: Sink) -> Result<String, SessionError> {
        use compress::replies;
        let (_, provider) = self.provider()?;
        let mut history = session.history.lock().await;
        if history.is_empty() {
            return Ok(replies::NOTHING_TO_COMPRESS.to_string());
        }
        if !self.compression.enabled {
            return Ok(replies::DISABLED.to_string());
        }
        let model = session.settings().model;
        let settings = self.compaction_settings(session, &model);
        let Some(plan) = compress::plan_manual(&history, &self.compression, settings.context_window) else {
            return Ok(replies::too_short(history.len()));
        };
        let cancel = session.begin_turn();
        let target = CompactionTarget {
            session_id: &session.id,
            provider: provider.as_ref(),
            store: &self.store,
            events: &events,
            cancel: &cancel,
        };
        let result = agent::compaction_run(&settings, &target, &mut history, &plan).await;
        session.end_turn();
        match result {
            Ok(done) => Ok(replies::compacted(&done)),
            Err(agent::CompactError::Cancelled) => Ok(replies::failed(&"cancelled")),
            Err(agent::CompactError::Store(e)) => Err(e.into()),
        }
    }

    /// Connects the session's MCP servers (config.yaml's, then the editor's, which win on a
    /// name clash) in the background. Prompts wait for it; failures are reported through
    /// `on_failure` and never fail the session. Replaces connections from an earlier call.
    pub fn connect_mcp(
        &self,
        session: &Arc<Session>,
        editor_servers: Vec<crate::mcp::McpServerConfig>,
        on_failure: impl FnOnce(String) + Send + 'static,
    ) {
        let env = self.config.env.clone();
        let mut servers: Vec<_> = self
            .config
            .file
            .mcp_servers
            .iter()
            .map(|s| s.expand_env(|k| env.get(k).map(str::to_string)))
            .collect();
        servers.extend(editor_servers);
        if servers.is_empty() {
            return;
        }
        let Ok(mut slot) = session.mcp.clone().try_lock_owned() else {
            tracing::warn!(session = %session.id, "MCP servers are still connecting; ignoring the new list");
            return;
        };
        let (session, builtin) = (session.clone(), self.tools.clone());
        tokio::spawn(async move {
            if let Some(old) = slot.take() {
                old.close().await;
            }
            let cwd = session.settings().cwd;
            let connections = crate::mcp::connect_all(servers, &cwd).await;
            let mut registry = builtin;
            registry.extend(connections.tools());
            tracing::info!(session = %session.id, servers = ?connections.server_names(), tools = registry.len(), "MCP servers connected");
            session.set_tools(registry);
            if let Some(notice) = connections.failure_notice() {
                tracing::warn!(session = %session.id, "{notice}");
                on_failure(notice);
            }
            *slot = Some(connections);
        });
    }

    /// Clears a session's history (`/reset`).
    pub async fn reset(&self, session: &Session) -> Result<(), SessionError> {
        let mut history = session.history.lock().await;
        self.store.clear_messages(&session.id).await?;
        history.clear();
        session
            .auto_compaction
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .reset();
        Ok(())
    }
}

fn check_cwd(cwd: &Path) -> Result<(), SessionError> {
    if cwd.as_os_str().is_empty() || !cwd.is_absolute() {
        return Err(SessionError::InvalidCwd(cwd.display().to_string()));
    }
    Ok(())
}

fn record_for(id: &str, s: &SessionSettings, provider: Option<String>, parent: Option<String>) -> SessionRecord {
    SessionRecord {
        id: id.to_string(),
        cwd: s.cwd.display().to_string(),
        title: s.title.clone(),
        title_source: s.title.as_ref().map(|_| {
            if s.title_from_user {
                "user".to_string()
            } else {
                "auto".to_string()
            }
        }),
        model: Some(s.model.clone()),
        provider,
        mode: Some(s.mode.clone()),
        settings: serde_json::json!({}),
        parent_session_id: parent,
        created_at: now_ms(),
        ..SessionRecord::default()
    }
}

/// A short title from the first line of a message: at most 60 characters, cut on a word.
pub fn title_from(text: &str) -> String {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    if line.chars().count() <= 60 {
        return line.to_string();
    }
    let cut: String = line.chars().take(60).collect();
    let cut = match cut.rfind(' ') {
        Some(pos) if pos > 30 => cut[..pos].to_string(),
        _ => cut,
    };
    format!("{}…", cut.trim_end())
}

#[cfg(test)]
mod tests {
    use super::title_from;

    #[test]
    fn titles_are_short_first_lines() {
        assert_eq!(title_from("\n  Fix the parser  \nmore"), "Fix the parser");
        let long = "Please refactor the session manager so that it restores sessions lazily from the store";
        let t = title_from(long);
        assert!(t.ends_with('…') && t.chars().count() <= 61, "{t}");
    }
}
