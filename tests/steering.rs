//! `_session/steering` (the codex-acp / claude-agent-acp extension) through the real binary:
//! advertised in `initialize`, injected into a running turn without cancelling it (the model
//! gets the guidance in the same turn), a new turn when idle, `promptRequired` on request, and
//! errors for unknown sessions and empty prompts.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome};

fn steer(session: &str, text: &str) -> Value {
    json!({"sessionId": session, "prompt": [{"type": "text", "text": text}]})
}

/// The text of the last user message of a recorded model request.
fn last_user_text(request: &Value) -> String {
    let messages = request["messages"].as_array().unwrap();
    let last = messages.iter().rev().find(|m| m["role"] == "user").unwrap();
    last["content"]
        .as_str()
        .map(str::to_string)
        .unwrap_or_else(|| last["content"].to_string())
}

#[tokio::test]
async fn steering_joins_a_running_turn_without_cancelling_it() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    let init = agent.initialize().await;
    assert_eq!(init["result"]["_meta"]["steering"]["supported"], true);
    let session = agent.new_session(&home.cwd()).await;
    mock.push(mock_llm::slow_text(30, Duration::from_millis(100)));
    mock.push(mock_llm::text(&["short version"]));
    let prompt = agent
        .send_request(
            "session/prompt",
            json!({"sessionId": session, "prompt": [{"type": "text", "text": "explain everything"}]}),
        )
        .await;
    agent
        .wait(|m| m["params"]["update"]["sessionUpdate"] == "agent_message_chunk")
        .await;
    let steered = agent.request("_session/steering", steer(&session, "be brief")).await;
    assert_eq!(steered["result"], json!({"outcome": "injected"}), "{steered}");
    let done = agent.response(prompt).await;
    assert_eq!(done["result"]["stopReason"], "end_turn", "not cancelled: {done}");
    let requests = mock.requests();
    assert_eq!(requests.len(), 2, "the turn went on with the guidance");
    assert_eq!(
        last_user_text(&requests[1]),
        "[User guidance for the current task: be brief]"
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn steering_an_idle_session_starts_a_turn_unless_the_client_prompts_itself() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;

    let mut asked = steer(&session, "check the tests");
    asked["_meta"] = json!({"steering": {"idleBehavior": "promptRequired"}});
    let left = agent.request("_session/steering", asked).await;
    assert_eq!(left["result"], json!({"outcome": "promptRequired"}), "{left}");
    assert!(mock.requests().is_empty());

    mock.push(mock_llm::text(&["on it"]));
    let started = agent
        .request("_session/steering", steer(&session, "check the tests"))
        .await;
    assert_eq!(started["result"], json!({"outcome": "startedNewTurn"}), "{started}");
    let chunk = agent
        .wait(|m| m["params"]["update"]["sessionUpdate"] == "agent_message_chunk")
        .await;
    assert_eq!(chunk["params"]["update"]["content"]["text"], "on it");
    assert_eq!(last_user_text(&mock.requests()[0]), "check the tests");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn steering_names_what_is_wrong_with_the_request() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    let unknown = agent.request("_session/steering", steer("no-such-session", "hi")).await;
    assert_eq!(unknown["error"]["code"], -32002, "{unknown}");
    let empty = agent.request("_session/steering", steer(&session, "  ")).await;
    assert_eq!(empty["error"]["code"], -32602, "{empty}");
    let malformed = agent.request("_session/steering", json!({"sessionId": session})).await;
    assert_eq!(malformed["error"]["code"], -32602, "{malformed}");
    assert!(mock.requests().is_empty());
    assert_eq!(agent.shutdown().await, Some(0));
}
