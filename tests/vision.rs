//! `vision_analyze` end to end: the real binary asks a second mock model about an image, in the
//! OpenAI and the Anthropic wire formats, and hands its answer back as the tool result; the
//! session's own model answers when it sees images; local URLs are refused; and the tool is not
//! offered when no vision model resolves.

use base64::Engine;
use serde_json::{Value, json};

use crate::support::mock_anthropic::{self, MockAnthropic};
use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome, agent_text};

/// PNG magic and a few bytes: the tool checks the type, never decodes an image that fits.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR-not-really-pixels";

fn home_with(main_url: &str, model: &str, extra: &str) -> TestHome {
    let home = TestHome::new(main_url);
    let config = format!("model:\n  provider: custom\n  base_url: {main_url}\n  default: {model}\n{extra}");
    std::fs::write(home.path().join("config.yaml"), config).unwrap();
    std::fs::write(home.cwd().join("shot.png"), PNG).unwrap();
    home
}

fn png_data_url() -> String {
    format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(PNG)
    )
}

fn tool_names(request: &Value) -> Vec<String> {
    (request["tools"].as_array().into_iter().flatten())
        .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
        .collect()
}

/// The tool result the main model received for `call_id` in its last request.
fn tool_result(mock: &MockLlm, call_id: &str) -> Value {
    let request = mock.requests().last().cloned().unwrap();
    let message = (request["messages"].as_array().unwrap().iter())
        .find(|m| m["tool_call_id"] == call_id)
        .cloned()
        .unwrap();
    serde_json::from_str(message["content"].as_str().unwrap()).unwrap()
}

/// Runs one prompt whose model calls `vision_analyze` once, then answers "Done.".
async fn analyze(main: &MockLlm, home: &TestHome, image_url: &str) -> Vec<Value> {
    main.push(mock_llm::tool_calls(&[(
        "call_v",
        "vision_analyze",
        json!({"image_url": image_url, "question": "what is it?"}),
    )]));
    main.push(mock_llm::text(&["Done."]));
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    let (response, updates) = agent.prompt(&session, "look at shot.png").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "Done.");
    assert_eq!(agent.shutdown().await, Some(0));
    updates
}

#[tokio::test]
async fn an_openai_compatible_vision_model_gets_the_exact_bytes_and_its_answer_is_the_result() {
    let (main, vision) = (MockLlm::start().await, MockLlm::start().await);
    vision.push(mock_llm::text(&["A red ", "dot."]));
    let extra = format!(
        "auxiliary:\n  vision:\n    base_url: {}\n    api_key: vision-key\n    model: vis-model\n",
        vision.url()
    );
    let home = home_with(&main.url(), "mock-model", &extra);
    let updates = analyze(&main, &home, "shot.png").await;
    assert!(tool_names(&main.requests()[0]).contains(&"vision_analyze".to_string()));
    let request = &vision.requests()[0];
    assert_eq!(request["model"], "vis-model");
    let content = &request["messages"][0]["content"];
    assert_eq!(content[0]["type"], "text");
    assert_eq!(
        content[0]["text"],
        "Fully describe and explain everything about this image, then answer the following question:\n\nwhat is it?"
    );
    assert_eq!(
        content[1],
        json!({"type": "image_url", "image_url": {"url": png_data_url()}})
    );
    assert_eq!(
        tool_result(&main, "call_v"),
        json!({"success": true, "analysis": "A red dot."})
    );
    let start = updates
        .iter()
        .find(|u| u["toolCallId"] == "call_v" && u["sessionUpdate"] == "tool_call")
        .unwrap();
    assert_eq!(start["title"], "Analyze image shot.png \u{2014} what is it?");
    assert_eq!(start["kind"], "read");
    assert_eq!(
        start["locations"][0]["path"],
        home.cwd().join("shot.png").display().to_string()
    );
}

#[tokio::test]
async fn an_anthropic_vision_model_gets_a_base64_image_block() {
    let (main, vision) = (MockLlm::start().await, MockAnthropic::start().await);
    vision.push(mock_anthropic::text(&["A tiny ", "PNG."]));
    let extra = format!(
        "auxiliary:\n  vision:\n    provider: anthropic\n    base_url: {}\n    api_key: sk-ant-vision\n    model: claude-vision\n",
        vision.url()
    );
    let home = home_with(&main.url(), "mock-model", &extra);
    analyze(&main, &home, "shot.png").await;
    let request = &vision.message_requests()[0];
    assert_eq!(request.path, "/v1/messages");
    assert_eq!(request.headers["x-api-key"], "sk-ant-vision");
    assert_eq!(request.body["model"], "claude-vision");
    let block = &request.body["messages"][0]["content"][1];
    assert_eq!(block["type"], "image");
    assert_eq!(
        block["source"],
        json!({"type": "base64", "media_type": "image/png", "data": base64::engine::general_purpose::STANDARD.encode(PNG)})
    );
    assert_eq!(
        tool_result(&main, "call_v"),
        json!({"success": true, "analysis": "A tiny PNG."})
    );
}

#[tokio::test]
async fn without_auxiliary_vision_a_session_model_that_sees_images_is_asked() {
    let main = MockLlm::start().await;
    let home = home_with(&main.url(), "gpt-4o", "");
    // The tool call, then the vision call itself, then the answer after the result.
    main.push(mock_llm::tool_calls(&[(
        "call_v",
        "vision_analyze",
        json!({"image_url": png_data_url(), "question": "what is it?"}),
    )]));
    main.push(mock_llm::text(&["Seen by the session model."]));
    main.push(mock_llm::text(&["Done."]));
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    let (response, _) = agent.prompt(&session, "what is in this data URL?").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let requests = main.requests();
    assert_eq!(requests.len(), 3);
    assert_eq!(requests[1]["model"], "gpt-4o");
    assert!(
        requests[1]
            .get("tools")
            .is_none_or(|t| t.as_array().is_some_and(Vec::is_empty))
    );
    assert_eq!(
        requests[1]["messages"][0]["content"][1],
        json!({"type": "image_url", "image_url": {"url": png_data_url()}})
    );
    assert_eq!(
        tool_result(&main, "call_v"),
        json!({"success": true, "analysis": "Seen by the session model."})
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_url_on_this_machine_is_refused_without_allow_private() {
    let main = MockLlm::start().await;
    let home = home_with(&main.url(), "gpt-4o", "");
    let url = format!("http://127.0.0.1:{}/shot.png", main.port);
    analyze(&main, &home, &url).await;
    let result = tool_result(&main, "call_v");
    assert_eq!(result["success"], false, "{result}");
    let error = result["error"].as_str().unwrap();
    assert!(
        error.starts_with("Error analyzing image: refused to fetch") && error.contains("web.allow_private"),
        "{error}"
    );
    // The tool call and the answer after it: nothing was asked about an image.
    assert_eq!(main.requests().len(), 2);
}

#[tokio::test]
async fn not_offered_when_no_vision_model_resolves() {
    let main = MockLlm::start().await;
    let home = home_with(&main.url(), "mock-model", "");
    main.push(mock_llm::text(&["Hi."]));
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    agent.prompt(&session, "hello").await;
    let names = tool_names(&main.requests()[0]);
    assert!(names.contains(&"read_file".to_string()), "{names:?}");
    assert!(!names.contains(&"vision_analyze".to_string()), "{names:?}");
    assert_eq!(agent.shutdown().await, Some(0));
}
