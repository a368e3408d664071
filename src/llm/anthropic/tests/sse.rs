//! The SSE parser and the stream around it.

use eventsource_stream::Eventsource;
use futures::StreamExt;
use serde_json::{Value, json};

use crate::llm::anthropic::sse::{SseParser, event_stream, finish_reason};
use crate::llm::{Assembler, LlmError, StreamEvent};
use crate::transcript::{OpaqueReasoning, Usage};

fn signed_thinking(issuer: &str, text: &str, signature: &str) -> StreamEvent {
    StreamEvent::OpaqueReasoning(OpaqueReasoning {
        provider: "anthropic".into(),
        issuer: issuer.into(),
        data: json!({"type": "thinking", "thinking": text, "signature": signature}),
    })
}

fn feed_all(parser: &mut SseParser, events: &[(&str, Value)]) -> Result<Vec<StreamEvent>, LlmError> {
    let mut out = Vec::new();
    for (name, data) in events {
        parser.feed(name, &data.to_string(), &mut out)?;
    }
    Ok(out)
}

fn start(input: u64, read: u64, write: u64) -> (&'static str, Value) {
    (
        "message_start",
        json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [], "model": "claude-test", "stop_reason": null, "usage": {"input_tokens": input, "cache_creation_input_tokens": write, "cache_read_input_tokens": read, "output_tokens": 1}}}),
    )
}

fn block_start(index: usize, block: Value) -> (&'static str, Value) {
    (
        "content_block_start",
        json!({"type": "content_block_start", "index": index, "content_block": block}),
    )
}

fn delta(index: usize, delta: Value) -> (&'static str, Value) {
    (
        "content_block_delta",
        json!({"type": "content_block_delta", "index": index, "delta": delta}),
    )
}

fn stop(index: usize) -> (&'static str, Value) {
    (
        "content_block_stop",
        json!({"type": "content_block_stop", "index": index}),
    )
}

fn message_delta(reason: &str, output: u64) -> (&'static str, Value) {
    (
        "message_delta",
        json!({"type": "message_delta", "delta": {"stop_reason": reason, "stop_sequence": null}, "usage": {"output_tokens": output}}),
    )
}

fn message_stop() -> (&'static str, Value) {
    ("message_stop", json!({"type": "message_stop"}))
}

fn tool_delta(index: usize, id: Option<&str>, name: Option<&str>, arguments: &str) -> StreamEvent {
    StreamEvent::ToolCallDelta {
        index,
        id: id.map(String::from),
        name: name.map(String::from),
        arguments: arguments.into(),
    }
}

#[test]
fn text_thinking_tool_use_usage_and_stop_reason() {
    let mut parser = SseParser::new("anthropic", "ANTHROPIC_API_KEY");
    let events = feed_all(
        &mut parser,
        &[
            start(10, 1000, 200),
            ("ping", json!({"type": "ping"})),
            block_start(0, json!({"type": "thinking", "thinking": ""})),
            delta(0, json!({"type": "thinking_delta", "thinking": "Let me "})),
            delta(0, json!({"type": "thinking_delta", "thinking": "think."})),
            delta(0, json!({"type": "signature_delta", "signature": "EqQBCgIYAhIM"})),
            stop(0),
            block_start(1, json!({"type": "text", "text": ""})),
            delta(1, json!({"type": "text_delta", "text": "I'll plan."})),
            stop(1),
            block_start(
                2,
                json!({"type": "tool_use", "id": "toolu_01", "name": "todo", "input": {}}),
            ),
            delta(2, json!({"type": "input_json_delta", "partial_json": ""})),
            delta(
                2,
                json!({"type": "input_json_delta", "partial_json": "{\"todos\": [{\"id\""}),
            ),
            delta(2, json!({"type": "input_json_delta", "partial_json": ": \"1\"}]}"})),
            stop(2),
            message_delta("tool_use", 42),
            message_stop(),
        ],
    )
    .unwrap();
    let usage = Usage {
        input_tokens: 1210,
        output_tokens: 42,
        cache_read_tokens: 1000,
        cache_write_tokens: 200,
        ..Usage::default()
    };
    assert_eq!(
        events,
        vec![
            StreamEvent::Reasoning("Let me ".into()),
            StreamEvent::Reasoning("think.".into()),
            signed_thinking("", "Let me think.", "EqQBCgIYAhIM"),
            StreamEvent::Text("I'll plan.".into()),
            tool_delta(2, Some("toolu_01"), Some("todo"), ""),
            tool_delta(2, None, None, "{\"todos\": [{\"id\""),
            tool_delta(2, None, None, ": \"1\"}]}"),
            StreamEvent::Usage(usage),
            StreamEvent::Finish("tool_calls".into()),
        ]
    );
    assert!(parser.is_complete());
    let mut assembler = Assembler::default();
    events.iter().for_each(|e| assembler.push(e));
    let done = assembler.finish();
    assert_eq!(done.message.tool_calls[0].arguments, r#"{"todos": [{"id": "1"}]}"#);
    assert_eq!(done.message.reasoning.as_deref(), Some("Let me think."));
}

#[test]
fn tools_without_argument_fragments_still_get_arguments() {
    let mut parser = SseParser::new("p", "k");
    let events = feed_all(
        &mut parser,
        &[
            block_start(0, json!({"type": "tool_use", "id": "t0", "name": "todo", "input": {}})),
            stop(0),
            block_start(
                1,
                json!({"type": "tool_use", "id": "t1", "name": "read_file", "input": {"path": "a"}}),
            ),
            stop(1),
        ],
    )
    .unwrap();
    assert_eq!(events[1], tool_delta(0, None, None, "{}"));
    assert_eq!(events[3], tool_delta(1, None, None, r#"{"path":"a"}"#));
}

#[test]
fn events_without_names_are_typed_from_their_data_and_unknown_ones_skipped() {
    let mut parser = SseParser::new("p", "k");
    let mut out = Vec::new();
    for data in [
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Hi"}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" there"}}"#,
        r#"{"type":"some_future_event","x":1}"#,
        r#"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}}"#,
        r#"{"type":"message_stop"}"#,
    ] {
        parser.feed("", data, &mut out).unwrap();
    }
    assert_eq!(out[0], StreamEvent::Text("Hi".into()));
    assert_eq!(out[1], StreamEvent::Text(" there".into()));
    assert_eq!(out.last(), Some(&StreamEvent::Finish("stop".into())));
    assert!(parser.is_complete());
    assert!(matches!(
        parser.feed("content_block_delta", "{not json", &mut out),
        Err(LlmError::Protocol { .. })
    ));
}

#[test]
fn error_events_become_errors_and_overload_is_retryable() {
    let mut parser = SseParser::new("anthropic", "ANTHROPIC_API_KEY in your HERMES_HOME/.env");
    let mut out = Vec::new();
    let err = parser
        .feed(
            "error",
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
            &mut out,
        )
        .unwrap_err();
    assert!(matches!(&err, LlmError::Status { status: 529, message, .. } if message == "Overloaded"));
    assert!(err.is_retryable());
    let err = parser
        .feed(
            "error",
            r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
            &mut out,
        )
        .unwrap_err();
    assert!(!err.is_retryable());
    assert!(err.to_string().contains("ANTHROPIC_API_KEY"), "{err}");
    let err = parser
        .feed(
            "error",
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"bad"}}"#,
            &mut out,
        )
        .unwrap_err();
    assert!(matches!(err, LlmError::Status { status: 400, .. }));
}

#[test]
fn stop_reasons_map_to_finish_reasons() {
    assert_eq!(finish_reason("end_turn"), "stop");
    assert_eq!(finish_reason("tool_use"), "tool_calls");
    assert_eq!(finish_reason("max_tokens"), "length");
    assert_eq!(finish_reason("stop_sequence"), "stop");
    assert_eq!(finish_reason("refusal"), "content_filter");
}

/// SSE text as a server sends it, cut into small pieces that split lines and events.
fn body(events: &[(&str, Value)]) -> Vec<Result<Vec<u8>, std::io::Error>> {
    let text: String = events
        .iter()
        .map(|(name, data)| format!("event: {name}\ndata: {data}\n\n"))
        .collect();
    text.into_bytes().chunks(7).map(|c| Ok(c.to_vec())).collect()
}

async fn run(events: &[(&str, Value)]) -> Vec<Result<StreamEvent, LlmError>> {
    let sse = futures::stream::iter(body(events))
        .eventsource()
        .map(|item| item.map_err(|e| e.to_string()));
    event_stream(SseParser::new("anthropic", "k"), sse).collect().await
}

#[tokio::test]
async fn a_whole_stream_parses_across_fragmented_bytes() {
    let results = run(&[
        start(5, 0, 0),
        block_start(0, json!({"type": "text", "text": ""})),
        delta(0, json!({"type": "text_delta", "text": "Héllo, wörld"})),
        stop(0),
        message_delta("end_turn", 7),
        message_stop(),
    ])
    .await;
    let events: Vec<StreamEvent> = results.into_iter().map(Result::unwrap).collect();
    assert_eq!(events[0], StreamEvent::Text("Héllo, wörld".into()));
    assert_eq!(
        events[1],
        StreamEvent::Usage(Usage {
            input_tokens: 5,
            output_tokens: 7,
            ..Usage::default()
        })
    );
    assert_eq!(events[2], StreamEvent::Finish("stop".into()));
}

#[tokio::test]
async fn a_stream_without_message_stop_is_truncated() {
    let results = run(&[
        start(5, 0, 0),
        block_start(0, json!({"type": "text", "text": ""})),
        delta(0, json!({"type": "text_delta", "text": "partial"})),
    ])
    .await;
    assert_eq!(results[0], Ok(StreamEvent::Text("partial".into())));
    assert!(matches!(results.last(), Some(Err(LlmError::Truncated { .. }))));
    let results = run(&[
        start(5, 0, 0),
        (
            "error",
            json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
        ),
    ])
    .await;
    assert_eq!(results.len(), 1, "the error ends the stream: {results:?}");
    assert!(matches!(results[0], Err(LlmError::Status { status: 529, .. })));
}

#[test]
fn signed_and_redacted_thinking_are_kept_for_the_next_request_unsigned_thinking_is_not() {
    let mut parser = SseParser::new("anthropic", "k").with_issuer("https://api.anthropic.com");
    let events = feed_all(
        &mut parser,
        &[
            start(10, 0, 0),
            block_start(0, json!({"type": "thinking", "thinking": "a", "signature": ""})),
            delta(0, json!({"type": "thinking_delta", "thinking": "b"})),
            delta(0, json!({"type": "signature_delta", "signature": "SIG"})),
            delta(0, json!({"type": "signature_delta", "signature": "NATURE"})),
            stop(0),
            block_start(1, json!({"type": "redacted_thinking", "data": "ENCRYPTED"})),
            stop(1),
            block_start(2, json!({"type": "thinking", "thinking": "unsigned"})),
            stop(2),
            message_delta("end_turn", 3),
            message_stop(),
        ],
    )
    .unwrap();
    let records: Vec<&StreamEvent> = events
        .iter()
        .filter(|e| matches!(e, StreamEvent::OpaqueReasoning(_)))
        .collect();
    assert_eq!(
        records,
        [
            &signed_thinking("https://api.anthropic.com", "ab", "SIGNATURE"),
            &StreamEvent::OpaqueReasoning(OpaqueReasoning {
                provider: "anthropic".into(),
                issuer: "https://api.anthropic.com".into(),
                data: json!({"type": "redacted_thinking", "data": "ENCRYPTED"}),
            }),
        ]
    );
}

#[test]
fn token_counts_past_u64_saturate_instead_of_panicking() {
    let mut parser = SseParser::new("anthropic", "k");
    let events = feed_all(
        &mut parser,
        &[
            start(u64::MAX, u64::MAX, 1),
            message_delta("end_turn", u64::MAX),
            message_stop(),
        ],
    )
    .unwrap();
    let Some(StreamEvent::Usage(usage)) = events.iter().find(|e| matches!(e, StreamEvent::Usage(_))) else {
        panic!("no usage in {events:?}");
    };
    assert_eq!((usage.input_tokens, usage.output_tokens), (u64::MAX, u64::MAX));
}
