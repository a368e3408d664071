//! Opening a session that only Hermes' `state.db` has: it is copied into our store under the
//! same id (Hermes' file is never written) and from then on lives here, so load replays it and
//! the next prompt continues it with its whole history.

use super::{SessionError, SessionManager};
use crate::store::SessionRecord;
use crate::transcript::Message;

impl SessionManager {
    /// The stored row and history of `id` after copying it from Hermes; `NotFound` when Hermes
    /// does not have it either.
    pub(super) async fn import_from_hermes(&self, id: &str) -> Result<(SessionRecord, Vec<Message>), SessionError> {
        let not_found = || SessionError::NotFound(id.to_string());
        let (session, history) = self.services.hermes_sessions.load(id).await.ok_or_else(not_found)?;
        // Hermes' model only means something to the provider it came from.
        let same_provider = match (&session.provider, self.provider()) {
            (Some(theirs), Ok((ours, _))) => *theirs == ours.id,
            _ => false,
        };
        let model = (session.model.clone())
            .filter(|_| same_provider)
            .unwrap_or_else(|| self.default_model());
        tracing::info!(
            session = id,
            messages = history.len(),
            "continuing a session Hermes saved"
        );
        self.store().import_hermes_session(&session, model, history).await?;
        self.store().load_session(id).await?.ok_or_else(not_found)
    }
}
