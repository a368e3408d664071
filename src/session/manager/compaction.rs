//! Context compaction for a session: its context window, the compaction settings a turn
//! uses, the session's `auto_compact` choice, and the on-demand `/compact [instructions]`.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::{SessionError, SessionManager};
use crate::agent::compaction;
use crate::agent::{self, CompactionSettings, CompactionTarget, Sink};
use crate::session::Session;
use crate::store::SessionPatch;

impl SessionManager {
    /// The context window of `model` (config `model.context_length` wins).
    pub fn context_window(&self, model: &str) -> u64 {
        compaction::context_window(model, self.config().file.context_length)
    }

    /// How many tokens the next request of `session` would carry: the provider's count for the
    /// last call plus an estimate of what was appended since (a cancelled answer, tool
    /// results), else — no call reported yet — an estimate of the whole request (system
    /// prompt, history, tool schemas) once the system prompt exists. `None` when nothing is
    /// known: no figure is better than a wrong one (the history alone leaves out the prompt
    /// and the tools, often most of the context).
    pub async fn context_used(&self, session: &Session) -> Option<u64> {
        let history = session.history().await;
        if let Some(tokens) = session.auto_compaction.with(|auto| auto.projected(&history)) {
            return Some(tokens);
        }
        let system = session.cached_system_prompt()?;
        Some(compaction::estimate_request_tokens(
            &system,
            &history,
            &session.tools().schemas(),
        ))
    }

    /// The compaction lines of `/context`: threshold and state for `used` of `window` tokens.
    pub fn compaction_lines(&self, session: &Session, used: u64, window: u64) -> String {
        let automatic = self.auto_compact(session);
        compaction::replies::context_lines(&self.config().file.compaction, used, window, automatic)
    }

    /// Whether compaction runs by itself in `session`: its own choice, else
    /// `compression.enabled`.
    pub fn auto_compact(&self, session: &Session) -> bool {
        (session.settings().preferences.auto_compact).unwrap_or(self.config().file.compaction.enabled)
    }

    /// Turns automatic compaction on or off for `session` (persisted; `/compact` works either
    /// way).
    pub async fn set_auto_compact(&self, session: &Session, on: bool) -> Result<(), SessionError> {
        let settings = session.update_settings(|s| s.preferences.auto_compact = Some(on));
        let patch = SessionPatch {
            preferences: Some(settings.preferences),
            ..Default::default()
        };
        self.store().patch_session(&session.id, patch).await?;
        Ok(())
    }

    pub(super) fn compaction_settings(&self, session: &Session, model: &str) -> CompactionSettings {
        CompactionSettings::new(
            self.config().file.compaction.clone(),
            model,
            self.config().file.context_length,
            session.auto_compaction.clone(),
        )
        .automatic(session.settings().preferences.auto_compact)
    }

    /// `/compact [instructions]`: compacts the conversation now, under the cancel token of the
    /// prompt that asked for it, with a summary that follows the user's instructions (when
    /// given). Works whether automatic compaction is on or not: the user asked. Returns the
    /// reply text.
    pub async fn compact_now(
        &self,
        session: &Arc<Session>,
        events: Sink,
        cancel: &CancellationToken,
        instructions: Option<&str>,
    ) -> Result<String, SessionError> {
        use compaction::replies;
        let (_, provider) = self.provider()?;
        let mut history = session.history.lock().await;
        if history.is_empty() {
            return Ok(replies::NOTHING_TO_COMPACT.to_string());
        }
        let model = session.settings().model;
        let settings = self.compaction_settings(session, &model);
        let Some(mut plan) = compaction::plan_manual(&history, &self.config().file.compaction, settings.context_window)
        else {
            return Ok(replies::too_short(history.len()));
        };
        plan.instructions = instructions
            .map(str::trim)
            .filter(|i| !i.is_empty())
            .map(str::to_string);
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
