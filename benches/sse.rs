//! SSE parsing throughput of the two providers on generated ~10 MB streams of the same answer
//! (text in small deltas, then a tool call in argument fragments): the event parsers alone
//! (`openai::parse_chunk` vs `anthropic::SseParser::feed`) and the whole path from body bytes
//! through SSE framing (`eventsource-stream`) to `StreamEvent`s.
//!
//! Run: `cargo bench --bench sse`

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use eventsource_stream::Eventsource;
use futures::StreamExt;
use serde_json::json;

use hermes_acp::llm::StreamEvent;
use hermes_acp::llm::anthropic::SseParser;
use hermes_acp::llm::openai::parse_chunk;

const TARGET_BYTES: usize = 10 * 1024 * 1024;
/// Body chunk size as it arrives from the network.
const READ_SIZE: usize = 16 * 1024;

/// A text delta as models stream them: a few words with the odd escape.
fn piece(i: usize) -> String {
    format!("word{i} and \"quoted\" text, ü\n")
}

/// `(event name, data)` pairs of an Anthropic stream of about `TARGET_BYTES`.
fn anthropic_events() -> Vec<(String, String)> {
    let mut events = vec![(
        "message_start".to_string(),
        json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [], "model": "claude-test", "usage": {"input_tokens": 10, "cache_read_input_tokens": 1000, "cache_creation_input_tokens": 0, "output_tokens": 1}}}).to_string(),
    )];
    let push = |events: &mut Vec<(String, String)>, name: &str, data: serde_json::Value| {
        events.push((name.to_string(), data.to_string()));
    };
    push(
        &mut events,
        "content_block_start",
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
    );
    let mut size = 0;
    let mut i = 0;
    while size < TARGET_BYTES * 9 / 10 {
        let data =
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": piece(i)}});
        size += data.to_string().len() + 40;
        push(&mut events, "content_block_delta", data);
        i += 1;
    }
    push(
        &mut events,
        "content_block_stop",
        json!({"type": "content_block_stop", "index": 0}),
    );
    push(
        &mut events,
        "content_block_start",
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "write_file", "input": {}}}),
    );
    while size < TARGET_BYTES {
        let data = json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": format!("line {i} of \\\"content\\\" ")}});
        size += data.to_string().len() + 40;
        push(&mut events, "content_block_delta", data);
        i += 1;
    }
    push(
        &mut events,
        "content_block_stop",
        json!({"type": "content_block_stop", "index": 1}),
    );
    push(
        &mut events,
        "message_delta",
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": i}}),
    );
    push(&mut events, "message_stop", json!({"type": "message_stop"}));
    events
}

/// The `data:` payloads of the same answer as chat-completion chunks.
fn openai_events() -> Vec<String> {
    let chunk = |delta: serde_json::Value, finish: Option<&str>| {
        json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}).to_string()
    };
    let mut events = Vec::new();
    let mut size = 0;
    let mut i = 0;
    while size < TARGET_BYTES * 9 / 10 {
        let data = chunk(json!({"content": piece(i)}), None);
        size += data.len() + 8;
        events.push(data);
        i += 1;
    }
    events.push(chunk(json!({"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "write_file", "arguments": ""}}]}), None));
    while size < TARGET_BYTES {
        let data = chunk(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": format!("line {i} of \\\"content\\\" ")}}]}),
            None,
        );
        size += data.len() + 8;
        events.push(data);
        i += 1;
    }
    events.push(chunk(json!({}), Some("tool_calls")));
    events.push(json!({"choices": [], "usage": {"prompt_tokens": 10, "completion_tokens": i}}).to_string());
    events
}

fn anthropic_body(events: &[(String, String)]) -> Vec<u8> {
    events
        .iter()
        .flat_map(|(name, data)| format!("event: {name}\ndata: {data}\n\n").into_bytes())
        .collect()
}

fn openai_body(events: &[String]) -> Vec<u8> {
    let mut body: Vec<u8> = events
        .iter()
        .flat_map(|data| format!("data: {data}\n\n").into_bytes())
        .collect();
    body.extend_from_slice(b"data: [DONE]\n\n");
    body
}

fn parse_anthropic(events: &[(String, String)]) -> usize {
    let mut parser = SseParser::new("anthropic", "k");
    let mut out = Vec::with_capacity(4);
    let mut count = 0;
    for (name, data) in events {
        parser.feed(name, data, &mut out).unwrap();
        count += out.len();
        out.clear();
    }
    assert!(parser.is_complete());
    count
}

fn parse_openai(events: &[String]) -> usize {
    events
        .iter()
        .map(|data| parse_chunk(data, "openai").unwrap().len())
        .sum()
}

/// Body bytes in network-sized reads → SSE framing → `handle(event name, data)`.
fn framed(body: &[u8], mut handle: impl FnMut(&str, &str)) {
    let reads = futures::stream::iter(body.chunks(READ_SIZE).map(Ok::<_, std::convert::Infallible>));
    futures::executor::block_on(reads.eventsource().for_each(|event| {
        let event = event.unwrap();
        handle(&event.event, &event.data);
        futures::future::ready(())
    }));
}

fn bench(c: &mut Criterion) {
    let a_events = anthropic_events();
    let o_events = openai_events();
    let a_body = anthropic_body(&a_events);
    let o_body = openai_body(&o_events);
    // Same answer, same events out.
    assert_eq!(parse_anthropic(&a_events) > 0, parse_openai(&o_events) > 0);

    let mut group = c.benchmark_group("sse");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(a_body.len() as u64));
    group.bench_function(BenchmarkId::new("parse_events", "anthropic"), |b| {
        b.iter(|| parse_anthropic(&a_events))
    });
    group.bench_function(BenchmarkId::new("bytes_to_events", "anthropic"), |b| {
        b.iter(|| {
            let mut parser = SseParser::new("anthropic", "k");
            let mut out: Vec<StreamEvent> = Vec::with_capacity(4);
            framed(&a_body, |name, data| {
                parser.feed(name, data, &mut out).unwrap();
                out.clear();
            });
            assert!(parser.is_complete());
        })
    });
    group.throughput(Throughput::Bytes(o_body.len() as u64));
    group.bench_function(BenchmarkId::new("parse_events", "openai"), |b| {
        b.iter(|| parse_openai(&o_events))
    });
    group.bench_function(BenchmarkId::new("bytes_to_events", "openai"), |b| {
        b.iter(|| {
            framed(&o_body, |_, data| {
                if data != "[DONE]" {
                    parse_chunk(data, "openai").unwrap();
                }
            })
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
