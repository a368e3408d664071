//! The tool loop end to end through the real binary: files written, patched with relative
//! paths, searched, commands run, parallel same-name calls, budget exhaustion, cancel while a
//! command runs, and tool cards that start, run and end.

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, PermissionPolicy, TestHome, agent_text};

async fn started(home: &TestHome) -> (AgentProcess, String) {
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    (agent, session)
}

/// Updates about one tool call id, in order.
fn card<'a>(updates: &'a [Value], id: &str) -> Vec<&'a Value> {
    updates.iter().filter(|u| u["toolCallId"] == id).collect()
}

fn statuses(updates: &[Value], id: &str) -> Vec<String> {
    card(updates, id)
        .iter()
        .map(|u| u["status"].as_str().unwrap_or("pending").to_string())
        .collect()
}

/// The tool result message the model received for `call_id` in the last request.
fn tool_result(mock: &MockLlm, call_id: &str) -> Value {
    let request = mock.requests().last().cloned().unwrap();
    let message = request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["tool_call_id"] == call_id)
        .cloned()
        .unwrap();
    serde_json::from_str(message["content"].as_str().unwrap()).unwrap_or(message["content"].clone())
}

#[tokio::test]
async fn write_patch_search_and_run_in_one_turn() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    mock.push(mock_llm::tool_calls(&[(
        "call_w",
        "write_file",
        json!({"path": "src/lib.rs", "content": "pub fn answer() -> u32 {\n    41\n}\n"}),
    )]));
    mock.push(mock_llm::tool_calls(&[(
        "call_p",
        "patch",
        json!({"mode": "replace", "path": "src/lib.rs", "old_string": "    41", "new_string": "    42"}),
    )]));
    mock.push(mock_llm::tool_calls(&[(
        "call_s",
        "search_files",
        json!({"pattern": "answer", "path": "."}),
    )]));
    mock.push(mock_llm::tool_calls(&[(
        "call_t",
        "terminal",
        json!({"command": "cat src/lib.rs && echo done"}),
    )]));
    mock.push(mock_llm::text(&["All done."]));
    let (mut agent, session) = started(&home).await;
    let (response, updates) = agent.prompt(&session, "make the answer 42").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "All done.");
    // Relative paths resolved against the session cwd (the process runs elsewhere).
    let written = std::fs::read_to_string(home.cwd().join("src/lib.rs")).unwrap();
    assert_eq!(written, "pub fn answer() -> u32 {\n    42\n}\n");
    for id in ["call_w", "call_p", "call_s", "call_t"] {
        assert_eq!(
            statuses(&updates, id),
            ["pending", "in_progress", "completed"],
            "{id}: {:#?}",
            card(&updates, id)
        );
    }
    // Edits ask first (default mode), pointing at the card already announced.
    let asked: Vec<_> = agent
        .agent_requests
        .iter()
        .filter(|r| r["method"] == "session/request_permission")
        .collect();
    assert_eq!(asked.len(), 2);
    assert_eq!(asked[0]["params"]["toolCall"]["toolCallId"], "call_w");
    assert_eq!(asked[1]["params"]["toolCall"]["toolCallId"], "call_p");
    let content = asked[1]["params"]["toolCall"]["content"].as_array().unwrap();
    assert_eq!(content[0]["type"], "diff");
    assert_eq!(
        content[1]["content"]["text"],
        "Needs your approval: edit a file in the project."
    );
    assert_eq!(asked[1]["params"]["toolCall"]["title"], "Edit src/lib.rs");
    // The cards themselves carry the diffs and the command output.
    let write_done = card(&updates, "call_w").last().cloned().unwrap();
    assert_eq!(write_done["content"][0]["type"], "diff");
    assert_eq!(write_done["content"][0]["oldText"], Value::Null);
    let patch_done = card(&updates, "call_p").last().cloned().unwrap();
    assert_eq!(
        patch_done["content"][0]["oldText"],
        "pub fn answer() -> u32 {\n    41\n}\n"
    );
    assert_eq!(patch_done["content"][0]["newText"], written);
    assert_eq!(card(&updates, "call_w")[0]["title"], "Write src/lib.rs");
    assert_eq!(card(&updates, "call_w")[0]["kind"], "edit");
    assert_eq!(
        card(&updates, "call_w")[0]["locations"][0]["path"],
        home.cwd().join("src/lib.rs").display().to_string()
    );
    let search_text = card(&updates, "call_s").last().unwrap()["content"][0]["content"]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        search_text.starts_with("Search results") && search_text.contains("src/lib.rs"),
        "{search_text}"
    );
    let terminal_text = card(&updates, "call_t").last().unwrap()["content"][0]["content"]["text"]
        .as_str()
        .unwrap()
        .to_string();
    // The output, fenced; the command is the card's title.
    assert!(
        terminal_text.starts_with("```\n") && terminal_text.ends_with("done\n```"),
        "{terminal_text}"
    );
    assert_eq!(card(&updates, "call_t")[0]["title"], "`cat src/lib.rs && echo done`");
    let result = tool_result(&mock, "call_t");
    assert_eq!(result["exit_code"], 0);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn parallel_same_name_calls_and_bad_calls_become_results() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    std::fs::write(home.cwd().join("a.txt"), "alpha\n").unwrap();
    std::fs::write(home.cwd().join("b.txt"), "beta\n").unwrap();
    mock.push(mock_llm::tool_calls(&[
        ("call_a", "read_file", json!({"path": "a.txt"})),
        ("call_b", "read_file", json!({"path": "b.txt"})),
        ("call_x", "no_such_tool", json!({})),
    ]));
    mock.push(mock_llm::text(&["read both"]));
    let (mut agent, session) = started(&home).await;
    let (response, updates) = agent.prompt(&session, "read a and b").await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    assert_eq!(statuses(&updates, "call_a"), ["pending", "in_progress", "completed"]);
    assert_eq!(statuses(&updates, "call_b"), ["pending", "in_progress", "completed"]);
    assert_eq!(statuses(&updates, "call_x"), ["pending", "in_progress", "failed"]);
    assert_eq!(tool_result(&mock, "call_a")["content"], "1|alpha");
    assert_eq!(tool_result(&mock, "call_b")["content"], "1|beta");
    assert_eq!(tool_result(&mock, "call_x")["error"], "Unknown tool: no_such_tool");
    // Results go back in the model's original order.
    let request = mock.requests().last().cloned().unwrap();
    let ids: Vec<_> = request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["tool_call_id"].as_str())
        .collect();
    assert_eq!(ids, ["call_a", "call_b", "call_x"]);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_dangerous_command_denied_is_not_run_and_the_model_is_told() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    std::fs::create_dir(home.cwd().join("build")).unwrap();
    mock.push(mock_llm::tool_calls(&[(
        "call_rm",
        "terminal",
        json!({"command": "rm -rf build"}),
    )]));
    mock.push(mock_llm::text(&["ok, I will not"]));
    let (mut agent, session) = started(&home).await;
    agent.permission_policy = PermissionPolicy::Select("deny");
    let (response, updates) = agent.prompt(&session, "clean").await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    assert!(home.cwd().join("build").exists(), "not run");
    let result = tool_result(&mock, "call_rm");
    assert_eq!(result["status"], "blocked");
    assert!(
        result["error"].as_str().unwrap().starts_with("BLOCKED: User denied"),
        "{result}"
    );
    assert_eq!(statuses(&updates, "call_rm").last().unwrap(), "failed");
    let ask = agent
        .agent_requests
        .iter()
        .find(|r| r["method"] == "session/request_permission")
        .unwrap();
    let options: Vec<_> = ask["params"]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["optionId"].as_str().unwrap())
        .collect();
    assert_eq!(options, ["allow_once", "allow_session", "deny", "deny_always"]);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn cancel_while_a_command_runs_kills_it_and_closes_the_card() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    mock.push(mock_llm::tool_calls(&[(
        "call_sleep",
        "terminal",
        json!({"command": "sleep 1000 && touch finished"}),
    )]));
    let (mut agent, session) = started(&home).await;
    let id = agent
        .send_request(
            "session/prompt",
            json!({"sessionId": session, "prompt": [{"type": "text", "text": "wait"}]}),
        )
        .await;
    agent
        .wait(|m| {
            m["params"]["update"]["toolCallId"] == "call_sleep" && m["params"]["update"]["status"] == "in_progress"
        })
        .await;
    let cwd = home.cwd();
    assert!(
        crate::mcp::poll_until(|| !crate::mcp::processes_in(&cwd).is_empty()).await,
        "the command never started"
    );
    agent.notify("session/cancel", json!({"sessionId": session})).await;
    let response = agent.response(id).await;
    assert_eq!(response["result"]["stopReason"], "cancelled");
    let updates = agent.notifications();
    assert_eq!(
        statuses(&updates, "call_sleep").last().unwrap(),
        "failed",
        "{updates:#?}"
    );
    // The command (which would never end on its own) was killed, shell and sleep alike, so
    // `touch finished` can never run.
    assert!(
        crate::mcp::wait_none_in(&home.cwd()).await,
        "the cancelled command survived: {:?}",
        crate::mcp::processes_in(&home.cwd())
    );
    assert!(!home.cwd().join("finished").exists());
    // The history answers every call, so the next turn is accepted.
    mock.push(mock_llm::text(&["next"]));
    let (response, _) = agent.prompt(&session, "go on").await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    let request = mock.requests().last().cloned().unwrap();
    let answered = request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["tool_call_id"] == "call_sleep");
    assert!(answered);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn the_iteration_budget_ends_with_a_summary_and_max_turn_requests() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    home.add_config("agent:\n  max_turns: 2\n");
    mock.push(mock_llm::tool_calls(&[(
        "c1",
        "todo",
        json!({"todos": [{"id": "1", "content": "first", "status": "in_progress"}]}),
    )]));
    mock.push(mock_llm::tool_calls(&[("c2", "todo", json!({}))]));
    mock.push(mock_llm::text(&["Summary: stopped early."]));
    let (mut agent, session) = started(&home).await;
    let (response, updates) = agent.prompt(&session, "loop").await;
    assert_eq!(response["result"]["stopReason"], "max_turn_requests");
    assert_eq!(agent_text(&updates), "Summary: stopped early.");
    let last = mock.requests().last().cloned().unwrap();
    assert!(last.get("tools").is_none(), "the summary request has no tools");
    // A todo result drives a plan update.
    let plan = updates.iter().find(|u| u["sessionUpdate"] == "plan").unwrap();
    assert_eq!(
        plan["entries"][0],
        json!({"content": "first", "priority": "medium", "status": "in_progress"})
    );
    assert_eq!(agent.shutdown().await, Some(0));
}
