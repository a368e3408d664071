//! The delegation seam: `delegate_task` states what children to run and the layer that owns
//! turns (`agent::delegation`) runs them. Tools never see the turn loop, so the tool only hands
//! over `ChildTask`s and gets `ChildReport`s back. What a child may use (its tools, its system
//! prompt) is tool knowledge and stays with the tool.

use std::time::Duration;

use futures::future::BoxFuture;

use crate::runtime::ToolContext;

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
