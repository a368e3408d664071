//! One child: where its events go, its scope and turn, the run, and its report. The child's
//! scope is the parent's with its own workspace (its shell `cd`s stay its own), its own tools
//! and approver, and a delegator only when it may nest; its turn is not persisted and leaves
//! `/steer` guidance to the parent.

use std::sync::Arc;
use std::time::Instant;

use super::Delegation;
use super::fold::{Board, FoldSink, NestedApprover};
use super::host::{ChildChannel, ChildEnd, ChildInfo, SubagentHost};
use crate::agent::compaction::CompactionPolicy;
use crate::agent::{CompactionSettings, Sink, StopReason, TurnContext, TurnScope, run_turn};
use crate::runtime::seams::delegate::{ChildExit, ChildReport, ChildRole, ChildTask, Delegator, TraceEntry};
use crate::runtime::{Approver, SessionScope, ToolContext};
use crate::sync::lock;
use crate::tools::delegate::{ChildState, child_system_prompt, child_tools};
use crate::transcript::{Message, Role, Usage};

pub(super) async fn run(
    delegation: &Delegation,
    parent: &ToolContext,
    board: &Arc<Board>,
    index: usize,
    task: &ChildTask,
) -> ChildReport {
    let started = Instant::now();
    let cancel = parent.cancel.child_token();
    let depth = delegation.depth + 1;
    let config = delegation.config();
    if cancel.is_cancelled() {
        board.update(index, Some(ChildState::Cancelled), None);
        return report(
            delegation,
            task,
            ChildExit::Interrupted,
            None,
            &[],
            Usage::default(),
            started,
        );
    }
    let id = uuid::Uuid::new_v4().to_string();
    let channel = delegation.host.as_ref().map(|host| {
        host.open(&ChildInfo {
            id: &id,
            goal: &task.goal,
            context: task.context.as_deref(),
            cancel: &cancel,
        })
    });
    // Dropped with this future too (a cancelled call past its grace): the child still ends.
    let mut closing = Closing {
        host: delegation.host.as_deref(),
        id: &id,
        end: ChildEnd::Cancelled,
    };
    let (events, approver): (Sink, Arc<dyn Approver>) = match channel {
        Some(ChildChannel {
            events: Some(sink),
            approver,
        }) => (sink, approver),
        other => {
            let inner = other.map_or_else(|| parent.session.approver.clone(), |c| c.approver);
            let sink = FoldSink {
                board: board.clone(),
                index,
                parent_call: parent.call_id.clone(),
            };
            let approver = NestedApprover {
                inner,
                parent_call: parent.call_id.clone(),
                index,
            };
            (Arc::new(sink), Arc::new(approver))
        }
    };
    board.update(index, Some(ChildState::Running), None);
    let may_delegate = task.role == ChildRole::Orchestrator && depth < config.max_spawn_depth;
    let workspace = parent.session.workspace.same_folders();
    let system_prompt = child_system_prompt(
        task,
        &workspace.root().display().to_string(),
        depth,
        config.max_spawn_depth,
    );
    let scope = SessionScope {
        workspace: Arc::new(workspace),
        tools: child_tools(&parent.session.tools, may_delegate),
        approver,
        delegator: may_delegate.then(|| Arc::new(delegation.deeper()) as Arc<dyn Delegator>),
        ..parent.session.as_ref().clone()
    };
    // No compaction: it rewrites stored rows, and a child has none (its budget bounds it).
    let compaction = CompactionSettings::new(
        CompactionPolicy {
            enabled: false,
            ..CompactionPolicy::default()
        },
        &delegation.model,
        None,
        crate::sync::Part::default(),
    );
    let ctx = TurnContext {
        services: delegation.services.clone(),
        session: Arc::new(scope),
        turn: TurnScope {
            provider: delegation.provider.clone(),
            model: delegation.model.clone(),
            system_prompt,
            max_iterations: config.max_iterations,
            cancel: cancel.clone(),
            events,
            compaction,
            live_tools: None,
            subagent: true,
            reasoning_effort: delegation.child_effort(),
        },
    };
    let mut history = Vec::new();
    let result = run_turn(&ctx, &mut history, Message::user(task.goal.clone())).await;
    let (exit, error, usage) = match result {
        Ok(outcome) => {
            let exit = match outcome.stop {
                StopReason::EndTurn | StopReason::MaxTokens => ChildExit::Completed,
                StopReason::MaxTurnRequests => ChildExit::MaxIterations,
                StopReason::Cancelled => ChildExit::Interrupted,
            };
            (exit, None, outcome.usage)
        }
        Err(e) => (ChildExit::Error, Some(e.to_string()), Usage::default()),
    };
    lock(&delegation.usage).add(&usage);
    let end = match (&exit, &error) {
        (ChildExit::Completed, _) => ChildEnd::Completed,
        (ChildExit::MaxIterations, _) => ChildEnd::MaxIterations,
        (ChildExit::Interrupted, _) => ChildEnd::Cancelled,
        (ChildExit::Error, e) => ChildEnd::Failed(e.clone().unwrap_or_default()),
    };
    let state = match end {
        ChildEnd::Completed | ChildEnd::MaxIterations => ChildState::Completed,
        ChildEnd::Cancelled => ChildState::Cancelled,
        ChildEnd::Failed(_) => ChildState::Failed,
    };
    closing.end = end;
    drop(closing);
    board.update(index, Some(state), None);
    report(delegation, task, exit, error, &history, usage, started)
}

/// Tells the host a child ended, whenever its run stops (finished or dropped).
struct Closing<'a> {
    host: Option<&'a dyn SubagentHost>,
    id: &'a str,
    end: ChildEnd,
}

impl Drop for Closing<'_> {
    fn drop(&mut self) {
        if let Some(host) = self.host {
            host.close(self.id, &self.end);
        }
    }
}

/// The child's report from its history: the last answer, model calls, tool trace, tokens.
fn report(
    delegation: &Delegation,
    task: &ChildTask,
    exit: ChildExit,
    error: Option<String>,
    history: &[Message],
    usage: Usage,
    started: Instant,
) -> ChildReport {
    let assistants = history.iter().filter(|m| m.role() == Role::Assistant);
    let summary = match exit {
        ChildExit::Interrupted | ChildExit::Error => String::new(),
        _ => (assistants.clone().next_back())
            .filter(|m| m.tool_calls.is_empty())
            .map(Message::text_content)
            .unwrap_or_default(),
    };
    let mut trace: Vec<(String, TraceEntry)> = Vec::new();
    for message in history {
        for call in &message.tool_calls {
            let entry = TraceEntry {
                tool: call.name.clone(),
                args_bytes: call.arguments.len(),
                result: None,
            };
            trace.push((call.id.clone(), entry));
        }
        if let Some(id) = &message.tool_call_id
            && let Some((_, entry)) = trace.iter_mut().find(|(call, _)| call == id)
        {
            entry.result = Some((message.text_content().len(), message.is_error));
        }
    }
    ChildReport {
        exit,
        summary,
        error,
        api_calls: assistants.count() as u32,
        duration: started.elapsed(),
        model: delegation.model.clone(),
        role: task.role,
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
        tool_trace: trace.into_iter().map(|(_, entry)| entry).collect(),
    }
}
