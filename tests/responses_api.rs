//! The OpenAI Responses API mode (`model.api_mode: codex_responses`) end to end: the real
//! binary against the Responses mock — text and reasoning summaries streamed, the tool loop
//! with encrypted reasoning handed back (also after a restart), parallel calls matched by call
//! id, usage, retries, a rejected key, a failed response and cancel.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::mock_responses::{self, Answer, MockResponses, Tokens};
use crate::support::{AgentProcess, TestHome, agent_text, chunk_text};

const KEY: &str = "sk-test-responses-1234";

fn home_for(mock: &MockResponses) -> TestHome {
    let home = TestHome::unconfigured();
    let config = format!(
        "model:\n  base_url: {}\n  api_mode: codex_responses\n  default: gpt-5-mock\n",
        mock.url()
    );
    std::fs::write(home.path().join("config.yaml"), config).unwrap();
    home
}

async fn spawn(home: &TestHome) -> AgentProcess {
    let mut agent = AgentProcess::spawn(home.path(), &[("CUSTOM_API_KEY", KEY)]).await;
    agent.initialize().await;
    agent
}

async fn started(mock: &MockResponses) -> (TestHome, AgentProcess, String) {
    let home = home_for(mock);
    let mut agent = spawn(&home).await;
    let session = agent.new_session(&home.cwd()).await;
    (home, agent, session)
}

/// `type` of each input item (`role` for the role-only shape).
fn kinds(input: &Value) -> Vec<String> {
    (input.as_array().unwrap().iter())
        .map(|item| match item["type"].as_str() {
            Some(kind) => kind.to_string(),
            None => format!("role:{}", item["role"].as_str().unwrap_or("?")),
        })
        .collect()
}

fn position(input: &Value, pred: impl Fn(&Value) -> bool) -> usize {
    input
        .as_array()
        .unwrap()
        .iter()
        .position(pred)
        .unwrap_or_else(|| panic!("no such item in {input:#}"))
}

fn output_of(input: &Value, call_id: &str) -> String {
    let at = position(input, |i| {
        i["type"] == "function_call_output" && i["call_id"] == call_id
    });
    input[at]["output"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn text_and_reasoning_stream_with_usage_and_the_request_is_a_responses_request() {
    let mock = MockResponses::start().await;
    mock.push(mock_responses::stream(&Answer {
        reasoning: Some((&["Thinking ", "it over."], "ENC_TEXT")),
        text: &["Hel", "lo ", "there!"],
        tokens: Tokens {
            input: 1200,
            cached: 1000,
            output: 80,
            reasoning: 50,
        },
        ..Answer::default()
    }));
    let (_home, mut agent, session) = started(&mock).await;
    let (response, updates) = agent.prompt(&session, "say hello").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(chunk_text(&updates, "agent_thought_chunk"), "Thinking it over.");
    assert_eq!(agent_text(&updates), "Hello there!");
    let chunks = (updates.iter())
        .filter(|u| u["sessionUpdate"] == "agent_message_chunk")
        .count();
    assert_eq!(chunks, 3, "streamed in pieces");
    let usage = updates.iter().find(|u| u["sessionUpdate"] == "usage_update").unwrap();
    assert_eq!(usage["used"], 1280, "{usage}");
    let totals = &response["result"]["usage"];
    assert_eq!(
        (
            &totals["inputTokens"],
            &totals["outputTokens"],
            &totals["cachedReadTokens"]
        ),
        (&json!(1200), &json!(80), &json!(1000)),
        "{totals}"
    );
    let request = &mock.requests()[0];
    assert_eq!(request.path, "/v1/responses");
    assert_eq!(request.headers["authorization"], format!("Bearer {KEY}"));
    let body = &request.body;
    assert_eq!(body["model"], "gpt-5-mock");
    assert_eq!((&body["stream"], &body["store"]), (&json!(true), &json!(false)));
    assert!(body["instructions"].as_str().unwrap().len() > 100, "the system prompt");
    assert_eq!(body["include"], json!(["reasoning.encrypted_content"]));
    assert_eq!(body["reasoning"]["summary"], "auto");
    assert_eq!(body["parallel_tool_calls"], true);
    assert_eq!(
        body["input"],
        json!([{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "say hello"}]}])
    );
    let tools = body["tools"].as_array().unwrap();
    assert!(
        tools.iter().any(|t| t["type"] == "function"
            && t["name"] == "write_file"
            && t["parameters"]["type"] == "object"
            && t.get("function").is_none()),
        "flat function tools"
    );
    // The next turn replays the answer (as output text) after its encrypted reasoning.
    mock.push(mock_responses::text(&["again"]));
    let (response, _) = agent.prompt(&session, "and again").await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    let input = &mock.bodies()[1]["input"];
    assert_eq!(kinds(input), ["message", "reasoning", "message", "message"]);
    assert_eq!(input[1]["encrypted_content"], "ENC_TEXT");
    assert_eq!(
        input[2]["content"],
        json!([{"type": "output_text", "text": "Hello there!"}])
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn the_tool_loop_hands_encrypted_reasoning_back_even_after_a_restart() {
    let mock = MockResponses::start().await;
    mock.push(mock_responses::stream(&Answer {
        reasoning: Some((&["I should write the file."], "ENC_ONE")),
        calls: &[(
            "call_w",
            "write_file",
            json!({"path": "notes.txt", "content": "hello from responses\n"}),
        )],
        ..Answer::default()
    }));
    mock.push(mock_responses::stream(&Answer {
        reasoning: Some((&["Now read it back."], "ENC_TWO")),
        calls: &[("call_r", "read_file", json!({"path": "notes.txt"}))],
        ..Answer::default()
    }));
    mock.push(mock_responses::text(&["It says hello."]));
    let (home, mut agent, session) = started(&mock).await;
    let (response, updates) = agent.prompt(&session, "write then read notes.txt").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "It says hello.");
    let written = std::fs::read_to_string(home.cwd().join("notes.txt")).unwrap();
    assert_eq!(written, "hello from responses\n");
    let bodies = mock.bodies();
    assert_eq!(bodies.len(), 3);
    // Second request: the reasoning item, with the same encrypted content, before its call,
    // then the call's output.
    let input = &bodies[1]["input"];
    assert_eq!(
        kinds(input),
        [
            "message",
            "reasoning",
            "role:assistant",
            "function_call",
            "function_call_output"
        ]
    );
    assert_eq!(input[1]["encrypted_content"], "ENC_ONE");
    assert_eq!(input[1]["summary"][0]["text"], "I should write the file.");
    assert!(input[1].get("id").is_none(), "no ids with store: false");
    assert_eq!(
        (&input[3]["call_id"], &input[3]["name"]),
        (&json!("call_w"), &json!("write_file"))
    );
    assert_eq!(input[4]["call_id"], "call_w");
    // Third request: both steps' reasoning, each before its own call.
    let input = &bodies[2]["input"];
    let one = position(input, |i| i["encrypted_content"] == "ENC_ONE");
    let two = position(input, |i| i["encrypted_content"] == "ENC_TWO");
    let write = position(input, |i| i["call_id"] == "call_w" && i["type"] == "function_call");
    let read = position(input, |i| i["call_id"] == "call_r" && i["type"] == "function_call");
    assert!(one < write && write < two && two < read, "{input:#}");
    assert!(output_of(input, "call_r").contains("hello from responses"));
    // The reasoning is stored with its message: a restarted agent hands it back too.
    assert_eq!(agent.shutdown().await, Some(0));
    let mut agent = spawn(&home).await;
    let load = agent
        .request(
            "session/load",
            json!({"sessionId": session, "cwd": home.cwd(), "mcpServers": []}),
        )
        .await;
    assert!(load.get("result").is_some(), "{load}");
    mock.push(mock_responses::text(&["Still here."]));
    let (response, _) = agent.prompt(&session, "anything else?").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let input = &mock.bodies()[3]["input"];
    let replayed: Vec<&str> = (input.as_array().unwrap().iter())
        .filter_map(|i| i["encrypted_content"].as_str())
        .collect();
    assert_eq!(replayed, ["ENC_ONE", "ENC_TWO"]);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn parallel_calls_are_matched_by_call_id() {
    let mock = MockResponses::start().await;
    mock.push(mock_responses::stream(&Answer {
        calls: &[
            ("call_a", "read_file", json!({"path": "a.txt"})),
            ("call_b", "read_file", json!({"path": "b.txt"})),
        ],
        ..Answer::default()
    }));
    mock.push(mock_responses::text(&["Both read."]));
    let (home, mut agent, session) = started(&mock).await;
    std::fs::write(home.cwd().join("a.txt"), "alpha content\n").unwrap();
    std::fs::write(home.cwd().join("b.txt"), "beta content\n").unwrap();
    let (response, updates) = agent.prompt(&session, "read both").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    for id in ["call_a", "call_b"] {
        let done = updates
            .iter()
            .any(|u| u["toolCallId"] == id && u["status"] == "completed");
        assert!(done, "{id} finished: {updates:#?}");
    }
    let input = &mock.bodies()[1]["input"];
    let a = output_of(input, "call_a");
    let b = output_of(input, "call_b");
    assert!(a.contains("alpha content") && !a.contains("beta"), "{a}");
    assert!(b.contains("beta content") && !b.contains("alpha"), "{b}");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_server_error_is_retried_then_the_answer_arrives() {
    let mock = MockResponses::start().await;
    mock.push(mock_responses::status(500, "upstream hiccup"));
    mock.push(mock_responses::text(&["made it"]));
    let (_home, mut agent, session) = started(&mock).await;
    let (response, updates) = agent.prompt(&session, "hi").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "made it");
    assert!(chunk_text(&updates, "agent_thought_chunk").contains("(500), retrying"));
    assert_eq!(mock.requests().len(), 2);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_rejected_key_is_a_json_rpc_error_naming_the_key() {
    let mock = MockResponses::start().await;
    mock.set_fallback(mock_responses::status(401, "Incorrect API key provided"));
    let (_home, mut agent, session) = started(&mock).await;
    let (response, _) = agent.prompt(&session, "hi").await;
    let message = response["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("rejected the API key (HTTP 401)"), "{response}");
    assert!(message.contains("Incorrect API key provided"), "{message}");
    assert!(message.contains("CUSTOM_API_KEY"), "{message}");
    assert_eq!(mock.requests().len(), 1, "no retries on 401");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_failed_response_reports_the_servers_code_and_message() {
    let mock = MockResponses::start().await;
    mock.set_fallback(mock_responses::failed("invalid_prompt", "the prompt was refused"));
    let (_home, mut agent, session) = started(&mock).await;
    let (response, updates) = agent.prompt(&session, "hi").await;
    let message = response["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("invalid_prompt: the prompt was refused"), "{response}");
    assert_eq!(agent_text(&updates), "");
    assert_eq!(mock.requests().len(), 1, "a refused prompt is not retried");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn cancel_mid_stream_drops_the_responses_stream() {
    let mock = MockResponses::start().await;
    // 50 s of deltas, longer than the harness waits: only the cancel can end this turn in time.
    mock.push(mock_responses::slow_text(1000, Duration::from_millis(50)));
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
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn check_passes_in_responses_mode() {
    let mock = MockResponses::start().await;
    mock.push(mock_responses::text(&["OK"]));
    let home = home_for(&mock);
    let (code, out) = crate::cli::run_cli(home.path(), &["--check"], &[("CUSTOM_API_KEY", KEY)]).await;
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("check OK"), "{out}");
    let body = &mock.bodies()[0];
    // `--check` asks for one token; the Responses API takes no fewer than 16.
    assert_eq!(body["max_output_tokens"], 16, "{body}");
}

#[tokio::test]
async fn a_stream_cut_before_completion_is_reported_not_taken_as_complete() {
    let mock = MockResponses::start().await;
    mock.set_fallback(mock_responses::cut_text(&["partial "]));
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
async fn a_chat_completions_fallback_continues_a_responses_conversation() {
    let mock = MockResponses::start().await;
    let chat = crate::support::mock_llm::MockLlm::start().await;
    mock.push(mock_responses::stream(&Answer {
        reasoning: Some((&["Think."], "ENC_MAIN")),
        text: &["first"],
        ..Answer::default()
    }));
    mock.set_fallback(mock_responses::status(503, "down"));
    chat.push(crate::support::mock_llm::text(&["from the fallback"]));
    let home = home_for(&mock);
    let config = std::fs::read_to_string(home.path().join("config.yaml")).unwrap();
    let fallback = format!(
        "fallback_providers:\n  - provider: custom\n    base_url: {}\n    model: mock-model\n",
        chat.url()
    );
    std::fs::write(home.path().join("config.yaml"), config + &fallback).unwrap();
    let mut agent = spawn(&home).await;
    let session = agent.new_session(&home.cwd()).await;
    let (response, _) = agent.prompt(&session, "one").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let (response, updates) = agent.prompt(&session, "two").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "from the fallback");
    // The chat-completions request carries the conversation, without the opaque reasoning.
    let request = chat.requests().last().cloned().unwrap();
    let roles: Vec<_> = (request["messages"].as_array().unwrap().iter())
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["system", "user", "assistant", "user"]);
    assert_eq!(request["messages"][2]["content"], "first");
    assert!(!request.to_string().contains("ENC_MAIN"));
    assert_eq!(agent.shutdown().await, Some(0));
}
