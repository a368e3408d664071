//! History conversion: every block kind, merging, alternation, tool pairing.

use serde_json::{Value, json};

use crate::llm::anthropic::convert::{convert, image_block, parse_arguments, sanitize_id};
use crate::transcript::{Message, Part, Role, ToolCall};

fn call(id: &str, name: &str, arguments: &str) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: arguments.into(),
    }
}

fn assistant_calling(text: &str, calls: &[ToolCall]) -> Message {
    let mut message = Message::assistant(text);
    message.tool_calls = calls.to_vec();
    message
}

fn roles(messages: &[Value]) -> Vec<&str> {
    messages.iter().map(|m| m["role"].as_str().unwrap()).collect()
}

#[test]
fn system_is_split_out_and_text_turns_become_blocks() {
    let out = convert(&[
        Message::system("be brief"),
        Message::user("hi"),
        Message::assistant("hello"),
        Message::user("bye"),
    ]);
    assert_eq!(out.system, "be brief");
    assert_eq!(
        out.messages,
        vec![
            json!({"role": "user", "content": [{"type": "text", "text": "hi"}]}),
            json!({"role": "assistant", "content": [{"type": "text", "text": "hello"}]}),
            json!({"role": "user", "content": [{"type": "text", "text": "bye"}]}),
        ]
    );
}

#[test]
fn images_become_base64_or_url_sources() {
    let user = Message {
        role: Some(Role::User),
        parts: vec![
            Part::Text { text: "look".into() },
            Part::Image {
                url: "data:image/png;base64,iVBORw0KGgo=".into(),
            },
            Part::Image {
                url: "https://example.com/cat.jpg".into(),
            },
        ],
        ..Message::default()
    };
    let out = convert(&[user]);
    let blocks = out.messages[0]["content"].as_array().unwrap();
    assert_eq!(blocks[0], json!({"type": "text", "text": "look"}));
    assert_eq!(
        blocks[1],
        json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}})
    );
    assert_eq!(
        blocks[2],
        json!({"type": "image", "source": {"type": "url", "url": "https://example.com/cat.jpg"}})
    );
    assert_eq!(
        image_block("data:image/jpg;base64,AAAA")["source"]["media_type"],
        "image/jpeg"
    );
    let svg = image_block("data:image/svg+xml,<svg/>");
    assert_eq!(svg["type"], "text");
    assert!(svg["text"].as_str().unwrap().contains("image/svg+xml"));
}

#[test]
fn tool_calls_and_results_round_trip_as_blocks() {
    let calls = [
        call("call_1", "read_file", r#"{"path":"a.rs"}"#),
        call("call:2", "terminal", "not json"),
    ];
    let assistant = assistant_calling("Let me look.", &calls);
    let out = convert(&[
        Message::system("s"),
        Message::user("go"),
        assistant.clone(),
        Message::tool_result(&calls[0], "fn main() {}".into(), false),
        Message::tool_result(&calls[1], "boom".into(), true),
        Message::assistant("done"),
    ]);
    assert_eq!(roles(&out.messages), ["user", "assistant", "user", "assistant"]);
    assert_eq!(
        out.messages[1]["content"],
        json!([
            {"type": "text", "text": "Let me look."},
            {"type": "tool_use", "id": "call_1", "name": "read_file", "input": {"path": "a.rs"}},
            {"type": "tool_use", "id": "call_2", "name": "terminal", "input": {}},
        ])
    );
    // Consecutive results share one user turn, ids sanitised the same way as the calls.
    assert_eq!(
        out.messages[2]["content"],
        json!([
            {"type": "tool_result", "tool_use_id": "call_1", "content": "fn main() {}", "is_error": false},
            {"type": "tool_result", "tool_use_id": "call_2", "content": "boom", "is_error": true},
        ])
    );
}

#[test]
fn same_role_neighbours_merge_and_results_come_first() {
    let calls = [call("c1", "todo", "{}")];
    let out = convert(&[
        Message::user("one"),
        Message::user("two"),
        assistant_calling("", &calls),
        Message::tool_result(&calls[0], "ok".into(), false),
        // The agent's budget note follows tool results as a user message.
        Message::user("summarise now"),
        Message::assistant("first"),
        Message::assistant("second"),
    ]);
    assert_eq!(roles(&out.messages), ["user", "assistant", "user", "assistant"]);
    assert_eq!(out.messages[0]["content"].as_array().unwrap().len(), 2);
    assert_eq!(out.messages[1]["content"][0]["type"], "tool_use", "no empty text block");
    let turn = out.messages[2]["content"].as_array().unwrap();
    assert_eq!(turn[0]["type"], "tool_result");
    assert_eq!(turn[1], json!({"type": "text", "text": "summarise now"}));
    assert_eq!(out.messages[3]["content"].as_array().unwrap().len(), 2);
}

#[test]
fn empty_content_is_never_sent_and_reasoning_is_not_echoed() {
    let mut thinking_only = Message::assistant("");
    thinking_only.reasoning = Some("hmm".into());
    let mut answered = Message::assistant("answer");
    answered.reasoning = Some("private thoughts".into());
    let out = convert(&[Message::user("   "), thinking_only, Message::user("again"), answered]);
    assert_eq!(roles(&out.messages), ["user", "assistant"]);
    assert_eq!(
        out.messages[0]["content"],
        json!([{"type": "text", "text": "(empty message)"}, {"type": "text", "text": "again"}])
    );
    assert_eq!(out.messages[1]["content"], json!([{"type": "text", "text": "answer"}]));
    assert!(!out.messages.iter().any(|m| m.to_string().contains("thoughts")));
}

#[test]
fn a_call_without_its_result_gets_one_and_a_stray_result_becomes_text() {
    let calls = [call("c1", "terminal", r#"{"command":"ls"}"#)];
    // The process stopped between the call and its result; the user wrote again on resume.
    let out = convert(&[
        Message::user("list"),
        assistant_calling("", &calls),
        Message::user("are you there?"),
    ]);
    assert_eq!(roles(&out.messages), ["user", "assistant", "user"]);
    let turn = out.messages[2]["content"].as_array().unwrap();
    assert_eq!(turn[0]["type"], "tool_result");
    assert_eq!(turn[0]["tool_use_id"], "c1");
    assert_eq!(turn[0]["is_error"], true);
    assert_eq!(turn[1]["text"], "are you there?");
    // A result whose call is gone (an edited history) is kept as text.
    let out = convert(&[
        Message::user("hi"),
        Message::tool_result(&calls[0], "orphan output".into(), false),
    ]);
    let turn = out.messages[0]["content"].as_array().unwrap();
    assert!(turn.iter().all(|b| b["type"] == "text"));
    assert!(turn[1]["text"].as_str().unwrap().contains("orphan output"));
    // A history that opens with the assistant gets a user turn first.
    let out = convert(&[Message::assistant("earlier"), Message::user("now")]);
    assert_eq!(roles(&out.messages), ["user", "assistant", "user"]);
}

#[test]
fn ids_and_arguments_are_made_acceptable() {
    assert_eq!(sanitize_id("toolu_01AbC-9"), "toolu_01AbC-9");
    assert_eq!(sanitize_id("call.1:x"), "call_1_x");
    assert_eq!(sanitize_id(""), "tool_0");
    assert_eq!(parse_arguments(r#"{"a":1}"#), json!({"a": 1}));
    assert_eq!(parse_arguments(""), json!({}));
    assert_eq!(parse_arguments("[1,2]"), json!({}));
}

#[test]
fn images_a_tool_returned_go_inside_its_result() {
    let calls = [call("c1", "mcp_browser_screenshot", "{}")];
    let mut shot = Message::tool_result(&calls[0], "[image: image/png, 3 bytes]".into(), false);
    shot.parts.push(Part::Image {
        url: "data:image/png;base64,AAAA".into(),
    });
    let converted = convert(&[Message::user("look"), assistant_calling("", &calls), shot]);
    let result = &converted.messages[2]["content"][0];
    assert_eq!(result["type"], "tool_result");
    assert_eq!(
        result["content"],
        json!([
            {"type": "text", "text": "[image: image/png, 3 bytes]"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}}
        ])
    );
}
