//! The `Agent.v1()` builder: one small closure per ACP method, each delegating to a handler
//! function in `handlers`. Work that may take more than a moment runs on a tokio task that owns
//! the responder, so the dispatch loop keeps serving other sessions and `session/cancel`.

use std::future::Future;
use std::sync::Arc;

use agent_client_protocol::v1::Responder;
use agent_client_protocol::v1::schema::{
    AuthenticateRequest, CancelNotification, CloseSessionRequest, DeleteSessionRequest, ForkSessionRequest,
    InitializeRequest, ListSessionsRequest, LoadSessionRequest, LogoutRequest, NewSessionRequest, PromptRequest,
    ResumeSessionRequest, SetSessionConfigOptionRequest, SetSessionModeRequest,
};
use agent_client_protocol::{
    Agent, Client, ConnectTo, Error, JsonRpcResponse, on_receive_notification, on_receive_request,
};

use super::handlers;
use super::state::AcpState;
use super::wire::{self, WireLimits};

/// Answers `responder` from a tokio task running `work`.
fn spawn_reply<T, F>(responder: Responder<T>, work: F)
where
    T: JsonRpcResponse + Send + 'static,
    F: Future<Output = Result<T, Error>> + Send + 'static,
{
    tokio::spawn(async move {
        if let Err(e) = responder.respond_with_result(work.await) {
            tracing::debug!(error = %e, "could not send a response (connection closing?)");
        }
    });
}

/// Answers `responder` with `work` after every earlier settings change (arrival order).
fn serial_reply<T, F>(state: &AcpState, responder: Responder<T>, work: F)
where
    T: JsonRpcResponse + Send + 'static,
    F: Future<Output = Result<T, Error>> + Send + 'static,
{
    state.serially(Box::pin(async move {
        if let Err(e) = responder.respond_with_result(work.await) {
            tracing::debug!(error = %e, "could not send a response (connection closing?)");
        }
    }));
}

/// The ACP agent over `state`, ready to connect to a transport.
pub fn agent(state: Arc<AcpState>) -> impl ConnectTo<Client> {
    let (s1, s2, s3, s4, s5, s6, s7) = (
        state.clone(),
        state.clone(),
        state.clone(),
        state.clone(),
        state.clone(),
        state.clone(),
        state.clone(),
    );
    let (s8, s9, s10, s11, s12, s13, s14) = (
        state.clone(),
        state.clone(),
        state.clone(),
        state.clone(),
        state.clone(),
        state.clone(),
        state,
    );
    Agent
        .v1()
        .name("hermes-acp")
        .on_receive_request(
            async move |req: InitializeRequest, responder, _cx| {
                responder.respond(handlers::lifecycle::initialize(&s1, req))
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |req: AuthenticateRequest, responder, _cx| {
                let state = s2.clone();
                spawn_reply(responder, async move {
                    handlers::lifecycle::authenticate(&state, req).await
                });
                Ok(())
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |_req: LogoutRequest, responder, _cx| {
                responder.respond_with_result(handlers::lifecycle::logout(&s3))
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |req: NewSessionRequest, responder, cx| {
                let state = s4.clone();
                tokio::spawn(async move { handlers::sessions::new_session(&state, req, responder, cx).await });
                Ok(())
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |req: LoadSessionRequest, responder, cx| {
                let state = s5.clone();
                tokio::spawn(async move { handlers::sessions::load_session(&state, req, responder, cx).await });
                Ok(())
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |req: ResumeSessionRequest, responder, cx| {
                let state = s6.clone();
                tokio::spawn(async move { handlers::sessions::resume_session(&state, req, responder, cx).await });
                Ok(())
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |req: ForkSessionRequest, responder, cx| {
                let state = s7.clone();
                tokio::spawn(async move { handlers::sessions::fork_session(&state, req, responder, cx).await });
                Ok(())
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |req: ListSessionsRequest, responder, _cx| {
                let state = s8.clone();
                spawn_reply(responder, async move {
                    handlers::sessions::list_sessions(&state, req).await
                });
                Ok(())
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |req: CloseSessionRequest, responder, _cx| {
                let state = s9.clone();
                spawn_reply(responder, async move {
                    handlers::sessions::close_session(&state, req).await
                });
                Ok(())
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |req: DeleteSessionRequest, responder, _cx| {
                let state = s10.clone();
                spawn_reply(responder, async move {
                    handlers::sessions::delete_session(&state, req).await
                });
                Ok(())
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |req: SetSessionConfigOptionRequest, responder, cx| {
                let state = s11.clone();
                serial_reply(&s11, responder, async move {
                    handlers::settings::set_config_option(&state, req, cx).await
                });
                Ok(())
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |req: SetSessionModeRequest, responder, cx| {
                let state = s12.clone();
                serial_reply(&s12, responder, async move {
                    handlers::settings::set_mode(&state, req, cx).await
                });
                Ok(())
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |req: PromptRequest, responder, cx| {
                handlers::prompt::start_prompt(s13.clone(), req, responder, cx);
                Ok(())
            },
            on_receive_request!(),
        )
        .on_receive_notification(
            async move |n: CancelNotification, _cx| {
                handlers::prompt::cancel(&s14, &n.session_id.0);
                Ok(())
            },
            on_receive_notification!(),
        )
}

/// Serves ACP on stdin/stdout until the editor closes stdin or `shutdown` completes (a
/// signal); either way every session is closed (turns stopped, process groups killed).
pub async fn serve_stdio(
    state: Arc<AcpState>,
    limits: WireLimits,
    shutdown: impl Future<Output = ()>,
) -> Result<(), Error> {
    let manager = state.manager.clone();
    let result = wire::serve_stdio(agent(state), limits, shutdown).await;
    // Stdin closed or a signal: stop every turn, kill process groups, release terminals.
    manager.close_all().await;
    result
}
