//! The request body: fields, tools, cache breakpoints on exactly the right blocks, OAuth.

use crate::llm::model_names::normalize_model;
use serde_json::{Value, json};

use crate::llm::CacheTtl;
use crate::llm::ChatRequest;
use crate::llm::anthropic::request::{
    BodyOptions, CLAUDE_CODE_IDENTITY, CLAUDE_MAX_TOKENS, DEFAULT_MAX_TOKENS, convert_tools, default_max_tokens,
    request_body,
};
use crate::transcript::{Message, ToolCall};

fn todo_schema() -> Value {
    json!({"type": "function", "function": {"name": "todo", "description": "Track tasks", "parameters": {"type": "object", "properties": {"todos": {"type": "array"}}}}})
}

fn conversation() -> ChatRequest {
    let call = ToolCall {
        id: "toolu_1".into(),
        name: "todo".into(),
        arguments: r#"{"todos":[]}"#.into(),
    };
    let mut assistant = Message::assistant("planning");
    assistant.tool_calls.push(call.clone());
    ChatRequest {
        model: "claude-test".into(),
        messages: vec![
            Message::system("You are Hermes Agent."),
            Message::user("first"),
            Message::assistant("reply"),
            Message::user("second"),
            assistant,
            Message::tool_result(&call, "[]".into(), false),
        ],
        tools: vec![todo_schema()],
        max_tokens: None,
        reasoning_effort: None,
    }
}

/// Paths of every block that carries `cache_control`, with its marker.
fn markers(body: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for (i, block) in body["system"].as_array().into_iter().flatten().enumerate() {
        if let Some(m) = block.get("cache_control") {
            out.push((format!("system[{i}]"), m.clone()));
        }
    }
    for (i, message) in body["messages"].as_array().unwrap().iter().enumerate() {
        for (j, block) in message["content"].as_array().unwrap().iter().enumerate() {
            if let Some(m) = block.get("cache_control") {
                out.push((format!("messages[{i}][{j}]"), m.clone()));
            }
        }
    }
    out
}

#[test]
fn the_body_has_every_required_field() {
    let (body, _) = request_body(&conversation(), BodyOptions::default());
    assert_eq!(body["model"], "claude-test");
    assert_eq!(body["max_tokens"], CLAUDE_MAX_TOKENS);
    assert_eq!(body["stream"], true);
    assert_eq!(body["system"][0]["text"], "You are Hermes Agent.");
    assert_eq!(body["messages"].as_array().unwrap().len(), 5);
    assert_eq!(
        body["tools"],
        json!([{"name": "todo", "description": "Track tasks", "input_schema": {"type": "object", "properties": {"todos": {"type": "array"}}}}])
    );
    assert_eq!(body["thinking"], json!({"type": "disabled"}));
    let mut request = conversation();
    request.max_tokens = Some(16);
    request.tools.clear();
    let (body, _) = request_body(&request, BodyOptions::default());
    assert_eq!(body["max_tokens"], 16);
    assert!(body.get("tools").is_none());
}

#[test]
fn cache_markers_sit_on_the_system_and_the_last_three_messages() {
    let (body, _) = request_body(&conversation(), BodyOptions::default());
    let five = json!({"type": "ephemeral"});
    // messages: user first, assistant reply, user second, assistant [text, tool_use], user [result]
    assert_eq!(
        markers(&body),
        vec![
            ("system[0]".to_string(), five.clone()),
            ("messages[2][0]".to_string(), five.clone()),
            ("messages[3][1]".to_string(), five.clone()),
            ("messages[4][0]".to_string(), five),
        ]
    );
    let options = BodyOptions {
        cache_ttl: CacheTtl::OneHour,
        oauth: false,
        issuer: "",
    };
    let (body, _) = request_body(&conversation(), options);
    let hour = json!({"type": "ephemeral", "ttl": "1h"});
    let found = markers(&body);
    assert_eq!(found.len(), 4);
    assert!(found.iter().all(|(_, m)| *m == hour), "{found:?}");
}

#[test]
fn short_conversations_get_fewer_markers() {
    let request = ChatRequest {
        model: "claude-test".into(),
        messages: vec![Message::user("only")],
        tools: Vec::new(),
        max_tokens: None,
        reasoning_effort: None,
    };
    let (body, _) = request_body(&request, BodyOptions::default());
    assert!(body.get("system").is_none(), "no empty system");
    assert_eq!(markers(&body).len(), 1);
    assert_eq!(markers(&body)[0].0, "messages[0][0]");
}

#[test]
fn tool_schemas_are_converted_and_cleaned() {
    let tools = convert_tools(&[
        todo_schema(),
        todo_schema(),
        json!({"type": "function", "function": {"name": "bare"}}),
        json!({"type": "function", "function": {"name": "union", "parameters": {"anyOf": [{"type": "object"}], "properties": 3}}}),
    ]);
    assert_eq!(tools.len(), 3, "the duplicate is dropped");
    assert_eq!(
        tools[1],
        json!({"name": "bare", "description": "", "input_schema": {"type": "object", "properties": {}}})
    );
    assert_eq!(tools[2]["input_schema"], json!({"type": "object", "properties": {}}));
}

#[test]
fn model_ids_and_output_caps() {
    assert_eq!(normalize_model("anthropic/claude-sonnet-4.5"), "claude-sonnet-4-5");
    assert_eq!(normalize_model("claude-opus-4-1-20250805"), "claude-opus-4-1-20250805");
    assert_eq!(normalize_model("glm-4.6"), "glm-4.6");
    assert_eq!(default_max_tokens("claude-sonnet-4-5"), CLAUDE_MAX_TOKENS);
    assert_eq!(default_max_tokens("claude-3-5-haiku-latest"), 8192);
    assert_eq!(default_max_tokens("claude-3-haiku-20240307"), 4096);
    assert_eq!(default_max_tokens("deepseek-chat"), DEFAULT_MAX_TOKENS);
    // Only Claude models from 4.6 on are told not to think; older ones never think unasked.
    let thinking = |model: &str| {
        let mut request = conversation();
        request.model = model.into();
        request_body(&request, BodyOptions::default())
            .0
            .get("thinking")
            .cloned()
    };
    assert!(thinking("claude-opus-4-6").is_some());
    assert!(thinking("claude-sonnet-4-5-20250929").is_none());
    assert!(thinking("claude-3-7-sonnet-latest").is_none());
    assert!(thinking("deepseek-chat").is_none());
}

#[test]
fn oauth_requests_carry_the_claude_code_identity_and_wire_tool_names() {
    let options = BodyOptions {
        cache_ttl: CacheTtl::FiveMinutes,
        oauth: true,
        issuer: "",
    };
    let mut request = conversation();
    request
        .tools
        .push(json!({"type": "function", "function": {"name": "memory", "parameters": {}}}));
    let (body, names) = request_body(&request, options);
    assert_eq!(body["system"][0]["text"], CLAUDE_CODE_IDENTITY);
    assert_eq!(body["system"][1]["text"], "You are Claude Code.");
    assert!(body["system"][0].get("cache_control").is_none());
    assert!(body["system"][1].get("cache_control").is_some());
    let tool_names: Vec<_> = body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tool_names, ["mcp__todo", "mcp__context_notes"]);
    assert_eq!(
        body["messages"][3]["content"][1]["name"], "mcp__todo",
        "history renamed too"
    );
    assert_eq!(names.original("mcp__todo"), "todo");
    assert_eq!(names.original("mcp__context_notes"), "memory");
    assert_eq!(names.original("unknown"), "unknown");
}
