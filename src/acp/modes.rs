//! A session's mode changing: `session/set_mode`, the `mode` config option and an approved
//! plan all persist the mode, then announce it with `current_mode_update` and the session's
//! `config_option_update` (clients that build their pickers from either stay in step). The
//! plan tool reaches this through `ModeSwitch`, implemented here over the editor connection.

use std::sync::Arc;

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{ConfigOptionUpdate, CurrentModeUpdate, SessionNotification, SessionUpdate};
use futures::future::BoxFuture;

use crate::acp::options::config_options;
use crate::runtime::seams::modes::ModeSwitch;
use crate::safety::policy::Mode;
use crate::session::{Session, SessionError, SessionManager};

/// Switches `session` to the mode `id` (persisted) and announces both updates.
/// `boolean`: the client renders boolean config options.
pub async fn switch_and_announce(
    manager: &SessionManager,
    session: &Session,
    id: &str,
    cx: &ConnectionTo<Client>,
    boolean: bool,
) -> Result<(), SessionError> {
    manager.set_mode(session, id).await?;
    notify(
        cx,
        session,
        SessionUpdate::CurrentModeUpdate(CurrentModeUpdate::new(id.to_string())),
    );
    let options = config_options(manager, session, boolean).await;
    notify(
        cx,
        session,
        SessionUpdate::ConfigOptionUpdate(ConfigOptionUpdate::new(options)),
    );
    Ok(())
}

/// Sends one `session/update` for `session`; a failure only means the connection is closing.
pub fn notify(cx: &ConnectionTo<Client>, session: &Session, update: SessionUpdate) {
    if let Err(e) = cx.send_notification(SessionNotification::new(session.id.clone(), update)) {
        tracing::debug!(error = %e, "could not send session/update");
    }
}

/// The plan tool's switch for one turn of `session`.
pub struct AcpModeSwitch {
    pub manager: Arc<SessionManager>,
    pub session: Arc<Session>,
    pub cx: ConnectionTo<Client>,
    /// The client renders boolean config options.
    pub boolean_options: bool,
}

impl ModeSwitch for AcpModeSwitch {
    fn switch<'a>(&'a self, mode: Mode) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            switch_and_announce(&self.manager, &self.session, mode.id(), &self.cx, self.boolean_options)
                .await
                .map_err(|e| e.to_string())
        })
    }
}
