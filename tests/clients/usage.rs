//! Usage after a cancel: the prompt response carries no zeros, and `usage_update` reports the
//! real size of the context (the provider's last count plus what the cancelled turn added, or
//! an estimate of the whole request on a first turn) rather than the history alone.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome};

/// Starts a slow answer, cancels it after its first chunk; returns the response and updates.
async fn cancelled_turn(agent: &mut AgentProcess, session: &str) -> (Value, Vec<Value>) {
    agent.notifications();
    let id = agent
        .send_request(
            "session/prompt",
            json!({"sessionId": session, "prompt": [{"type": "text", "text": "go slowly"}]}),
        )
        .await;
    agent
        .wait(|m| m["params"]["update"]["sessionUpdate"] == "agent_message_chunk")
        .await;
    agent.notify("session/cancel", json!({"sessionId": session})).await;
    let response = agent.response(id).await;
    (response, agent.notifications())
}

fn used(updates: &[Value]) -> Vec<u64> {
    (updates.iter())
        .filter(|u| u["sessionUpdate"] == "usage_update")
        .map(|u| u["used"].as_u64().unwrap())
        .collect()
}

#[tokio::test]
async fn a_cancel_mid_stream_reports_the_real_context_and_no_zero_usage() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;

    // A first turn measures the context: 9 600 prompt tokens, 40 answered.
    mock.push(mock_llm::text_with_usage(&["hello"], 9_600, 40));
    let (_, updates) = agent.prompt(&session, "hi").await;
    assert_eq!(used(&updates), [9_640]);

    // 50 s of chunks, longer than the harness waits: only the cancel ends this turn in time.
    mock.push(mock_llm::slow_text(1000, Duration::from_millis(50)));
    let (response, updates) = cancelled_turn(&mut agent, &session).await;
    assert_eq!(response["result"]["stopReason"], "cancelled", "{response}");
    assert!(
        response["result"].get("usage").is_none(),
        "no call reported usage: none rather than zeros: {response}"
    );
    let after = used(&updates);
    assert_eq!(after.len(), 1, "{updates:#?}");
    assert!(
        after[0] > 9_600 && after[0] < 11_000,
        "the last count plus what the turn added, got {}",
        after[0]
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_first_turn_cancelled_estimates_the_whole_request_not_the_history_alone() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    mock.push(mock_llm::slow_text(1000, Duration::from_millis(50)));
    let (response, updates) = cancelled_turn(&mut agent, &session).await;
    assert_eq!(response["result"]["stopReason"], "cancelled", "{response}");
    assert!(response["result"].get("usage").is_none(), "{response}");
    let request = &mock.requests()[0];
    // What the model was really sent: system prompt and tool schemas included.
    let sent_bytes = request["messages"].to_string().len() + request["tools"].to_string().len();
    let after = used(&updates);
    assert_eq!(after.len(), 1, "{updates:#?}");
    assert!(
        after[0] as usize >= sent_bytes / 8,
        "{} tokens for a request of {sent_bytes} bytes",
        after[0]
    );
    assert_eq!(agent.shutdown().await, Some(0));
}
