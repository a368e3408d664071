//! The MCP servers of one session, kept healthy: each server connects on its own task and its
//! tools join the session as soon as it is ready. `McpHealth::check` — run by a turn before
//! every model call, and by `prepare_turn` before every turn — finds servers that died
//! (transport closed, child exited, a call that lost its transport, a failed liveness ping of a
//! network server), removes their tools at once and reconnects them with backoff in the
//! background; `prepare_turn` also waits a bounded time for servers still (re)connecting.
//! Everything the user should know comes back as notices; nothing here fails a session.
//! `close` ends every server whatever its state: connections are closed, and attempts still
//! starting or initialising are abandoned — which kills their child — before it returns.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::client::{self, ServerConnection};
use super::health::{self, is_dead};
use super::{McpOptions, McpServerConfig, McpTool, tool};
use crate::runtime::Tool;
use crate::sync::lock;

/// Waits between reconnect attempts of a server that died (the first is immediate).
const RECONNECT_BACKOFF: &[Duration] = &[
    Duration::ZERO,
    Duration::from_millis(500),
    Duration::from_secs(1),
    Duration::from_secs(2),
    Duration::from_secs(4),
];

/// Receives the session's complete MCP tool list after every change.
pub type ToolsCallback = Box<dyn Fn(Vec<Arc<dyn Tool>>) + Send + Sync>;
/// Receives notices raised outside a turn (a server that failed to connect).
pub type NoticeCallback = Box<dyn Fn(String) + Send + Sync>;

/// A session's MCP servers. Cheap to share; `close` ends them all.
pub struct McpSupervisor {
    shared: Arc<Shared>,
}

struct Shared {
    cwd: PathBuf,
    options: McpOptions,
    entries: Mutex<Vec<Entry>>,
    /// Bumped after every state change, so waiters wake.
    changed: watch::Sender<u64>,
    on_tools: ToolsCallback,
    on_notice: NoticeCallback,
    closed: AtomicBool,
    /// Cancelled by `close`: connection attempts in flight give up (dropping their child).
    closing: CancellationToken,
    /// How many connection tasks are running; `close` waits for none.
    connecting: watch::Sender<usize>,
    /// Bumped after every tool list handed to `on_tools`, so a running turn knows to re-read.
    tools_generation: AtomicU64,
}

struct Entry {
    config: McpServerConfig,
    status: Status,
    /// Announced as stopped and not yet announced as back.
    announced_down: bool,
}

/// A cheap handle on a session's MCP servers for a running turn (see [`McpHealth::check`]).
#[derive(Clone)]
pub struct McpHealth {
    shared: Arc<Shared>,
}

enum Status {
    Connecting,
    Up {
        // Boxed: a connection is large and most entries are small states.
        connection: Box<ServerConnection>,
        tools: Vec<Arc<dyn Tool>>,
        /// Set by a tool whose call lost the transport.
        lost: Arc<AtomicBool>,
    },
    Failed,
}

impl McpSupervisor {
    /// Starts connecting `servers` (later entries win a name clash) in the background.
    pub fn start(
        servers: Vec<McpServerConfig>,
        cwd: &Path,
        options: McpOptions,
        on_tools: ToolsCallback,
        on_notice: NoticeCallback,
    ) -> McpSupervisor {
        let mut unique: Vec<McpServerConfig> = Vec::with_capacity(servers.len());
        for server in servers {
            unique.retain(|s| s.name() != server.name());
            unique.push(server);
        }
        let names: Vec<String> = unique.iter().map(|s| s.name().to_string()).collect();
        let shared = Arc::new(Shared {
            cwd: cwd.to_path_buf(),
            options,
            entries: Mutex::new(
                unique
                    .into_iter()
                    .map(|config| Entry {
                        config,
                        status: Status::Connecting,
                        announced_down: false,
                    })
                    .collect(),
            ),
            changed: watch::channel(0).0,
            on_tools,
            on_notice,
            closed: AtomicBool::new(false),
            closing: CancellationToken::new(),
            connecting: watch::channel(0).0,
            tools_generation: AtomicU64::new(0),
        });
        for name in names {
            spawn_connect(&shared, name, &RECONNECT_BACKOFF[..1], false);
        }
        McpSupervisor { shared }
    }

    /// Before a turn: announces and reconnects dead servers, then waits up to `wait` for servers
    /// still (re)connecting. Returns the notices for the user.
    pub async fn prepare_turn(&self, wait: Duration) -> Vec<String> {
        let mut notices = self.health().check();
        let mut changes = self.shared.changed.subscribe();
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let pending = self.shared.names_where(|s| matches!(s, Status::Connecting));
            if pending.is_empty() {
                break;
            }
            if tokio::time::timeout_at(deadline, changes.changed()).await.is_err() {
                notices.push(format!(
                    "Still connecting to MCP server{} {}; {} tools join when ready",
                    if pending.len() == 1 { "" } else { "s" },
                    quoted(&pending),
                    if pending.len() == 1 { "its" } else { "their" },
                ));
                break;
            }
        }
        for entry in self.shared.entries().iter_mut() {
            if entry.announced_down && matches!(entry.status, Status::Up { .. }) {
                entry.announced_down = false;
                notices.push(format!("MCP server '{}' reconnected", entry.config.name()));
            }
        }
        notices
    }

    /// A handle a running turn keeps to drop dead servers' tools between model calls.
    pub fn health(&self) -> McpHealth {
        McpHealth {
            shared: self.shared.clone(),
        }
    }

    /// The raw names of the servers connected now.
    pub fn connected(&self) -> Vec<String> {
        self.shared.names_where(|s| matches!(s, Status::Up { .. }))
    }

    /// Ends every server: connecting tasks give up at once (their child is killed with the
    /// abandoned attempt) and are waited for; connections are closed.
    pub async fn close(self) {
        self.shared.closed.store(true, Ordering::SeqCst);
        self.shared.closing.cancel();
        let mut connecting = self.shared.connecting.subscribe();
        // Cannot fail: the sender lives in `shared`, which `self` holds.
        let _ = connecting.wait_for(|n| *n == 0).await;
        let connections: Vec<ServerConnection> = self
            .shared
            .entries()
            .iter_mut()
            .filter_map(|e| match std::mem::replace(&mut e.status, Status::Failed) {
                Status::Up { connection, .. } => Some(*connection),
                _ => None,
            })
            .collect();
        futures::future::join_all(connections.into_iter().map(ServerConnection::close)).await;
    }
}

impl McpHealth {
    /// Finds servers that died since the last look: removes their tools from the session (the
    /// next model call no longer offers them), starts reconnecting them in the background and
    /// returns one notice per server. Cheap — flags, a transport check and a `waitid` per
    /// server, no round trip — so a turn runs it before every model call.
    pub fn check(&self) -> Vec<String> {
        let dead = self.shared.take_dead();
        if dead.is_empty() {
            return Vec::new();
        }
        self.shared.publish_tools();
        dead.into_iter()
            .map(|name| {
                tracing::warn!(server = %name, "MCP server stopped; reconnecting");
                spawn_connect(&self.shared, name.clone(), RECONNECT_BACKOFF, true);
                format!("MCP server '{name}' stopped; its tools are unavailable until it is reconnected")
            })
            .collect()
    }

    /// Changes whenever the session's MCP tools change (a server connected, died or came back).
    pub fn tools_generation(&self) -> u64 {
        self.shared.tools_generation.load(Ordering::SeqCst)
    }
}

impl Shared {
    fn entries(&self) -> MutexGuard<'_, Vec<Entry>> {
        lock(&self.entries)
    }

    fn names_where(&self, f: impl Fn(&Status) -> bool) -> Vec<String> {
        self.entries()
            .iter()
            .filter(|e| f(&e.status))
            .map(|e| e.config.name().to_string())
            .collect()
    }

    /// Marks servers that died as connecting again (dropping their connection kills what is
    /// left of a stdio child) and returns their names.
    fn take_dead(&self) -> Vec<String> {
        let mut dead = Vec::new();
        for entry in self.entries().iter_mut() {
            if let Status::Up { connection, lost, .. } = &entry.status
                && (lost.load(Ordering::SeqCst) || is_dead(connection))
            {
                entry.status = Status::Connecting;
                entry.announced_down = true;
                dead.push(entry.config.name().to_string());
            }
        }
        if !dead.is_empty() {
            self.changed.send_modify(|n| *n += 1);
        }
        dead
    }

    /// Hands the tools of every connected server, in server order, to the session.
    fn publish_tools(&self) {
        let mut all: Vec<Arc<dyn Tool>> = Vec::new();
        for entry in self.entries().iter() {
            if let Status::Up { tools, .. } = &entry.status {
                for tool in tools {
                    if all.iter().any(|t| t.name() == tool.name()) {
                        tracing::warn!(tool = tool.name(), server = %entry.config.name(), "duplicate MCP tool name; keeping the first");
                        continue;
                    }
                    all.push(tool.clone());
                }
            }
        }
        (self.on_tools)(all);
        // After the hand-over: whoever sees the new number finds the new tools in place.
        self.tools_generation.fetch_add(1, Ordering::SeqCst);
    }

    fn set_status(&self, name: &str, status: Status) {
        if let Some(entry) = self.entries().iter_mut().find(|e| e.config.name() == name) {
            if matches!(status, Status::Failed) {
                // The failure notice says it all; "reconnected" will not follow.
                entry.announced_down = false;
            }
            entry.status = status;
        }
        self.changed.send_modify(|n| *n += 1);
    }
}

/// Runs `connect_task` counted in `connecting`, abandoned when the supervisor closes.
fn spawn_connect(shared: &Arc<Shared>, name: String, backoff: &'static [Duration], reconnect: bool) {
    /// Counts the task out however it ends.
    struct Counted(Arc<Shared>);
    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.connecting.send_modify(|n| *n -= 1);
        }
    }
    shared.connecting.send_modify(|n| *n += 1);
    let counted = Counted(shared.clone());
    tokio::spawn(async move {
        let shared = counted.0.clone();
        tokio::select! {
            // Dropping an attempt in flight drops its child, which kills its process group.
            () = shared.closing.cancelled() => {}
            () = connect_task(shared.clone(), name, backoff, reconnect) => {}
        }
        drop(counted);
    });
}

/// Connects `name`, trying once per backoff step; its tools join the session when it is up.
async fn connect_task(shared: Arc<Shared>, name: String, backoff: &'static [Duration], reconnect: bool) {
    let mut last_error = String::new();
    for delay in backoff {
        if !delay.is_zero() {
            // Real backoff between attempts against a server that keeps failing.
            tokio::time::sleep(*delay).await;
        }
        if shared.closed.load(Ordering::SeqCst) {
            return;
        }
        let Some(config) = shared
            .entries()
            .iter()
            .find(|e| e.config.name() == name)
            .map(|e| e.config.clone())
        else {
            return;
        };
        match client::connect(&config, &shared.cwd, shared.options.connect_timeout).await {
            Ok(connection) => {
                if shared.closed.load(Ordering::SeqCst) {
                    connection.close().await;
                    return;
                }
                tracing::info!(server = %name, tools = connection.tools.len(), reconnect, "MCP server connected");
                let lost = Arc::new(AtomicBool::new(false));
                let peer = connection.service.peer().clone();
                if connection.child.is_none()
                    && let Some(interval) = shared.options.ping_interval
                {
                    tokio::spawn(health::ping_until_lost(
                        name.clone(),
                        peer.clone(),
                        interval,
                        lost.clone(),
                    ));
                }
                let tools = connection
                    .tools
                    .iter()
                    .map(|remote| {
                        let tool = McpTool::new(&name, remote, peer.clone(), shared.options.call_timeout)
                            .reporting_loss_to(lost.clone());
                        tool::into_dyn(tool)
                    })
                    .collect();
                shared.set_status(
                    &name,
                    Status::Up {
                        connection: Box::new(connection),
                        tools,
                        lost,
                    },
                );
                shared.publish_tools();
                return;
            }
            Err(e) => {
                tracing::warn!(server = %name, reconnect, "MCP server could not be connected: {e}");
                last_error = e.to_string();
            }
        }
    }
    shared.set_status(&name, Status::Failed);
    let failure = super::McpFailure {
        server: name,
        message: last_error,
    };
    (shared.on_notice)(failure.to_string());
}

fn quoted(names: &[String]) -> String {
    names.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", ")
}
