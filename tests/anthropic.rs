//! The native Anthropic provider end to end: the real binary, configured the way a Hermes user
//! configures Anthropic, against the mock Messages API.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::mock_anthropic::{self, MockAnthropic, Tokens};
use crate::support::{AgentProcess, TestHome, agent_text, chunk_text};

const KEY: &str = mock_anthropic::TEST_KEY;

fn home_with(config: &str) -> TestHome {
    TestHome::with_config(config)
}

async fn started(mock: &MockAnthropic) -> (TestHome, AgentProcess, String) {
    let home = home_with("model:\n  provider: anthropic\n  default: claude-test\n");
    let mut agent = mock.spawn_agent(home.path()).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    (home, agent, session)
}

/// `(message index, block index)` of every block carrying a cache marker, and the system's.
fn cache_markers(body: &Value) -> (bool, Vec<(usize, usize)>) {
    let system = body["system"]
        .as_array()
        .and_then(|blocks| blocks.last())
        .is_some_and(|b| b["cache_control"] == json!({"type": "ephemeral"}));
    let mut marked = Vec::new();
    for (i, message) in body["messages"].as_array().unwrap().iter().enumerate() {
        for (j, block) in message["content"].as_array().unwrap().iter().enumerate() {
            if let Some(marker) = block.get("cache_control") {
                assert_eq!(marker, &json!({"type": "ephemeral"}));
                marked.push((i, j));
            }
        }
    }
    (system, marked)
}

#[tokio::test]
async fn thinking_and_text_stream_to_the_editor_with_cache_usage() {
    let mock = MockAnthropic::start().await;
    let tokens = Tokens {
        input: 10,
        cache_read: 1500,
        cache_write: 300,
        output: 25,
    };
    mock.push(mock_anthropic::thinking_then_text(
        &["Let me ", "think."],
        &["Hel", "lo ", "there!"],
        tokens,
    ));
    let (_home, mut agent, session) = started(&mock).await;
    let (response, updates) = agent.prompt(&session, "say hello").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(chunk_text(&updates, "agent_thought_chunk"), "Let me think.");
    let chunks = updates
        .iter()
        .filter(|u| u["sessionUpdate"] == "agent_message_chunk")
        .count();
    assert_eq!(chunks, 3, "streamed in pieces: {updates:#?}");
    assert_eq!(agent_text(&updates), "Hello there!");
    // The whole prompt counts as input; the cached part is reported beside it.
    assert_eq!(
        response["result"]["usage"],
        json!({"totalTokens": 1835, "inputTokens": 1810, "outputTokens": 25, "cachedReadTokens": 1500})
    );
    let request = &mock.message_requests()[0];
    assert_eq!(request.path, "/v1/messages");
    assert_eq!(request.headers["x-api-key"], KEY);
    assert_eq!(request.headers["anthropic-version"], "2023-06-01");
    assert!(request.headers["content-type"].starts_with("application/json"));
    assert!(!request.headers.contains_key("authorization"));
    let body = &request.body;
    assert_eq!(body["model"], "claude-test");
    assert_eq!(body["stream"], true);
    assert!(body["max_tokens"].as_u64().unwrap() > 0);
    assert!(
        body["system"][0]["text"].as_str().unwrap().len() > 100,
        "the system prompt"
    );
    assert_eq!(body["messages"][0]["role"], "user");
    assert_eq!(body["messages"][0]["content"][0]["text"], "say hello");
    assert!(
        body["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "todo" && t["input_schema"]["type"] == "object" && t.get("function").is_none())
    );
    assert_eq!(cache_markers(body), (true, vec![(0, 0)]));
    // The second turn replays the answer after its signed thinking block, unchanged (the
    // prefix stays the same from request to request, so the prompt cache keeps hitting).
    mock.push(mock_anthropic::text(&["again"]));
    let (response, updates) = agent.prompt(&session, "and again").await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    assert_eq!(agent_text(&updates), "again");
    let second = &mock.bodies()[1];
    assert_eq!(
        second["messages"][1]["content"],
        json!([
            {"type": "thinking", "thinking": "Let me think.", "signature": "EqQBCgIYAhIMmock"},
            {"type": "text", "text": "Hello there!", "cache_control": {"type": "ephemeral"}}
        ])
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_tool_call_round_trip_sends_the_result_back_as_tool_result() {
    let mock = MockAnthropic::start().await;
    mock.push(mock_anthropic::tool_use(
        "I'll track that.",
        "toolu_01A",
        "todo",
        &[
            "{\"todos\": [{\"id\": \"1\", \"con",
            "tent\": \"Write tests\", \"sta",
            "tus\": \"in_progress\"}]}",
        ],
    ));
    mock.push(mock_anthropic::text(&["Tracked."]));
    let (_home, mut agent, session) = started(&mock).await;
    let (response, updates) = agent.prompt(&session, "plan the work").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "I'll track that.Tracked.");
    let plan = updates
        .iter()
        .find(|u| u["sessionUpdate"] == "plan")
        .unwrap_or_else(|| panic!("a plan update: {updates:#?}"));
    assert_eq!(plan["entries"][0]["content"], "Write tests");
    let bodies = mock.bodies();
    assert_eq!(bodies.len(), 2);
    let messages = bodies[1]["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3);
    let call = &messages[1]["content"][1];
    assert_eq!(call["type"], "tool_use");
    assert_eq!(call["id"], "toolu_01A");
    assert_eq!(call["name"], "todo");
    assert_eq!(
        call["input"],
        json!({"todos": [{"id": "1", "content": "Write tests", "status": "in_progress"}]})
    );
    let result = &messages[2]["content"][0];
    assert_eq!(messages[2]["role"], "user");
    assert_eq!(result["type"], "tool_result");
    assert_eq!(result["tool_use_id"], "toolu_01A");
    assert_eq!(result["is_error"], false);
    assert!(result["content"].as_str().unwrap().contains("Write tests"), "{result}");
    // Breakpoints: the system prompt and the last block of each of the three messages.
    assert_eq!(cache_markers(&bodies[1]), (true, vec![(0, 0), (1, 1), (2, 0)]));
    // Next turn the window rolls forward: the oldest messages lose their markers.
    mock.push(mock_anthropic::text(&["Sure."]));
    let (response, _) = agent.prompt(&session, "thanks").await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    let third = &mock.bodies()[2];
    assert_eq!(third["messages"].as_array().unwrap().len(), 5);
    assert_eq!(cache_markers(third), (true, vec![(2, 0), (3, 0), (4, 0)]));
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_rate_limit_waits_for_retry_after_then_succeeds() {
    let mock = MockAnthropic::start().await;
    mock.push(mock_anthropic::status(429, "rate_limit_error", Some("1")));
    mock.push(mock_anthropic::error_event("overloaded_error"));
    mock.push(mock_anthropic::text(&["made it"]));
    let (_home, mut agent, session) = started(&mock).await;
    let began = Instant::now();
    let (response, updates) = agent.prompt(&session, "hi").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert!(began.elapsed() >= Duration::from_millis(900), "Retry-After honoured");
    assert_eq!(agent_text(&updates), "made it");
    let thoughts = chunk_text(&updates, "agent_thought_chunk");
    assert!(
        thoughts.contains("provider busy (429), retrying") && thoughts.contains("provider busy (529), retrying"),
        "{thoughts}"
    );
    assert_eq!(mock.bodies().len(), 3);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_rejected_key_fails_at_once_and_names_the_variable() {
    let mock = MockAnthropic::start().await;
    mock.set_fallback(mock_anthropic::status(401, "authentication_error", None));
    let (_home, mut agent, session) = started(&mock).await;
    let (response, _) = agent.prompt(&session, "hi").await;
    let message = response["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("rejected the API key (HTTP 401)"), "{response}");
    assert!(message.contains("ANTHROPIC_API_KEY"), "{message}");
    assert!(
        message.contains("invalid") || message.contains("authentication_error"),
        "{message}"
    );
    assert_eq!(mock.bodies().len(), 1, "no retries on 401");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_stream_cut_before_message_stop_is_an_error() {
    let mock = MockAnthropic::start().await;
    mock.set_fallback(mock_anthropic::cut(&["partial "]));
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
async fn a_custom_base_ending_in_anthropic_speaks_messages_with_images() {
    let mock = MockAnthropic::start().await;
    mock.push(mock_anthropic::text(&["a cat"]));
    let config = format!(
        "model:\n  provider: custom\n  base_url: {}/anthropic\n  api_key: third-party-key\n  default: glm-test\n",
        mock.url()
    );
    let home = home_with(&config);
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    let prompt = json!([
        {"type": "text", "text": "what is this?"},
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
    ]);
    let response = agent
        .request("session/prompt", json!({"sessionId": session, "prompt": prompt}))
        .await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let request = &mock.message_requests()[0];
    assert_eq!(request.path, "/anthropic/v1/messages");
    assert_eq!(request.headers["x-api-key"], "third-party-key");
    assert_eq!(request.body["model"], "glm-test");
    assert_eq!(request.body["max_tokens"], 8192);
    assert_eq!(
        request.body["messages"][0]["content"][1],
        json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}, "cache_control": {"type": "ephemeral"}})
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn check_lists_the_models_with_the_same_auth() {
    let mock = MockAnthropic::start().await;
    let home = home_with("model:\n  provider: anthropic\n  default: claude-test\n");
    // --check also sends one tiny completion.
    mock.push(mock_anthropic::text(&["OK"]));
    let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_hermes-acp"))
        .arg("--check")
        .env_clear()
        .env("HOME", home.path())
        .env("HERMES_HOME", home.path())
        .env("ANTHROPIC_API_KEY", KEY)
        .env("ANTHROPIC_BASE_URL", format!("{}/v1", mock.url()))
        .output()
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("hermes-acp check OK: model 'claude-test' answered in ")
            && stdout.contains("2 listed by the provider"),
        "{stdout}"
    );
    let request = &mock.requests()[0];
    assert_eq!(
        (request.method.as_str(), request.path.as_str()),
        ("GET", "/v1/models?limit=1000")
    );
    assert_eq!(request.headers["x-api-key"], KEY);
    assert_eq!(request.headers["anthropic-version"], "2023-06-01");
}
