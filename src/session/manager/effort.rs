//! A session's reasoning effort: the levels its model takes on the provider's wire format,
//! the level shown as current, the choice turns send, and the user's change (persisted with
//! the session's other preferences). The table of levels lives in `llm::effort`.

use super::{SessionError, SessionManager};
use crate::llm::effort::{self, Effort, Route};
use crate::session::Session;
use crate::store::SessionPatch;

/// The `thought_level` choice of a session as the editor sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EffortChoice {
    /// The levels the session's model takes, lowest first (never empty).
    pub levels: Vec<Effort>,
    /// The level in effect: the choice fitted to the model, or the provider's default.
    pub current: Effort,
}

impl SessionManager {
    /// The route of the main provider; `None` without a usable provider.
    fn effort_route(&self) -> Option<Route> {
        let (settings, _) = self.provider().ok()?;
        Some(Route::of(settings.api_mode, &settings.id, &settings.base_url))
    }

    /// The session's wanted level: its own choice, else `agent.reasoning_effort`.
    pub fn reasoning_effort(&self, session: &Session) -> Option<Effort> {
        let chosen = session.settings().preferences.reasoning_effort;
        chosen
            .as_deref()
            .and_then(Effort::parse)
            .or(self.config().file.reasoning_effort)
    }

    /// The levels and current level to offer for `session`; `None` when its model has no
    /// effort knob (the option is hidden).
    pub fn effort_choice(&self, session: &Session) -> Option<EffortChoice> {
        let route = self.effort_route()?;
        let model = session.settings().model;
        let levels = effort::levels(route, &model);
        let current = match self.reasoning_effort(session) {
            Some(wanted) => effort::fit(&levels, wanted),
            None => effort::default_level(route, &model),
        }?;
        Some(EffortChoice { levels, current })
    }

    /// Sets the session's reasoning level (a level id the current model takes), persisted.
    pub async fn set_reasoning_effort(&self, session: &Session, value: &str) -> Result<(), SessionError> {
        let levels = self.effort_choice(session).map(|c| c.levels).unwrap_or_default();
        let Some(level) = levels.iter().copied().find(|l| l.id() == value) else {
            let offered: Vec<&str> = levels.iter().map(|l| l.id()).collect();
            return Err(SessionError::InvalidValue(if offered.is_empty() {
                format!(
                    "the model '{}' has no reasoning effort setting",
                    session.settings().model
                )
            } else {
                format!(
                    "unknown reasoning effort '{value}'; this model takes: {}",
                    offered.join(", ")
                )
            }));
        };
        let settings = session.update_settings(|s| s.preferences.reasoning_effort = Some(level.id().to_string()));
        let patch = SessionPatch {
            preferences: Some(settings.preferences),
            ..Default::default()
        };
        self.store().patch_session(&session.id, patch).await?;
        Ok(())
    }
}
