//! MCP servers for a session: config.yaml's and the editor's, supervised in the background
//! (`mcp::McpSupervisor`). Servers join the session's tools when they are ready; before each
//! turn, dead servers are announced and reconnected and the turn waits a bounded time for
//! servers still connecting; during a turn, `SessionLiveTools` keeps the offered tools current
//! between model calls.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::SessionManager;
use crate::agent::Sink;
use crate::agent::events::AgentEvent;
use crate::agent::live_tools::{LiveTools, ToolsRefresh};
use crate::mcp::{McpHealth, McpOptions, McpSupervisor};
use crate::session::Session;

/// How long a prompt waits for servers still connecting (or reconnecting) before it starts
/// without their tools.
pub const MCP_TURN_WAIT: Duration = Duration::from_secs(2);

impl SessionManager {
    /// Starts the session's MCP servers (config.yaml's, then the editor's, which win on a name
    /// clash). Failures are reported through `on_notice` and never fail the session. Replaces
    /// the servers of an earlier call.
    pub fn connect_mcp(
        &self,
        session: &Arc<Session>,
        editor_servers: Vec<crate::mcp::McpServerConfig>,
        on_notice: impl Fn(String) + Send + Sync + 'static,
    ) {
        let env = self.config().env.clone();
        let mut servers: Vec<_> = self
            .config()
            .file
            .mcp_servers
            .iter()
            .map(|s| s.expand_env(|k| env.get(k).map(str::to_string)))
            .collect();
        servers.extend(editor_servers);
        if servers.is_empty() {
            return;
        }
        // The callback must not keep the session alive (the session owns the supervisor).
        let weak = Arc::downgrade(session);
        let builtin = self.offered_tools();
        let on_tools = Box::new(move |tools: Vec<Arc<dyn crate::runtime::Tool>>| {
            if let Some(session) = weak.upgrade() {
                let mut registry = builtin.clone();
                registry.extend(tools);
                tracing::info!(session = %session.id, tools = registry.len(), "MCP tools updated");
                session.set_tools(registry);
            }
        });
        let cwd = session.settings().cwd;
        let supervisor = McpSupervisor::start(servers, &cwd, McpOptions::default(), on_tools, Box::new(on_notice));
        let slot = session.mcp.clone();
        // Stored at once when possible, so a prompt that follows right away waits for it.
        let old = match slot.clone().try_lock_owned() {
            Ok(mut guard) => guard.replace(supervisor),
            Err(_) => {
                let weak = Arc::downgrade(session);
                tokio::spawn(async move {
                    let mut guard = slot.lock().await;
                    // A session closed meanwhile already took what was there: these servers
                    // must not outlive it.
                    if weak.upgrade().is_none_or(|s| s.is_closed()) {
                        drop(guard);
                        supervisor.close().await;
                        return;
                    }
                    if let Some(old) = guard.replace(supervisor) {
                        drop(guard);
                        old.close().await;
                    }
                });
                None
            }
        };
        if let Some(old) = old {
            tokio::spawn(old.close());
        }
    }

    /// Before a turn: dead MCP servers are announced and reconnected, and servers still
    /// connecting get up to [`MCP_TURN_WAIT`]; every notice goes to the turn's events. Returns
    /// the servers' health handle for the turn (`None` without MCP servers).
    pub(super) async fn prepare_mcp(&self, session: &Session, events: &Sink) -> Option<McpHealth> {
        let slot = session.mcp.lock().await;
        let supervisor = slot.as_ref()?;
        for notice in supervisor.prepare_turn(MCP_TURN_WAIT).await {
            events.emit(AgentEvent::Notice(notice));
        }
        Some(supervisor.health())
    }
}

/// A turn's view of its session's tools while MCP servers come and go.
pub(super) struct SessionLiveTools {
    session: Arc<Session>,
    health: McpHealth,
    /// The tool generation the turn has seen.
    seen: AtomicU64,
}

impl SessionLiveTools {
    /// Call before taking the turn's tools from the session: a change that lands in between is
    /// then seen as new (harmless), never missed.
    pub(super) fn new(session: Arc<Session>, health: McpHealth) -> SessionLiveTools {
        let seen = AtomicU64::new(health.tools_generation());
        SessionLiveTools { session, health, seen }
    }
}

impl LiveTools for SessionLiveTools {
    fn refresh(&self) -> ToolsRefresh {
        let notices = self.health.check();
        let generation = self.health.tools_generation();
        let changed = self.seen.swap(generation, Ordering::SeqCst) != generation;
        ToolsRefresh {
            notices,
            tools: changed.then(|| self.session.tools()),
        }
    }
}
