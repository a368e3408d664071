//! MCP servers a session uses: the ones the editor passes in `mcpServers` and the ones in
//! `config.yaml`'s `mcp_servers`. `connect_all` connects them concurrently with the official
//! SDK (`rmcp`), each under a deadline; a server that fails is recorded as an `McpFailure`, never
//! an error, so a broken server cannot fail `session/new`. `McpConnections::tools` exposes every
//! remote tool as a `runtime::Tool` named `mcp_<server>_<tool>`; `close` ends the connections and
//! kills stdio children (dropping the connections kills them too).
//!
//! This module knows nothing of ACP: the protocol layer converts its `McpServer` values into
//! `McpServerConfig`.

mod client;
pub mod config;
mod health;
pub mod naming;
pub mod result;
mod sse;
mod supervisor;
pub mod tool;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::runtime::Tool;

pub use client::{ConnectError, child_env};
pub use config::{McpServerConfig, parse_servers};
pub use supervisor::{McpHealth, McpSupervisor, NoticeCallback, ToolsCallback};
pub use tool::McpTool;

/// Whether `type: "http"` (streamable HTTP) servers are supported: advertise
/// `mcpCapabilities.http`.
pub const SUPPORTS_HTTP: bool = true;
/// Whether `type: "sse"` (legacy HTTP+SSE) servers are supported: advertise
/// `mcpCapabilities.sse`. rmcp 3.9 dropped that client, so `sse.rs` implements it.
pub const SUPPORTS_SSE: bool = true;

/// Connection limits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct McpOptions {
    /// Start + `initialize` + `tools/list`, per server (servers connect concurrently).
    pub connect_timeout: Duration,
    /// One `tools/call`.
    pub call_timeout: Duration,
    /// How often a supervised network server (HTTP, SSE) is pinged to notice that it went
    /// away; `None` turns the ping off. Stdio servers need none: their exit is seen directly.
    pub ping_interval: Option<Duration>,
}

impl Default for McpOptions {
    fn default() -> McpOptions {
        McpOptions {
            // `npx -y` may download a package on first use: more than a few seconds.
            connect_timeout: Duration::from_secs(30),
            // Hermes' default MCP tool timeout.
            call_timeout: Duration::from_secs(120),
            // Rare enough to cost nothing; a dead server is also found by the first failed call.
            ping_interval: Some(Duration::from_secs(30)),
        }
    }
}

/// A server that could not be connected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpFailure {
    /// The server's raw name.
    pub server: String,
    pub message: String,
}

impl std::fmt::Display for McpFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MCP server '{}' is unavailable: {}", self.server, self.message)
    }
}

/// The connected servers of one session, and the ones that failed.
#[derive(Default)]
pub struct McpConnections {
    servers: Vec<client::ServerConnection>,
    tools: Vec<Arc<dyn Tool>>,
    failures: Vec<McpFailure>,
}

/// Connects `servers` concurrently with the default limits. See [`connect_all_with`].
pub async fn connect_all(servers: Vec<McpServerConfig>, cwd: &Path) -> McpConnections {
    connect_all_with(servers, cwd, McpOptions::default()).await
}

/// Connects `servers` concurrently; stdio servers start in `cwd`. When two entries share a name
/// the later one wins (pass `config.yaml` servers first, then the editor's). Never fails: each
/// server that cannot be connected becomes an `McpFailure` (also logged as a warning).
pub async fn connect_all_with(servers: Vec<McpServerConfig>, cwd: &Path, options: McpOptions) -> McpConnections {
    let mut unique: Vec<McpServerConfig> = Vec::with_capacity(servers.len());
    for server in servers {
        unique.retain(|s| s.name() != server.name());
        unique.push(server);
    }
    let attempts = unique
        .iter()
        .map(|server| client::connect(server, cwd, options.connect_timeout));
    let results = futures::future::join_all(attempts).await;

    let mut connections = McpConnections::default();
    for (server, result) in unique.iter().zip(results) {
        match result {
            Ok(connection) => {
                tracing::info!(server = %server.name(), tools = connection.tools.len(), "MCP server connected");
                connections.add(connection, options.call_timeout);
            }
            Err(error) => {
                let failure = McpFailure {
                    server: server.name().to_string(),
                    message: error.to_string(),
                };
                tracing::warn!("{failure}");
                connections.failures.push(failure);
            }
        }
    }
    connections
}

impl McpConnections {
    fn add(&mut self, connection: client::ServerConnection, call_timeout: Duration) {
        let peer = connection.service.peer().clone();
        for remote in &connection.tools {
            let tool = McpTool::new(&connection.name, remote, peer.clone(), call_timeout);
            if self.tools.iter().any(|t| t.name() == tool.name()) {
                tracing::warn!(tool = tool.name(), server = %connection.name, "duplicate MCP tool name; keeping the first");
                continue;
            }
            self.tools.push(tool::into_dyn(tool));
        }
        self.servers.push(connection);
    }

    /// Every tool of every connected server, ready for `ToolRegistry::extend`.
    pub fn tools(&self) -> Vec<Arc<dyn Tool>> {
        self.tools.clone()
    }

    /// The servers that could not be connected.
    pub fn failures(&self) -> &[McpFailure] {
        &self.failures
    }

    /// The raw names of the connected servers, in connection order.
    pub fn server_names(&self) -> Vec<&str> {
        self.servers.iter().map(|s| s.name.as_str()).collect()
    }

    /// Process ids of the stdio servers (diagnostics and tests).
    pub fn child_pids(&self) -> Vec<u32> {
        self.servers
            .iter()
            .filter_map(|s| s.child.as_ref().map(client::ChildGroup::pid))
            .collect()
    }

    /// No server connected and none failed.
    pub fn is_empty(&self) -> bool {
        self.servers.is_empty() && self.failures.is_empty()
    }

    /// A one-paragraph notice for the editor when some servers failed, else `None`.
    pub fn failure_notice(&self) -> Option<String> {
        if self.failures.is_empty() {
            return None;
        }
        let lines: Vec<String> = self.failures.iter().map(ToString::to_string).collect();
        Some(lines.join("\n"))
    }

    /// Closes every connection concurrently (each gets a short grace period) and kills the
    /// stdio servers' process groups. Tools handed out earlier fail cleanly afterwards.
    pub async fn close(mut self) {
        let servers = std::mem::take(&mut self.servers);
        futures::future::join_all(servers.into_iter().map(client::ServerConnection::close)).await;
    }
}

impl std::fmt::Debug for McpConnections {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpConnections")
            .field("servers", &self.server_names())
            .field("tools", &self.tools.iter().map(|t| t.name()).collect::<Vec<_>>())
            .field("failures", &self.failures)
            .finish()
    }
}
