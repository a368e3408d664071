//! Running the tool calls of one model response: announce every card first (in the model's
//! order), run them concurrently — an interactive tool alone — and return the results in the
//! original order. On cancel the running calls get a short grace to wind down on their own (they
//! see the same cancellation: a local command kills its process group, an editor terminal is
//! killed and released) before they are dropped; calls that did not finish are answered with a
//! cancellation error so the history stays valid for the provider.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use futures::stream::FuturesUnordered;
use tracing::Instrument;

use super::events::{AgentEvent, arguments_value};
use super::scope::TurnContext;
use crate::runtime::{SessionScope, ToolContext, ToolOutput};
use crate::transcript::ToolCall;

/// Runs `calls`; returns one output per call (same order) and whether the turn was cancelled.
/// `session` is the turn's session scope as of this model call (its tools may have changed
/// since the turn began).
pub async fn run_tool_calls(
    ctx: &TurnContext,
    session: &Arc<SessionScope>,
    calls: &[ToolCall],
) -> (Vec<ToolOutput>, bool) {
    for call in calls {
        let arguments = arguments_value(&call.arguments);
        ctx.turn
            .events
            .emit(AgentEvent::tool_started(session, &call.id, &call.name, arguments));
    }
    let mut results: Vec<Option<ToolOutput>> = vec![None; calls.len()];
    let mut cancelled = false;
    // Consecutive non-interactive calls form a batch that runs concurrently; an interactive
    // call is a batch of its own.
    let mut start = 0;
    while start < calls.len() && !cancelled {
        let end = if session.tools.is_interactive(&calls[start].name) {
            start + 1
        } else {
            (start..calls.len())
                .find(|&i| session.tools.is_interactive(&calls[i].name))
                .unwrap_or(calls.len())
        };
        cancelled = run_batch(ctx, session, calls, start..end, &mut results).await;
        start = end;
    }
    let outputs = results
        .into_iter()
        .zip(calls)
        .map(|(result, call)| {
            result.unwrap_or_else(|| {
                let output = ToolOutput::error("Cancelled: the user stopped the turn before this tool call finished.");
                finished(ctx, session, call, &output, Duration::ZERO);
                output
            })
        })
        .collect();
    (outputs, cancelled)
}

async fn run_batch(
    ctx: &TurnContext,
    session: &Arc<SessionScope>,
    calls: &[ToolCall],
    range: std::ops::Range<usize>,
    results: &mut [Option<ToolOutput>],
) -> bool {
    let progress: Arc<dyn crate::runtime::ToolProgress> = Arc::new(super::events::SinkProgress {
        sink: ctx.turn.events.clone(),
        session: session.clone(),
    });
    let mut running: FuturesUnordered<_> = range
        .map(|index| {
            let call = &calls[index];
            let tool_ctx = ToolContext::new(
                session.clone(),
                ctx.services.tools.clone(),
                call.id.clone(),
                ctx.turn.cancel.child_token(),
            )
            .with_progress(progress.clone());
            let span = tracing::info_span!("tool", name = %call.name, call_id = %call.id);
            async move {
                ctx.turn.events.emit(AgentEvent::ToolRunning {
                    call_id: call.id.clone(),
                    name: call.name.clone(),
                });
                let started = Instant::now();
                let output = session.tools.dispatch(&tool_ctx, &call.name, &call.arguments).await;
                (index, output, started.elapsed())
            }
            .instrument(span)
        })
        .collect();
    let mut finish = |(index, output, duration): (usize, ToolOutput, Duration)| {
        let call = &calls[index];
        finished(ctx, session, call, &output, duration);
        results[index] = Some(output);
    };
    loop {
        tokio::select! {
            biased;
            _ = ctx.turn.cancel.cancelled() => break,
            next = running.next() => match next {
                None => return false,
                Some(done) => finish(done),
            }
        }
    }
    // Cancelled: the calls wind down themselves (bounded); whatever is left is dropped.
    let wind_down = async {
        while let Some(done) = running.next().await {
            finish(done);
        }
    };
    if tokio::time::timeout(CANCEL_GRACE, wind_down).await.is_err() {
        tracing::warn!("tool calls did not stop within the cancel grace; dropping them");
    }
    true
}

/// Ends `call`'s card with `output`.
fn finished(ctx: &TurnContext, session: &SessionScope, call: &ToolCall, output: &ToolOutput, duration: Duration) {
    let arguments = arguments_value(&call.arguments);
    let event = AgentEvent::tool_finished(session, &call.id, &call.name, arguments, output.clone(), duration);
    ctx.turn.events.emit(event);
}

/// How long cancelled calls get to stop on their own: a local command's SIGTERM→SIGKILL grace
/// plus its output drain, or an editor terminal's kill and release, fit well within it.
const CANCEL_GRACE: Duration = Duration::from_secs(3);
