//! Prompt turns against the mock provider: streaming, reasoning, cancel, retries, failures.

use std::time::Duration;

use serde_json::json;

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome, agent_text, chunk_text, normalize};

async fn started(mock: &MockLlm) -> (TestHome, AgentProcess, String) {
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    (home, agent, session)
}

#[tokio::test]
async fn a_prompt_streams_chunks_then_ends_the_turn() {
    let mock = MockLlm::start().await;
    mock.push(mock_llm::reasoning_then_text(
        &["Let me ", "think."],
        &["Hel", "lo ", "there!"],
    ));
    let (_home, mut agent, session) = started(&mock).await;
    let (response, updates) = agent.prompt(&session, "say hello").await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    assert_eq!(
        response["result"]["usage"],
        json!({"totalTokens": 120, "inputTokens": 100, "outputTokens": 20})
    );
    let chunks: Vec<_> = updates
        .iter()
        .filter(|u| u["sessionUpdate"] == "agent_message_chunk")
        .collect();
    assert_eq!(chunks.len(), 3, "streamed in pieces: {updates:#?}");
    assert_eq!(agent_text(&updates), "Hello there!");
    assert_eq!(chunk_text(&updates, "agent_thought_chunk"), "Let me think.");
    // The title is announced after the first turn, before the response.
    let info: Vec<_> = updates
        .iter()
        .filter(|u| u["sessionUpdate"] == "session_info_update")
        .collect();
    assert_eq!(info.len(), 1);
    assert_eq!(info[0]["title"], "say hello");
    // The provider saw the system prompt, then the user's text, streaming with usage.
    let request = &mock.requests()[0];
    assert_eq!(request["model"], "mock-model");
    assert_eq!(request["stream"], true);
    assert_eq!(request["messages"][0]["role"], "system");
    assert_eq!(request["messages"][1], json!({"role": "user", "content": "say hello"}));
    // A second turn carries the first exchange.
    mock.push(mock_llm::text(&["again"]));
    let (response, updates) = agent.prompt(&session, "and again").await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    assert_eq!(agent_text(&updates), "again");
    let second = &mock.requests()[1];
    let roles: Vec<_> = second["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(roles, ["system", "user", "assistant", "user"]);
    assert_eq!(second["messages"][2]["content"], "Hello there!");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn the_update_sequence_of_a_turn_is_exact() {
    let mock = MockLlm::start().await;
    mock.push(mock_llm::text(&["One", " two"]));
    let (_home, mut agent, session) = started(&mock).await;
    let (response, updates) = agent.prompt(&session, "count").await;
    let snapshot = normalize(&json!({"updates": updates, "response": response["result"]}), &session);
    expect_test::expect![[r#"{"updates":[{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"One"}},{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":" two"}},{"sessionUpdate":"session_info_update","title":"count","updatedAt":"<time>"},{"sessionUpdate":"usage_update","used":120,"size":256000}],"response":{"stopReason":"end_turn","usage":{"totalTokens":120,"inputTokens":100,"outputTokens":20}}}"#]]
    .assert_eq(&snapshot.to_string());
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn cancel_mid_stream_answers_cancelled_and_drops_the_provider_stream() {
    let mock = MockLlm::start().await;
    // 50 s of chunks, longer than the harness waits: only the cancel can end this turn in time.
    mock.push(mock_llm::slow_text(1000, Duration::from_millis(50)));
    let (_home, mut agent, session) = started(&mock).await;
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
    assert_eq!(response["result"]["stopReason"], "cancelled", "{response}");
    assert!(
        mock.wait_for(Duration::from_secs(5), |m| m.disconnects() == 1).await,
        "the mock saw the stream dropped"
    );
    // The next turn starts clean: the partial answer is its own assistant message, and the new
    // user message is not merged into the cancelled one.
    mock.push(mock_llm::text(&["ok"]));
    let (response, _) = agent.prompt(&session, "next question").await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    let request = mock.requests().last().cloned().unwrap();
    let messages = request["messages"].as_array().unwrap();
    let roles: Vec<_> = messages.iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["system", "user", "assistant", "user"]);
    assert_eq!(messages[1]["content"], "go slowly");
    assert!(messages[2]["content"].as_str().unwrap().starts_with("chunk0 "));
    assert_eq!(messages[3]["content"], "next question");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn cancel_request_also_cancels_a_prompt() {
    let mock = MockLlm::start().await;
    // 50 s of chunks, longer than the harness waits: only the cancel can end this turn in time.
    mock.push(mock_llm::slow_text(1000, Duration::from_millis(50)));
    let (_home, mut agent, session) = started(&mock).await;
    let id = agent
        .send_request(
            "session/prompt",
            json!({"sessionId": session, "prompt": [{"type": "text", "text": "slow"}]}),
        )
        .await;
    agent
        .wait(|m| m["params"]["update"]["sessionUpdate"] == "agent_message_chunk")
        .await;
    agent.notify("$/cancel_request", json!({"requestId": id})).await;
    let response = agent.response(id).await;
    assert_eq!(response["result"]["stopReason"], "cancelled", "{response}");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn rate_limits_and_server_errors_are_retried_visibly() {
    let mock = MockLlm::start().await;
    mock.push(mock_llm::status(429, Some("0")));
    mock.push(mock_llm::status(500, None));
    mock.push(mock_llm::text(&["made it"]));
    let (_home, mut agent, session) = started(&mock).await;
    let (response, updates) = agent.prompt(&session, "hi").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "made it");
    let thoughts = chunk_text(&updates, "agent_thought_chunk");
    assert!(
        thoughts.contains("provider busy (429), retrying") && thoughts.contains("provider busy (500), retrying"),
        "{thoughts}"
    );
    assert_eq!(mock.requests().len(), 3);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_permanent_failure_is_a_json_rpc_error_naming_provider_and_status() {
    let mock = MockLlm::start().await;
    mock.set_fallback(mock_llm::status(500, None));
    let (_home, mut agent, session) = started(&mock).await;
    let (response, updates) = agent.prompt(&session, "hi").await;
    let error = &response["error"];
    assert_eq!(error["code"], -32603, "{response}");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("provider 'custom' returned HTTP 500"), "{message}");
    assert_eq!(error["data"], json!({"provider": "custom", "status": 500}));
    assert_eq!(agent_text(&updates), "", "no error text dressed as the model's answer");
    assert_eq!(mock.requests().len(), 4, "first try + 3 retries");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn an_auth_failure_fails_at_once_and_says_which_key() {
    let mock = MockLlm::start().await;
    mock.set_fallback(mock_llm::status(401, None));
    let (_home, mut agent, session) = started(&mock).await;
    let (response, _) = agent.prompt(&session, "hi").await;
    let message = response["error"]["message"].as_str().unwrap();
    assert!(message.contains("rejected the API key (HTTP 401)"), "{message}");
    assert_eq!(mock.requests().len(), 1, "no retries on 401");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_stream_cut_mid_answer_is_reported_not_taken_as_complete() {
    let mock = MockLlm::start().await;
    mock.set_fallback(mock_llm::cut_stream(&["partial "]));
    let (_home, mut agent, session) = started(&mock).await;
    let (response, _) = agent.prompt(&session, "hi").await;
    let message = response["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("closed the stream before the answer was complete"),
        "{response}"
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn prompts_with_attachments_reach_the_model() {
    let mock = MockLlm::start().await;
    mock.push(mock_llm::text(&["seen"]));
    let (home, mut agent, session) = started(&mock).await;
    std::fs::write(home.cwd().join("notes.txt"), "remember the milk").unwrap();
    let prompt = json!([
        {"type": "text", "text": "read this"},
        {"type": "resource_link", "name": "notes.txt", "uri": format!("file://{}", home.cwd().join("notes.txt").display())},
        {"type": "resource", "resource": {"uri": "file:///x/snippet.rs", "text": "fn main() {}"}},
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
    ]);
    let response = agent
        .request("session/prompt", json!({"sessionId": session, "prompt": prompt}))
        .await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    let user = &mock.requests()[0]["messages"][1];
    let parts = user["content"].as_array().unwrap();
    assert!(parts[1]["text"].as_str().unwrap().contains("remember the milk"));
    assert!(parts[2]["text"].as_str().unwrap().contains("fn main() {}"));
    assert_eq!(
        parts[3],
        json!({"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}})
    );
    assert_eq!(agent.shutdown().await, Some(0));
}
