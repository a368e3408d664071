//! The scripted answers of the chat-completions mock (`mock_llm.rs`): SSE chunks in OpenAI's
//! shape for text, reasoning and tool calls with usage, slow and cut streams, error statuses
//! and replies with extra response headers. Re-exported by `mock_llm`, so tests call
//! `mock_llm::text(...)` as before.

use std::time::Duration;

use serde_json::{Value, json};

use super::Reply;

fn chunk(delta: Value, finish: Option<&str>) -> Value {
    json!({"id": "chatcmpl-mock", "object": "chat.completion.chunk", "model": "mock-model", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
}

fn usage(prompt: u64, completion: u64) -> Value {
    json!({"id": "chatcmpl-mock", "object": "chat.completion.chunk", "choices": [], "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt.saturating_add(completion)}})
}

/// A streamed text answer in the given pieces, with usage 100/20.
pub fn text(pieces: &[&str]) -> Reply {
    let mut events = vec![chunk(json!({"role": "assistant", "content": ""}), None)];
    events.extend(pieces.iter().map(|p| chunk(json!({"content": p}), None)));
    events.push(chunk(json!({}), Some("stop")));
    events.push(usage(100, 20));
    Reply::Stream {
        events,
        delay: Duration::ZERO,
        cut: false,
    }
}

/// A streamed text answer that reports the given prompt/completion token usage.
pub fn text_with_usage(pieces: &[&str], prompt: u64, completion: u64) -> Reply {
    let mut events: Vec<Value> = pieces.iter().map(|p| chunk(json!({"content": p}), None)).collect();
    events.push(chunk(json!({}), Some("stop")));
    events.push(usage(prompt, completion));
    Reply::Stream {
        events,
        delay: Duration::ZERO,
        cut: false,
    }
}

/// Reasoning pieces, then text pieces.
pub fn reasoning_then_text(thoughts: &[&str], pieces: &[&str]) -> Reply {
    let mut events: Vec<Value> = thoughts
        .iter()
        .map(|t| chunk(json!({"reasoning_content": t}), None))
        .collect();
    events.extend(pieces.iter().map(|p| chunk(json!({"content": p}), None)));
    events.push(chunk(json!({}), Some("stop")));
    events.push(usage(100, 20));
    Reply::Stream {
        events,
        delay: Duration::ZERO,
        cut: false,
    }
}

/// Tool calls `(id, name, arguments JSON)` in one response, arguments split in two fragments.
pub fn tool_calls(calls: &[(&str, &str, Value)]) -> Reply {
    let mut events = Vec::new();
    for (index, (id, name, args)) in calls.iter().enumerate() {
        let text = args.to_string();
        let (a, b) = text.split_at(text.len() / 2);
        events.push(chunk(json!({"tool_calls": [{"index": index, "id": id, "type": "function", "function": {"name": name, "arguments": a}}]}), None));
        events.push(chunk(
            json!({"tool_calls": [{"index": index, "function": {"arguments": b}}]}),
            None,
        ));
    }
    events.push(chunk(json!({}), Some("tool_calls")));
    events.push(usage(150, 30));
    Reply::Stream {
        events,
        delay: Duration::ZERO,
        cut: false,
    }
}

/// `n` text chunks with `delay` between them (for cancel tests and slow streams).
pub fn slow_text(n: usize, delay: Duration) -> Reply {
    let mut events: Vec<Value> = (0..n)
        .map(|i| chunk(json!({"content": format!("chunk{i} ")}), None))
        .collect();
    events.push(chunk(json!({}), Some("stop")));
    Reply::Stream {
        events,
        delay,
        cut: false,
    }
}

/// A stream that stops after some text, without a finish reason or `[DONE]`.
pub fn cut_stream(pieces: &[&str]) -> Reply {
    let events = pieces.iter().map(|p| chunk(json!({"content": p}), None)).collect();
    Reply::Stream {
        events,
        delay: Duration::ZERO,
        cut: true,
    }
}

pub fn status(status: u16, retry_after: Option<&str>) -> Reply {
    Reply::Status {
        status,
        retry_after: retry_after.map(str::to_string),
        message: format!("mock error {status}"),
    }
}

/// `reply` sent with extra response headers (`("x-ratelimit-remaining-requests", "3")`).
pub fn with_headers(reply: Reply, headers: &[(&str, &str)]) -> Reply {
    Reply::Headers {
        headers: headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        reply: Box::new(reply),
    }
}

/// An error status with the provider's own message.
pub fn status_message(status: u16, message: &str) -> Reply {
    Reply::Status {
        status,
        retry_after: None,
        message: message.to_string(),
    }
}
