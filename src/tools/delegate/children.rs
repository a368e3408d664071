//! What a delegated child may use: its tools (the parent's minus the blocked ones) and its
//! focused system prompt. The seam the agent layer implements to run children lives in
//! `runtime::seams::delegate`.

use std::sync::Arc;

use crate::runtime::seams::delegate::{ChildRole, ChildTask};
use crate::runtime::{Tool, ToolRegistry};

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
    "exit_plan_mode",
];

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
