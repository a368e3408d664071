//! `session/prompt` and `session/cancel`. The prompt handler admits the prompt (so it can be
//! cancelled from that moment) and starts a tokio task: the turn streams its updates from there,
//! may await the editor (permissions, files, terminals), and answers the prompt last, after
//! every update of the turn. `session/cancel` cancels every prompt of the session;
//! `$/cancel_request` cancels exactly the prompt it names. Cancelled prompts answer `cancelled`.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures::FutureExt;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use agent_client_protocol::v1::schema::{
    ContentBlock, ContentChunk, Cost, PromptRequest, PromptResponse, SessionInfoUpdate, SessionUpdate, StopReason,
    Usage, UsageUpdate,
};
use agent_client_protocol::v1::{ConnectionTo, Responder};
use agent_client_protocol::{Client, Error, RequestCancellation};

use crate::acp::client::EditorFs;
use crate::acp::commands;
use crate::acp::convert;
use crate::acp::elicitation::AcpClarifier;
use crate::acp::errors::to_rpc;
use crate::acp::events::AcpEventSink;
use crate::acp::keepalive::Keepalive;
use crate::acp::modes::AcpModeSwitch;
use crate::acp::permissions::AcpApprover;
use crate::acp::state::AcpState;
use crate::acp::subagents::AcpSubagents;
use crate::acp::terminals::EditorTerminals;
use crate::agent::{self, Sink};
use crate::runtime::seams::clarify::{Clarifier, NoClarifier};
use crate::runtime::{LocalTerminals, TerminalHost};
use crate::session::{Session, TurnSeams, TurnTicket};
use crate::store::{iso8601, now_ms};
use crate::transcript::Message;

/// Admits the prompt (its cancel token exists from now on, before any await), starts the turn
/// on its own task and returns at once. `$/cancel_request` cancels exactly this prompt; a panic
/// in the turn is answered as an internal error and the prompt still leaves the registry.
pub fn start_prompt(
    state: Arc<AcpState>,
    req: PromptRequest,
    responder: Responder<PromptResponse>,
    cx: ConnectionTo<Client>,
) {
    let rpc_cancel = responder.cancellation();
    start_turn(state, req, cx, Some(rpc_cancel), move |result| {
        if let Err(e) = responder.respond_with_result(result) {
            tracing::debug!(error = %e, "could not answer session/prompt");
        }
    });
}

/// Admits a turn and runs it on its own task; `answer` receives how it ended (after every
/// update of the turn). Used by `session/prompt` and by steering when the session is idle.
pub fn start_turn(
    state: Arc<AcpState>,
    req: PromptRequest,
    cx: ConnectionTo<Client>,
    rpc_cancel: Option<RequestCancellation>,
    answer: impl FnOnce(Result<PromptResponse, Error>) + Send + 'static,
) {
    let ticket = state.manager.turns().admit(&req.session_id.0);
    run_admitted(state, req, cx, ticket, rpc_cancel, answer);
}

/// Runs a prompt already admitted (`ticket`) on its own task; see `start_turn`.
pub fn run_admitted(
    state: Arc<AcpState>,
    req: PromptRequest,
    cx: ConnectionTo<Client>,
    ticket: TurnTicket,
    rpc_cancel: Option<RequestCancellation>,
    answer: impl FnOnce(Result<PromptResponse, Error>) + Send + 'static,
) {
    // A child of the request span: the turn's model calls and tool calls log beneath it.
    let span = tracing::info_span!("turn", session_id = %req.session_id.0);
    let turn = async move {
        let token = ticket.token().clone();
        let watch_rpc_cancel = async move {
            if let Some(rpc_cancel) = rpc_cancel {
                rpc_cancel.cancelled().await;
                token.cancel();
            }
            std::future::pending::<()>().await
        };
        let work = AssertUnwindSafe(run(&state, req, &cx, &ticket)).catch_unwind();
        let result = tokio::select! {
            result = work => result,
            () = watch_rpc_cancel => unreachable!("pending never completes"),
        };
        let result = result.unwrap_or_else(|panic| {
            let reason = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            tracing::error!(session = ticket.session_id(), %reason, "the turn panicked");
            Err(Error::internal_error().data(serde_json::json!(format!(
                "the turn failed unexpectedly (this is a bug in hermes-acp): {reason}"
            ))))
        });
        drop(ticket);
        answer(result);
    };
    tokio::spawn(turn.instrument(span));
}

async fn run(
    state: &AcpState,
    req: PromptRequest,
    cx: &ConnectionTo<Client>,
    ticket: &TurnTicket,
) -> Result<PromptResponse, Error> {
    let session = state.manager.get_or_restore(&req.session_id.0).await.map_err(to_rpc)?;
    let sink = Arc::new(
        AcpEventSink::new(
            cx.clone(),
            &session.id,
            state.supports_notices(),
            state.supports_compaction(),
        )
        .with_meter(session.meter.clone()),
    );
    let seams = seams(state, cx, &session, &sink, ticket.token());
    // Dropped when the turn ends, before the prompt is answered.
    let _keepalive = Keepalive::start(cx, &session.id, &state.traffic, state.manager.keepalive_interval());
    let model_before = session.settings().model;
    let command = match convert::plain_text(&req.prompt) {
        Some(text) => {
            let (sink, fs) = (sink.clone() as Sink, seams.fs.clone());
            commands::handle(state, &session, sink, &text, ticket.token(), fs).await
        }
        None => None,
    };
    let first = match command {
        Some(commands::Outcome::Reply(reply)) => {
            sink.say(&reply);
            if session.settings().model != model_before {
                // `/model` changed what the options offer (the model, its reasoning levels).
                super::settings::announce_options(state, &session, cx).await;
            }
            return Ok(PromptResponse::new(StopReason::EndTurn));
        }
        Some(commands::Outcome::Prompt(text)) => Message::user(text),
        None => match convert::prompt_to_message_blocking(req.prompt, session.settings().cwd).await {
            Some(message) => message,
            None => return Ok(PromptResponse::new(StopReason::EndTurn)),
        },
    };
    if let Some(notice) = state.manager.sandbox_notice_once() {
        agent::EventSink::emit(sink.as_ref(), agent::AgentEvent::Notice(notice));
    }
    let mut total = crate::transcript::Usage::default();
    let mut stop = StopReason::EndTurn;
    let mut context_tokens = None;
    let mut next = Some(first);
    // Prompts queued with `/queue` run after this one, inside this same request.
    while let Some(user) = next.take() {
        let result = state.manager.run_prompt(&session, user, seams.clone(), ticket).await;
        let outcome = match result {
            Ok(outcome) => outcome,
            Err(e) => {
                sink.close_open_cards("The turn failed before this tool call finished.");
                tracing::warn!(session = %session.id, error = %e, "prompt failed");
                return Err(to_rpc(e));
            }
        };
        total.add(&outcome.usage);
        context_tokens = outcome.context_tokens.or(context_tokens);
        stop = match outcome.stop {
            agent::StopReason::EndTurn => StopReason::EndTurn,
            agent::StopReason::MaxTokens => StopReason::MaxTokens,
            agent::StopReason::MaxTurnRequests => StopReason::MaxTurnRequests,
            agent::StopReason::Cancelled => StopReason::Cancelled,
        };
        if stop == StopReason::Cancelled {
            sink.close_open_cards("Cancelled by the user.");
            break;
        }
        sink.close_open_cards("The turn ended before this tool call finished.");
        announce_title(state, &session, &sink).await;
        if let Some(queued) = session.dequeue() {
            sink.send(SessionUpdate::UserMessageChunk(ContentChunk::new(ContentBlock::from(
                queued.clone(),
            ))));
            next = Some(Message::user(queued));
        }
    }
    // A cancelled turn's last report is older than what it appended since: measure again.
    if stop == StopReason::Cancelled {
        context_tokens = None;
    }
    if let Some(update) = usage_update(state, &session, context_tokens).await {
        sink.send(update);
    }
    Ok(PromptResponse::new(stop).usage(prompt_usage(&total)))
}

/// The prompt's token usage, left out when no model call reported any (a turn cancelled
/// before its first answer): zeros would read as a real count.
fn prompt_usage(total: &crate::transcript::Usage) -> Option<Usage> {
    if total.total() == 0 {
        return None;
    }
    Some(
        Usage::new(total.total(), total.input_tokens, total.output_tokens)
            .thought_tokens(Some(total.reasoning_tokens).filter(|n| *n > 0))
            .cached_read_tokens(Some(total.cache_read_tokens).filter(|n| *n > 0)),
    )
}

/// The editor seams of one prompt: permissions, files, terminals and questions through the
/// editor when it offers them.
fn seams(
    state: &AcpState,
    cx: &ConnectionTo<Client>,
    session: &Arc<Session>,
    sink: &Arc<AcpEventSink>,
    cancel: &CancellationToken,
) -> TurnSeams {
    let caps = state.client_caps();
    let approver = AcpApprover::new(
        cx.clone(),
        session.clone(),
        state.manager.approval_timeout(),
        cancel.clone(),
    );
    let fs = EditorFs::new(
        cx.clone(),
        &session.id,
        session.workspace.clone(),
        caps.fs.read_text_file,
        caps.fs.write_text_file,
    );
    let terminals: Arc<dyn TerminalHost> = if caps.terminal {
        Arc::new(EditorTerminals::new(cx.clone(), &session.id))
    } else {
        Arc::new(LocalTerminals)
    };
    // Questions wait as long as a permission request would (Hermes' clarify times out too).
    let clarifier: Arc<dyn Clarifier> = if caps.elicitation.as_ref().is_some_and(|e| e.form.is_some()) {
        Arc::new(AcpClarifier::new(
            cx.clone(),
            &session.id,
            state.manager.approval_timeout(),
        ))
    } else {
        Arc::new(NoClarifier)
    };
    TurnSeams {
        events: sink.clone() as Sink,
        approver: Arc::new(approver),
        fs: Arc::new(fs),
        terminals,
        clarifier,
        subagents: Some(subagents(state, cx, session, sink, caps.subagents.is_some())),
        modes: Arc::new(AcpModeSwitch {
            manager: state.manager.clone(),
            session: session.clone(),
            cx: cx.clone(),
            boolean_options: state.supports_boolean_options(),
        }),
    }
}

/// Where `delegate_task`'s children appear: sessions of their own when the editor shows them.
fn subagents(
    state: &AcpState,
    cx: &ConnectionTo<Client>,
    session: &Arc<Session>,
    sink: &Arc<AcpEventSink>,
    show_sessions: bool,
) -> Arc<dyn agent::delegation::SubagentHost> {
    Arc::new(AcpSubagents {
        cx: cx.clone(),
        session: session.clone(),
        parent: sink.clone(),
        show_sessions,
        cwd: session.settings().cwd,
        notices: state.supports_notices(),
        compaction: state.supports_compaction(),
        approval_timeout: state.manager.approval_timeout(),
        routes: state.subagents.clone(),
        open: Default::default(),
    })
}

/// How full the context is: the last call's reported tokens, else the session's measure of
/// its next request (see `SessionManager::context_used`); `None` — no update — when neither is
/// known.
pub async fn usage_update(state: &AcpState, session: &Session, reported: Option<u64>) -> Option<SessionUpdate> {
    let used = match reported {
        Some(tokens) => tokens,
        None => state.manager.context_used(session).await?,
    };
    let size = state.manager.context_window(&session.settings().model);
    let mut update = UsageUpdate::new(used, size);
    // ACP's `cost` is the session's cumulative cost; absent while no price is known.
    if let Some(amount) = session.meter.spend().session {
        update = update.cost(Cost::new(amount, crate::llm::pricing::CURRENCY));
    }
    if let Some(limits) = session.meter.rate_limits() {
        let mut meta = serde_json::Map::new();
        meta.insert("rateLimits".into(), limits.to_json());
        update = update.meta(meta);
    }
    Some(SessionUpdate::UsageUpdate(update))
}

/// After the first turn: a short title, stored and announced (a user's own title is kept).
async fn announce_title(state: &AcpState, session: &Session, sink: &AcpEventSink) {
    match state.manager.auto_title(session).await {
        Ok(Some(title)) => sink.send(SessionUpdate::SessionInfoUpdate(
            SessionInfoUpdate::new().title(title).updated_at(iso8601(now_ms())),
        )),
        Ok(None) => {}
        Err(e) => tracing::warn!(error = %e, "could not save the session title"),
    }
}

/// `session/cancel`: cancels every prompt of the session — the running turn and any prompt
/// still waiting (for the session to load, MCP servers, or the previous turn). An unknown or
/// idle session is a no-op, as notifications have no answer.
pub fn cancel(state: &AcpState, session_id: &str) {
    // A running subagent's session: only that child stops; its parent's turn goes on.
    if state.subagents.cancel(session_id) {
        tracing::info!(session = session_id, "cancel subagent");
        return;
    }
    let had_prompts = state.manager.cancel(session_id);
    tracing::info!(session = session_id, had_prompts, "cancel");
}
