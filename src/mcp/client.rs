//! Connecting one MCP server with rmcp: a stdio child (started in the session cwd, in its own
//! process group, with a filtered environment, its stderr forwarded to our log), a
//! streamable-HTTP endpoint or a legacy SSE one; then `initialize` and `tools/list`, all under one deadline. The
//! resulting `ServerConnection` owns the rmcp service and, for stdio, the child's process group,
//! which it kills on close or drop so no server outlives its session.

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::header::{HeaderName, HeaderValue};
use rmcp::ServiceExt;
use rmcp::model::{ClientCapabilities, ClientConfig, Implementation, ProtocolVersion};
use rmcp::service::{ClientInitializeError, RoleClient, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{IntoTransport, StreamableHttpClientTransport, TokioChildProcess};
use tokio::io::{AsyncBufReadExt, BufReader};

use super::McpServerConfig;
use super::sse::SseTransport;
use crate::sync::lock;

/// How many trailing stderr lines of a stdio server are kept for failure messages.
const STDERR_TAIL_LINES: usize = 20;
/// How long `close` lets a server shut down gracefully before its process group is killed.
const CLOSE_GRACE: Duration = Duration::from_secs(3);
/// Variables of our environment a stdio server inherits (Hermes passes only these, so API keys
/// never leak to third-party servers); `LC_*` and `XDG_*` are passed too. The entry's own `env`
/// comes on top.
const SAFE_ENV_KEYS: &[&str] = &[
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TERM", "SHELL", "TMPDIR", "TZ",
];

/// Why a server could not be connected.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error("failed to start `{command}`: {source}")]
    Spawn { command: String, source: std::io::Error },
    #[error("invalid header `{0}`")]
    Header(String),
    #[error("{error}{stderr}")]
    Initialize { error: String, stderr: String },
    #[error("listing tools failed: {0}")]
    ListTools(String),
    #[error("timed out after {0}s (start, initialize and tools/list)")]
    Timeout(u64),
}

/// A live connection to one server.
pub(crate) struct ServerConnection {
    pub name: String,
    pub service: RunningService<RoleClient, ClientConfig>,
    pub tools: Vec<rmcp::model::Tool>,
    pub child: Option<ChildGroup>,
}

impl ServerConnection {
    /// Closes the session (stdin EOF / HTTP DELETE), waits briefly, then kills what is left.
    pub async fn close(mut self) {
        match self.service.close_with_timeout(CLOSE_GRACE).await {
            Ok(Some(_)) => tracing::debug!(server = %self.name, "MCP server closed"),
            Ok(None) => tracing::debug!(server = %self.name, "MCP server slow to close; killing it"),
            Err(e) => tracing::debug!(server = %self.name, error = %e, "MCP service task failed while closing"),
        }
        if let Some(child) = self.child.take() {
            child.kill();
        }
    }
}

/// The process group of a stdio server (its id is the child's pid). Killed on drop, so a
/// connection that is dropped without `close` still takes its server and the server's own
/// children (`npx` → `node`) down.
pub(crate) struct ChildGroup {
    pid: u32,
}

impl ChildGroup {
    pub fn pid(&self) -> u32 {
        self.pid
    }

    fn kill(self) {
        // Drop does the work; consuming makes the intent explicit at call sites.
        drop(self);
    }
}

impl Drop for ChildGroup {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Ok(pgid) = libc::pid_t::try_from(self.pid) {
            // SAFETY: killpg only sends a signal; a group that no longer exists yields ESRCH.
            unsafe {
                libc::killpg(pgid, libc::SIGKILL);
            }
        }
    }
}

/// Connects `server`, giving up after `timeout`.
pub(crate) async fn connect(
    server: &McpServerConfig,
    cwd: &Path,
    timeout: Duration,
) -> Result<ServerConnection, ConnectError> {
    match server {
        McpServerConfig::Stdio {
            name,
            command,
            args,
            env,
        } => connect_stdio(name, command, args, env, cwd, timeout).await,
        McpServerConfig::Http { name, url, headers } => {
            let headers = header_map(headers)?;
            let config = StreamableHttpClientTransportConfig::with_uri(url.to_string()).custom_headers(headers);
            with_deadline(timeout, async {
                ensure_crypto_provider();
                handshake(name, StreamableHttpClientTransport::from_config(config)).await
            })
            .await
        }
        // rmcp 3.9 has no client for the legacy HTTP+SSE transport any more: ours is in `sse`.
        McpServerConfig::Sse { name, url, headers } => {
            let headers = header_map(headers)?.into_iter().collect();
            with_deadline(timeout, async {
                let transport = SseTransport::connect(url, headers)
                    .await
                    .map_err(|e| ConnectError::Initialize {
                        error: format!("open the event stream: {}", error_chain(&e)),
                        stderr: String::new(),
                    })?;
                handshake(name, transport).await
            })
            .await
        }
    }
}

fn client_info() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("hermes-acp", env!("CARGO_PKG_VERSION")),
    )
    // The newest revision that still has the `initialize` handshake every server understands.
    .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
}

async fn connect_stdio(
    name: &str,
    command: &str,
    args: &[String],
    env: &[(String, String)],
    cwd: &Path,
    timeout: Duration,
) -> Result<ServerConnection, ConnectError> {
    let mut cmd = tokio::process::Command::new(command);
    cmd.args(args)
        .current_dir(cwd)
        .env_clear()
        .envs(child_env(std::env::vars(), env))
        .kill_on_drop(true);
    // Its own process group: our terminal's signals do not reach it, and killing the group
    // also ends whatever it spawned.
    #[cfg(unix)]
    cmd.process_group(0);
    let spawn_error = |source| ConnectError::Spawn {
        command: command.to_string(),
        source,
    };
    // stdout carries the server's protocol; it is piped to rmcp and never reaches ours.
    let (transport, stderr) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::piped())
        .spawn()
        .map_err(spawn_error)?;
    let child = transport.id().map(|pid| ChildGroup { pid });
    let tail = Arc::new(Mutex::new(VecDeque::new()));
    let stderr_task = stderr.map(|stderr| tokio::spawn(forward_stderr(name.to_string(), stderr, tail.clone())));

    let handshake = async {
        let service = client_info()
            .serve(transport)
            .await
            .map_err(|e| (init_error_message(&e), true))?;
        match service.peer().list_all_tools().await {
            Ok(tools) => Ok((service, tools)),
            Err(e) => Err((e.to_string(), false)),
        }
    };
    let result = tokio::time::timeout(timeout, handshake).await;
    match result {
        Ok(Ok((service, tools))) => Ok(ServerConnection {
            name: name.to_string(),
            service,
            tools,
            child,
        }),
        Ok(Err((error, during_init))) => {
            // The child usually died: let its last words reach the tail before quoting it.
            if let Some(task) = stderr_task {
                let _ = tokio::time::timeout(Duration::from_millis(300), task).await;
            }
            drop(child);
            if during_init {
                Err(ConnectError::Initialize {
                    error,
                    stderr: stderr_suffix(&tail),
                })
            } else {
                Err(ConnectError::ListTools(error))
            }
        }
        Err(_) => {
            drop(child);
            Err(ConnectError::Timeout(timeout.as_secs()))
        }
    }
}

/// `initialize` and `tools/list` over a network transport.
async fn handshake<T, E, A>(name: &str, transport: T) -> Result<ServerConnection, ConnectError>
where
    T: IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let service = client_info()
        .serve(transport)
        .await
        .map_err(|e| ConnectError::Initialize {
            error: init_error_message(&e),
            stderr: String::new(),
        })?;
    let tools = service
        .peer()
        .list_all_tools()
        .await
        .map_err(|e| ConnectError::ListTools(e.to_string()))?;
    Ok(ServerConnection {
        name: name.to_string(),
        service,
        tools,
        child: None,
    })
}

async fn with_deadline(
    timeout: Duration,
    connect: impl Future<Output = Result<ServerConnection, ConnectError>>,
) -> Result<ServerConnection, ConnectError> {
    tokio::time::timeout(timeout, connect)
        .await
        .unwrap_or(Err(ConnectError::Timeout(timeout.as_secs())))
}

fn header_map(headers: &[(String, String)]) -> Result<HashMap<HeaderName, HeaderValue>, ConnectError> {
    let mut map = HashMap::new();
    for (key, value) in headers {
        let header_name = HeaderName::from_bytes(key.as_bytes()).map_err(|_| ConnectError::Header(key.clone()))?;
        let header_value = HeaderValue::from_str(value).map_err(|_| ConnectError::Header(key.clone()))?;
        map.insert(header_name, header_value);
    }
    Ok(map)
}

/// A readable reason for a failed handshake: rmcp's own text names transport types; ours says
/// what was being done and every cause (a refused connection hides two levels down).
fn init_error_message(error: &ClientInitializeError) -> String {
    match error {
        ClientInitializeError::TransportError { error, context } => {
            format!("{context}: {}", error_chain(error.error.as_ref()))
        }
        other => error_chain(other),
    }
}

pub(crate) fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// rmcp's HTTP client is built on reqwest with rustls but no crypto provider of its own; use
/// ring, which our other HTTP client already links. Installing twice is harmless.
fn ensure_crypto_provider() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}

/// The environment of a stdio server: the safe part of `ours`, then `extra` on top.
pub fn child_env(
    ours: impl IntoIterator<Item = (String, String)>,
    extra: &[(String, String)],
) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = ours
        .into_iter()
        .filter(|(k, _)| SAFE_ENV_KEYS.contains(&k.as_str()) || k.starts_with("LC_") || k.starts_with("XDG_"))
        .collect();
    for (key, value) in extra {
        env.retain(|(k, _)| k != key);
        env.push((key.clone(), value.clone()));
    }
    env
}

/// Logs each stderr line of a server and keeps the last few for failure messages.
async fn forward_stderr(server: String, stderr: tokio::process::ChildStderr, tail: Arc<Mutex<VecDeque<String>>>) {
    let mut lines = BufReader::new(stderr).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let line: String = line.chars().take(2000).collect();
        tracing::debug!(target: "hermes_acp::mcp::stderr", server = %server, "{line}");
        let mut tail = lock(&tail);
        if tail.len() == STDERR_TAIL_LINES {
            tail.pop_front();
        }
        tail.push_back(line);
    }
}

fn stderr_suffix(tail: &Mutex<VecDeque<String>>) -> String {
    let tail = lock(tail);
    let lines: Vec<&str> = tail
        .iter()
        .map(String::as_str)
        .filter(|l| !l.trim().is_empty())
        .collect();
    if lines.is_empty() {
        String::new()
    } else {
        format!(" (stderr: {})", lines.join(" | "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn child_env_keeps_only_safe_variables_and_adds_the_entry_env() {
        let ours = [
            ("PATH", "/bin"),
            ("OPENAI_API_KEY", "sk-secret"),
            ("LC_ALL", "C"),
            ("XDG_CONFIG_HOME", "/c"),
            ("HOME", "/h"),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()));
        let extra = [
            ("HOME".to_string(), "/other".to_string()),
            ("TOKEN".to_string(), "t".to_string()),
        ];
        let mut env = child_env(ours, &extra);
        env.sort();
        let expected = [
            ("HOME", "/other"),
            ("LC_ALL", "C"),
            ("PATH", "/bin"),
            ("TOKEN", "t"),
            ("XDG_CONFIG_HOME", "/c"),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()));
        assert_eq!(env, expected);
    }
}
