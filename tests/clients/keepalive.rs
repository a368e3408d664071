//! A command that prints nothing for a long time (`sleep 90`) does not leave the connection
//! silent: with `acp.keepalive_interval_s` set short, empty `agent_message_chunk`s arrive while
//! the card runs. The test waits for them, then cancels: no 90 s wait, no sleep to synchronise.

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome};

fn is_keepalive(message: &Value) -> bool {
    message["params"]["update"]["sessionUpdate"] == "agent_message_chunk"
        && message["params"]["update"]["content"] == json!({"type": "text", "text": ""})
}

#[tokio::test]
async fn a_silent_long_command_keeps_the_connection_alive() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    home.add_config("acp:\n  keepalive_interval_s: 0.2\n");
    mock.push(mock_llm::tool_calls(&[(
        "quiet",
        "terminal",
        json!({"command": "sleep 90", "timeout": 120}),
    )]));
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    let id = agent
        .send_request(
            "session/prompt",
            json!({"sessionId": session, "prompt": [{"type": "text", "text": "build quietly"}]}),
        )
        .await;
    agent
        .wait(|m| m["params"]["update"]["toolCallId"] == "quiet" && m["params"]["update"]["status"] == "in_progress")
        .await;
    let first = agent.wait(is_keepalive).await;
    let second = agent.wait(is_keepalive).await;
    for keepalive in [&first, &second] {
        assert_eq!(keepalive["params"]["sessionId"], session.as_str(), "{keepalive}");
    }
    agent.notify("session/cancel", json!({"sessionId": session})).await;
    let response = agent.response(id).await;
    assert_eq!(response["result"]["stopReason"], "cancelled", "{response}");
    // None follows the answer: every update of a turn comes before its response.
    let frames: Vec<Value> = (agent.stdout_lines.lock().unwrap().iter())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let answered = (frames.iter())
        .position(|f| f["id"] == json!(id) && f.get("result").is_some())
        .unwrap();
    assert!(
        !frames[answered..].iter().any(is_keepalive),
        "a keepalive after the answer"
    );
    assert_eq!(agent.shutdown().await, Some(0));
}
