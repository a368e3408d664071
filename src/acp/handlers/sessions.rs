//! Session lifecycle methods: new, load (with replay), resume (without), fork, list, close,
//! delete. Unknown ids are a JSON-RPC "resource not found" error, never a silent `{}`.

use std::path::{Path, PathBuf};

use agent_client_protocol::v1::schema::{
    CloseSessionRequest, CloseSessionResponse, DeleteSessionRequest, DeleteSessionResponse, ForkSessionRequest,
    ForkSessionResponse, InitialSessionConfigOption, ListSessionsRequest, ListSessionsResponse, LoadSessionRequest,
    LoadSessionResponse, McpServer, NewSessionRequest, NewSessionResponse, ResumeSessionRequest, ResumeSessionResponse,
    SessionInfo, SessionNotification, SystemPrompt,
};
use agent_client_protocol::v1::{ConnectionTo, Responder};
use agent_client_protocol::{Client, Error};

use super::super::commands;
use super::options;
use crate::acp::errors::to_rpc;
use crate::acp::options::{config_options, mode_state};
use crate::acp::replay;
use crate::acp::setup::session_setup;
use crate::acp::state::AcpState;
use crate::session::{Session, SessionError};

/// Sends the response, then the updates that must follow it (available commands).
fn respond_then<T: agent_client_protocol::JsonRpcResponse>(
    responder: Responder<T>,
    result: Result<T, Error>,
    cx: &ConnectionTo<Client>,
    session: Option<&Session>,
) {
    let ok = result.is_ok();
    if let Err(e) = responder.respond_with_result(result) {
        tracing::debug!(error = %e, "could not send a response");
        return;
    }
    if ok && let Some(session) = session {
        let update = commands::available_commands_update();
        if let Err(e) = cx.send_notification(SessionNotification::new(session.id.clone(), update)) {
            tracing::debug!(error = %e, "could not send available commands");
        }
    }
}

pub async fn new_session(
    state: &AcpState,
    req: NewSessionRequest,
    responder: Responder<NewSessionResponse>,
    cx: ConnectionTo<Client>,
) {
    let setup = match session_setup(&req.cwd, &req.additional_directories, req.system_prompt.as_ref())
        .and_then(|setup| options::check_initial(&req.config_options).map(|()| setup))
    {
        Ok(setup) => setup,
        Err(e) => return respond_then(responder, Err(e), &cx, None),
    };
    let session = match state.manager.create(&setup).await {
        Ok(s) => s,
        Err(e) => return respond_then(responder, Err(to_rpc(e)), &cx, None),
    };
    options::apply_initial(state, &session, &req.config_options).await;
    tracing::info!(session = %session.id, cwd = %req.cwd.display(), "session created");
    crate::acp::mcp::connect(state, &session, &req.mcp_servers, &cx);
    let response = NewSessionResponse::new(session.id.clone())
        .modes(mode_state(&state.manager, &session))
        .config_options(config_options(&state.manager, &session, state.supports_boolean_options()).await);
    respond_then(responder, Ok(response), &cx, Some(&session));
}

/// What a load and a resume request carry alike. The schema has them as two types with the same
/// fields, so [`reopening!`] borrows those fields once and both handlers reopen the same way.
struct Reopening<'a> {
    id: &'a str,
    cwd: &'a Path,
    additional_directories: &'a [PathBuf],
    system_prompt: Option<&'a SystemPrompt>,
    initial: &'a [InitialSessionConfigOption],
    mcp_servers: &'a [McpServer],
}

/// Borrows a [`Reopening`] from a `LoadSessionRequest` or a `ResumeSessionRequest` (a macro because
/// the two types share field names, not a trait).
macro_rules! reopening {
    ($req:expr) => {
        Reopening {
            id: &$req.session_id.0,
            cwd: &$req.cwd,
            additional_directories: &$req.additional_directories,
            system_prompt: $req.system_prompt.as_ref(),
            initial: &$req.config_options,
            mcp_servers: &$req.mcp_servers,
        }
    };
}

/// The stored or live session with the request's folders, prompt and options, connected to the
/// request's MCP servers: everything a load and a resume do before answering.
async fn reopen(
    state: &AcpState,
    request: Reopening<'_>,
    cx: &ConnectionTo<Client>,
) -> Result<std::sync::Arc<Session>, Error> {
    if !request.cwd.is_absolute() {
        return Err(to_rpc(SessionError::InvalidCwd(request.cwd.display().to_string())));
    }
    let setup = session_setup(request.cwd, request.additional_directories, request.system_prompt)?;
    options::check_initial(request.initial)?;
    let session = state.manager.get_or_restore(request.id).await.map_err(to_rpc)?;
    state.manager.update_setup(&session, &setup).await.map_err(to_rpc)?;
    options::apply_initial(state, &session, request.initial).await;
    crate::acp::mcp::connect(state, &session, request.mcp_servers, cx);
    Ok(session)
}

pub async fn load_session(
    state: &AcpState,
    req: LoadSessionRequest,
    responder: Responder<LoadSessionResponse>,
    cx: ConnectionTo<Client>,
) {
    let session = match reopen(state, reopening!(req), &cx).await {
        Ok(s) => s,
        Err(e) => return respond_then(responder, Err(e), &cx, None),
    };
    // The whole history goes out before the response (ACP requires it).
    let history = session.history().await;
    let cards = session.stored_cards(&history);
    let unreadable = state.manager.unreadable_messages(&session.id);
    let notice = replay::unreadable_notice(unreadable, state.supports_notices());
    for update in replay::updates(&history, &cards, state.supports_compaction())
        .into_iter()
        .chain(notice)
    {
        if let Err(e) = cx.send_notification(SessionNotification::new(session.id.clone(), update)) {
            tracing::debug!(error = %e, "replay interrupted");
            break;
        }
    }
    let response = LoadSessionResponse::new()
        .modes(mode_state(&state.manager, &session))
        .config_options(config_options(&state.manager, &session, state.supports_boolean_options()).await);
    respond_then(responder, Ok(response), &cx, Some(&session));
}

pub async fn resume_session(
    state: &AcpState,
    req: ResumeSessionRequest,
    responder: Responder<ResumeSessionResponse>,
    cx: ConnectionTo<Client>,
) {
    let session = match reopen(state, reopening!(req), &cx).await {
        Ok(s) => s,
        Err(e) => return respond_then(responder, Err(e), &cx, None),
    };
    let response = ResumeSessionResponse::new()
        .modes(mode_state(&state.manager, &session))
        .config_options(config_options(&state.manager, &session, state.supports_boolean_options()).await);
    respond_then(responder, Ok(response), &cx, Some(&session));
}

pub async fn fork_session(
    state: &AcpState,
    req: ForkSessionRequest,
    responder: Responder<ForkSessionResponse>,
    cx: ConnectionTo<Client>,
) {
    let setup = match session_setup(&req.cwd, &req.additional_directories, req.system_prompt.as_ref()) {
        Ok(setup) => setup,
        Err(e) => return respond_then(responder, Err(e), &cx, None),
    };
    let session = match state.manager.fork(&req.session_id.0, &setup).await {
        Ok(s) => s,
        Err(e) => return respond_then(responder, Err(to_rpc(e)), &cx, None),
    };
    crate::acp::mcp::connect(state, &session, &req.mcp_servers, &cx);
    let response = ForkSessionResponse::new(session.id.clone())
        .modes(mode_state(&state.manager, &session))
        .config_options(config_options(&state.manager, &session, state.supports_boolean_options()).await);
    respond_then(responder, Ok(response), &cx, Some(&session));
}

pub async fn list_sessions(state: &AcpState, req: ListSessionsRequest) -> Result<ListSessionsResponse, Error> {
    let (summaries, next) = state
        .manager
        .list(req.cwd.as_deref(), req.cursor)
        .await
        .map_err(to_rpc)?;
    let sessions = summaries
        .into_iter()
        .map(|s| {
            SessionInfo::new(s.id, s.cwd)
                .additional_directories(s.additional_directories.into_iter().map(PathBuf::from).collect())
                .title(s.title)
                .updated_at(s.updated_at)
        })
        .collect();
    Ok(ListSessionsResponse::new(sessions).next_cursor(next))
}

pub async fn close_session(state: &AcpState, req: CloseSessionRequest) -> Result<CloseSessionResponse, Error> {
    let id = req.session_id.0.to_string();
    state.forget_session(&id);
    if !state.manager.close(&id).await {
        // Not live: fine if it exists in the store (nothing to free), an error otherwise.
        let known = state.manager.exists(&id).await.map_err(to_rpc)?;
        if !known {
            return Err(to_rpc(SessionError::NotFound(id)));
        }
    }
    Ok(CloseSessionResponse::new())
}

pub async fn delete_session(state: &AcpState, req: DeleteSessionRequest) -> Result<DeleteSessionResponse, Error> {
    state.forget_session(&req.session_id.0);
    state.manager.delete(&req.session_id.0).await.map_err(to_rpc)?;
    Ok(DeleteSessionResponse::new())
}
