//! Sessions as they would be, for `session/options`: a new one with the request's folders, or
//! a stored one with its own settings — built in memory only, never stored, registered in the
//! live map or connected to MCP servers.

use std::sync::Arc;

use super::setup::SessionSetup;
use super::{SessionError, SessionManager};
use crate::session::Session;

impl SessionManager {
    /// What `session/new` with `setup` would start.
    pub async fn preview(&self, setup: &SessionSetup) -> Result<Arc<Session>, SessionError> {
        let settings = self.fresh_settings(setup).await?;
        Ok(Arc::new(Session::new(
            String::new(),
            settings,
            Vec::new(),
            self.offered_tools(),
        )))
    }

    /// The session `id` as load or resume would bring it back: the live one, else its stored
    /// settings (a session only Hermes saved is imported on this first look, as load would).
    pub async fn peek(&self, id: &str) -> Result<Arc<Session>, SessionError> {
        if let Some(live) = self.get(id) {
            return Ok(live);
        }
        match self.store().load_session(id).await? {
            Some((record, _)) => Ok(Arc::new(Session::new(
                record.id.clone(),
                self.stored_settings(&record),
                Vec::new(),
                self.offered_tools(),
            ))),
            None => self.get_or_restore(id).await,
        }
    }
}
