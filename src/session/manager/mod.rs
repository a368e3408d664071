//! The `SessionManager`: the id → live session map plus everything needed to create, restore,
//! fork, list and configure sessions. Sessions that are not in memory are restored from the
//! store on demand. It holds the process scope (`Services`) and never hands out its store or
//! configuration: the protocol layer asks it questions instead (`operations.rs`). Running a
//! turn (`prompt.rs`), turn ownership and closing (`lifecycle.rs`), compaction and MCP wiring
//! live in the submodules.

mod compaction;
mod effort;
mod hermes;
mod lifecycle;
mod listing;
mod mcp;
mod operations;
mod preview;
mod prompt;
mod records;
mod setup;
mod undo;

pub use effort::EffortChoice;
use records::record_for;
pub use records::title_from;
pub use setup::SessionSetup;
pub use undo::{CheckpointInfo, UndoReport};

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::agent::{AgentError, Sink};
use crate::config::Config;
use crate::llm::Endpoint;
use crate::llm::Provider;
use crate::runtime::{Approver, ClientFeatures, FileSystem, Offer, TerminalHost, ToolRegistry};
use crate::services::Services;
use crate::store::{SessionPatch, Store, StoreError};
use crate::sync::lock;
use crate::transcript::Role;

use super::catalog::ModelCatalog;
use super::live::{Session, SessionSettings};
use super::modes::{self, Mode};
use super::turns::Turns;

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
    /// `config.yaml` could not be used (the message names the file, line and problem).
    #[error("{0}")]
    Config(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// A bug or a failed background task, not the user's input.
    #[error("{0}")]
    Internal(String),
}

/// What the protocol layer supplies to a turn: where events go and how to reach the editor.
#[derive(Clone)]
pub struct TurnSeams {
    pub events: Sink,
    pub approver: Arc<dyn Approver>,
    pub fs: Arc<dyn FileSystem>,
    pub terminals: Arc<dyn TerminalHost>,
    pub clarifier: Arc<dyn crate::runtime::seams::clarify::Clarifier>,
    /// Where `delegate_task`'s children appear; `None` folds them into the parent's card.
    pub subagents: Option<Arc<dyn crate::agent::delegation::SubagentHost>>,
    /// Switches the session's mode when the user approves a plan.
    pub modes: Arc<dyn crate::runtime::seams::modes::ModeSwitch>,
}

/// One entry of `session/list`.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionSummary {
    pub id: String,
    pub cwd: String,
    /// The folders beside the cwd the session last had.
    pub additional_directories: Vec<String>,
    pub title: String,
    pub updated_at: String,
}

/// Owns the live sessions.
pub struct SessionManager {
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    /// The process scope: store, providers, built-in tools.
    services: Arc<Services>,
    /// The configuration read at start.
    config: Config,
    catalog: ModelCatalog,
    turns: Arc<Turns>,
    /// Whether the "commands are not sandboxed here" notice was already shown.
    sandbox_notice_shown: std::sync::atomic::AtomicBool,
    /// What the editor can show (set at `initialize`); decides which tools are offered.
    client: Mutex<ClientFeatures>,
}

impl SessionManager {
    pub fn new(services: Arc<Services>, config: Config) -> SessionManager {
        let provider = services.provider.as_ref().ok().map(|(_, p)| p.clone());
        let catalog = ModelCatalog::new(config.file.model_choices.clone(), provider);
        SessionManager {
            sessions: Mutex::new(HashMap::new()),
            services,
            config,
            catalog,
            turns: Arc::default(),
            sandbox_notice_shown: Default::default(),
            client: Mutex::default(),
        }
    }

    /// Remembers what the editor can show (at `initialize`, before any session exists), and
    /// starts asking the provider for its models so the first session's picker is ready.
    pub fn set_client_features(&self, features: ClientFeatures) {
        *lock(&self.client) = features;
        self.catalog.start_fetch();
    }

    /// The built-in tools a new session is offered, given the configuration and the editor.
    fn offered_tools(&self) -> ToolRegistry {
        let offer = Offer {
            services: &self.services.tools,
            client: *lock(&self.client),
        };
        self.services.builtin_tools.offered(&offer)
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn store(&self) -> &Store {
        &self.services.store
    }

    /// The provider, or a message saying how to configure one.
    pub fn provider(&self) -> Result<&(Endpoint, Arc<dyn Provider>), SessionError> {
        if let Some(problem) = &self.config().problem {
            return Err(SessionError::Config(problem.clone()));
        }
        (self.services.provider.as_ref()).map_err(|e| SessionError::NoProvider(e.clone()))
    }

    /// The models to offer for a session whose current model is `current`.
    pub async fn models(&self, current: &str) -> Vec<String> {
        self.catalog.models(current).await
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Session>>> {
        lock(&self.sessions)
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
        let (record, history) = match self.store().load_session(id).await? {
            Some(loaded) => loaded,
            None => self.import_from_hermes(id).await?,
        };
        let settings = self.stored_settings(&record);
        let session = Arc::new(Session::new(record.id.clone(), settings, history, self.offered_tools()));
        // Another request may have restored it meanwhile: keep the first.
        Ok(self.map().entry(record.id).or_insert(session).clone())
    }

    fn default_model(&self) -> String {
        self.services
            .provider
            .as_ref()
            .map(|(s, _)| s.model.clone())
            .unwrap_or_default()
    }

    /// A stored session's settings as a live session gets them.
    fn stored_settings(&self, record: &crate::store::SessionRecord) -> SessionSettings {
        SessionSettings {
            cwd: PathBuf::from(&record.cwd),
            model: record.model.clone().unwrap_or_else(|| self.default_model()),
            mode: record
                .mode
                .as_deref()
                .and_then(|m| modes::parse_mode(m, self.config().yolo_allowed))
                .unwrap_or_default(),
            title: record.title.clone(),
            preferences: record.preferences.clone(),
        }
    }

    /// Creates a new session with the editor's folders and prompt.
    pub async fn create(&self, setup: &SessionSetup) -> Result<Arc<Session>, SessionError> {
        let session_settings = self.fresh_settings(setup).await?;
        let provider = self.provider()?.0.id.clone();
        let id = uuid::Uuid::new_v4().to_string();
        self.store()
            .create_session(record_for(&id, &session_settings, Some(provider), None), Vec::new())
            .await?;
        let session = Arc::new(Session::new(
            id.clone(),
            session_settings,
            Vec::new(),
            self.offered_tools(),
        ));
        self.map().insert(id, session.clone());
        Ok(session)
    }

    /// The settings a new session with `setup` starts with.
    async fn fresh_settings(&self, setup: &SessionSetup) -> Result<SessionSettings, SessionError> {
        setup.check()?;
        let (settings, _) = self.provider()?;
        let mut model = settings.model.clone();
        if model.is_empty() {
            model = self.catalog.models("").await.into_iter().next().ok_or_else(|| {
                SessionError::NoProvider(format!(
                    "No model configured for provider '{}'. Set model.default in {}/config.yaml.",
                    settings.id,
                    self.config().home.display()
                ))
            })?;
        }
        Ok(SessionSettings {
            cwd: setup.cwd.clone(),
            model,
            mode: Mode::Default,
            title: None,
            preferences: setup.apply_to(Default::default()),
        })
    }

    /// Copies a session's history and settings into a new session with the request's folders
    /// (and prompt, else the source's).
    pub async fn fork(&self, source_id: &str, setup: &SessionSetup) -> Result<Arc<Session>, SessionError> {
        setup.check()?;
        let source = self.get_or_restore(source_id).await?;
        let history = source.history().await;
        let mut settings = source.settings();
        settings.cwd = setup.cwd.clone();
        settings.preferences = setup.apply_to(settings.preferences);
        settings.title = settings.title.map(|t| format!("{t} (fork)"));
        let id = uuid::Uuid::new_v4().to_string();
        let provider = self.services.provider.as_ref().ok().map(|(s, _)| s.id.clone());
        self.store()
            .create_session(
                record_for(&id, &settings, provider, Some(source_id.to_string())),
                history.clone(),
            )
            .await?;
        let session = Arc::new(Session::new(id.clone(), settings, history, self.offered_tools()));
        self.map().insert(id, session.clone());
        Ok(session)
    }

    /// Gives a loaded or resumed session the request's folders (its cwd may move) and prompt
    /// (when given). Checked before anything changes.
    pub async fn update_setup(&self, session: &Session, setup: &SessionSetup) -> Result<(), SessionError> {
        setup.check()?;
        let before = session.settings();
        let preferences = setup.apply_to(before.preferences.clone());
        if before.cwd == setup.cwd && before.preferences == preferences {
            return Ok(());
        }
        session.update_settings(|s| {
            s.cwd = setup.cwd.clone();
            s.preferences = preferences.clone();
        });
        let patch = SessionPatch {
            cwd: (before.cwd != setup.cwd).then(|| setup.cwd.display().to_string()),
            preferences: (before.preferences != preferences).then_some(preferences),
            ..Default::default()
        };
        self.store().patch_session(&session.id, patch).await?;
        Ok(())
    }

    /// Switches the session's model (persisted).
    pub async fn set_model(&self, session: &Session, model: &str) -> Result<(), SessionError> {
        let model = model.trim();
        if model.is_empty() {
            return Err(SessionError::InvalidValue("model id must not be empty".into()));
        }
        // ACP expects one of the offered options; `model.allow_custom` lets any id through.
        let offered = self.catalog.models(&session.settings().model).await;
        if !self.config().file.model_allow_custom && !offered.iter().any(|m| m == model) {
            return Err(SessionError::InvalidValue(format!(
                "unknown model '{model}'; choose one of: {} (or set model.allow_custom: true in config.yaml)",
                offered.join(", ")
            )));
        }
        session.update_settings(|s| s.model = model.to_string());
        self.store()
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
        let Some(parsed) = modes::parse_mode(mode, self.config().yolo_allowed) else {
            let ids: Vec<_> = modes::available_modes(self.config().yolo_allowed)
                .iter()
                .map(|m| m.id())
                .collect();
            return Err(SessionError::InvalidValue(format!(
                "unknown mode '{mode}'; expected one of: {}",
                ids.join(", ")
            )));
        };
        session.update_settings(|s| s.mode = parsed);
        self.store()
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
        self.store()
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
}
