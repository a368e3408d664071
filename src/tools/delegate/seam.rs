//! The delegation seam: `delegate_task` states what children to run and the layer that owns
//! turns (`agent::delegation`) runs them. Tools never see the turn loop, so the tool only hands
//! over `ChildTask`s and gets `ChildReport`s back; what a child may use (its tools, its system
//! prompt) is tool knowledge and lives here too.

use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;

use super::super::{Tool, ToolContext, ToolRegistry};

/// Tools a child never gets (Hermes' `DELEGATE_BLOCKED_TOOLS`): no recursive delegation (unless
/// its role and the depth allow), no questions to the user, no writes to shared memory, nothing
/// done in the user's name elsewhere, no scripts standing in for reasoning; and no leaving plan
/// mode (the plan is the parent's to present).
const BLOCKED: [&str; 6] = [
    "clarify",
    "memory",
    "send_message",
    "execute_code",
    "cronjob",
    super::super::plan::NAME,
];

/// Whether a child may spawn children of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChildRole {
    /// A focused worker: cannot delegate.
    #[default]
    Leaf,
    /// Keeps `delegate_task`, bounded by `delegation.max_spawn_depth`.
    Orchestrator,
}

impl ChildRole {
    pub fn as_str(self) -> &'static str {
        match self {
            ChildRole::Leaf => "leaf",
            ChildRole::Orchestrator => "orchestrator",
        }
    }
}

/// One child to run.
#[derive(Debug, Clone, PartialEq)]
pub struct ChildTask {
    pub goal: String,
    pub context: Option<String>,
    /// Already degraded to `Leaf` when nesting is off or the depth is reached.
    pub role: ChildRole,
}

/// How a child's work ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChildExit {
    /// It answered without asking for more tools.
    Completed,
    /// Its iteration budget ran out (it still wrote a summary).
    MaxIterations,
    /// The parent (or the user, on the child's own session) cancelled it.
    Interrupted,
    /// The provider failed after its retries and fallbacks.
    Error,
}

/// One tool call a child made, for the parent's record (no contents, only sizes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceEntry {
    pub tool: String,
    pub args_bytes: usize,
    /// `None` when the call never got a result.
    pub result: Option<(usize, bool)>,
}

/// What a child did, as the parent's tool result reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct ChildReport {
    pub exit: ChildExit,
    /// The child's final answer (empty when it produced none).
    pub summary: String,
    /// Why it failed, when it did.
    pub error: Option<String>,
    pub api_calls: u32,
    pub duration: Duration,
    pub model: String,
    pub role: ChildRole,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub tool_trace: Vec<TraceEntry>,
}

/// Runs children for `delegate_task`. Implemented by the agent layer; `None` on the session
/// scope means delegation is unavailable (the tool answers with an error).
pub trait Delegator: Send + Sync {
    /// 0 for the session's own turn, 1 for its children, …
    fn depth(&self) -> u32;
    /// Runs every task (at most `delegation.max_concurrent_children` at once) within this call,
    /// under `parent.cancel`; one report per task, in order.
    fn run_children<'a>(&'a self, parent: &'a ToolContext, tasks: Vec<ChildTask>) -> BoxFuture<'a, Vec<ChildReport>>;
}

/// The tools a child gets: the parent's, minus the blocked ones, minus `delegate_task` unless
/// `may_delegate`.
pub fn child_tools(parent: &ToolRegistry, may_delegate: bool) -> ToolRegistry {
    let kept: Vec<Arc<dyn Tool>> = parent
        .tools()
        .filter(|t| !BLOCKED.contains(&t.name()))
        .filter(|t| may_delegate || t.name() != super::NAME)
        .cloned()
        .collect();
    ToolRegistry::new(kept)
}

/// The focused system prompt of a child (Hermes' text): its task, the context it was given,
/// the workspace, what to report; an orchestrator also learns when and how deep it may delegate.
pub fn child_system_prompt(task: &ChildTask, workspace: &str, child_depth: u32, max_spawn_depth: u32) -> String {
    let mut parts = vec![
        "You are a focused subagent working on a specific delegated task.".to_string(),
        String::new(),
        format!("YOUR TASK:\n{}", task.goal),
    ];
    if let Some(context) = task.context.as_deref().filter(|c| !c.trim().is_empty()) {
        parts.push(format!("\nCONTEXT:\n{context}"));
    }
    if !workspace.trim().is_empty() {
        parts.push(format!(
            "\nWORKSPACE PATH:\n{workspace}\nUse this exact path for local repository/workdir operations unless the task explicitly says otherwise."
        ));
    }
    parts.push(
        "\nComplete this task using the tools available to you. When finished, provide a clear, concise summary of:\n\
- What you did\n\
- What you found or accomplished\n\
- Any files you created or modified\n\
- Any issues encountered\n\n\
Important workspace rule: Never assume a repository lives at /workspace/... or any other container-style path unless the task/context explicitly gives that path. \
If no exact local path is provided, discover it first before issuing git/workdir-specific commands.\n\n\
Keep your final summary tight: lead with outcomes, prefer bullet points over paragraphs, and don't replay your whole process. \
Your response is returned to the parent agent as a summary, and overlong summaries crowd out the parent's context window."
            .to_string(),
    );
    if task.role == ChildRole::Orchestrator {
        let child_note = if child_depth + 1 >= max_spawn_depth {
            "Your own children MUST be leaves (cannot delegate further) because they would be at the depth floor — \
you cannot pass role='orchestrator' to your own delegate_task calls."
        } else {
            "Your own children can themselves be orchestrators or leaves, depending on the `role` you pass to delegate_task. \
Default is 'leaf'; pass role='orchestrator' explicitly when a child needs to further decompose its work."
        };
        parts.push(format!(
            "\n## Subagent Spawning (Orchestrator Role)\n\
You have access to the `delegate_task` tool and CAN spawn your own subagents to parallelize independent work.\n\n\
WHEN to delegate:\n\
- The goal decomposes into 2+ independent subtasks that can run in parallel (e.g. research A and B simultaneously).\n\
- A subtask is reasoning-heavy and would flood your context with intermediate data.\n\n\
WHEN NOT to delegate:\n\
- Single-step mechanical work — do it directly.\n\
- Trivial tasks you can execute in one or two tool calls.\n\
- Re-delegating your entire assigned goal to one worker (that's just pass-through with no value added).\n\n\
Coordinate your workers' results and synthesize them before reporting back to your parent. \
You are responsible for the final summary, not your workers.\n\n\
NOTE: You are at depth {child_depth}. The delegation tree is capped at max_spawn_depth={max_spawn_depth}. {child_note}"
        ));
    }
    parts.join("\n")
}
