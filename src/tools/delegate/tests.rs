//! Argument validation, depth limits and the result JSON of `delegate_task`, against a fake
//! delegator (the real one runs turns and is tested end to end in `tests/delegate.rs`).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use serde_json::{Value, json};

use super::*;
use crate::runtime::seams::delegate::{Delegator, TraceEntry};
use crate::runtime::{DenyAll, SessionScope, ToolServices};

/// Records the tasks it was given and answers each with its goal.
struct Fake {
    depth: u32,
    seen: Mutex<Vec<ChildTask>>,
}

impl Delegator for Fake {
    fn depth(&self) -> u32 {
        self.depth
    }

    fn run_children<'a>(&'a self, _parent: &'a ToolContext, tasks: Vec<ChildTask>) -> BoxFuture<'a, Vec<ChildReport>> {
        Box::pin(async move {
            self.seen.lock().unwrap().extend(tasks.iter().cloned());
            tasks
                .iter()
                .map(|t| ChildReport {
                    exit: ChildExit::Completed,
                    summary: format!("did {}", t.goal),
                    error: None,
                    api_calls: 1,
                    duration: Duration::from_millis(10),
                    model: "m".into(),
                    role: t.role,
                    input_tokens: 100,
                    output_tokens: 20,
                    tool_trace: vec![TraceEntry {
                        tool: "read_file".into(),
                        args_bytes: 12,
                        result: Some((40, false)),
                    }],
                })
                .collect()
        })
    }
}

async fn call(config: DelegationSettings, depth: u32, args: Value) -> (Value, Vec<ChildTask>) {
    let fake = Arc::new(Fake {
        depth,
        seen: Mutex::default(),
    });
    let mut scope = SessionScope::local("s", std::env::temp_dir(), Arc::new(DenyAll));
    scope.delegator = Some(fake.clone());
    let ctx = ToolContext::new(
        Arc::new(scope),
        Arc::new(ToolServices::default()),
        "call_1",
        Default::default(),
    );
    let out = DelegateTool::new(config).run(&ctx, args).await;
    let seen = fake.seen.lock().unwrap().clone();
    (serde_json::from_str(&out.content).unwrap(), seen)
}

#[tokio::test]
async fn a_batch_returns_one_entry_per_task() {
    let (result, seen) = call(
        DelegationSettings::default(),
        0,
        json!({"tasks": [{"goal": "a", "context": "ctx"}, {"goal": "b", "role": "orchestrator"}]}),
    )
    .await;
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0].context.as_deref(), Some("ctx"));
    // Nesting is off by default: an orchestrator becomes a leaf.
    assert_eq!(seen[1].role, ChildRole::Leaf);
    let results = result["results"].as_array().unwrap();
    assert_eq!(results[1]["summary"], "did b");
    assert_eq!(results[0]["status"], "completed");
    assert_eq!(results[0]["exit_reason"], "completed");
    assert_eq!(results[0]["tokens"], json!({"input": 100, "output": 20}));
    assert_eq!(
        results[0]["tool_trace"],
        json!([{"tool": "read_file", "args_bytes": 12, "result_bytes": 40, "status": "ok"}])
    );
}

#[tokio::test]
async fn single_goal_tasks_as_text_and_roles_when_nesting_is_on() {
    let nested = DelegationSettings {
        max_spawn_depth: 2,
        ..DelegationSettings::default()
    };
    let (_, seen) = call(nested.clone(), 0, json!({"goal": "solo", "role": "orchestrator"})).await;
    assert_eq!(seen[0].role, ChildRole::Orchestrator);
    let (_, seen) = call(nested, 0, json!({"tasks": "[{\"goal\": \"x\"}]"})).await;
    assert_eq!(seen[0].goal, "x");
}

#[tokio::test]
async fn bad_arguments_and_limits_are_errors() {
    let cases = [
        (json!({}), "Provide either 'goal'"),
        (
            json!({"tasks": [{"goal": "a"}, {"goal": "b"}, {"goal": "c"}, {"goal": "d"}]}),
            "Too many tasks: 4",
        ),
        (
            json!({"tasks": [{"context": "no goal"}]}),
            "Task 0 is missing a 'goal'.",
        ),
        (json!({"tasks": ["text"]}), "Task 0 must be an object"),
    ];
    for (args, expected) in cases {
        let (result, seen) = call(DelegationSettings::default(), 0, args).await;
        assert!(result["error"].as_str().unwrap().contains(expected), "{result}");
        assert!(seen.is_empty());
    }
    let (result, _) = call(DelegationSettings::default(), 1, json!({"goal": "deeper"})).await;
    assert!(
        result["error"]
            .as_str()
            .unwrap()
            .starts_with("Delegation depth limit reached (depth=1")
    );
}

#[test]
fn children_lose_blocked_tools_and_delegation_unless_allowed() {
    let parent = crate::tools::catalog::builtin_catalog();
    let names = |r: &crate::runtime::ToolRegistry| r.tools().map(|t| t.name()).collect::<Vec<_>>();
    assert!(names(parent).contains(&NAME) && names(parent).contains(&"memory"));
    let leaf = child_tools(parent, false);
    assert!(!names(&leaf).contains(&NAME) && !names(&leaf).contains(&"memory"));
    assert!(names(&leaf).contains(&"read_file"));
    assert!(names(&child_tools(parent, true)).contains(&NAME));
}

#[test]
fn the_child_prompt_carries_goal_context_and_workspace() {
    let task = ChildTask {
        goal: "Find the bug".into(),
        context: Some("in src/lib.rs".into()),
        role: ChildRole::Orchestrator,
    };
    let prompt = child_system_prompt(&task, "/work/p", 1, 2);
    assert!(
        prompt.starts_with(
            "You are a focused subagent working on a specific delegated task.\n\nYOUR TASK:\nFind the bug"
        )
    );
    assert!(prompt.contains("\nCONTEXT:\nin src/lib.rs"));
    assert!(prompt.contains("\nWORKSPACE PATH:\n/work/p\n"));
    assert!(prompt.contains("Your own children MUST be leaves"));
}
