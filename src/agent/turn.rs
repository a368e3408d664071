//! One prompt turn. The conversation is extended in place and every completed step (the user
//! message, each assistant message, each batch of tool results) is saved before the next step
//! starts, so a killed process loses at most the step in flight.

use std::collections::HashSet;
use std::sync::Arc;

use super::events::AgentEvent;
use super::scope::{TurnContext, TurnScope};
use super::{AgentError, step};
use crate::llm::retry::{CallOutcome, call_with_retry};
use crate::llm::{ChatRequest, StreamEvent};
use crate::runtime::SessionScope;
use crate::transcript::{Interruption, Message, MessageMeta, Part, Usage};

/// The note sent when the iteration budget is spent (Hermes sends a similar one).
const BUDGET_NOTE: &str = "You have reached the maximum number of tool-calling steps for this turn. \
Do not call any more tools. Summarise what you did, what is left to do, and anything the user should know.";

/// How a turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    EndTurn,
    MaxTokens,
    MaxTurnRequests,
    Cancelled,
}

/// The result of a turn.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnOutcome {
    pub stop: StopReason,
    /// Tokens used by this turn's model calls (not the session's running total).
    pub usage: Usage,
    /// Input plus output tokens of the last model call: how full the context is now (its
    /// answer joined the history).
    pub context_tokens: Option<u64>,
    /// Model calls made.
    pub model_calls: u32,
}

impl TurnOutcome {
    /// A prompt cancelled while it waited to start: nothing ran, nothing was stored.
    pub fn cancelled_before_start() -> TurnOutcome {
        TurnOutcome {
            stop: StopReason::Cancelled,
            usage: Usage::default(),
            context_tokens: None,
            model_calls: 0,
        }
    }
}

/// Runs one turn: appends `user` to `history` and loops until the model is done.
pub async fn run_turn(ctx: &TurnContext, history: &mut Vec<Message>, user: Message) -> Result<TurnOutcome, AgentError> {
    let mut outcome = TurnOutcome {
        stop: StopReason::EndTurn,
        usage: Usage::default(),
        context_tokens: None,
        model_calls: 0,
    };
    commit(ctx, history, vec![user]).await?;
    let turn = &ctx.turn;
    let mut session = ctx.session.clone();
    loop {
        // Before every model call: tools of an MCP server that died leave, new ones join.
        refresh_tools(turn, &mut session);
        // The mode can change mid-turn (an approved plan): the tools and the note follow it.
        let mode = session.state.mode();
        let schemas = session.tools.schemas_for(mode);
        let system_prompt = with_mode_note(turn, mode);
        let budget_spent = outcome.model_calls >= turn.max_iterations;
        if budget_spent {
            // One last tool-less call for a summary.
            commit(
                ctx,
                history,
                vec![with_meta(Message::user(BUDGET_NOTE), MessageMeta::budget_note())],
            )
            .await?;
        }
        let target = super::CompactionTarget {
            session_id: &session.session_id,
            provider: turn.provider.as_ref(),
            store: &ctx.services.store,
            events: &turn.events,
            cancel: &turn.cancel,
        };
        if !super::compaction::compact_if_due(&turn.compaction, &target, history, &system_prompt, &schemas).await? {
            outcome.stop = StopReason::Cancelled;
            return Ok(outcome);
        }
        let sent_len = history.len();
        let request = ChatRequest {
            model: turn.model.clone(),
            messages: provider_messages(&system_prompt, history),
            tools: if budget_spent { Vec::new() } else { schemas.clone() },
            max_tokens: None,
            reasoning_effort: turn.reasoning_effort,
        };
        outcome.model_calls += 1;
        let result = call_model(ctx, &request).await?;
        let assembled = match result {
            CallOutcome::Completed(done) => done,
            CallOutcome::Cancelled(partial) => {
                // Keep what the user already saw, without half-finished tool calls, marked as
                // interrupted so the next user message stays a message of its own.
                let mut message = partial.message;
                message.tool_calls.clear();
                if !message.parts.is_empty() || message.reasoning.is_some() {
                    commit(
                        ctx,
                        history,
                        vec![with_meta(message, MessageMeta::interrupted(Interruption::Cancelled))],
                    )
                    .await?;
                }
                outcome.stop = StopReason::Cancelled;
                return Ok(outcome);
            }
        };
        if let Some(usage) = assembled.usage {
            turn.compaction.record_call(usage.input_tokens, sent_len);
            outcome.usage.add(&usage);
            outcome.context_tokens = Some(usage.total());
        }
        let mut message = assembled.message;
        mint_call_ids(&mut message, history);
        let calls = message.tool_calls.clone();
        commit(ctx, history, vec![message]).await?;
        if budget_spent {
            outcome.stop = StopReason::MaxTurnRequests;
            return Ok(outcome);
        }
        if calls.is_empty() {
            if assembled.finish_reason.as_deref() == Some("length") {
                outcome.stop = StopReason::MaxTokens;
                return Ok(outcome);
            }
            // Guidance that arrived while the model wrote its answer: the turn goes on with it
            // (steering never cancels, and never waits for the next prompt).
            let guidance = take_guidance(turn, &session);
            if guidance.is_empty() || turn.cancel.is_cancelled() {
                return Ok(outcome);
            }
            commit(ctx, history, vec![Message::user(guidance_note(&guidance).trim_start())]).await?;
            continue;
        }
        let (outputs, cancelled) = step::run_tool_calls(ctx, &session, &calls).await;
        let mut results: Vec<Message> = calls
            .iter()
            .zip(outputs)
            .map(|(call, output)| {
                let mut msg = Message::tool_result(call, output.content.clone(), output.is_error);
                msg.meta.display = output.display;
                msg.parts
                    .extend(output.images.into_iter().map(|url| Part::Image { url }));
                msg
            })
            .collect();
        // `/steer` guidance sent while this turn runs rides on the last tool result, so the
        // model reads it before its next step (the reference's design).
        let guidance = take_guidance(turn, &session);
        if !guidance.is_empty()
            && let Some(last) = results.last_mut()
        {
            let note = guidance_note(&guidance);
            if let Some(crate::transcript::Part::Text { text }) = last.parts.first_mut() {
                text.push_str(&note);
            }
        }
        commit(ctx, history, results).await?;
        if cancelled || turn.cancel.is_cancelled() {
            outcome.stop = StopReason::Cancelled;
            return Ok(outcome);
        }
    }
}

/// The turn's system prompt with what the session's mode tells the model (plan mode's note),
/// for the session's own turns: a subagent works on its task, and the plan is its parent's.
fn with_mode_note(turn: &TurnScope, mode: crate::safety::policy::Mode) -> std::borrow::Cow<'_, str> {
    match crate::tools::plan::mode_note(mode).filter(|_| !turn.subagent) {
        Some(note) => format!("{}\n\n{note}", turn.system_prompt).into(),
        None => turn.system_prompt.as_str().into(),
    }
}

/// `/steer` guidance for this turn: the session's own turn takes it, a subagent never does.
fn take_guidance(turn: &TurnScope, session: &SessionScope) -> Vec<String> {
    if turn.subagent {
        return Vec::new();
    }
    session.state.take_guidance()
}

/// How `/steer` guidance reads to the model (the reference's wording).
fn guidance_note(guidance: &[String]) -> String {
    format!("\n\n[User guidance for the current task: {}]", guidance.join(" / "))
}

/// One model call: the main provider with its retries, then each fallback provider in order
/// (same conversation, its own model), announced to the editor. Nothing already streamed is
/// ever repeated: once text reached the user, a failure is reported instead.
async fn call_model(ctx: &TurnContext, request: &ChatRequest) -> Result<CallOutcome, AgentError> {
    let (turn, retry) = (&ctx.turn, &ctx.services.retry);
    let streamed = std::sync::atomic::AtomicBool::new(false);
    let events = turn.events.clone();
    let mut on_event = |event: &StreamEvent| match event {
        StreamEvent::Text(t) => {
            streamed.store(true, std::sync::atomic::Ordering::SeqCst);
            events.emit(AgentEvent::Text(t.clone()))
        }
        StreamEvent::Reasoning(r) => {
            streamed.store(true, std::sync::atomic::Ordering::SeqCst);
            events.emit(AgentEvent::Thought(r.clone()))
        }
        StreamEvent::RateLimits(limits) => events.emit(AgentEvent::RateLimits(*limits)),
        _ => {}
    };
    let retry_events = turn.events.clone();
    let mut on_retry = |notice: &crate::llm::RetryNotice| retry_events.emit(AgentEvent::Retrying(notice.clone()));
    let first = call_with_retry(
        turn.provider.as_ref(),
        request,
        retry,
        &turn.cancel,
        &mut on_event,
        &mut on_retry,
    )
    .await;
    let error = match first {
        Ok(outcome) => return Ok(outcome),
        Err(error) => error,
    };
    let mut from = turn.provider.id().to_string();
    for (provider, model) in &ctx.services.fallbacks {
        if streamed.load(std::sync::atomic::Ordering::SeqCst) {
            break;
        }
        turn.events.emit(AgentEvent::FallingBack {
            from: from.clone(),
            to: provider.id().to_string(),
            model: model.clone(),
            reason: error.short_reason(),
        });
        let mut attempt = request.clone();
        attempt.model = model.clone();
        match call_with_retry(
            provider.as_ref(),
            &attempt,
            retry,
            &turn.cancel,
            &mut on_event,
            &mut on_retry,
        )
        .await
        {
            Ok(outcome) => return Ok(outcome),
            Err(e) => {
                tracing::warn!(provider = provider.id(), error = %e, "fallback provider failed");
                from = provider.id().to_string();
            }
        }
    }
    Err(error.into())
}

/// Appends messages to the live history and saves them.
async fn commit(ctx: &TurnContext, history: &mut Vec<Message>, messages: Vec<Message>) -> Result<(), AgentError> {
    if ctx.turn.subagent {
        history.extend(messages);
        return Ok(());
    }
    ctx.services
        .store
        .append_messages(&ctx.session.session_id, messages.clone())
        .await?;
    history.extend(messages);
    Ok(())
}

fn with_meta(mut message: Message, meta: MessageMeta) -> Message {
    message.meta = meta;
    message
}

/// The messages sent to the provider: the system prompt, then the history without the parts
/// that only exist for the editor.
pub fn provider_messages(system_prompt: &str, history: &[Message]) -> Vec<Message> {
    let mut out = Vec::with_capacity(history.len() + 1);
    out.push(Message::system(system_prompt));
    for message in history {
        let interrupted_and_empty =
            message.meta.interrupted.is_some() && message.parts.is_empty() && message.tool_calls.is_empty();
        if interrupted_and_empty {
            continue;
        }
        let mut m = message.clone();
        m.meta = MessageMeta::default();
        out.push(m);
    }
    out
}

/// Gives every tool call a unique id: providers sometimes send none, or repeat one (Hermes bug
/// B20 loops on that). The id is what the editor card and the replay use.
fn mint_call_ids(message: &mut Message, history: &[Message]) {
    let mut seen: HashSet<String> = history
        .iter()
        .flat_map(|m| m.tool_calls.iter().map(|c| c.id.clone()))
        .collect();
    for call in &mut message.tool_calls {
        if call.id.is_empty() || seen.contains(&call.id) {
            call.id = format!("call_{}", &uuid::Uuid::new_v4().simple().to_string()[..24]);
        }
        seen.insert(call.id.clone());
    }
}

/// Brings the turn's session scope up to date before a model call, announcing what changed.
/// Tool calls already running keep the scope they started with.
fn refresh_tools(turn: &TurnScope, session: &mut Arc<SessionScope>) {
    let Some(live) = &turn.live_tools else {
        return;
    };
    let super::live_tools::ToolsRefresh { notices, tools } = live.refresh();
    for notice in notices {
        turn.events.emit(AgentEvent::Notice(notice));
    }
    if let Some(tools) = tools {
        *session = Arc::new(SessionScope {
            tools,
            ..session.as_ref().clone()
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::ToolCall;

    #[test]
    fn repeated_and_missing_ids_are_replaced() {
        let mut old = Message::assistant("");
        old.tool_calls.push(ToolCall {
            id: "call_1".into(),
            name: "a".into(),
            arguments: "{}".into(),
        });
        let mut new = Message::assistant("");
        for id in ["call_1", "", "call_2", "call_2"] {
            new.tool_calls.push(ToolCall {
                id: id.into(),
                name: "a".into(),
                arguments: "{}".into(),
            });
        }
        mint_call_ids(&mut new, &[old]);
        let ids: Vec<_> = new.tool_calls.iter().map(|c| c.id.clone()).collect();
        assert_ne!(ids[0], "call_1");
        assert!(!ids[1].is_empty());
        assert_eq!(ids[2], "call_2");
        assert_ne!(ids[3], "call_2");
        assert_eq!(ids.iter().collect::<HashSet<_>>().len(), 4);
    }
}
