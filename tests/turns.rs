//! One owner per prompt, checked from outside: a cancel is never lost (also while a prompt
//! waits for the previous turn), `$/cancel_request` cancels exactly its prompt, settings apply
//! in arrival order, and a cancelled command in the editor's terminal is killed and released.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome};

fn requests_named<'a>(agent: &'a AgentProcess, method: &str) -> Vec<&'a Value> {
    agent.agent_requests.iter().filter(|r| r["method"] == method).collect()
}

#[tokio::test]
async fn cancel_during_a_command_in_the_editor_terminal_kills_and_releases_it() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent
        .initialize_with(json!({"fs": {"readTextFile": false, "writeTextFile": false}, "terminal": true}))
        .await;
    agent.hang_terminals = true;
    let session = agent.new_session(&home.cwd()).await;
    mock.push(mock_llm::tool_calls(&[(
        "call_sleep",
        "terminal",
        json!({"command": "sleep 30"}),
    )]));
    mock.push(mock_llm::text(&["never reached"]));
    let prompt = agent
        .send_request(
            "session/prompt",
            json!({"sessionId": session, "prompt": [{"type": "text", "text": "wait"}]}),
        )
        .await;
    agent.wait(|m| m["method"] == "terminal/create").await;
    agent.notify("session/cancel", json!({"sessionId": session})).await;
    let response = agent.response(prompt).await;
    assert_eq!(response["result"]["stopReason"], "cancelled", "{response}");
    let kills = requests_named(&agent, "terminal/kill");
    let releases = requests_named(&agent, "terminal/release");
    assert_eq!(kills.len(), 1, "{:#?}", agent.agent_requests);
    assert_eq!(releases.len(), 1, "{:#?}", agent.agent_requests);
    assert_eq!(kills[0]["params"]["terminalId"], "term-1");
    assert_eq!(releases[0]["params"]["terminalId"], "term-1");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_cancel_reaches_a_prompt_waiting_for_the_previous_turn() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    mock.push(mock_llm::slow_text(40, Duration::from_millis(25)));
    mock.push(mock_llm::text(&["second answer"]));
    mock.push(mock_llm::text(&["third answer"]));
    let prompt = |text: &str| json!({"sessionId": session, "prompt": [{"type": "text", "text": text}]});
    let first = agent.send_request("session/prompt", prompt("one")).await;
    agent
        .wait(|m| m["params"]["update"]["sessionUpdate"] == "agent_message_chunk")
        .await;
    // The second prompt waits for the first; `$/cancel_request` names it and only it.
    let second = agent.send_request("session/prompt", prompt("two")).await;
    agent.notify("$/cancel_request", json!({"requestId": second})).await;
    let second_response = agent.response(second).await;
    assert_eq!(
        second_response["result"]["stopReason"], "cancelled",
        "{second_response}"
    );
    let first_response = agent.response(first).await;
    assert_eq!(first_response["result"]["stopReason"], "end_turn", "{first_response}");
    assert_eq!(mock.requests().len(), 1, "the cancelled prompt never reached the model");
    // A prompt that runs afterwards is unaffected.
    let third = agent.send_request("session/prompt", prompt("three")).await;
    assert_eq!(agent.response(third).await["result"]["stopReason"], "end_turn");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn session_cancel_cancels_the_running_and_the_waiting_prompt() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    mock.push(mock_llm::slow_text(400, Duration::from_millis(25)));
    let prompt = |text: &str| json!({"sessionId": session, "prompt": [{"type": "text", "text": text}]});
    let first = agent.send_request("session/prompt", prompt("one")).await;
    agent
        .wait(|m| m["params"]["update"]["sessionUpdate"] == "agent_message_chunk")
        .await;
    let second = agent.send_request("session/prompt", prompt("two")).await;
    agent.notify("session/cancel", json!({"sessionId": session})).await;
    assert_eq!(agent.response(first).await["result"]["stopReason"], "cancelled");
    assert_eq!(agent.response(second).await["result"]["stopReason"], "cancelled");
    assert_eq!(mock.requests().len(), 1);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn quick_mode_changes_apply_in_arrival_order_in_memory_and_on_disk() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    let modes = ["accept_edits", "read_only", "dont_ask", "default", "read_only"];
    let mut ids = Vec::new();
    for mode in modes {
        ids.push(
            agent
                .send_request("session/set_mode", json!({"sessionId": session, "modeId": mode}))
                .await,
        );
    }
    for id in ids {
        assert!(agent.response(id).await.get("result").is_some());
    }
    let announced: Vec<String> = agent
        .notifications()
        .iter()
        .filter(|u| u["sessionUpdate"] == "current_mode_update")
        .map(|u| u["currentModeId"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(announced, modes);
    assert_eq!(agent.shutdown().await, Some(0));
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let resumed = agent
        .request(
            "session/resume",
            json!({"sessionId": session, "cwd": home.cwd(), "mcpServers": []}),
        )
        .await;
    assert_eq!(resumed["result"]["modes"]["currentModeId"], "read_only", "{resumed}");
    assert_eq!(agent.shutdown().await, Some(0));
}
