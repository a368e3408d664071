//! Unit tests of the Responses provider: the request body (instructions, input items, flat
//! tools, encrypted reasoning replayed before its calls) and the SSE fold (text, reasoning,
//! parallel calls matched by item id, usage, failures).

use serde_json::{Value, json};

use super::convert::input_items;
use super::request::request_body;
use super::{REASONING_FORMAT, ResponsesParser};
use crate::llm::model_names::reasons;
use crate::llm::{Assembler, ChatRequest, LlmError, StreamEvent};
use crate::transcript::{Message, OpaqueReasoning, Part, ToolCall, Usage};

const ISSUER: &str = "https://api.openai.com/v1";

fn reasoning(id: &str, blob: &str, issuer: &str) -> OpaqueReasoning {
    OpaqueReasoning {
        provider: REASONING_FORMAT.into(),
        issuer: issuer.into(),
        data: json!({"type": "reasoning", "id": id, "encrypted_content": blob,
            "summary": [{"type": "summary_text", "text": "plan"}]}),
    }
}

fn calling(text: &str, calls: &[(&str, &str, &str)]) -> Message {
    let mut message = Message::assistant(text);
    message.tool_calls = calls
        .iter()
        .map(|(id, name, args)| ToolCall {
            id: (*id).into(),
            name: (*name).into(),
            arguments: (*args).into(),
        })
        .collect();
    message
}

#[test]
fn the_body_has_instructions_flat_tools_and_reasoning_settings() {
    let mut user = Message::user("look");
    user.parts.push(Part::Image {
        url: "data:image/png;base64,AA".into(),
    });
    let request = ChatRequest {
        model: "gpt-5".into(),
        messages: vec![Message::system("be brief"), user],
        tools: vec![
            json!({"type": "function", "function": {"name": "todo", "description": "d",
            "parameters": {"type": "object", "properties": {"x": {"type": "string"}}}}}),
        ],
        max_tokens: Some(64),
        reasoning_effort: None,
    };
    let body = request_body(&request, ISSUER);
    assert_eq!(body["model"], "gpt-5");
    assert_eq!(body["instructions"], "be brief");
    assert_eq!(body["store"], false);
    assert_eq!(body["stream"], true);
    assert_eq!(body["max_output_tokens"], 64);
    assert_eq!(body["parallel_tool_calls"], true);
    assert_eq!(body["tool_choice"], "auto");
    assert_eq!(body["reasoning"], json!({"effort": "medium", "summary": "auto"}));
    assert_eq!(body["include"], json!(["reasoning.encrypted_content"]));
    assert_eq!(
        body["tools"][0],
        json!({"type": "function", "name": "todo", "description": "d", "strict": false,
            "parameters": {"type": "object", "properties": {"x": {"type": "string"}}}})
    );
    assert_eq!(
        body["input"],
        json!([{"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "look"},
            {"type": "input_image", "image_url": "data:image/png;base64,AA"}]}])
    );
    let plain = request_body(
        &ChatRequest {
            model: "openai/gpt-4.1".into(),
            messages: vec![Message::user("hi")],
            tools: Vec::new(),
            max_tokens: Some(1),
            reasoning_effort: None,
        },
        ISSUER,
    );
    assert_eq!(plain["max_output_tokens"], 16, "the API's minimum");
    assert!(
        plain.get("reasoning").is_none() && plain.get("tools").is_none(),
        "{plain}"
    );
    assert_eq!(plain["include"], json!([]));
    assert!(reasons("o3") && reasons("gpt-5-codex") && !reasons("gpt-4o-mini"));
}

#[test]
fn encrypted_reasoning_goes_back_before_its_calls_and_results_follow() {
    let mut first = calling(
        "",
        &[
            ("call_a", "write_file", "{\"path\":\"a\"}"),
            ("call_b", "read_file", " "),
        ],
    );
    first.opaque_reasoning = vec![
        reasoning("rs_1", "BLOB1", ISSUER),
        reasoning("rs_x", "FOREIGN", "https://api.x.ai/v1"),
    ];
    let mut again = calling("Done.", &[]);
    // The same item twice (a retried step) is sent once; unstamped records count as ours.
    again.opaque_reasoning = vec![reasoning("rs_1", "BLOB1", ISSUER), reasoning("rs_2", "BLOB2", "")];
    let history = vec![
        Message::system("sys"),
        Message::user("go"),
        first.clone(),
        Message::tool_result(&first.tool_calls[0], "ok".into(), false),
        Message::tool_result(&first.tool_calls[1], "text".into(), false),
        again,
    ];
    let (instructions, items) = input_items(&history, ISSUER, false);
    assert_eq!(instructions, "sys");
    let kinds: Vec<String> = items
        .iter()
        .map(|i| i["type"].as_str().unwrap_or("(role)").to_string())
        .collect();
    assert_eq!(
        kinds,
        [
            "message",
            "reasoning",
            "(role)",
            "function_call",
            "function_call",
            "function_call_output",
            "function_call_output",
            "reasoning",
            "message"
        ]
    );
    assert_eq!(
        items[1],
        json!({"type": "reasoning", "encrypted_content": "BLOB1", "summary": [{"type": "summary_text", "text": "plan"}]})
    );
    assert_eq!(items[2], json!({"role": "assistant", "content": ""}));
    assert_eq!(
        items[3],
        json!({"type": "function_call", "call_id": "call_a", "name": "write_file", "arguments": "{\"path\":\"a\"}"})
    );
    assert_eq!(items[4]["arguments"], "{}");
    assert_eq!(
        items[5],
        json!({"type": "function_call_output", "call_id": "call_a", "output": "ok"})
    );
    assert_eq!(items[7]["encrypted_content"], "BLOB2");
    assert_eq!(items[8]["content"], json!([{"type": "output_text", "text": "Done."}]));
    assert!(!serde_json::to_string(&items).unwrap().contains("FOREIGN"));
}

#[test]
fn tool_images_go_in_the_output_for_models_that_see_them() {
    let call = ToolCall {
        id: "c1".into(),
        name: "shot".into(),
        arguments: "{}".into(),
    };
    let mut result = Message::tool_result(&call, "[image]".into(), false);
    result.parts.push(Part::Image { url: "data:x".into() });
    let (_, seeing) = input_items(std::slice::from_ref(&result), ISSUER, true);
    assert_eq!(
        seeing[0]["output"],
        json!([{"type": "input_text", "text": "[image]"}, {"type": "input_image", "image_url": "data:x"}])
    );
    let (_, blind) = input_items(&[result], ISSUER, false);
    assert_eq!(blind[0]["output"], "[image]");
}

fn feed_all(parser: &mut ResponsesParser, events: &[Value]) -> Result<Vec<StreamEvent>, LlmError> {
    let mut out = Vec::new();
    for event in events {
        let kind = event["type"].as_str().unwrap().to_string();
        parser.feed(&kind, &event.to_string(), &mut out)?;
    }
    Ok(out)
}

#[test]
fn text_reasoning_parallel_calls_and_usage_are_folded() {
    let mut parser = ResponsesParser::new("openai", "OPENAI_API_KEY", ISSUER);
    let events = [
        json!({"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}}),
        json!({"type": "response.output_item.added", "output_index": 0, "item": {"type": "reasoning", "id": "rs_1"}}),
        json!({"type": "response.reasoning_summary_text.delta", "item_id": "rs_1", "summary_index": 0, "delta": "Plan "}),
        json!({"type": "response.reasoning_summary_text.delta", "item_id": "rs_1", "summary_index": 0, "delta": "it."}),
        json!({"type": "response.reasoning_summary_text.delta", "item_id": "rs_1", "summary_index": 1, "delta": "Then act."}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": {"type": "reasoning", "id": "rs_1",
            "encrypted_content": "ENC", "summary": [{"type": "summary_text", "text": "Plan it."}]}}),
        json!({"type": "response.output_item.added", "output_index": 1, "item": {"type": "message", "id": "msg_1", "role": "assistant"}}),
        json!({"type": "response.output_text.delta", "item_id": "msg_1", "delta": "Hel"}),
        json!({"type": "response.output_text.delta", "item_id": "msg_1", "delta": "lo"}),
        json!({"type": "response.output_item.done", "output_index": 1, "item": {"type": "message", "id": "msg_1",
            "content": [{"type": "output_text", "text": "Hello"}]}}),
        json!({"type": "response.output_item.added", "output_index": 2, "item": {"type": "function_call", "id": "fc_a", "call_id": "call_a", "name": "write_file", "arguments": ""}}),
        json!({"type": "response.output_item.added", "output_index": 3, "item": {"type": "function_call", "id": "fc_b", "call_id": "call_b", "name": "read_file", "arguments": ""}}),
        json!({"type": "response.function_call_arguments.delta", "item_id": "fc_b", "output_index": 3, "delta": "{\"path\":"}),
        json!({"type": "response.function_call_arguments.delta", "item_id": "fc_a", "output_index": 2, "delta": "{\"a\":1"}),
        json!({"type": "response.function_call_arguments.delta", "item_id": "fc_b", "output_index": 3, "delta": "\"b\"}"}),
        json!({"type": "response.function_call_arguments.delta", "item_id": "fc_a", "output_index": 2, "delta": "}"}),
        json!({"type": "response.function_call_arguments.done", "item_id": "fc_a", "arguments": "{\"a\":1}"}),
        json!({"type": "response.output_item.done", "output_index": 2, "item": {"type": "function_call", "id": "fc_a", "call_id": "call_a", "name": "write_file", "arguments": "{\"a\":1}"}}),
        json!({"type": "response.output_item.done", "output_index": 3, "item": {"type": "function_call", "id": "fc_b", "call_id": "call_b", "name": "read_file", "arguments": "{\"path\":\"b\"}"}}),
        json!({"type": "response.completed", "response": {"id": "resp_1", "status": "completed", "usage": {
            "input_tokens": 1200, "output_tokens": 80, "input_tokens_details": {"cached_tokens": 1000},
            "output_tokens_details": {"reasoning_tokens": 50}}}}),
    ];
    let out = feed_all(&mut parser, &events).unwrap();
    assert!(parser.is_complete());
    let reasoning: String = out
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Reasoning(r) => Some(r.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(reasoning, "Plan it.\n\nThen act.", "the done item repeats nothing");
    let mut assembler = Assembler::default();
    out.iter().for_each(|e| assembler.push(e));
    let done = assembler.finish();
    assert_eq!(done.message.text_content(), "Hello");
    let calls: Vec<_> = (done.message.tool_calls.iter())
        .map(|c| (c.id.as_str(), c.name.as_str(), c.arguments.as_str()))
        .collect();
    assert_eq!(
        calls,
        [
            ("call_a", "write_file", "{\"a\":1}"),
            ("call_b", "read_file", "{\"path\":\"b\"}")
        ]
    );
    assert_eq!(
        done.message.opaque_reasoning,
        vec![{
            let mut r = reasoning_record("ENC");
            r.data["summary"] = json!([{"type": "summary_text", "text": "Plan it."}]);
            r
        }]
    );
    assert_eq!(done.finish_reason.as_deref(), Some("tool_calls"));
    assert_eq!(
        done.usage,
        Some(Usage {
            input_tokens: 1200,
            output_tokens: 80,
            reasoning_tokens: 50,
            cache_read_tokens: 1000,
            cache_write_tokens: 0
        })
    );
}

fn reasoning_record(blob: &str) -> OpaqueReasoning {
    OpaqueReasoning {
        provider: REASONING_FORMAT.into(),
        issuer: ISSUER.into(),
        data: json!({"type": "reasoning", "id": "rs_1", "encrypted_content": blob, "summary": []}),
    }
}

#[test]
fn whole_items_without_deltas_and_incomplete_answers() {
    let mut parser = ResponsesParser::new("p", "k", ISSUER);
    let out = feed_all(
        &mut parser,
        &[
            json!({"type": "response.output_item.done", "item": {"type": "reasoning", "id": "rs_tmp_1", "encrypted_content": "T",
                "summary": [{"type": "summary_text", "text": "a"}, {"type": "summary_text", "text": "b"}]}}),
            json!({"type": "response.output_item.done", "item": {"type": "message", "id": "m",
                "content": [{"type": "output_text", "text": "whole"}]}}),
            json!({"type": "response.output_item.done", "output_index": 2, "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "todo", "arguments": ""}}),
            json!({"type": "response.incomplete", "response": {"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}}}),
        ],
    )
    .unwrap();
    assert_eq!(out[0], StreamEvent::Reasoning("a\nb".into()));
    assert_eq!(out[1], StreamEvent::Text("whole".into()));
    assert!(matches!(&out[2], StreamEvent::ToolCallDelta { id: Some(id), .. } if id == "call_1"));
    assert!(matches!(&out[3], StreamEvent::ToolCallDelta { arguments, .. } if arguments == "{}"));
    assert_eq!(out.last(), Some(&StreamEvent::Finish("length".into())));
    assert!(
        !out.iter().any(|e| matches!(e, StreamEvent::OpaqueReasoning(_))),
        "rs_tmp_ items are transient"
    );
}

#[test]
fn failures_become_errors_with_the_servers_words() {
    let failed = json!({"type": "response.failed", "response": {"status": "failed",
        "error": {"code": "rate_limit_exceeded", "message": "Slow down"}}});
    let err = feed_all(&mut ResponsesParser::new("openai", "k", ISSUER), &[failed]).unwrap_err();
    assert!(
        matches!(&err, LlmError::Status { status: 429, message, .. } if message == "rate_limit_exceeded: Slow down")
    );
    assert!(err.is_retryable());
    let top = json!({"type": "error", "code": "invalid_api_key", "message": "Incorrect API key"});
    let err = feed_all(&mut ResponsesParser::new("openai", "OPENAI_API_KEY", ISSUER), &[top]).unwrap_err();
    assert!(matches!(&err, LlmError::Auth { status: 401, .. }), "{err:?}");
    assert!(err.to_string().contains("OPENAI_API_KEY"));
    let nested = json!({"type": "error", "error": {"code": "context_length_exceeded", "message": "too long"}});
    let err = feed_all(&mut ResponsesParser::new("p", "k", ISSUER), &[nested]).unwrap_err();
    assert!(matches!(&err, LlmError::Status { status: 400, .. }) && !err.is_retryable());
    let bare = json!({"type": "error"});
    let err = feed_all(&mut ResponsesParser::new("p", "k", ISSUER), &[bare]).unwrap_err();
    assert!(err.to_string().contains("stream emitted an error event"));
    let mut out = Vec::new();
    let bad = ResponsesParser::new("p", "k", ISSUER).feed("", "{not json", &mut out);
    assert!(matches!(bad, Err(LlmError::Protocol { .. })));
}

#[test]
fn the_sessions_effort_replaces_the_default_fitted_to_the_model() {
    use crate::llm::effort::Effort;
    let effort = |model: &str, wanted: Option<Effort>| {
        let request = ChatRequest {
            model: model.into(),
            messages: vec![Message::user("hi")],
            tools: Vec::new(),
            max_tokens: None,
            reasoning_effort: wanted,
        };
        request_body(&request, ISSUER)["reasoning"]["effort"].clone()
    };
    assert_eq!(effort("gpt-5.2", Some(Effort::XHigh)), "xhigh");
    assert_eq!(effort("gpt-5.1", Some(Effort::None)), "none");
    assert_eq!(
        effort("gpt-5", Some(Effort::Minimal)),
        "low",
        "Hermes sends minimal as low"
    );
    assert_eq!(effort("gpt-5", None), "medium");
    assert_eq!(effort("o3", Some(Effort::Max)), "high");
}
