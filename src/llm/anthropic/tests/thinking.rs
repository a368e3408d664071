//! Reasoning effort on the Messages API: thinking budgets, adaptive thinking, and signed
//! thinking blocks replayed first in a continuing tool loop (only to the endpoint that signed
//! them).

use serde_json::{Value, json};

use crate::llm::ChatRequest;
use crate::llm::anthropic::request::{BodyOptions, CLAUDE_MAX_TOKENS, request_body};
use crate::llm::effort::Effort;
use crate::transcript::{Message, OpaqueReasoning, ToolCall};

const ISSUER: &str = "https://api.anthropic.com";

fn signed(issuer: &str, text: &str, signature: &str) -> OpaqueReasoning {
    OpaqueReasoning {
        provider: "anthropic".into(),
        issuer: issuer.into(),
        data: json!({"type": "thinking", "thinking": text, "signature": signature}),
    }
}

/// A tool loop in progress: the user asked, the model thought and called a tool, the result came.
fn tool_loop(records: Vec<OpaqueReasoning>) -> Vec<Message> {
    let mut assistant = Message::assistant("");
    assistant.reasoning = Some("I should read it.".into());
    assistant.opaque_reasoning = records;
    assistant.tool_calls.push(ToolCall {
        id: "toolu_1".into(),
        name: "read_file".into(),
        arguments: "{\"path\":\"a\"}".into(),
    });
    let result = Message::tool_result(&assistant.tool_calls[0], "contents".into(), false);
    vec![Message::user("read a"), assistant, result]
}

fn body(model: &str, messages: Vec<Message>, effort: Option<Effort>) -> Value {
    let request = ChatRequest {
        model: model.into(),
        messages,
        tools: Vec::new(),
        max_tokens: None,
        reasoning_effort: effort,
    };
    let options = BodyOptions {
        issuer: ISSUER,
        ..BodyOptions::default()
    };
    request_body(&request, options).0
}

#[test]
fn manual_thinking_gets_hermes_budget_and_room_to_answer() {
    let b = body("claude-sonnet-4-5", vec![Message::user("hi")], Some(Effort::High));
    assert_eq!(b["thinking"], json!({"type": "enabled", "budget_tokens": 16000}));
    assert_eq!(b["max_tokens"], CLAUDE_MAX_TOKENS, "already above budget + 4096");
    assert!(b.get("temperature").is_none(), "thinking forbids a temperature");
    let b = body(
        "claude-3-5-sonnet-latest",
        vec![Message::user("hi")],
        Some(Effort::High),
    );
    assert!(b.get("thinking").is_none(), "3.5 cannot think");
    let b = body(
        "claude-3-7-sonnet-latest",
        vec![Message::user("hi")],
        Some(Effort::Minimal),
    );
    assert_eq!(b["thinking"]["budget_tokens"], 4000, "fitted to low");
    let b = body("claude-sonnet-4-5", vec![Message::user("hi")], Some(Effort::None));
    assert!(b.get("thinking").is_none(), "older models think only when asked");
}

#[test]
fn adaptive_models_get_an_effort_and_none_switches_thinking_off() {
    let b = body("claude-opus-4-7", vec![Message::user("hi")], Some(Effort::XHigh));
    assert_eq!(b["thinking"], json!({"type": "adaptive", "display": "summarized"}));
    assert_eq!(b["output_config"], json!({"effort": "xhigh"}));
    let b = body("claude-sonnet-4-6", vec![Message::user("hi")], Some(Effort::XHigh));
    assert_eq!(b["output_config"], json!({"effort": "high"}), "4.6 has no xhigh");
    for effort in [None, Some(Effort::None)] {
        let b = body("claude-sonnet-4-6", vec![Message::user("hi")], effort);
        assert_eq!(b["thinking"], json!({"type": "disabled"}));
        assert!(b.get("output_config").is_none());
    }
}

#[test]
fn signed_thinking_opens_the_assistant_turn_of_a_tool_loop() {
    let records = vec![
        signed(ISSUER, "I should read it.", "SIG1"),
        OpaqueReasoning {
            provider: "anthropic".into(),
            issuer: ISSUER.into(),
            data: json!({"type": "redacted_thinking", "data": "OPAQUE"}),
        },
    ];
    let b = body("claude-sonnet-4-5", tool_loop(records), Some(Effort::Medium));
    let content = &b["messages"][1]["content"];
    assert_eq!(
        content[0],
        json!({"type": "thinking", "thinking": "I should read it.", "signature": "SIG1"})
    );
    assert_eq!(content[1], json!({"type": "redacted_thinking", "data": "OPAQUE"}));
    assert_eq!(content[2]["type"], "tool_use");
    assert_eq!(b["thinking"]["budget_tokens"], 8000, "the loop goes on thinking");
}

#[test]
fn a_loop_without_thinking_of_this_endpoint_continues_without_thinking() {
    let foreign = vec![signed("https://proxy.example/anthropic", "x", "SIG")];
    let b = body("claude-sonnet-4-5", tool_loop(foreign), Some(Effort::High));
    assert_eq!(
        b["messages"][1]["content"][0]["type"], "tool_use",
        "foreign signatures are not sent"
    );
    assert!(b.get("thinking").is_none(), "Anthropic would refuse thinking here");
    let b = body("claude-opus-4-7", tool_loop(Vec::new()), Some(Effort::High));
    assert_eq!(b["thinking"], json!({"type": "disabled"}));
    let other = vec![OpaqueReasoning {
        provider: "openai_responses".into(),
        issuer: ISSUER.into(),
        data: json!({"type": "reasoning", "encrypted_content": "e"}),
    }];
    let b = body("claude-sonnet-4-5", tool_loop(other), None);
    assert_eq!(b["messages"][1]["content"][0]["type"], "tool_use");
}

#[test]
fn thinking_alone_is_not_an_answer() {
    let mut thought = Message::assistant("");
    thought.opaque_reasoning.push(signed(ISSUER, "hmm", "SIG"));
    let b = body(
        "claude-sonnet-4-5",
        vec![Message::user("a"), thought, Message::user("b")],
        Some(Effort::Low),
    );
    assert_eq!(b["messages"].as_array().unwrap().len(), 1, "merged into one user turn");
}
