//! The agent driver the process bench and the soak share: spawns the `hermes-acp` binary with
//! pipes, reads its stdout on a thread (every line timestamped on arrival), sends requests and
//! notifications, and waits for a response while answering permission requests with
//! `allow_once`. Each example uses the part it needs.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub struct Driver {
    pub child: Child,
    lines: mpsc::Receiver<(Instant, Value)>,
    next_id: u64,
}

/// What `wait` saw up to the response.
pub struct Reply {
    /// When the first `agent_message_chunk` arrived, if one did.
    pub first_chunk: Option<Instant>,
    /// When the response arrived.
    pub at: Instant,
    pub response: Value,
    /// `session/update` notifications received meanwhile.
    pub updates: usize,
}

impl Driver {
    /// Starts the agent with `home` as HERMES_HOME (plus `env`), as an editor would: stderr
    /// is not read.
    pub fn spawn(binary: &str, home: &std::path::Path, env: &[(&str, &str)]) -> Driver {
        let mut child = Command::new(binary)
            .env("HERMES_HOME", home)
            .envs(env.iter().copied())
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
    pub fn open_session(&mut self, cwd: &std::path::Path) -> String {
        let (id, _) = self.send("initialize", json!({"protocolVersion": 1, "clientCapabilities": {}}));
        self.wait(id);
        let (id, _) = self.send("session/new", json!({"cwd": cwd, "mcpServers": []}));
        self.wait(id).response["result"]["sessionId"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// Sends a request; returns its id and when it was written.
    pub fn send(&mut self, method: &str, params: Value) -> (u64, Instant) {
        self.next_id += 1;
        let sent = Instant::now();
        self.write(&json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}));
        (self.next_id, sent)
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.write(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn write(&mut self, msg: &Value) {
        let stdin = self.child.stdin.as_mut().expect("stdin");
        writeln!(stdin, "{msg}").expect("write");
        stdin.flush().expect("flush");
    }

    /// Waits for the response to `id` (which must not be an error), answering permission
    /// requests with allow_once.
    pub fn wait(&mut self, id: u64) -> Reply {
        let mut first_chunk = None;
        let mut updates = 0;
        loop {
            let (at, msg) = self
                .lines
                .recv_timeout(Duration::from_secs(120))
                .expect("agent answered");
            if msg.get("method").is_some() && msg.get("id").is_some() {
                self.write(&json!({"jsonrpc": "2.0", "id": msg["id"],
                    "result": {"outcome": {"outcome": "selected", "optionId": "allow_once"}}}));
                continue;
            }
            if msg["method"] == "session/update" {
                updates += 1;
            }
            if first_chunk.is_none() && msg["params"]["update"]["sessionUpdate"] == "agent_message_chunk" {
                first_chunk = Some(at);
            }
            if msg["id"] == json!(id) && msg.get("method").is_none() {
                assert!(msg.get("error").is_none(), "request failed: {msg}");
                return Reply {
                    first_chunk,
                    at,
                    response: msg,
                    updates,
                };
            }
        }
    }
}

/// A `/proc/<pid>/status` figure in kB (`VmHWM:` peak RSS, `VmRSS:` current RSS).
pub fn status_kb(pid: u32, key: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with(key)).map(str::to_string))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}
