//! A real HTTP mock of Anthropic's Messages API on 127.0.0.1, scripted per test: streamed text,
//! thinking, `tool_use` blocks with their arguments in fragments, usage with the cache fields,
//! `error` events mid-stream, error statuses with Retry-After, extra response headers (rate
//! limits), and streams cut before
//! `message_stop`. It answers `POST …/v1/messages` and `GET …/v1/models` under any prefix (a
//! base URL ending in `/anthropic` works) and records every request's path, headers and body.
#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

/// The API key `spawn_agent` gives the agent (a regular key, not an OAuth token).
pub const TEST_KEY: &str = "sk-ant-test-1234";
use tokio::net::{TcpListener, TcpStream};

use super::mock_llm::{read_request, respond};

/// One scripted answer to a messages request.
#[derive(Debug, Clone)]
pub enum Reply {
    /// SSE events `(event name, data)`; the connection closes after the last one.
    Stream(Vec<(String, Value)>),
    /// An error status with Anthropic's error body and an optional Retry-After (seconds).
    Status {
        status: u16,
        kind: String,
        retry_after: Option<String>,
    },
    /// Another reply with extra response headers (Anthropic's rate-limit headers, say).
    Headers {
        headers: Vec<(String, String)>,
        reply: Box<Reply>,
    },
}

/// A request the mock received.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    /// Header names lower-cased.
    pub headers: HashMap<String, String>,
    pub body: Value,
}

#[derive(Default)]
struct State {
    script: VecDeque<Reply>,
    fallback: Option<Reply>,
    requests: Vec<Recorded>,
    models: Vec<String>,
}

/// The running mock server.
#[derive(Clone)]
pub struct MockAnthropic {
    pub port: u16,
    state: Arc<Mutex<State>>,
}

impl MockAnthropic {
    pub async fn start() -> MockAnthropic {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind mock");
        let port = listener.local_addr().unwrap().port();
        let mock = MockAnthropic {
            port,
            state: Arc::new(Mutex::new(State {
                models: vec!["claude-test".into(), "claude-big".into()],
                ..State::default()
            })),
        };
        let server = mock.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let server = server.clone();
                tokio::spawn(async move { server.serve(socket).await });
            }
        });
        mock
    }

    /// The API root, as `ANTHROPIC_BASE_URL` takes it (no `/v1`).
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Starts the agent on `home` with an API key and `ANTHROPIC_BASE_URL` aimed at this mock
    /// (the config names `provider: anthropic`), not yet initialized.
    pub async fn spawn_agent(&self, home: &std::path::Path) -> super::AgentProcess {
        let url = self.url();
        let env = [("ANTHROPIC_API_KEY", TEST_KEY), ("ANTHROPIC_BASE_URL", url.as_str())];
        super::AgentProcess::spawn(home, &env).await
    }

    pub fn push(&self, reply: Reply) {
        self.state.lock().unwrap().script.push_back(reply);
    }

    pub fn set_fallback(&self, reply: Reply) {
        self.state.lock().unwrap().fallback = Some(reply);
    }

    /// Every request so far (messages and model lists).
    pub fn requests(&self) -> Vec<Recorded> {
        self.state.lock().unwrap().requests.clone()
    }

    /// The messages requests (the agent also lists models when a session opens).
    pub fn message_requests(&self) -> Vec<Recorded> {
        self.requests().into_iter().filter(|r| r.method == "POST").collect()
    }

    /// The bodies of the messages requests.
    pub fn bodies(&self) -> Vec<Value> {
        self.message_requests().into_iter().map(|r| r.body).collect()
    }

    async fn serve(&self, mut socket: TcpStream) {
        let Some((head, body)) = read_request(&mut socket).await else {
            return;
        };
        let mut lines = head.lines();
        let first = lines.next().unwrap_or("").to_string();
        let mut words = first.split_whitespace();
        let method = words.next().unwrap_or("").to_string();
        let path = words.next().unwrap_or("").to_string();
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        let route = path.split('?').next().unwrap_or("").to_string();
        let recorded = Recorded {
            method: method.clone(),
            path: path.clone(),
            headers,
            body: serde_json::from_slice(&body).unwrap_or(Value::Null),
        };
        let reply = {
            let mut s = self.state.lock().unwrap();
            s.requests.push(recorded);
            if method == "GET" && route.ends_with("/v1/models") {
                let data: Vec<Value> = s.models.iter().map(|m| json!({"id": m, "type": "model"})).collect();
                Err((200, json!({"data": data, "has_more": false}).to_string()))
            } else if !(method == "POST" && route.ends_with("/v1/messages")) {
                Err((404, error_body("not_found_error", &format!("no route {method} {path}"))))
            } else {
                Ok(s.script.pop_front().or_else(|| s.fallback.clone()))
            }
        };
        let reply = match reply {
            Ok(reply) => reply,
            Err((status, body)) => return respond(&mut socket, status, "application/json", &[], &body).await,
        };
        let (reply, extra) = match reply {
            Some(Reply::Headers { headers, reply }) => (Some(*reply), headers),
            other => (other, Vec::new()),
        };
        let mut headers: Vec<(&str, String)> = extra.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
        match reply {
            None => {
                let error = error_body("api_error", "mock script is empty");
                respond(&mut socket, 500, "application/json", &[], &error).await
            }
            Some(Reply::Status {
                status,
                kind,
                retry_after,
            }) => {
                let error = error_body(&kind, &format!("mock {kind} ({status})"));
                headers.extend(retry_after.map(|r| ("Retry-After", r)));
                respond(&mut socket, status, "application/json", &headers, &error).await
            }
            Some(Reply::Headers { .. }) => unreachable!("unwrapped above"),
            Some(Reply::Stream(events)) => {
                let text: String = events
                    .iter()
                    .map(|(name, data)| format!("event: {name}\ndata: {data}\n\n"))
                    .collect();
                respond(&mut socket, 200, "text/event-stream", &headers, &text).await
            }
        }
    }
}

fn error_body(kind: &str, message: &str) -> String {
    json!({"type": "error", "error": {"type": kind, "message": message}}).to_string()
}

// ---- reply builders -------------------------------------------------------------------------

/// Token counts a scripted answer reports.
#[derive(Debug, Clone, Copy)]
pub struct Tokens {
    pub input: u64,
    pub cache_read: u64,
    pub cache_write: u64,
    pub output: u64,
}

pub const TOKENS: Tokens = Tokens {
    input: 100,
    cache_read: 0,
    cache_write: 0,
    output: 20,
};

fn event(name: &str, data: Value) -> (String, Value) {
    (name.to_string(), data)
}

fn message_start(tokens: Tokens) -> (String, Value) {
    event(
        "message_start",
        json!({"type": "message_start", "message": {"id": "msg_mock", "type": "message", "role": "assistant", "model": "claude-test", "content": [], "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": tokens.input, "cache_creation_input_tokens": tokens.cache_write, "cache_read_input_tokens": tokens.cache_read, "output_tokens": 1}}}),
    )
}

fn block(index: usize, content_block: Value, deltas: Vec<Value>) -> Vec<(String, Value)> {
    let mut out = vec![event(
        "content_block_start",
        json!({"type": "content_block_start", "index": index, "content_block": content_block}),
    )];
    out.extend(deltas.into_iter().map(|delta| {
        event(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": index, "delta": delta}),
        )
    }));
    out.push(event(
        "content_block_stop",
        json!({"type": "content_block_stop", "index": index}),
    ));
    out
}

fn finish(stop_reason: &str, tokens: Tokens) -> Vec<(String, Value)> {
    vec![
        event(
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": stop_reason, "stop_sequence": null}, "usage": {"output_tokens": tokens.output}}),
        ),
        event("message_stop", json!({"type": "message_stop"})),
    ]
}

fn text_block(index: usize, pieces: &[&str]) -> Vec<(String, Value)> {
    let deltas = pieces
        .iter()
        .map(|p| json!({"type": "text_delta", "text": p}))
        .collect();
    block(index, json!({"type": "text", "text": ""}), deltas)
}

/// A streamed text answer in the given pieces.
pub fn text(pieces: &[&str]) -> Reply {
    text_with_tokens(pieces, TOKENS)
}

pub fn text_with_tokens(pieces: &[&str], tokens: Tokens) -> Reply {
    let mut events = vec![message_start(tokens), event("ping", json!({"type": "ping"}))];
    events.extend(text_block(0, pieces));
    events.extend(finish("end_turn", tokens));
    Reply::Stream(events)
}

/// A thinking block (with its signature) in pieces, then text in pieces.
pub fn thinking_then_text(thoughts: &[&str], pieces: &[&str], tokens: Tokens) -> Reply {
    let mut deltas: Vec<Value> = thoughts
        .iter()
        .map(|t| json!({"type": "thinking_delta", "thinking": t}))
        .collect();
    deltas.push(json!({"type": "signature_delta", "signature": "EqQBCgIYAhIMmock"}));
    let mut events = vec![message_start(tokens)];
    events.extend(block(0, json!({"type": "thinking", "thinking": ""}), deltas));
    events.extend(text_block(1, pieces));
    events.extend(finish("end_turn", tokens));
    Reply::Stream(events)
}

/// A short text, then one `tool_use` block whose JSON arguments arrive in `fragments`.
pub fn tool_use(preamble: &str, id: &str, name: &str, fragments: &[&str]) -> Reply {
    let mut events = vec![message_start(TOKENS)];
    events.extend(text_block(0, &[preamble]));
    let deltas = fragments
        .iter()
        .map(|f| json!({"type": "input_json_delta", "partial_json": f}))
        .collect();
    events.extend(block(
        1,
        json!({"type": "tool_use", "id": id, "name": name, "input": {}}),
        deltas,
    ));
    events.extend(finish("tool_use", TOKENS));
    Reply::Stream(events)
}

/// A signed thinking block, then one `tool_use` block with its whole JSON input (the opening
/// of a thinking tool loop).
pub fn thinking_then_tool_use(thought: &str, signature: &str, id: &str, name: &str, input: &str) -> Reply {
    let mut events = vec![message_start(TOKENS)];
    let deltas = vec![
        json!({"type": "thinking_delta", "thinking": thought}),
        json!({"type": "signature_delta", "signature": signature}),
    ];
    events.extend(block(0, json!({"type": "thinking", "thinking": ""}), deltas));
    events.extend(block(
        1,
        json!({"type": "tool_use", "id": id, "name": name, "input": {}}),
        vec![json!({"type": "input_json_delta", "partial_json": input})],
    ));
    events.extend(finish("tool_use", TOKENS));
    Reply::Stream(events)
}

/// An `error` event right after `message_start` (Anthropic's mid-stream overload).
pub fn error_event(kind: &str) -> Reply {
    Reply::Stream(vec![
        message_start(TOKENS),
        event(
            "error",
            json!({"type": "error", "error": {"type": kind, "message": format!("mock {kind}")}}),
        ),
    ])
}

/// Text that stops before `message_stop`.
pub fn cut(pieces: &[&str]) -> Reply {
    let mut events = vec![message_start(TOKENS)];
    let mut block = text_block(0, pieces);
    block.pop();
    events.extend(block);
    Reply::Stream(events)
}

pub fn status(status: u16, kind: &str, retry_after: Option<&str>) -> Reply {
    Reply::Status {
        status,
        kind: kind.to_string(),
        retry_after: retry_after.map(str::to_string),
    }
}

/// `reply` sent with extra response headers (`("anthropic-ratelimit-requests-remaining", "3")`).
pub fn with_headers(reply: Reply, headers: &[(&str, &str)]) -> Reply {
    Reply::Headers {
        headers: headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        reply: Box::new(reply),
    }
}

/// A thinking block whose stream dies before its `signature_delta` (and before the block ends).
pub fn thinking_cut(thought: &str) -> Reply {
    let mut events = vec![message_start(TOKENS)];
    let mut block = block(
        0,
        json!({"type": "thinking", "thinking": ""}),
        vec![json!({"type": "thinking_delta", "thinking": thought})],
    );
    block.pop();
    events.extend(block);
    Reply::Stream(events)
}
