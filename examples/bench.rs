//! Process-level benchmark: spawns the release `hermes-acp` binary against an instant local mock
//! LLM and prints medians over N runs of: start → initialize reply, session/new, prompt → first
//! chunk (first and second prompt), prompt → response, and peak RSS.
//!
//! Run: `cargo build --release && cargo run --release --example bench [-- RUNS]`; `-- RUNS
//! delegate` measures only `delegate_task` with 3 instant children against plain turns.

#![allow(clippy::print_stdout)] // A bench reports to the person running it.

#[path = "../tests/support/mock_llm.rs"]
mod mock_llm;
// Each example uses part of the shared driver.
#[allow(dead_code)]
#[path = "support/driver.rs"]
mod driver;

use driver::{Driver, status_kb};

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

fn one_run(binary: &str, home: &std::path::Path, cwd: &std::path::Path) -> Run {
    let started = Instant::now();
    let mut d = Driver::spawn(binary, home, &[]);
    let (id, _) = d.send("initialize", json!({"protocolVersion": 1, "clientCapabilities": {}}));
    let init_at = d.wait(id).at;
    let (id, sent) = d.send("session/new", json!({"cwd": cwd, "mcpServers": []}));
    let reply = d.wait(id);
    let (new_at, response) = (reply.at, reply.response);
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
        let reply = d.wait(id);
        let (chunk, done) = (reply.first_chunk, reply.at);
        (chunk.expect("a chunk arrived") - sent, done - sent)
    };
    let (first_chunk_1, response_1) = prompt(&mut d, "hello");
    let (first_chunk_2, response_2) = prompt(&mut d, "again");
    let peak_rss_kb = status_kb(d.child.id(), "VmHWM:");
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
    let mut d = Driver::spawn(binary, home, &[]);
    let sid = d.open_session(cwd);
    let pieces: Vec<String> = (0..chunks).map(|i| format!("w{i} ")).collect();
    let piece_refs: Vec<&str> = pieces.iter().map(String::as_str).collect();
    mock.push(mock_llm::text(&piece_refs));
    let measure = |d: &mut Driver, text: &str| {
        let (id, sent) = d.send(
            "session/prompt",
            json!({"sessionId": sid, "prompt": [{"type": "text", "text": text}]}),
        );
        let reply = d.wait(id);
        let (done, updates) = (reply.at, reply.updates);
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
    let mut d = Driver::spawn(binary, home, &[]);
    let sid = d.open_session(cwd);
    let prompt = |d: &mut Driver, text: &str| {
        let (id, sent) = d.send(
            "session/prompt",
            json!({"sessionId": sid, "prompt": [{"type": "text", "text": text}]}),
        );
        d.wait(id).first_chunk.expect("a chunk arrived") - sent
    };
    for i in 0..messages / 2 {
        prompt(&mut d, &format!("question number {i} about the code base"));
    }
    let samples: Vec<Duration> = (0..10).map(|i| prompt(&mut d, &format!("follow-up {i}"))).collect();
    drop(d.child.stdin.take());
    let _ = d.child.wait();
    median(samples)
}

/// `delegate_task` overhead: medians over `runs` turns of a plain answer, of one instant tool
/// call then an answer, and of `delegate_task` with 3 instant children then an answer.
fn delegation(
    binary: &str,
    home: &std::path::Path,
    cwd: &std::path::Path,
    mock: &mock_llm::MockLlm,
    runs: usize,
) -> [Duration; 3] {
    let mut d = Driver::spawn(binary, home, &[]);
    let sid = d.open_session(cwd);
    let turn = |d: &mut Driver| {
        let (id, sent) = d.send(
            "session/prompt",
            json!({"sessionId": sid, "prompt": [{"type": "text", "text": "go"}]}),
        );
        d.wait(id).at - sent
    };
    let tasks: Vec<Value> = (0..3).map(|i| json!({"goal": format!("BENCH-CHILD {i}")})).collect();
    let (mut plain, mut tool, mut delegated) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        // Measured second: the turn right after another one also pays for that turn's tail
        // (its title, the previous turn's connections closing).
        turn(&mut d);
        plain.push(turn(&mut d));
        mock.push(mock_llm::tool_calls(&[("call_t", "todo", json!({}))]));
        mock.push(mock_llm::text(&["done"]));
        tool.push(turn(&mut d));
        mock.push(mock_llm::tool_calls(&[(
            "call_d",
            "delegate_task",
            json!({"tasks": tasks}),
        )]));
        for _ in 0..3 {
            mock.push_for("BENCH-CHILD", mock_llm::text(&["child done"]));
        }
        mock.push(mock_llm::text(&["done"]));
        delegated.push(turn(&mut d));
        // A binary without the tool would answer "unknown tool" just as fast: check it ran.
        let last = mock.requests().last().cloned().unwrap_or_default();
        let result = last["messages"]
            .as_array()
            .and_then(|m| m.iter().rev().find(|m| m["role"] == "tool"));
        let result = result.and_then(|m| m["content"].as_str()).unwrap_or_default();
        assert!(result.contains("child done"), "delegate_task did not run: {result}");
    }
    drop(d.child.stdin.take());
    let _ = d.child.wait();
    [median(plain), median(tool), median(delegated)]
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
    let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1000.0);
    if std::env::args().nth(2).as_deref() == Some("delegate") {
        let [plain, tool, delegated] = delegation(&binary, home.path(), cwd.path(), &mock, runs);
        println!("delegate_task: medians over {runs} turns (binary {binary})");
        println!("  plain turn (1 model call)                  {}", ms(plain));
        println!("  one instant tool call, then an answer      {}", ms(tool));
        println!("  delegate_task, 3 instant children, answer  {}", ms(delegated));
        println!(
            "  overhead over the plain turn {} (over the tool-call turn {})",
            ms(delegated.saturating_sub(plain)),
            ms(delegated.saturating_sub(tool))
        );
        return;
    }
    let mut results = Vec::new();
    for _ in 0..runs {
        results.push(one_run(&binary, home.path(), cwd.path()));
    }
    let pick = |f: fn(&Run) -> Duration| median(results.iter().map(f).collect());
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
