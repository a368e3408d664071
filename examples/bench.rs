//! Process-level benchmark: spawns the release `hermes-acp` binary against an instant local mock
//! LLM and prints medians over N runs of: start → initialize reply, session/new, prompt → first
//! chunk (first and second prompt), prompt → response, and peak RSS.
//!
//! Run: `cargo build --release && cargo run --release --example bench [-- RUNS]`

#![allow(clippy::print_stdout)] // A bench reports to the person running it.

#[path = "../tests/support/mock_llm.rs"]
mod mock_llm;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

struct Run {
    initialize: Duration,
    session_new: Duration,
    first_chunk_1: Duration,
    response_1: Duration,
    first_chunk_2: Duration,
    response_2: Duration,
    peak_rss_kb: u64,
}

struct Driver {
    child: Child,
    lines: mpsc::Receiver<(Instant, Value)>,
    next_id: u64,
}

impl Driver {
    /// Starts the agent with `home` as HERMES_HOME, reading its stdout on a thread.
    fn spawn(binary: &str, home: &std::path::Path) -> Driver {
        let mut child = Command::new(binary)
            .env("HERMES_HOME", home)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn hermes-acp (build it with `cargo build --release`)");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let value: Value = serde_json::from_str(&line).expect("stdout line is JSON");
                if tx.send((Instant::now(), value)).is_err() {
                    break;
                }
            }
        });
        Driver {
            child,
            lines,
            next_id: 0,
        }
    }

    /// initialize + session/new; returns the session id.
    fn open_session(&mut self, cwd: &std::path::Path) -> String {
        let (id, _) = self.send("initialize", json!({"protocolVersion": 1, "clientCapabilities": {}}));
        self.wait(id);
        let (id, _) = self.send("session/new", json!({"cwd": cwd, "mcpServers": []}));
        self.wait(id).2["result"]["sessionId"].as_str().unwrap().to_string()
    }

    fn send(&mut self, method: &str, params: Value) -> (u64, Instant) {
        self.next_id += 1;
        let msg = json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params});
        let stdin = self.child.stdin.as_mut().expect("stdin");
        let sent = Instant::now();
        writeln!(stdin, "{msg}").expect("write");
        stdin.flush().expect("flush");
        (self.next_id, sent)
    }

    /// Waits for the response to `id`; returns (time of the first agent chunk, time of the
    /// response, the response).
    fn wait(&mut self, id: u64) -> (Option<Instant>, Instant, Value) {
        let (first, at, response, _) = self.wait_counting(id);
        (first, at, response)
    }

    /// Like `wait`, also counting the session updates received meanwhile.
    fn wait_counting(&mut self, id: u64) -> (Option<Instant>, Instant, Value, usize) {
        let mut first_chunk = None;
        let mut updates = 0;
        loop {
            let (at, msg) = self
                .lines
                .recv_timeout(Duration::from_secs(120))
                .expect("agent answered");
            if msg["method"] == "session/update" {
                updates += 1;
            }
            if first_chunk.is_none() && msg["params"]["update"]["sessionUpdate"] == "agent_message_chunk" {
                first_chunk = Some(at);
            }
            if msg["id"] == json!(id) && msg.get("method").is_none() {
                assert!(msg.get("error").is_none(), "request failed: {msg}");
                return (first_chunk, at, msg, updates);
            }
        }
    }
}

fn peak_rss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:")).map(str::to_string))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

fn one_run(binary: &str, home: &std::path::Path, cwd: &std::path::Path) -> Run {
    let started = Instant::now();
    let mut d = Driver::spawn(binary, home);
    let (id, _) = d.send("initialize", json!({"protocolVersion": 1, "clientCapabilities": {}}));
    let (_, init_at, _) = d.wait(id);
    let (id, sent) = d.send("session/new", json!({"cwd": cwd, "mcpServers": []}));
    let (_, new_at, response) = d.wait(id);
    let session_new = new_at - sent;
    let sid = response["result"]["sessionId"]
        .as_str()
        .expect("session id")
        .to_string();
    let prompt = |d: &mut Driver, text: &str| {
        let (id, sent) = d.send(
            "session/prompt",
            json!({"sessionId": sid, "prompt": [{"type": "text", "text": text}]}),
        );
        let (chunk, done, _) = d.wait(id);
        (chunk.expect("a chunk arrived") - sent, done - sent)
    };
    let (first_chunk_1, response_1) = prompt(&mut d, "hello");
    let (first_chunk_2, response_2) = prompt(&mut d, "again");
    let peak_rss_kb = peak_rss_kb(d.child.id());
    drop(d.child.stdin.take());
    let _ = d.child.wait();
    Run {
        initialize: init_at - started,
        session_new,
        first_chunk_1,
        response_1,
        first_chunk_2,
        response_2,
        peak_rss_kb,
    }
}

/// Event forwarding: one turn streaming `chunks` text chunks, and one turn with `calls` tool
/// calls in a single response. Returns (updates/s and µs per update) for each.
fn forwarding(
    binary: &str,
    home: &std::path::Path,
    cwd: &std::path::Path,
    mock: &mock_llm::MockLlm,
    chunks: usize,
    calls: usize,
) -> [(f64, f64); 2] {
    let mut d = Driver::spawn(binary, home);
    let sid = d.open_session(cwd);
    let pieces: Vec<String> = (0..chunks).map(|i| format!("w{i} ")).collect();
    let piece_refs: Vec<&str> = pieces.iter().map(String::as_str).collect();
    mock.push(mock_llm::text(&piece_refs));
    let measure = |d: &mut Driver, text: &str| {
        let (id, sent) = d.send(
            "session/prompt",
            json!({"sessionId": sid, "prompt": [{"type": "text", "text": text}]}),
        );
        let (_, done, _, updates) = d.wait_counting(id);
        let secs = (done - sent).as_secs_f64();
        (updates as f64 / secs, secs * 1e6 / updates as f64)
    };
    let streamed = measure(&mut d, "stream");
    let todo_calls: Vec<(String, &str, Value)> = (0..calls).map(|i| (format!("call_{i}"), "todo", json!({}))).collect();
    let refs: Vec<(&str, &str, Value)> = todo_calls.iter().map(|(a, b, c)| (a.as_str(), *b, c.clone())).collect();
    mock.push(mock_llm::tool_calls(&refs));
    mock.push(mock_llm::text(&["done"]));
    let tools = measure(&mut d, "tools");
    drop(d.child.stdin.take());
    let _ = d.child.wait();
    [streamed, tools]
}

/// First-chunk latency of prompts on a session that already holds `messages` messages (the
/// median of 10 prompts after the history is built).
fn long_history_first_chunk(binary: &str, home: &std::path::Path, cwd: &std::path::Path, messages: usize) -> Duration {
    let mut d = Driver::spawn(binary, home);
    let sid = d.open_session(cwd);
    let prompt = |d: &mut Driver, text: &str| {
        let (id, sent) = d.send(
            "session/prompt",
            json!({"sessionId": sid, "prompt": [{"type": "text", "text": text}]}),
        );
        d.wait(id).0.expect("a chunk arrived") - sent
    };
    for i in 0..messages / 2 {
        prompt(&mut d, &format!("question number {i} about the code base"));
    }
    let samples: Vec<Duration> = (0..10).map(|i| prompt(&mut d, &format!("follow-up {i}"))).collect();
    drop(d.child.stdin.take());
    let _ = d.child.wait();
    median(samples)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let runs: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(15);
    let binary = std::env::var("HERMES_ACP_BIN")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/target/release/hermes-acp").to_string());
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mock = rt.block_on(mock_llm::MockLlm::start());
    mock.set_fallback(mock_llm::text(&["Hello", " from", " the", " mock."]));
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        home.path().join("config.yaml"),
        format!(
            "model:\n  provider: custom\n  base_url: {}\n  default: mock-model\n",
            mock.url()
        ),
    )
    .unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let mut results = Vec::new();
    for _ in 0..runs {
        results.push(one_run(&binary, home.path(), cwd.path()));
    }
    let pick = |f: fn(&Run) -> Duration| median(results.iter().map(f).collect());
    let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1000.0);
    let mut rss: Vec<u64> = results.iter().map(|r| r.peak_rss_kb).collect();
    rss.sort();
    println!("hermes-acp process bench: medians over {runs} runs (binary {binary})");
    println!("  start → initialize reply     {}", ms(pick(|r| r.initialize)));
    println!("  session/new                  {}", ms(pick(|r| r.session_new)));
    println!("  prompt 1 → first chunk       {}", ms(pick(|r| r.first_chunk_1)));
    println!("  prompt 1 → response          {}", ms(pick(|r| r.response_1)));
    println!("  prompt 2 → first chunk       {}", ms(pick(|r| r.first_chunk_2)));
    println!("  prompt 2 → response          {}", ms(pick(|r| r.response_2)));
    println!(
        "  peak RSS                     {:.1} MB",
        rss[rss.len() / 2] as f64 / 1024.0
    );
    let long = long_history_first_chunk(&binary, home.path(), cwd.path(), 200);
    let short = pick(|r| r.first_chunk_2);
    println!(
        "  prompt → first chunk, 200-message history {} (overhead over prompt 2: {})",
        ms(long),
        ms(long.saturating_sub(short))
    );
    let [streamed, tools] = forwarding(&binary, home.path(), cwd.path(), &mock, 100_000, 1_000);
    println!("event forwarding (end to end through the binary, mock included):");
    println!(
        "  100 000 text chunks          {:.0} updates/s, {:.1} µs per update",
        streamed.0, streamed.1
    );
    println!(
        "  1 000 tool calls             {:.0} updates/s, {:.1} µs per update",
        tools.0, tools.1
    );
}
