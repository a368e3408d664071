//! The process scope: what is built once at start and shared by every session and turn — the
//! session database, the providers (main and fallbacks, over one HTTP
//! client), the retry policy, the built-in tools and what tools need from the process
//! (`ToolServices`). Sessions add their own scope (`runtime::SessionScope`), turns theirs
//! (`agent::TurnScope`). `app` builds it from the configuration; nothing here reads settings.

use std::sync::Arc;

use crate::llm::{Endpoint, Provider, RetryPolicy};
use crate::runtime::{ToolRegistry, ToolServices};
use crate::store::Store;
use crate::tools::delegate::DelegationSettings;

/// The main provider with its settings, or why there is none (shown to the user).
pub type MainProvider = Result<(Endpoint, Arc<dyn Provider>), String>;

/// Everything that lives as long as the process.
pub struct Services {
    pub store: Store,
    /// The provider new sessions use.
    pub provider: MainProvider,
    /// `fallback_providers`: (provider, model) tried in order when the main provider fails.
    pub fallbacks: Vec<(Arc<dyn Provider>, String)>,
    pub retry: RetryPolicy,
    /// The built-in toolset every session starts with (MCP tools are added per session).
    pub builtin_tools: ToolRegistry,
    /// The part of this scope tools may use.
    pub tools: Arc<ToolServices>,
    /// The sessions Hermes itself saved (`HERMES_HOME/state.db`), read-only.
    pub hermes_sessions: crate::store::hermes::HermesSessions,
    /// How `delegate_task` may spawn children (the delegation host reads it).
    pub delegation: DelegationSettings,
}
