//! Context compaction for a session: its context window, the compaction settings a turn
//! uses, and the on-demand `/compact`.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::{SessionError, SessionManager};
use crate::agent::compaction;
use crate::agent::{self, CompactionSettings, CompactionTarget, Sink};
use crate::session::Session;

impl SessionManager {
    /// The context window of `model` (config `model.context_length` wins).
    pub fn context_window(&self, model: &str) -> u64 {
        compaction::context_window(model, self.config().file.context_length)
    }

    /// The compaction lines of `/context`: threshold and state for `used` of `window` tokens.
    pub fn compaction_lines(&self, used: u64, window: u64) -> String {
        compaction::replies::context_lines(&self.config().file.compaction, used, window)
    }

    pub(super) fn compaction_settings(&self, session: &Session, model: &str) -> CompactionSettings {
        CompactionSettings::new(
            self.config().file.compaction.clone(),
            model,
            self.config().file.context_length,
            session.auto_compaction.clone(),
        )
    }

    /// `/compact`: compacts the conversation now, under the cancel token of the prompt that
    /// asked for it. Returns the reply text.
    pub async fn compact_now(
        &self,
        session: &Arc<Session>,
        events: Sink,
        cancel: &CancellationToken,
    ) -> Result<String, SessionError> {
        use compaction::replies;
        let (_, provider) = self.provider()?;
        let mut history = session.history.lock().await;
        if history.is_empty() {
            return Ok(replies::NOTHING_TO_COMPACT.to_string());
        }
        if !self.config().file.compaction.enabled {
            return Ok(replies::DISABLED.to_string());
        }
        let model = session.settings().model;
        let settings = self.compaction_settings(session, &model);
        let Some(plan) = compaction::plan_manual(&history, &self.config().file.compaction, settings.context_window)
        else {
            return Ok(replies::too_short(history.len()));
        };
        let target = CompactionTarget {
            session_id: &session.id,
            provider: provider.as_ref(),
            store: self.store(),
            events: &events,
            cancel,
        };
        match agent::compaction_run(&settings, &target, &mut history, &plan).await {
            Ok(done) => Ok(replies::compacted(&done)),
            Err(agent::CompactionError::Cancelled) => Ok(replies::failed(&"cancelled")),
            Err(agent::CompactionError::Store(e)) => Err(e.into()),
        }
    }
}
