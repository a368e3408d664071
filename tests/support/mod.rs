//! Shared harness for the integration tests: a scratch HERMES_HOME pointing at the mock LLM,
//! and a driver for the real `hermes-acp` binary over pipes that records every stdout line
//! (asserting each one is JSON), answers requests the agent sends, and waits for responses
//! and notifications.
#![allow(dead_code)]

pub mod calls;
mod editor;
pub mod git;
pub mod mock_anthropic;
pub mod mock_llm;
pub mod mock_responses;
pub mod mock_web;
mod text;

pub use text::{agent_text, chunk_text, normalize};

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;

pub const TIMEOUT: Duration = Duration::from_secs(20);

/// A scratch HERMES_HOME (config.yaml aimed at the mock) and a scratch project folder.
pub struct TestHome {
    pub home: tempfile::TempDir,
    pub project: tempfile::TempDir,
}

impl TestHome {
    pub fn new(mock_url: &str) -> TestHome {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(
            home.path().join("config.yaml"),
            format!("model:\n  provider: custom\n  base_url: {mock_url}\n  default: mock-model\n"),
        )
        .unwrap();
        TestHome {
            home,
            project: tempfile::tempdir().unwrap(),
        }
    }

    /// Adds top-level `config.yaml` sections (YAML text) after the mock's model block.
    pub fn add_config(&self, yaml: &str) {
        let path = self.home.path().join("config.yaml");
        let mut text = std::fs::read_to_string(&path).unwrap_or_default();
        text.push_str(yaml);
        std::fs::write(path, text).unwrap();
    }

    /// A home whose whole `config.yaml` is `yaml` (for providers other than the chat mock).
    pub fn with_config(yaml: &str) -> TestHome {
        let home = TestHome::unconfigured();
        std::fs::write(home.path().join("config.yaml"), yaml).unwrap();
        home
    }

    /// A home with no provider configured at all.
    pub fn unconfigured() -> TestHome {
        TestHome {
            home: tempfile::tempdir().unwrap(),
            project: tempfile::tempdir().unwrap(),
        }
    }

    pub fn path(&self) -> &Path {
        self.home.path()
    }

    pub fn cwd(&self) -> PathBuf {
        self.project.path().canonicalize().unwrap()
    }
}

/// How the fake editor answers `session/request_permission`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PermissionPolicy {
    Select(&'static str),
    Cancel,
    Ignore,
}

/// How the fake editor answers `elicitation/create` (a form).
#[derive(Debug, Clone, PartialEq)]
pub enum ElicitationPolicy {
    /// Like an editor without forms: "method not found".
    Unsupported,
    /// Answers with this result (`{"action": "accept", "content": {…}}`, decline, cancel).
    Reply(Value),
    /// Never answers (the form stays open).
    Ignore,
}

/// The real binary, driven over stdin/stdout.
pub struct AgentProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: mpsc::UnboundedReceiver<Value>,
    /// Every message received and not yet consumed by a wait.
    backlog: Vec<Value>,
    /// Every stdout line, in order.
    pub stdout_lines: Arc<Mutex<Vec<String>>>,
    pub stderr: Arc<Mutex<String>>,
    next_id: u64,
    pub permission_policy: PermissionPolicy,
    pub elicitation_policy: ElicitationPolicy,
    /// Requests the agent sent us (permission, fs, terminal), in order.
    pub agent_requests: Vec<Value>,
    /// Unsaved editor buffers served to `fs/read_text_file`.
    pub overlays: std::collections::HashMap<String, String>,
    /// Files the agent wrote through `fs/write_text_file` (path, content), in order.
    pub editor_writes: Vec<(String, String)>,
    /// Editor terminals: id → (output, exit code, released). Commands run to completion at
    /// `terminal/create` (tests use short commands).
    pub terminals: std::collections::BTreeMap<String, (String, i32, bool)>,
    /// When set, editor terminals never finish: `terminal/create` runs nothing and
    /// `terminal/wait_for_exit` is never answered (a long command), until `terminal/kill`.
    pub hang_terminals: bool,
    /// The task copying stderr, done once the process closed it.
    stderr_reader: Option<tokio::task::JoinHandle<()>>,
    /// Held open and never read, for `spawn_with_unread_stderr`.
    _unread_stderr: Option<tokio::process::ChildStderr>,
}

impl AgentProcess {
    pub async fn spawn(home: &Path, env: &[(&str, &str)]) -> AgentProcess {
        Self::spawn_with(home, env, true).await
    }

    /// Like `spawn`, but nobody ever reads the agent's stderr (the pipe fills up and stays
    /// full), as with clients that spawn agents without draining stderr.
    pub async fn spawn_with_unread_stderr(home: &Path, env: &[(&str, &str)]) -> AgentProcess {
        Self::spawn_with(home, env, false).await
    }

    async fn spawn_with(home: &Path, env: &[(&str, &str)], read_stderr: bool) -> AgentProcess {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_hermes-acp"));
        cmd.env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", home)
            .env("HERMES_HOME", home)
            .env("RUST_LOG", "hermes_acp=debug")
            .env("HERMES_ACP_RETRY_BASE_MS", "20")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("spawn hermes-acp");
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        let (tx, incoming) = mpsc::unbounded_channel();
        let stdout_lines = Arc::new(Mutex::new(Vec::new()));
        let lines = stdout_lines.clone();
        tokio::spawn(async move {
            let mut reader = BufReader::new(stdout).lines();
            while let Ok(Some(line)) = reader.next_line().await {
                lines.lock().unwrap().push(line.clone());
                match serde_json::from_str::<Value>(&line) {
                    Ok(v) => {
                        let _ = tx.send(v);
                    }
                    Err(_) => panic!("non-JSON line on stdout: {line:?}"),
                }
            }
        });
        let stderr_text = Arc::new(Mutex::new(String::new()));
        let err_sink = stderr_text.clone();
        let mut unread_stderr = None;
        let mut stderr_reader = None;
        if read_stderr {
            stderr_reader = Some(tokio::spawn(async move {
                let mut reader = BufReader::new(stderr).lines();
                while let Ok(Some(line)) = reader.next_line().await {
                    let mut s = err_sink.lock().unwrap();
                    s.push_str(&line);
                    s.push('\n');
                }
            }));
        } else {
            unread_stderr = Some(stderr);
        }
        AgentProcess {
            stdin: child.stdin.take(),
            child,
            incoming,
            backlog: Vec::new(),
            stdout_lines,
            stderr: stderr_text,
            next_id: 0,
            permission_policy: PermissionPolicy::Select("allow_once"),
            elicitation_policy: ElicitationPolicy::Unsupported,
            agent_requests: Vec::new(),
            overlays: Default::default(),
            editor_writes: Vec::new(),
            terminals: Default::default(),
            hang_terminals: false,
            stderr_reader,
            _unread_stderr: unread_stderr,
        }
    }

    /// Writes raw bytes to the agent's stdin (no newline added).
    pub async fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).await.unwrap();
        stdin.flush().await.unwrap();
    }

    /// Bytes the agent wrote to the never-read stderr pipe that are still waiting in it (Unix
    /// only: FIONREAD).
    #[cfg(unix)]
    pub fn unread_stderr_bytes(&self) -> Option<usize> {
        use std::os::fd::AsRawFd;
        let fd = self._unread_stderr.as_ref()?.as_raw_fd();
        let mut pending: libc::c_int = 0;
        // SAFETY: FIONREAD writes one c_int through the pointer, which is valid and aligned.
        let rc = unsafe { libc::ioctl(fd, libc::FIONREAD, &mut pending) };
        (rc == 0).then_some(pending as usize)
    }

    /// The agent's process id (`None` once it has been reaped).
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// Waits up to `within` for the process to exit; returns its status.
    pub async fn wait_exit(&mut self, within: Duration) -> Option<std::process::ExitStatus> {
        tokio::time::timeout(within, self.child.wait())
            .await
            .ok()
            .and_then(Result::ok)
    }

    pub async fn send_raw(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).await.unwrap();
        stdin.write_all(b"\n").await.unwrap();
        stdin.flush().await.unwrap();
    }

    pub async fn send(&mut self, message: Value) {
        self.send_raw(&message.to_string()).await;
    }

    /// Sends a request and returns its id (wait for the answer with `response`).
    pub async fn send_request(&mut self, method: &str, params: Value) -> u64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        id
    }

    pub async fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}))
            .await;
    }

    /// Sends a request and waits for its response message (`result` or `error`).
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params).await;
        self.response(id).await
    }

    /// Waits for the response to request `id`.
    pub async fn response(&mut self, id: u64) -> Value {
        self.wait(|m| m.get("id") == Some(&json!(id)) && m.get("method").is_none())
            .await
    }

    /// Waits for a message matching `pred`, answering agent requests meanwhile. Messages that
    /// do not match stay in the backlog (notifications are read later with `notifications`).
    pub async fn wait(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(pos) = self.backlog.iter().position(&pred) {
            return self.backlog.remove(pos);
        }
        let deadline = tokio::time::Instant::now() + TIMEOUT;
        loop {
            let message = match tokio::time::timeout_at(deadline, self.incoming.recv()).await {
                Ok(Some(m)) => m,
                Ok(None) => panic!("agent closed stdout; stderr:\n{}", self.stderr.lock().unwrap()),
                Err(_) => panic!(
                    "timed out waiting; backlog: {:#?}\nstderr:\n{}",
                    self.backlog,
                    self.stderr.lock().unwrap()
                ),
            };
            if message.get("method").is_some() && message.get("id").is_some() {
                self.answer_agent_request(&message).await;
            }
            if pred(&message) {
                return message;
            }
            self.backlog.push(message);
        }
    }

    /// Session updates received so far (and not consumed), removed from the backlog.
    pub fn notifications(&mut self) -> Vec<Value> {
        let (updates, rest): (Vec<Value>, Vec<Value>) = std::mem::take(&mut self.backlog)
            .into_iter()
            .partition(|m| m.get("method").and_then(Value::as_str) == Some("session/update"));
        self.backlog = rest;
        updates.into_iter().map(|m| m["params"]["update"].clone()).collect()
    }

    /// Session update notifications received so far (whole `params`: `sessionId` and
    /// `update`), removed from the backlog.
    pub fn session_updates(&mut self) -> Vec<Value> {
        let (updates, rest): (Vec<Value>, Vec<Value>) = std::mem::take(&mut self.backlog)
            .into_iter()
            .partition(|m| m.get("method").and_then(Value::as_str) == Some("session/update"));
        self.backlog = rest;
        updates.into_iter().map(|m| m["params"].clone()).collect()
    }

    pub async fn initialize(&mut self) -> Value {
        self.initialize_with(json!({"fs": {"readTextFile": false, "writeTextFile": false}, "terminal": false}))
            .await
    }

    pub async fn initialize_with(&mut self, capabilities: Value) -> Value {
        let params = json!({"protocolVersion": 1, "clientCapabilities": capabilities, "clientInfo": {"name": "test-editor", "version": "1.0"}});
        let response = self.request("initialize", params).await;
        assert!(response.get("result").is_some(), "initialize failed: {response}");
        response
    }

    pub async fn new_session(&mut self, cwd: &Path) -> String {
        let response = self.request("session/new", json!({"cwd": cwd, "mcpServers": []})).await;
        let id = response["result"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("session/new failed: {response}"))
            .to_string();
        // The commands update follows the response; consume it so turns start clean.
        self.wait(|m| m["params"]["update"]["sessionUpdate"] == "available_commands_update")
            .await;
        id
    }

    /// Runs a text prompt to completion; returns (response, updates sent during it).
    pub async fn prompt(&mut self, session: &str, text: &str) -> (Value, Vec<Value>) {
        self.notifications();
        let response = self
            .request(
                "session/prompt",
                json!({"sessionId": session, "prompt": [{"type": "text", "text": text}]}),
            )
            .await;
        (response, self.notifications())
    }

    /// Closes stdin and waits for the process to exit; returns its exit code.
    pub async fn shutdown(mut self) -> Option<i32> {
        self.stdin.take();
        let status = tokio::time::timeout(TIMEOUT, self.child.wait())
            .await
            .expect("agent did not exit after stdin closed")
            .unwrap();
        status.code()
    }

    /// Shuts down, then returns the whole stderr once it reached end-of-file (every log line
    /// the process wrote).
    pub async fn shutdown_with_stderr(mut self) -> String {
        let stderr = self.stderr.clone();
        let reader = self.stderr_reader.take();
        self.shutdown().await;
        if let Some(reader) = reader {
            let _ = tokio::time::timeout(TIMEOUT, reader).await;
        }
        stderr.lock().unwrap().clone()
    }

    pub fn kill(&mut self) {
        let _ = self.child.start_kill();
    }
}
