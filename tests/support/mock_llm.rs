//! A real HTTP mock of an OpenAI-compatible chat-completions server on 127.0.0.1, scripted per
//! test with the replies built in `mock_llm_replies.rs` (streamed text, reasoning, tool calls,
//! usage, error statuses with Retry-After, extra headers, slow and cut streams). This file is
//! the server: it routes requests to the script, records every request body, notices when a
//! client drops a stream, and has the HTTP helpers the other mocks share. Shared by the
//! integration tests and the process-level bench and soak (`examples/bench.rs`, `soak.rs`).
#![allow(dead_code)]

// By path, so that the examples that include this file by `#[path]` find it too.
#[path = "mock_llm_replies.rs"]
mod replies;
pub use replies::*;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;

/// One scripted answer to a chat-completions request.
#[derive(Debug, Clone)]
pub enum Reply {
    /// SSE `data:` payloads, sent with `delay` between them, then `[DONE]` unless `cut` is set
    /// (the connection closes right after the last payload, mid-answer).
    Stream {
        events: Vec<Value>,
        delay: Duration,
        cut: bool,
    },
    /// An error status with an optional Retry-After (seconds) and a JSON error body.
    Status {
        status: u16,
        retry_after: Option<String>,
        message: String,
    },
    /// Another reply with extra response headers (rate-limit headers, say).
    Headers {
        headers: Vec<(String, String)>,
        reply: Box<Reply>,
    },
}

#[derive(Default)]
struct State {
    script: VecDeque<Reply>,
    /// Replies for requests whose system prompt contains a marker (parallel subagents each get
    /// their own script, whatever order their requests arrive in).
    routes: Vec<(String, VecDeque<Reply>)>,
    fallback: Option<Reply>,
    requests: Vec<Value>,
    models: Vec<String>,
    disconnects: usize,
    model_list_requests: usize,
    /// When set, every request is answered with this status and HTML page (a web server, not an API).
    html: Option<(u16, String)>,
}

/// The running mock server.
#[derive(Clone)]
pub struct MockLlm {
    pub port: u16,
    state: Arc<Mutex<State>>,
    changed: Arc<Notify>,
}

impl MockLlm {
    /// Starts the server on an ephemeral loopback port.
    pub async fn start() -> MockLlm {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind mock");
        let port = listener.local_addr().unwrap().port();
        let mock = MockLlm {
            port,
            state: Arc::new(Mutex::new(State {
                models: vec!["mock-model".into(), "mock-large".into()],
                ..State::default()
            })),
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

    /// The base URL to put in `model.base_url`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    /// Queues replies, answered in order.
    pub fn push(&self, reply: Reply) {
        self.state.lock().unwrap().script.push_back(reply);
    }

    /// Queues a reply for the next request whose system prompt contains `marker`.
    pub fn push_for(&self, marker: &str, reply: Reply) {
        let mut s = self.state.lock().unwrap();
        match s.routes.iter_mut().find(|(m, _)| m == marker) {
            Some((_, queue)) => queue.push_back(reply),
            None => s.routes.push((marker.to_string(), VecDeque::from([reply]))),
        }
    }

    /// The reply used when the script is empty.
    pub fn set_fallback(&self, reply: Reply) {
        self.state.lock().unwrap().fallback = Some(reply);
    }

    /// Turns the mock into a plain web server: every path answers `status` with an HTML page.
    pub fn set_html_everywhere(&self, status: u16, page: &str) {
        self.state.lock().unwrap().html = Some((status, page.to_string()));
    }

    pub fn set_models(&self, models: &[&str]) {
        self.state.lock().unwrap().models = models.iter().map(|m| m.to_string()).collect();
    }

    /// Bodies of every chat-completions request so far.
    pub fn requests(&self) -> Vec<Value> {
        self.state.lock().unwrap().requests.clone()
    }

    /// How many streams the client dropped before the end.
    pub fn disconnects(&self) -> usize {
        self.state.lock().unwrap().disconnects
    }

    /// Waits until `f(state)` holds or the timeout passes.
    pub async fn wait_for(&self, timeout: Duration, f: impl Fn(&MockLlm) -> bool) -> bool {
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
        let first = head.lines().next().unwrap_or("").to_string();
        let html = self.state.lock().unwrap().html.clone();
        if let Some((status, page)) = html {
            let head = format!(
                "HTTP/1.1 {status} X\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                page.len()
            );
            let _ = socket.write_all(head.as_bytes()).await;
            let _ = socket.write_all(page.as_bytes()).await;
            let _ = socket.shutdown().await;
            return;
        }
        if first.starts_with("GET") && first.contains("/models") {
            let models = {
                let mut s = self.state.lock().unwrap();
                s.model_list_requests += 1;
                s.models.clone()
            };
            let data: Vec<Value> = models.iter().map(|m| json!({"id": m, "object": "model"})).collect();
            respond_json(&mut socket, 200, &json!({"object": "list", "data": data}), None).await;
            return;
        }
        if !(first.starts_with("POST") && first.contains("/chat/completions")) {
            respond_json(&mut socket, 404, &json!({"error": {"message": "not found"}}), None).await;
            return;
        }
        let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let reply = {
            let mut s = self.state.lock().unwrap();
            let system = request["messages"][0]["content"].as_str().unwrap_or("").to_string();
            s.requests.push(request);
            let routed = (s.routes.iter_mut())
                .find(|(marker, queue)| !queue.is_empty() && system.contains(marker.as_str()))
                .and_then(|(_, queue)| queue.pop_front());
            routed.or_else(|| s.script.pop_front()).or_else(|| s.fallback.clone())
        };
        self.changed.notify_waiters();
        let (reply, extra) = match reply {
            Some(Reply::Headers { headers, reply }) => (Some(*reply), headers),
            other => (other, Vec::new()),
        };
        let extra_head: String = extra.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
        match reply {
            None => {
                respond_json(
                    &mut socket,
                    500,
                    &json!({"error": {"message": "mock script is empty"}}),
                    None,
                )
                .await
            }
            Some(Reply::Status {
                status,
                retry_after,
                message,
            }) => {
                let mut headers: Vec<(&str, String)> = extra.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
                headers.extend(retry_after.map(|r| ("Retry-After", r)));
                let body = json!({"error": {"message": message, "code": status}});
                respond(&mut socket, status, "application/json", &headers, &body.to_string()).await
            }
            Some(Reply::Headers { .. }) => unreachable!("unwrapped above"),
            Some(Reply::Stream { events, delay, cut }) => {
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n{extra_head}Connection: close\r\n\r\n"
                );
                if socket.write_all(head.as_bytes()).await.is_err() {
                    return self.disconnected();
                }
                if delay.is_zero() {
                    // An instant provider: the whole answer in one write.
                    let mut body = String::new();
                    for event in &events {
                        body.push_str(&format!("data: {event}\n\n"));
                    }
                    if socket.write_all(body.as_bytes()).await.is_err() {
                        return self.disconnected();
                    }
                }
                for (i, event) in events.iter().enumerate().filter(|_| !delay.is_zero()) {
                    if i > 0 {
                        tokio::time::sleep(delay).await;
                    }
                    let frame = format!("data: {event}\n\n");
                    if socket.write_all(frame.as_bytes()).await.is_err() || socket.flush().await.is_err() {
                        return self.disconnected();
                    }
                }
                if !cut {
                    let _ = socket.write_all(b"data: [DONE]\n\n").await;
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

/// Reads one HTTP request: its head (request line and headers) and its body, by
/// Content-Length. Shared by every mock in `tests/support/`.
pub async fn read_request(socket: &mut TcpStream) -> Option<(String, Vec<u8>)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let header_end = loop {
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(pos) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break pos + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..header_end]).to_string();
    let length = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().parse::<usize>().unwrap_or(0))
        })
        .unwrap_or(0);
    let mut body = buf[header_end..].to_vec();
    while body.len() < length {
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some((head, body))
}

/// Answers with a JSON body (and a Retry-After when given), then closes.
pub async fn respond_json(socket: &mut TcpStream, status: u16, body: &Value, retry_after: Option<&str>) {
    let extra: Vec<(&str, String)> = retry_after
        .map(|r| ("Retry-After", r.to_string()))
        .into_iter()
        .collect();
    respond(socket, status, "application/json", &extra, &body.to_string()).await;
}

/// Answers with `body` of `content_type` plus `extra` headers, then closes. Shared by every
/// mock in `tests/support/`.
pub async fn respond(socket: &mut TcpStream, status: u16, content_type: &str, extra: &[(&str, String)], body: &str) {
    let extra: String = extra.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
    let head = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n",
        body.len()
    );
    let _ = socket.write_all(head.as_bytes()).await;
    let _ = socket.write_all(body.as_bytes()).await;
    let _ = socket.shutdown().await;
}
