//! Soak: one `hermes-acp` process, many sessions × prompts with tool calls (a short foreground
//! command and a background process per prompt) and random cancels, against the local mock
//! LLM. Reports peak RSS, open file descriptors and processes left behind, at the start and
//! after every session was closed: they must return to the baseline. RSS is also printed after
//! every tenth of the sessions, so a leak (steady growth) is told apart from allocator
//! retention (a plateau): run twice as many sessions and compare.
//!
//! Run: `cargo build --release && cargo run --release --example soak [-- SESSIONS PROMPTS]`
//! (defaults 100 × 20; `HERMES_ACP_BIN` picks another binary; `HERMES_SOAK_MCP=<server binary>`,
//! e.g. `target/release/examples/mcp_test_server`, gives every session that stdio MCP server
//! and one call of its tool per prompt).

#![allow(clippy::print_stdout)] // A soak reports to the person running it.

#[path = "../tests/support/mock_llm.rs"]
mod mock_llm;
// Each example uses part of the shared driver.
#[allow(dead_code)]
#[path = "support/driver.rs"]
mod driver;

use driver::{Driver, status_kb};

use std::time::{Duration, Instant};

use serde_json::json;

/// (current RSS kB, open fds, processes whose parent is `pid` or one of its descendants)
fn measure(pid: u32) -> (u64, usize, usize) {
    let rss = status_kb(pid, "VmRSS:");
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|d| d.count())
        .unwrap_or(0);
    (rss, fds, descendants(pid).len())
}

/// Every live process below `pid`, plus any still in a process group `pid` created.
fn descendants(pid: u32) -> Vec<u32> {
    let mut parents = std::collections::HashMap::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else {
            continue;
        };
        let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
        if let (Some(state), Some(ppid)) = (fields.first(), fields.get(1).and_then(|p| p.parse::<u32>().ok()))
            && *state != "Z"
        {
            parents.insert(child, ppid);
        }
    }
    let mut found = vec![pid];
    let mut i = 0;
    while i < found.len() {
        let p = found[i];
        found.extend(parents.iter().filter(|(_, pp)| **pp == p).map(|(c, _)| *c));
        i += 1;
    }
    found.retain(|p| *p != pid);
    found
}

fn main() {
    let sessions: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let prompts: usize = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(20);
    let binary = std::env::var("HERMES_ACP_BIN")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/target/release/hermes-acp").to_string());
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mock = rt.block_on(mock_llm::MockLlm::start());
    mock.set_fallback(mock_llm::text(&["done"]));
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
    let mcp_servers = match std::env::var("HERMES_SOAK_MCP") {
        Ok(server) => json!([{"name": "soak", "command": server, "args": [], "env": []}]),
        Err(_) => json!([]),
    };
    let home_str = home.path().to_str().expect("a UTF-8 temp path");
    let mut d = Driver::spawn(&binary, home.path(), &[("HOME", home_str), ("RUST_LOG", "warn")]);
    let pid = d.child.id();
    let (id, _) = d.send("initialize", json!({"protocolVersion": 1, "clientCapabilities": {}}));
    d.wait(id);
    // Warm-up: the database opens in the background and the runtime grows its pools on first
    // use; the baseline is taken once a session has been created, used and closed.
    let (id, _) = d.send("session/new", json!({"cwd": cwd.path(), "mcpServers": []}));
    let warm = d.wait(id).response["result"]["sessionId"].as_str().unwrap().to_string();
    let (id, _) = d.send(
        "session/prompt",
        json!({"sessionId": warm, "prompt": [{"type": "text", "text": "hi"}]}),
    );
    d.wait(id);
    let (id, _) = d.send("session/close", json!({"sessionId": warm}));
    d.wait(id);
    let baseline = measure(pid);
    let started = Instant::now();
    let (mut cancelled, mut completed) = (0usize, 0usize);
    let mut rng = fastrand::Rng::with_seed(7);
    let mut trajectory = Vec::new();
    for s in 0..sessions {
        let (id, _) = d.send("session/new", json!({"cwd": cwd.path(), "mcpServers": mcp_servers}));
        let sid = d.wait(id).response["result"]["sessionId"].as_str().unwrap().to_string();
        for p in 0..prompts {
            // A foreground command and a background process each turn, then the fallback text.
            let (fg, bg, mcp) = (format!("f{s}_{p}"), format!("b{s}_{p}"), format!("m{s}_{p}"));
            let mut calls = vec![
                (fg.as_str(), "terminal", json!({"command": "echo soak && sleep 0.02"})),
                (
                    bg.as_str(),
                    "terminal",
                    json!({"command": "sleep 30", "background": true}),
                ),
            ];
            if mcp_servers.as_array().is_some_and(|a| !a.is_empty()) {
                calls.push((mcp.as_str(), "mcp_soak_echo", json!({"text": "soak"})));
            }
            mock.push(mock_llm::tool_calls(&calls));
            let (id, _) = d.send(
                "session/prompt",
                json!({"sessionId": sid, "prompt": [{"type": "text", "text": "work"}]}),
            );
            if rng.u8(..10) == 0 {
                std::thread::sleep(Duration::from_millis(rng.u64(0..15)));
                d.notify("session/cancel", json!({"sessionId": sid}));
            }
            match d.wait(id).response["result"]["stopReason"].as_str() {
                Some("cancelled") => cancelled += 1,
                _ => completed += 1,
            }
        }
        let (id, _) = d.send("session/close", json!({"sessionId": sid}));
        d.wait(id);
        if (s + 1) % (sessions / 10).max(1) == 0 {
            trajectory.push(format!("{}:{}", s + 1, status_kb(pid, "VmRSS:") / 1024));
        }
    }
    let elapsed = started.elapsed();
    let end = measure(pid);
    println!("hermes-acp soak: {sessions} sessions × {prompts} prompts in {elapsed:.1?}");
    println!("  prompts completed {completed}, cancelled {cancelled}");
    println!("  peak RSS      {} kB", status_kb(pid, "VmHWM:"));
    println!("  current RSS   {} kB (after warm-up: {} kB)", end.0, baseline.0);
    println!("  RSS MB after n sessions  {}", trajectory.join("  "));
    println!("  open fds      {} (after warm-up: {})", end.1, baseline.1);
    println!("  child procs   {} (after warm-up: {})", end.2, baseline.2);
    drop(d.child.stdin.take());
    let exit = d.child.wait().expect("agent exits");
    println!("  exit          {exit} after stdin closed");
    // A leak is growth: one descriptor open after the warm-up (a pooled connection, say) may
    // be gone at the end (seen: 15 after warm-up, 14 at the end).
    assert!(end.1 <= baseline.1, "file descriptors leaked");
    assert!(end.2 <= baseline.2, "processes left behind");
}
