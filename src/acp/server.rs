//! The `Agent.v1()` builder as a table: one line per ACP method naming how its reply is made
//! and the handler in `handlers` that makes it. Work that may take more than a moment runs on
//! a tokio task that owns the responder, so the dispatch loop keeps serving other sessions and
//! `session/cancel`. Every request runs inside a `request` span (method, id).

use std::future::Future;
use std::sync::Arc;

use agent_client_protocol::v1::Responder;
use agent_client_protocol::v1::schema::{
    AuthenticateRequest, CancelNotification, CloseSessionRequest, DeleteSessionRequest, ForkSessionRequest,
    InitializeRequest, ListSessionsRequest, LoadSessionRequest, LogoutRequest, NewSessionRequest, PromptRequest,
    ResumeSessionRequest, SessionOptionsRequest, SetSessionConfigOptionRequest, SetSessionModeRequest,
};
use agent_client_protocol::{
    Agent, Client, ConnectTo, Error, JsonRpcResponse, on_receive_notification, on_receive_request,
};
use tracing::Instrument;

use super::handlers::steering::{self, SteeringRequest};
use super::handlers::{lifecycle, options, prompt, sessions, settings};
use super::state::AcpState;
use super::wire::{self, WireLimits};

/// Sends `result` as the answer; a failure only means the connection is closing.
fn reply<T: JsonRpcResponse>(responder: Responder<T>, result: Result<T, Error>) {
    if let Err(e) = responder.respond_with_result(result) {
        tracing::debug!(error = %e, "could not send a response (connection closing?)");
    }
}

/// The span every request runs in, so the log lines of one request read together.
fn request_span<T: JsonRpcResponse>(responder: &Responder<T>) -> tracing::Span {
    tracing::info_span!("request", method = responder.method(), id = ?responder.id())
}

/// Registers one ACP request on the builder. The reply modes:
/// - `now`: `fn(&AcpState, Req) -> Result<Resp, Error>`, answered on the dispatch loop (cheap);
/// - `task`: `async fn(&AcpState, Req) -> Result<Resp, Error>`, answered from its own task;
/// - `serial`: `async fn(&AcpState, Req, cx) -> Result<Resp, Error>`, queued behind the same
///   session's earlier settings changes (arrival order), answered when done;
/// - `owns`: `async fn(&AcpState, Req, Responder, cx)` on its own task, answering itself (it
///   sends notifications that must follow the answer);
/// - `starts`: `fn(Arc<AcpState>, Req, Responder, cx)` on the dispatch loop, answering itself
///   (it admits the prompt before any other message is read, then spawns);
/// - `shared`: `async fn(Arc<AcpState>, Req, cx) -> Result<Resp, Error>` on its own task, for
///   handlers that start work outliving the request.
macro_rules! route {
    ($agent:expr, $state:expr, now $req:ty => $handler:path) => {{
        let state = $state.clone();
        $agent.on_receive_request(
            async move |req: $req, responder, _cx| {
                let _span = request_span(&responder).entered();
                reply(responder, $handler(&state, req));
                Ok(())
            },
            on_receive_request!(),
        )
    }};
    ($agent:expr, $state:expr, task $req:ty => $handler:path) => {{
        let state = $state.clone();
        $agent.on_receive_request(
            async move |req: $req, responder, _cx| {
                let (state, span) = (state.clone(), request_span(&responder));
                tokio::spawn(async move { reply(responder, $handler(&state, req).await) }.instrument(span));
                Ok(())
            },
            on_receive_request!(),
        )
    }};
    ($agent:expr, $state:expr, serial $req:ty => $handler:path) => {{
        let state = $state.clone();
        $agent.on_receive_request(
            async move |req: $req, responder, cx| {
                let (queue, span) = (state.clone(), request_span(&responder));
                let (state, session) = (state.clone(), req.session_id.0.to_string());
                let work = async move { reply(responder, $handler(&state, req, cx).await) };
                queue.serially(&session, Box::pin(work.instrument(span)));
                Ok(())
            },
            on_receive_request!(),
        )
    }};
    ($agent:expr, $state:expr, owns $req:ty => $handler:path) => {{
        let state = $state.clone();
        $agent.on_receive_request(
            async move |req: $req, responder, cx| {
                let (state, span) = (state.clone(), request_span(&responder));
                tokio::spawn(async move { $handler(&state, req, responder, cx).await }.instrument(span));
                Ok(())
            },
            on_receive_request!(),
        )
    }};
    ($agent:expr, $state:expr, shared $req:ty => $handler:path) => {{
        let state = $state.clone();
        $agent.on_receive_request(
            async move |req: $req, responder, cx| {
                let (state, span) = (state.clone(), request_span(&responder));
                tokio::spawn(async move { reply(responder, $handler(state, req, cx).await) }.instrument(span));
                Ok(())
            },
            on_receive_request!(),
        )
    }};
    ($agent:expr, $state:expr, starts $req:ty => $handler:path) => {{
        let state = $state.clone();
        $agent.on_receive_request(
            async move |req: $req, responder, cx| {
                let _span = request_span(&responder).entered();
                $handler(state.clone(), req, responder, cx);
                Ok(())
            },
            on_receive_request!(),
        )
    }};
}

/// The ACP agent over `state`, ready to connect to a transport.
pub fn agent(state: Arc<AcpState>) -> impl ConnectTo<Client> {
    let agent = Agent.v1().name("hermes-acp");
    let agent = route!(agent, state, now InitializeRequest => lifecycle::initialize);
    let agent = route!(agent, state, task AuthenticateRequest => lifecycle::authenticate);
    let agent = route!(agent, state, now LogoutRequest => lifecycle::logout);
    let agent = route!(agent, state, owns NewSessionRequest => sessions::new_session);
    let agent = route!(agent, state, owns LoadSessionRequest => sessions::load_session);
    let agent = route!(agent, state, owns ResumeSessionRequest => sessions::resume_session);
    let agent = route!(agent, state, owns ForkSessionRequest => sessions::fork_session);
    let agent = route!(agent, state, task ListSessionsRequest => sessions::list_sessions);
    let agent = route!(agent, state, task SessionOptionsRequest => options::session_options);
    let agent = route!(agent, state, task CloseSessionRequest => sessions::close_session);
    let agent = route!(agent, state, task DeleteSessionRequest => sessions::delete_session);
    let agent = route!(agent, state, serial SetSessionConfigOptionRequest => settings::set_config_option);
    let agent = route!(agent, state, serial SetSessionModeRequest => settings::set_mode);
    let agent = route!(agent, state, starts PromptRequest => prompt::start_prompt);
    let agent = route!(agent, state, shared SteeringRequest => steering::steer);
    // The one notification: cancelling must never wait behind anything.
    agent.on_receive_notification(
        async move |n: CancelNotification, _cx| {
            let _span = tracing::info_span!("notification", method = "session/cancel").entered();
            prompt::cancel(&state, &n.session_id.0);
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
    let traffic = state.traffic.clone();
    let result = wire::serve_stdio(agent(state), limits, traffic, shutdown).await;
    // Stdin closed or a signal: stop every turn, kill process groups, release terminals.
    manager.close_all().await;
    result
}
