//! Context compaction inside the turn loop: before each model call, when the conversation has
//! grown past the threshold, summarise the middle (keeping the first exchange and a protected
//! tail), persist the new live history (the old rows stay, marked compacted) and go on. Also the
//! on-demand `/compact`.

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::{AutoCompaction, CompactionOutcome, CompactionPolicy, Plan, SummaryError};
use crate::agent::{AgentError, AgentEvent, Sink};
use crate::llm::Provider;
use crate::store::Store;
use crate::sync::Part;
use crate::transcript::Message;

/// What a turn needs to compact.
#[derive(Clone)]
pub struct CompactionSettings {
    pub config: CompactionPolicy,
    pub context_window: u64,
    pub summary_model: String,
    /// Per session, across turns (it remembers the last prompt size and pauses after loops).
    pub auto: Part<AutoCompaction>,
    /// Whether compaction runs by itself when the threshold is crossed: the session's
    /// `auto_compact` choice, else `compression.enabled`.
    pub automatic: bool,
}

impl CompactionSettings {
    pub fn new(
        config: CompactionPolicy,
        model: &str,
        configured_window: Option<u64>,
        auto: Part<AutoCompaction>,
    ) -> Self {
        let context_window = super::context_window(model, configured_window);
        let summary_model = config.summary_model.clone().unwrap_or_else(|| model.to_string());
        CompactionSettings {
            automatic: config.enabled,
            config,
            context_window,
            summary_model,
            auto,
        }
    }

    /// The same settings with automatic compaction switched by the session's own choice.
    pub fn automatic(mut self, session_choice: Option<bool>) -> Self {
        if let Some(on) = session_choice {
            self.automatic = on;
        }
        self
    }

    pub fn threshold(&self) -> u64 {
        self.config.threshold_tokens(self.context_window)
    }

    /// After a model call: the real prompt size it reported.
    pub fn record_call(&self, prompt_tokens: u64, history_len: usize) {
        let threshold = self.threshold();
        self.auto
            .with(|auto| auto.record_call(prompt_tokens, history_len, threshold));
    }
}

/// The parts of a turn compaction uses.
pub struct CompactionTarget<'a> {
    pub session_id: &'a str,
    pub provider: &'a dyn Provider,
    pub store: &'a Store,
    pub events: &'a Sink,
    pub cancel: &'a CancellationToken,
}

/// Compacts `history` when due. Returns `false` when the user cancelled meanwhile.
pub async fn compact_if_due(
    settings: &CompactionSettings,
    target: &CompactionTarget<'_>,
    history: &mut Vec<Message>,
    system_prompt: &str,
    tools: &[Value],
) -> Result<bool, AgentError> {
    if !settings.automatic {
        return Ok(true);
    }
    // A copy of the few counters, so the estimate and the plan run outside the session's lock.
    let auto = settings.auto.with(|auto| auto.clone());
    let plan = auto.due(history, &settings.config, settings.context_window, || {
        super::estimate_request_tokens(system_prompt, history, tools)
    });
    let Some(plan) = plan else { return Ok(true) };
    match run(settings, target, history, &plan).await {
        Ok(_) => Ok(true),
        Err(CompactionError::Cancelled) => Ok(false),
        Err(CompactionError::Store(e)) => Err(e),
    }
}

/// Why an explicit compaction did not happen.
#[derive(Debug)]
pub enum CompactionError {
    Cancelled,
    Store(AgentError),
}

/// Carries out `plan`: summarise (or prune), persist, replace the live history.
pub async fn run(
    settings: &CompactionSettings,
    target: &CompactionTarget<'_>,
    history: &mut Vec<Message>,
    plan: &Plan,
) -> Result<CompactionOutcome, CompactionError> {
    let events = target.events.clone();
    let mut on_event = |e| events.emit(AgentEvent::Compaction(e));
    let done = match super::compact(
        target.provider,
        &settings.summary_model,
        history,
        plan,
        target.cancel,
        &mut on_event,
    )
    .await
    {
        Ok(done) => done,
        Err(SummaryError::Cancelled) => return Err(CompactionError::Cancelled),
        Err(e) => {
            // `compact` only fails on cancellation; anything else is a bug worth logging.
            tracing::error!(error = %e, "context compaction failed");
            return Err(CompactionError::Cancelled);
        }
    };
    target
        .store
        .compact_session(target.session_id, done.history.clone())
        .await
        .map_err(|e| CompactionError::Store(e.into()))?;
    tracing::info!(
        session = target.session_id,
        before = done.messages_before,
        after = done.messages_after,
        fallback = done.used_fallback,
        "context compacted"
    );
    *history = done.history.clone();
    settings.auto.with(|auto| auto.compacted());
    Ok(done)
}
