//! What a turn runs with, by lifetime: the process services, the session as this turn sees it
//! (shared with every tool call) and the turn's own state. Built by the session layer; read by
//! the turn loop (`turn.rs`) and the tool runner (`step.rs`).

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::Sink;
use super::live_tools::LiveTools;
use crate::llm::Provider;
use crate::runtime::SessionScope;
use crate::services::Services;

/// Everything one turn needs, by lifetime: the process services, the session as this turn
/// sees it (shared with every tool call), and the turn's own state.
pub struct TurnContext {
    pub services: Arc<Services>,
    pub session: Arc<SessionScope>,
    pub turn: TurnScope,
}

/// What lives exactly as long as one turn. Built by the session from its current settings.
pub struct TurnScope {
    /// The provider this turn asks first (fallbacks come from the services).
    pub provider: Arc<dyn Provider>,
    pub model: String,
    pub system_prompt: String,
    /// Model calls before the budget note asks for a summary.
    pub max_iterations: u32,
    pub cancel: CancellationToken,
    pub events: Sink,
    pub compaction: super::CompactionSettings,
    /// The session's tools as they change mid-turn (MCP servers dying or joining); `None`
    /// keeps the session scope's tools for the whole turn.
    pub live_tools: Option<Arc<dyn LiveTools>>,
    /// A `delegate_task` child's turn: its messages are not saved (its answer is the parent's
    /// tool result) and `/steer` guidance is left for the parent.
    pub subagent: bool,
    /// The reasoning level chosen for this session (`None`: the provider's default).
    pub reasoning_effort: Option<crate::llm::effort::Effort>,
}
