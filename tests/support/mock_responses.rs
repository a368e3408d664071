//! A real HTTP mock of the OpenAI Responses API on 127.0.0.1, scripted per test: streamed
//! output text, reasoning summaries with an encrypted reasoning item, parallel function calls
//! whose argument deltas interleave, usage in `response.completed`, `response.failed`, error
//! statuses with Retry-After, extra response headers (rate limits), and slow streams for
//! cancel. It answers `POST …/responses` and `GET …/models` under any prefix, records every request's path, headers and body, and notices
//! when a client drops a stream.
#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;

use super::mock_llm::{read_request, respond, respond_json};

/// One scripted answer to a `POST /responses`.
#[derive(Debug, Clone)]
pub enum Reply {
    /// SSE events (each sent as `event: <type>` + `data: <json>`), `delay` between them; the
    /// connection closes after the last one.
    Stream { events: Vec<Value>, delay: Duration },
    /// An error status with OpenAI's error body and an optional Retry-After (seconds).
    Status {
        status: u16,
        message: String,
        retry_after: Option<String>,
    },
    /// Another reply with extra response headers (`x-ratelimit-*`, say).
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
    disconnects: usize,
}

/// The running mock server.
#[derive(Clone)]
pub struct MockResponses {
    pub port: u16,
    state: Arc<Mutex<State>>,
    changed: Arc<Notify>,
}

impl MockResponses {
    pub async fn start() -> MockResponses {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind mock");
        let port = listener.local_addr().unwrap().port();
        let mock = MockResponses {
            port,
            state: Arc::new(Mutex::new(State::default())),
            changed: Arc::new(Notify::new()),
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

    /// The base URL for `model.base_url`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    pub fn push(&self, reply: Reply) {
        self.state.lock().unwrap().script.push_back(reply);
    }

    pub fn set_fallback(&self, reply: Reply) {
        self.state.lock().unwrap().fallback = Some(reply);
    }

    /// The `POST /responses` requests so far (the agent also lists models).
    pub fn requests(&self) -> Vec<Recorded> {
        let s = self.state.lock().unwrap();
        s.requests.iter().filter(|r| r.method == "POST").cloned().collect()
    }

    /// Their bodies.
    pub fn bodies(&self) -> Vec<Value> {
        self.requests().into_iter().map(|r| r.body).collect()
    }

    /// How many streams the client dropped before the end.
    pub fn disconnects(&self) -> usize {
        self.state.lock().unwrap().disconnects
    }

    /// Waits until `f(mock)` holds or the timeout passes.
    pub async fn wait_for(&self, timeout: Duration, f: impl Fn(&MockResponses) -> bool) -> bool {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let notified = self.changed.notified();
            if f(self) {
                return true;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return f(self);
            }
        }
    }

    async fn serve(&self, mut socket: TcpStream) {
        let Some((head, body)) = read_request(&mut socket).await else {
            return;
        };
        let mut lines = head.lines();
        let mut words = lines.next().unwrap_or("").split_whitespace();
        let method = words.next().unwrap_or("").to_string();
        let path = words.next().unwrap_or("").to_string();
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        let route = path.split('?').next().unwrap_or("").to_string();
        let reply = {
            let mut s = self.state.lock().unwrap();
            s.requests.push(Recorded {
                method: method.clone(),
                path: path.clone(),
                headers,
                body: serde_json::from_slice(&body).unwrap_or(Value::Null),
            });
            if method == "GET" && route.ends_with("/models") {
                let data = json!({"object": "list", "data": [{"id": "gpt-5-mock", "object": "model"}]});
                Err((200, data))
            } else if method == "POST" && route.ends_with("/responses") {
                Ok(s.script.pop_front().or_else(|| s.fallback.clone()))
            } else {
                Err((404, error_body(&format!("no route {method} {path}"))))
            }
        };
        self.changed.notify_waiters();
        let (reply, extra) = match reply {
            Ok(Some(Reply::Headers { headers, reply })) => (Ok(Some(*reply)), headers),
            other => (other, Vec::new()),
        };
        let reply = match reply {
            Ok(Some(reply)) => reply,
            Ok(None) => return respond_json(&mut socket, 500, &error_body("mock script is empty"), None).await,
            Err((status, body)) => return respond_json(&mut socket, status, &body, None).await,
        };
        match reply {
            Reply::Status {
                status,
                message,
                retry_after,
            } => {
                let mut headers: Vec<(&str, String)> = extra.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
                headers.extend(retry_after.map(|r| ("Retry-After", r)));
                let body = error_body(&message).to_string();
                respond(&mut socket, status, "application/json", &headers, &body).await
            }
            Reply::Headers { .. } => unreachable!("unwrapped above"),
            Reply::Stream { events, delay } => {
                let extra: String = extra.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n{extra}Connection: close\r\n\r\n"
                );
                if socket.write_all(head.as_bytes()).await.is_err() {
                    return self.disconnected();
                }
                for (i, event) in events.iter().enumerate() {
                    if i > 0 && !delay.is_zero() {
                        tokio::time::sleep(delay).await;
                    }
                    let frame = format!("event: {}\ndata: {event}\n\n", event["type"].as_str().unwrap_or(""));
                    if socket.write_all(frame.as_bytes()).await.is_err() || socket.flush().await.is_err() {
                        return self.disconnected();
                    }
                }
                let _ = socket.shutdown().await;
            }
        }
    }

    fn disconnected(&self) {
        self.state.lock().unwrap().disconnects += 1;
        self.changed.notify_waiters();
    }
}

fn error_body(message: &str) -> Value {
    json!({"error": {"message": message, "type": "mock_error", "code": null}})
}

// ---- reply builders -------------------------------------------------------------------------

/// Token counts for `response.completed`.
#[derive(Debug, Clone, Copy)]
pub struct Tokens {
    pub input: u64,
    pub cached: u64,
    pub output: u64,
    pub reasoning: u64,
}

impl Default for Tokens {
    fn default() -> Tokens {
        Tokens {
            input: 100,
            cached: 0,
            output: 20,
            reasoning: 0,
        }
    }
}

/// What one answer streams, in output order.
#[derive(Debug, Clone, Default)]
pub struct Answer<'a> {
    /// Reasoning summary pieces and the encrypted content of their reasoning item.
    pub reasoning: Option<(&'a [&'a str], &'a str)>,
    pub text: &'a [&'a str],
    /// `(call id, tool name, arguments)`: arguments stream in two deltas per call, the calls'
    /// deltas interleaved (parallel calls).
    pub calls: &'a [(&'a str, &'a str, Value)],
    pub tokens: Tokens,
}

/// The SSE events of an answer.
pub fn events(answer: &Answer) -> Vec<Value> {
    let mut out = vec![json!({"type": "response.created", "response": {"id": "resp_mock", "status": "in_progress"}})];
    let mut index = 0;
    if let Some((pieces, encrypted)) = answer.reasoning {
        // Unique per answer, as the API's are (one id is sent back once).
        let id = format!("rs_{encrypted}");
        out.push(json!({"type": "response.output_item.added", "output_index": index, "item": {"type": "reasoning", "id": id, "summary": []}}));
        for piece in pieces {
            out.push(json!({"type": "response.reasoning_summary_text.delta", "item_id": id, "output_index": index, "summary_index": 0, "delta": piece}));
        }
        let summary = pieces.concat();
        out.push(
            json!({"type": "response.output_item.done", "output_index": index, "item": {"type": "reasoning", "id": id,
            "encrypted_content": encrypted, "summary": [{"type": "summary_text", "text": summary}]}}),
        );
        index += 1;
    }
    if !answer.text.is_empty() {
        let id = "msg_mock_1";
        out.push(json!({"type": "response.output_item.added", "output_index": index, "item": {"type": "message", "id": id, "role": "assistant", "content": []}}));
        for piece in answer.text {
            out.push(json!({"type": "response.output_text.delta", "item_id": id, "output_index": index, "content_index": 0, "delta": piece}));
        }
        out.push(json!({"type": "response.output_item.done", "output_index": index, "item": {"type": "message", "id": id, "role": "assistant",
            "content": [{"type": "output_text", "text": answer.text.concat()}]}}));
        index += 1;
    }
    let first_call = index;
    let halves: Vec<(String, String)> = (answer.calls.iter())
        .map(|(_, _, args)| {
            let text = args.to_string();
            let (a, b) = text.split_at(text.len() / 2);
            (a.to_string(), b.to_string())
        })
        .collect();
    for (i, (call_id, name, _)) in answer.calls.iter().enumerate() {
        out.push(json!({"type": "response.output_item.added", "output_index": first_call + i, "item": {"type": "function_call",
            "id": format!("fc_{i}"), "call_id": call_id, "name": name, "arguments": "", "status": "in_progress"}}));
    }
    for half in 0..2 {
        for (i, pair) in halves.iter().enumerate() {
            let delta = if half == 0 { &pair.0 } else { &pair.1 };
            out.push(json!({"type": "response.function_call_arguments.delta", "item_id": format!("fc_{i}"), "output_index": first_call + i, "delta": delta}));
        }
    }
    for (i, (call_id, name, args)) in answer.calls.iter().enumerate() {
        out.push(json!({"type": "response.function_call_arguments.done", "item_id": format!("fc_{i}"), "output_index": first_call + i, "arguments": args.to_string()}));
        out.push(json!({"type": "response.output_item.done", "output_index": first_call + i, "item": {"type": "function_call",
            "id": format!("fc_{i}"), "call_id": call_id, "name": name, "arguments": args.to_string(), "status": "completed"}}));
    }
    let t = answer.tokens;
    out.push(json!({"type": "response.completed", "response": {"id": "resp_mock", "status": "completed", "output": null, "usage": {
        "input_tokens": t.input, "input_tokens_details": {"cached_tokens": t.cached},
        "output_tokens": t.output, "output_tokens_details": {"reasoning_tokens": t.reasoning},
        "total_tokens": t.input + t.output}}}));
    out
}

pub fn stream(answer: &Answer) -> Reply {
    Reply::Stream {
        events: events(answer),
        delay: Duration::ZERO,
    }
}

/// A text answer in the given pieces.
pub fn text(pieces: &[&str]) -> Reply {
    stream(&Answer {
        text: pieces,
        ..Answer::default()
    })
}

/// `n` text deltas with `delay` between them (for cancel).
pub fn slow_text(n: usize, delay: Duration) -> Reply {
    let pieces: Vec<String> = (0..n).map(|i| format!("chunk{i} ")).collect();
    let pieces: Vec<&str> = pieces.iter().map(String::as_str).collect();
    Reply::Stream {
        events: events(&Answer {
            text: &pieces,
            ..Answer::default()
        }),
        delay,
    }
}

/// Text deltas, then the connection closes without `response.completed`.
pub fn cut_text(pieces: &[&str]) -> Reply {
    let mut events = events(&Answer {
        text: pieces,
        ..Answer::default()
    });
    events.retain(|e| e["type"] == "response.created" || e["type"] == "response.output_text.delta");
    Reply::Stream {
        events,
        delay: Duration::ZERO,
    }
}

/// A `response.failed` with the server's code and message.
pub fn failed(code: &str, message: &str) -> Reply {
    Reply::Stream {
        events: vec![
            json!({"type": "response.created", "response": {"id": "resp_mock", "status": "in_progress"}}),
            json!({"type": "response.failed", "response": {"id": "resp_mock", "status": "failed",
                "error": {"code": code, "message": message}}}),
        ],
        delay: Duration::ZERO,
    }
}

pub fn status(status: u16, message: &str) -> Reply {
    Reply::Status {
        status,
        message: message.to_string(),
        retry_after: None,
    }
}

/// `reply` sent with extra response headers (`("x-ratelimit-remaining-requests", "3")`).
pub fn with_headers(reply: Reply, headers: &[(&str, &str)]) -> Reply {
    Reply::Headers {
        headers: headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        reply: Box::new(reply),
    }
}
