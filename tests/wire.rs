//! The wire under abuse, against the real binary: thousands of garbage frames of every kind,
//! invalid UTF-8, an over-long line streamed past the cap, a client that never reads stderr,
//! and termination signals while commands run.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TIMEOUT, TestHome};

/// One garbage frame and, when it is a request with a usable id, the id its answer must carry.
struct Garbage {
    bytes: Vec<u8>,
    answered_with: Option<String>,
    /// A stray response: nothing may ever be answered with this id.
    never_answered: Option<String>,
}

/// The canonical text of an id literal, as it comes back in an answer.
fn key(literal: &str) -> String {
    serde_json::from_str::<Value>(literal).unwrap().to_string()
}

fn garbage(i: usize, rng: &mut fastrand::Rng) -> Garbage {
    let id = match rng.u8(0..10) {
        0..=5 => format!("{}", 1_000_000 + i),
        6..=8 => format!("\"g-{i}\""),
        _ => format!("{i}.5"),
    };
    let answered = |text: String| Garbage {
        bytes: text.into_bytes(),
        answered_with: Some(key(&id)),
        never_answered: None,
    };
    let silent = |bytes: Vec<u8>| Garbage {
        bytes,
        answered_with: None,
        never_answered: None,
    };
    // Rare and heavy: 1 MB strings and 10 000-deep nesting.
    if i % 1000 == 999 {
        let big = "a".repeat(1 << 20);
        return answered(format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"x/big","params":{{"s":"{big}"}}}}"#
        ));
    }
    if i % 1000 == 998 {
        return silent(format!("\"{}", "b".repeat(1 << 20)).into_bytes());
    }
    if i % 500 == 497 {
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"x","params":{}{}}}"#,
            "[".repeat(10_000),
            "]".repeat(10_000)
        );
        return silent(deep.into_bytes());
    }
    match rng.u8(0..22) {
        0 => silent((0..rng.usize(1..40)).map(|_| rng.u8(0x80..)).collect()),
        1 => silent(vec![0, b'{', 0, b'}', 0]),
        2 => {
            let full = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":{{}}}}"#);
            let cut = rng.usize(1..full.len() - 1);
            silent(full.as_bytes()[..cut].to_vec())
        }
        3 => answered(format!(r#"{{"id":{id}}}"#)),
        4 => answered(format!(r#"{{"jsonrpc":"1.0","id":{id},"method":"initialize"}}"#)),
        5 => answered(format!(r#"{{"jsonrpc":2.0,"id":{id},"method":"initialize"}}"#)),
        6 => answered(format!(r#"{{"jsonrpc":"2.0","id":{id},"method":null}}"#)),
        7 => answered(format!(r#"{{"jsonrpc":"2.0","id":{id},"method":123}}"#)),
        8 => answered(format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"session/new","params":"not-an-object"}}"#
        )),
        9 => answered(format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"session/new","params":{{"cwd":5}}}}"#
        )),
        10 => answered(format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"no/such/method","params":{{}}}}"#
        )),
        11 => answered(format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"session/prompt","params":{{"sessionId":"nope-{i}","prompt":[]}}}}"#
        )),
        12 => answered(format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"session/set_mode","params":{{"sessionId":"nope","modeId":"x"}}}}"#
        )),
        13 => answered(format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":{{"protocolVersion":"one"}}}}"#
        )),
        14 => answered(format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"x","result":{{}}}}"#)),
        15 => {
            let stray = format!("{}", 5_000_000 + i);
            Garbage {
                bytes: format!(r#"{{"jsonrpc":"2.0","id":{stray},"result":{{"ok":true}}}}"#).into_bytes(),
                answered_with: None,
                never_answered: Some(key(&stray)),
            }
        }
        16 => {
            let stray = format!("\"stray-{i}\"");
            Garbage {
                bytes: format!(r#"{{"jsonrpc":"2.0","id":{stray},"error":{{"code":-1,"message":"x"}}}}"#).into_bytes(),
                answered_with: None,
                never_answered: Some(key(&stray)),
            }
        }
        17 => silent(br#"{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"nope"}}"#.to_vec()),
        18 => silent(br#"{"jsonrpc":"2.0","method":"no/such/notification"}"#.to_vec()),
        19 => silent(format!(r#"[{{"jsonrpc":"2.0","id":{id},"method":"x"}}]"#).into_bytes()),
        20 => silent(
            ["17", "null", "\"s\"", "true", "[]", "{}", "", "   "][rng.usize(..8)]
                .as_bytes()
                .to_vec(),
        ),
        _ => answered(format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"x","params":7}}"#)),
    }
}

/// Every response id on stdout (messages without a method), with how often it occurred.
fn answer_counts(lines: &[String]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for line in lines {
        let v: Value = serde_json::from_str(line).unwrap();
        if v.get("method").is_none() {
            *counts.entry(v["id"].to_string()).or_default() += 1;
        }
    }
    counts
}

#[tokio::test]
async fn twenty_thousand_garbage_frames_never_kill_or_stall_and_each_id_is_answered_once() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[("RUST_LOG", "warn")]).await;
    agent.initialize().await;
    let mut rng = fastrand::Rng::with_seed(2026);
    let mut expected = BTreeSet::new();
    let mut strays = BTreeSet::new();
    let mut batch = Vec::new();
    for i in 0..20_000 {
        let g = garbage(i, &mut rng);
        expected.extend(g.answered_with);
        strays.extend(g.never_answered);
        batch.extend_from_slice(&g.bytes);
        batch.push(b'\n');
        if batch.len() > 64 * 1024 {
            agent.send_bytes(&std::mem::take(&mut batch)).await;
        }
    }
    agent.send_bytes(&batch).await;
    // Every id answered (the wait fails after TIMEOUT without progress).
    // Matches are counted inside the predicate, which returns only every 1000 answers, so the
    // harness's backlog is not rescanned once per id.
    let pending = std::cell::RefCell::new(expected.clone());
    while !pending.borrow().is_empty() {
        let seen = std::cell::Cell::new(0);
        agent
            .wait(|m| {
                let mut pending = pending.borrow_mut();
                if m.get("method").is_none() && pending.remove(&m["id"].to_string()) {
                    seen.set(seen.get() + 1);
                }
                seen.get() >= 1000 || pending.is_empty()
            })
            .await;
    }
    // Still serving, and the protocol state is intact.
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    assert!(!session.is_empty());
    let stdout = agent.stdout_lines.clone();
    assert_eq!(agent.shutdown().await, Some(0));
    let counts = answer_counts(&stdout.lock().unwrap());
    for id in &expected {
        assert_eq!(counts.get(id), Some(&1), "id {id} answered {:?} times", counts.get(id));
    }
    for id in &strays {
        assert!(!counts.contains_key(id), "stray response {id} was answered");
    }
    let unexpected: Vec<_> = counts
        .keys()
        .filter(|id| !expected.contains(*id) && *id != "null" && id.parse::<u64>().is_ok_and(|n| n >= 1_000_000))
        .collect();
    assert!(unexpected.is_empty(), "answers to ids never sent: {unexpected:?}");
    assert!(
        expected.len() > 10_000,
        "the garbage mix asks for answers: {}",
        expected.len()
    );
}

#[tokio::test]
async fn invalid_utf8_is_a_parse_error_and_requests_around_it_are_served() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    let id = agent.send_request("initialize", json!({"protocolVersion": 1})).await;
    agent.send_bytes(b"\xff\xfe\xfd not utf-8\n\xc3\x28\n").await;
    let first = agent.wait(|m| m["error"]["code"] == -32700).await;
    assert_eq!(first["id"], Value::Null);
    agent.wait(|m| m["error"]["code"] == -32700).await;
    assert!(agent.response(id).await.get("result").is_some());
    let session = agent.new_session(&home.cwd()).await;
    assert!(!session.is_empty());
    assert_eq!(agent.shutdown().await, Some(0));
}

/// Peak resident memory of `pid` in KiB (Linux `VmHWM`).
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[tokio::test]
async fn an_over_long_line_is_skipped_as_it_streams_and_answered_invalid_request() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    // A 1 MiB cap: the 70 MiB line below would show in peak memory if it were buffered.
    let mut agent = AgentProcess::spawn(home.path(), &[("HERMES_ACP_MAX_LINE_BYTES", "1048576")]).await;
    agent.initialize().await;
    let pid = agent.pid().unwrap();
    let chunk = vec![b'x'; 1 << 20];
    agent
        .send_bytes(br#"{"jsonrpc":"2.0","id":424242,"method":"x","params":{"s":""#)
        .await;
    for _ in 0..70 {
        agent.send_bytes(&chunk).await;
    }
    agent.send_bytes(b"\"}}\n").await;
    let answer = agent.wait(|m| m["error"]["code"] == -32600).await;
    assert_eq!(answer["id"], Value::Null);
    assert!(
        answer["error"]["message"].as_str().unwrap().contains("limit"),
        "{answer}"
    );
    // A line just under the cap is still a request like any other.
    let under = "y".repeat(1_000_000);
    let response = agent.request("no/such/method", json!({"s": under})).await;
    assert_eq!(response["error"]["code"], -32601);
    let session = agent.new_session(&home.cwd()).await;
    assert!(!session.is_empty());
    let peak_mib = peak_rss_kib(pid) / 1024;
    assert!(
        peak_mib < 60,
        "peak RSS {peak_mib} MiB: the over-long line was buffered"
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_client_that_never_reads_stderr_can_run_fifty_prompts_with_trace_logging() {
    let mock = MockLlm::start().await;
    mock.set_fallback(mock_llm::text(&["fine, ", "thanks"]));
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn_with_unread_stderr(home.path(), &[("RUST_LOG", "trace")]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    for n in 0..50 {
        let (response, _) = agent.prompt(&session, &format!("prompt {n}")).await;
        assert_eq!(response["result"]["stopReason"], "end_turn", "prompt {n}");
    }
    // The pipe really was full: the agent logged far more than a pipe holds.
    let pending = agent.unread_stderr_bytes().unwrap();
    assert!(pending >= 60 * 1024, "only {pending} bytes waiting on stderr");
    let second = agent.new_session(&home.cwd()).await;
    assert_ne!(second, session);
    assert_eq!(agent.shutdown().await, Some(0));
}

/// Creates a FIFO; a command writes into it, which the test reads (blocking until the command
/// has started).
fn fifo(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    let status = std::process::Command::new("mkfifo").arg(&path).status().unwrap();
    assert!(status.success());
    path
}

fn started(path: std::path::PathBuf) -> tokio::task::JoinHandle<String> {
    tokio::task::spawn_blocking(move || std::fs::read_to_string(path).unwrap())
}

/// Whether a process named `marker` still runs. Commands run in the sandbox's own PID
/// namespace, so their pids mean nothing here: they are found by the name they run under (a
/// zombie's command line is empty, so it counts as gone).
fn alive(marker: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|entry| {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        String::from_utf8_lossy(&cmdline).contains(marker)
    })
}

async fn signal_while_commands_run(signal: libc::c_int) {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let scratch = tempfile::tempdir().unwrap();
    let fg = fifo(scratch.path(), "fg");
    let bg = fifo(scratch.path(), "bg");
    let tag = fastrand::u64(..);
    let (fg_name, bg_name) = (format!("hermes-fg-{tag}"), format!("hermes-bg-{tag}"));
    let command = |path: &std::path::Path, name: &str| {
        format!("bash -c 'echo started > {}; exec -a {name} sleep 30'", path.display())
    };
    mock.push(mock_llm::tool_calls(&[
        (
            "call_bg",
            "terminal",
            json!({"command": command(&bg, &bg_name), "background": true}),
        ),
        (
            "call_fg",
            "terminal",
            json!({"command": command(&fg, &fg_name), "timeout": 60}),
        ),
    ]));
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    agent
        .send_request(
            "session/prompt",
            json!({"sessionId": session, "prompt": [{"type": "text", "text": "run"}]}),
        )
        .await;
    let (fg_started, bg_started) = (started(fg), started(bg));
    // Keep answering the agent (permissions) while the commands start.
    tokio::select! {
        _ = async { (fg_started.await.unwrap(), bg_started.await.unwrap()) } => {}
        _ = agent.wait(|_| false) => unreachable!(),
    };
    // `exec -a` runs right after the write: wait for the names to appear.
    while !(alive(&fg_name) && alive(&bg_name)) {
        tokio::task::yield_now().await;
    }
    let agent_pid = agent.pid().unwrap() as i32;
    // SAFETY: kill only sends a signal to our own child.
    assert_eq!(unsafe { libc::kill(agent_pid, signal) }, 0);
    // The commands would run 30 s, longer than this wait: exiting within it shows nothing
    // waited for them.
    let status = agent.wait_exit(TIMEOUT).await.expect("the agent exits on the signal");
    assert_eq!(status.code(), Some(0), "a clean exit, not death by signal: {status:?}");
    assert!(!alive(&fg_name), "foreground command {fg_name} left behind");
    assert!(!alive(&bg_name), "background command {bg_name} left behind");
}

#[tokio::test]
async fn sigterm_while_commands_run_exits_cleanly_and_leaves_no_process_behind() {
    signal_while_commands_run(libc::SIGTERM).await;
}

#[tokio::test]
async fn sigint_and_sighup_take_the_same_clean_path() {
    signal_while_commands_run(libc::SIGINT).await;
    signal_while_commands_run(libc::SIGHUP).await;
}
