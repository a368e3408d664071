//! A tiny MCP server for the integration tests (`tests/mcp.rs`), hand-written so our rmcp client
//! is checked against an independent implementation. Newline-delimited JSON-RPC on stdio by
//! default; `--http` serves streamable HTTP on 127.0.0.1 (plain JSON responses, no SSE stream)
//! and prints `LISTENING <port>` on stdout, running until stdin closes (`--http PORT` listens on
//! that port, to stand in for a server that restarts); `--sse` does the same with
//! the legacy HTTP+SSE transport (GET opens the event stream, POSTs are answered on it). `--exit-immediately`
//! writes to stderr and exits 3; `--hang` never answers; `--linger` serves stdio but stays alive
//! after stdin closes (a server that must be killed).
//!
//! Tools: `echo {text}`, `add {a, b}`, `fail`, `env {name}`, `cwd`, `pid`, `slow {ms}`, `mixed`
//! (text + image + structured content), `header {name}` (HTTP only) and `dotted.name-x`.
#![allow(clippy::print_stdout)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    match mode.as_str() {
        "--exit-immediately" => {
            eprintln!("boom: this server refuses to start");
            std::process::exit(3);
        }
        "--hang" => {
            let mut sink = Vec::new();
            let _ = std::io::stdin().read_to_end(&mut sink);
            std::thread::sleep(Duration::from_secs(3600));
        }
        "--http" => serve_http(false, std::env::args().nth(2).and_then(|p| p.parse().ok()).unwrap_or(0)),
        "--sse" => serve_http(true, 0),
        "--linger" => {
            serve_stdio();
            std::thread::sleep(Duration::from_secs(3600));
        }
        _ => serve_stdio(),
    }
}

fn serve_stdio() {
    let stdout = Arc::new(Mutex::new(std::io::stdout()));
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            eprintln!("not JSON: {line}");
            continue;
        };
        let stdout = stdout.clone();
        // One thread per message so a `slow` call does not block the others.
        std::thread::spawn(move || {
            if let Some(reply) = handle(&message, &HashMap::new()) {
                let mut out = stdout.lock().unwrap();
                let _ = writeln!(out, "{reply}");
                let _ = out.flush();
            }
        });
    }
}

/// Answers one JSON-RPC message; `None` for notifications and responses.
fn handle(message: &Value, headers: &HashMap<String, String>) -> Option<Value> {
    let id = message.get("id")?.clone();
    let method = message.get("method")?.as_str()?;
    let params = message.get("params").cloned().unwrap_or(json!({}));
    let result = match method {
        "initialize" => json!({
            "protocolVersion": params.get("protocolVersion").cloned().unwrap_or(json!("2025-06-18")),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "mcp-test-server", "version": "0.1.0"},
        }),
        "ping" => json!({}),
        "tools/list" => json!({ "tools": tool_list() }),
        "tools/call" => call_tool(&params, headers),
        _ => {
            return Some(json!({
                "jsonrpc": "2.0", "id": id,
                "error": {"code": -32601, "message": format!("method not found: {method}")},
            }));
        }
    };
    Some(json!({"jsonrpc": "2.0", "id": id, "result": result}))
}

fn tool_list() -> Value {
    let object =
        |properties: Value, required: Value| json!({"type": "object", "properties": properties, "required": required});
    json!([
        {"name": "echo", "description": "Echoes the text back.",
         "inputSchema": object(json!({"text": {"type": "string"}}), json!(["text"]))},
        {"name": "add", "description": "Adds two numbers.",
         "inputSchema": object(json!({"a": {"type": "number"}, "b": {"type": "number"}}), json!(["a", "b"]))},
        {"name": "fail", "description": "Always fails.", "inputSchema": {"type": "object"}},
        {"name": "env", "description": "Reads an environment variable.",
         "inputSchema": object(json!({"name": {"type": "string"}}), json!(["name"]))},
        {"name": "cwd", "description": "The server's working directory.", "inputSchema": {"type": "object"}},
        {"name": "pid", "description": "The server's process id.", "inputSchema": {"type": "object"}},
        {"name": "slow", "description": "Sleeps, then answers.",
         "inputSchema": object(json!({"ms": {"type": "integer"}}), json!(["ms"]))},
        {"name": "mixed", "description": "Text, an image and structured content.", "inputSchema": {"type": "object"}},
        {"name": "header", "description": "A request header (HTTP only).",
         "inputSchema": object(json!({"name": {"type": "string"}}), json!(["name"]))},
        {"name": "dotted.name-x", "inputSchema": {"type": "object", "properties": {}}},
    ])
}

fn text(t: impl Into<String>) -> Value {
    json!({"content": [{"type": "text", "text": t.into()}]})
}

fn call_tool(params: &Value, headers: &HashMap<String, String>) -> Value {
    let args = params.get("arguments").cloned().unwrap_or(json!({}));
    let str_arg = |k: &str| args.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    match params.get("name").and_then(Value::as_str).unwrap_or_default() {
        "echo" => text(format!("echo: {}", str_arg("text"))),
        "add" => {
            let n = |k: &str| args.get(k).and_then(Value::as_f64).unwrap_or(0.0);
            let sum = n("a") + n("b");
            text(if sum.fract() == 0.0 {
                format!("{}", sum as i64)
            } else {
                sum.to_string()
            })
        }
        "fail" => json!({"content": [{"type": "text", "text": "this tool always fails"}], "isError": true}),
        "env" => text(std::env::var(str_arg("name")).unwrap_or_else(|_| "<unset>".into())),
        "cwd" => text(
            std::env::current_dir()
                .map(|d| d.display().to_string())
                .unwrap_or_default(),
        ),
        "pid" => text(std::process::id().to_string()),
        "slow" => {
            std::thread::sleep(Duration::from_millis(
                args.get("ms").and_then(Value::as_u64).unwrap_or(0),
            ));
            text("done")
        }
        "mixed" => json!({
            "content": [{"type": "text", "text": "see image"}, {"type": "image", "data": "AAAA", "mimeType": "image/png"}],
            "structuredContent": {"ok": true},
        }),
        "header" => text(
            headers
                .get(&str_arg("name").to_ascii_lowercase())
                .cloned()
                .unwrap_or_default(),
        ),
        "dotted.name-x" => text("dotted"),
        other => json!({"content": [{"type": "text", "text": format!("unknown tool {other}")}], "isError": true}),
    }
}

/// The open event stream of the (single) SSE session.
type SseStream = Arc<Mutex<Option<TcpStream>>>;

fn serve_http(sse: bool, port: u16) {
    let listener = TcpListener::bind(("127.0.0.1", port)).expect("bind 127.0.0.1");
    println!("LISTENING {}", listener.local_addr().unwrap().port());
    let _ = std::io::stdout().flush();
    // Exit when the test closes our stdin (or dies).
    std::thread::spawn(|| {
        let mut sink = Vec::new();
        let _ = std::io::stdin().read_to_end(&mut sink);
        std::process::exit(0);
    });
    let events: SseStream = Arc::default();
    for stream in listener.incoming().flatten() {
        let events = sse.then(|| events.clone());
        std::thread::spawn(move || {
            let _ = serve_connection(stream, events);
        });
    }
}

fn serve_connection(stream: TcpStream, events: Option<SseStream>) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let method = request_line.split_whitespace().next().unwrap_or_default().to_string();
    let mut headers = HashMap::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
        }
    }
    let length: usize = headers.get("content-length").and_then(|l| l.parse().ok()).unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let mut stream = stream;
    if let Some(events) = events {
        return serve_sse(stream, reader, &method, &body, &headers, &events);
    }
    match method.as_str() {
        "POST" => {
            let message: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            match handle(&message, &headers) {
                Some(reply) => {
                    let session = if message.get("method") == Some(&json!("initialize")) {
                        "Mcp-Session-Id: test-session\r\n"
                    } else {
                        ""
                    };
                    let body = reply.to_string();
                    write!(
                        stream,
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{session}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    )
                }
                None => write!(
                    stream,
                    "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                ),
            }
        }
        "DELETE" => write!(
            stream,
            "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        ),
        _ => write!(
            stream,
            "HTTP/1.1 405 Method Not Allowed\r\nAllow: POST, DELETE\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        ),
    }?;
    stream.flush()
}

fn serve_sse(
    mut stream: TcpStream,
    mut reader: BufReader<TcpStream>,
    method: &str,
    body: &[u8],
    headers: &HashMap<String, String>,
    events: &SseStream,
) -> std::io::Result<()> {
    if method == "GET" {
        // Store the stream before announcing the endpoint, under the lock replies take: a
        // client that POSTs as soon as it reads the endpoint must find the stream there.
        {
            let mut slot = events.lock().unwrap();
            *slot = Some(stream.try_clone()?);
            write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\r\nevent: endpoint\ndata: /messages?sessionId=1\n\n"
            )?;
            stream.flush()?;
        }
        // Hold the stream open until the client goes away.
        let mut sink = Vec::new();
        let _ = reader.read_to_end(&mut sink);
        *events.lock().unwrap() = None;
        return Ok(());
    }
    let message: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    if let Some(reply) = handle(&message, headers)
        && let Some(out) = events.lock().unwrap().as_mut()
    {
        write!(out, "event: message\ndata: {reply}\n\n")?;
        out.flush()?;
    }
    write!(
        stream,
        "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )?;
    stream.flush()
}
