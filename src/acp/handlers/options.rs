//! `session/options` (unstable): the modes and config options a session would start with,
//! answered without creating, restoring into the editor or changing a session (nothing is
//! stored, no update is sent, no MCP server is started); and the initial config options a
//! client may send with `session/new`, `load`, `resume` and `fork`, applied in list order as if
//! set one by one after the setup — an unknown id, a value of the wrong type or one that is not
//! allowed is ignored, a duplicate id fails the request with -32602 before anything happens.

use std::collections::HashSet;

use agent_client_protocol::Error;
use agent_client_protocol::v1::schema::{InitialSessionConfigOption, SessionOptionsRequest, SessionOptionsResponse};

use super::settings::apply_option;
use crate::acp::errors::{invalid_params, to_rpc};
use crate::acp::options::{config_options, mode_state};
use crate::acp::setup::session_setup;
use crate::acp::state::AcpState;
use crate::session::Session;

pub async fn session_options(state: &AcpState, req: SessionOptionsRequest) -> Result<SessionOptionsResponse, Error> {
    let setup = session_setup(&req.cwd, &req.additional_directories, None)?;
    let session = match &req.session_id {
        // What load or resume would answer: the stored session's own settings.
        Some(id) => state.manager.peek(&id.0).await.map_err(to_rpc)?,
        None => state.manager.preview(&setup).await.map_err(to_rpc)?,
    };
    Ok(SessionOptionsResponse::new()
        .modes(mode_state(&state.manager, &session))
        .config_options(config_options(&state.manager, &session, state.supports_boolean_options()).await))
}

/// Refuses a list that names one option twice (malformed entries never get this far: the
/// request does not parse).
pub fn check_initial(options: &[InitialSessionConfigOption]) -> Result<(), Error> {
    let mut seen = HashSet::new();
    match options
        .iter()
        .find(|option| !seen.insert(option.config_id.0.to_string()))
    {
        Some(twice) => Err(invalid_params(format!(
            "configOptions names '{}' twice",
            twice.config_id.0
        ))),
        None => Ok(()),
    }
}

/// Applies the initial options in order; what cannot be applied is ignored, as the protocol
/// asks (the response's options say what the session has).
pub async fn apply_initial(state: &AcpState, session: &Session, options: &[InitialSessionConfigOption]) {
    for option in options {
        if let Err(e) = apply_option(state, session, &option.config_id.0, &option.value).await {
            tracing::debug!(option = %option.config_id.0, error = %e.message, "initial config option ignored");
        }
    }
}
