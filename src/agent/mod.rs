//! The turn loop: prompt → model stream → tool calls → results → model … until the model answers
//! without tools, the iteration budget runs out, or the user cancels. Emits `AgentEvent`s through
//! an `EventSink`, persists every completed step, and never talks to ACP directly.

pub mod compaction;
pub mod delegation;
pub mod events;
pub mod live_tools;
pub mod prompt;
mod scope;
mod step;
pub mod stored_cards;
mod turn;

use std::sync::Arc;

pub use compaction::{CompactionError, CompactionSettings, CompactionTarget, run as compaction_run};
pub use events::{AgentEvent, EventSink, NullSink, RecordingSink};
pub use scope::{TurnContext, TurnScope};
pub use turn::{StopReason, TurnOutcome, run_turn};

use crate::llm::LlmError;
use crate::store::StoreError;

/// Why a turn failed (a cancelled turn is not a failure).
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// The provider failed after its retries.
    #[error(transparent)]
    Provider(#[from] LlmError),
    /// The conversation could not be saved.
    #[error("could not save the conversation: {0}")]
    Store(#[from] StoreError),
}

/// A shareable event sink.
pub type Sink = Arc<dyn EventSink>;
