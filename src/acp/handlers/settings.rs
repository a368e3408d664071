//! `session/set_config_option` and `session/set_mode`: work at any time (also mid-turn),
//! persist per session, and announce the change with `config_option_update` /
//! `current_mode_update`.

use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    ConfigOptionUpdate, CurrentModeUpdate, SessionConfigOptionValue, SessionUpdate, SetSessionConfigOptionRequest,
    SetSessionConfigOptionResponse, SetSessionModeRequest, SetSessionModeResponse,
};
use agent_client_protocol::{Client, Error};

use crate::acp::errors::{invalid_params, to_rpc};
use crate::acp::modes::{notify, switch_and_announce};
use crate::acp::options::{
    AUTO_COMPACT_OPTION, EFFORT_OPTION, MODE_OPTION, MODEL_OPTION, config_options, toggle_value,
};
use crate::acp::state::AcpState;
use crate::session::Session;

pub async fn set_config_option(
    state: &AcpState,
    req: SetSessionConfigOptionRequest,
    cx: ConnectionTo<Client>,
) -> Result<SetSessionConfigOptionResponse, Error> {
    let session = state.manager.get_or_restore(&req.session_id.0).await.map_err(to_rpc)?;
    if apply_option(state, &session, &req.config_id.0, &req.value).await? {
        let mode = session.settings().mode.id().to_string();
        notify(
            &cx,
            &session,
            SessionUpdate::CurrentModeUpdate(CurrentModeUpdate::new(mode)),
        );
    }
    Ok(announce(state, &session, &cx).await)
}

/// Sets one config option of `session`, announcing nothing; `Ok(true)` when it was the mode.
/// Shared by `session/set_config_option` and the initial options of a session setup request.
pub async fn apply_option(
    state: &AcpState,
    session: &Session,
    config_id: &str,
    value: &SessionConfigOptionValue,
) -> Result<bool, Error> {
    if config_id == AUTO_COMPACT_OPTION {
        let Some(on) = toggle_value(value) else {
            return Err(invalid_params(format!(
                "config option '{AUTO_COMPACT_OPTION}' takes \"on\" or \"off\" (or a boolean: `{{\"type\": \"boolean\", \"value\": true}}`)"
            )));
        };
        state.manager.set_auto_compact(session, on).await.map_err(to_rpc)?;
        return Ok(false);
    }
    let Some(value) = value.as_value_id().map(|v| v.0.to_string()) else {
        return Err(invalid_params(format!(
            "config option '{config_id}' takes a value id, not a boolean"
        )));
    };
    match config_id {
        MODEL_OPTION => state.manager.set_model(session, &value).await.map_err(to_rpc)?,
        MODE_OPTION => {
            state.manager.set_mode(session, &value).await.map_err(to_rpc)?;
            return Ok(true);
        }
        EFFORT_OPTION => state
            .manager
            .set_reasoning_effort(session, &value)
            .await
            .map_err(to_rpc)?,
        other => {
            return Err(invalid_params(format!(
                "unknown config option '{other}'; this agent offers '{MODEL_OPTION}', '{MODE_OPTION}', '{EFFORT_OPTION}' and '{AUTO_COMPACT_OPTION}'"
            )));
        }
    }
    Ok(false)
}

/// Announces the session's options after a change made elsewhere (`/model`: the model and the
/// reasoning levels it offers).
pub async fn announce_options(state: &AcpState, session: &Session, cx: &ConnectionTo<Client>) {
    announce(state, session, cx).await;
}

/// The session's options after a change, announced with `config_option_update` and returned.
async fn announce(state: &AcpState, session: &Session, cx: &ConnectionTo<Client>) -> SetSessionConfigOptionResponse {
    let options = config_options(&state.manager, session, state.supports_boolean_options()).await;
    notify(
        cx,
        session,
        SessionUpdate::ConfigOptionUpdate(ConfigOptionUpdate::new(options.clone())),
    );
    SetSessionConfigOptionResponse::new(options)
}

pub async fn set_mode(
    state: &AcpState,
    req: SetSessionModeRequest,
    cx: ConnectionTo<Client>,
) -> Result<SetSessionModeResponse, Error> {
    let session = state.manager.get_or_restore(&req.session_id.0).await.map_err(to_rpc)?;
    switch_and_announce(
        &state.manager,
        &session,
        &req.mode_id.0,
        &cx,
        state.supports_boolean_options(),
    )
    .await
    .map_err(to_rpc)?;
    Ok(SetSessionModeResponse::new())
}
