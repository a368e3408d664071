//! MCP servers for a session: config.yaml's and the editor's, connected in the background.

use std::sync::Arc;

use super::SessionManager;
use crate::session::Session;

impl SessionManager {
    /// Connects the session's MCP servers (config.yaml's, then the editor's, which win on a
    /// name clash) in the background. Prompts wait for it; failures are reported through
    /// `on_failure` and never fail the session. Replaces connections from an earlier call.
    pub fn connect_mcp(
        &self,
        session: &Arc<Session>,
        editor_servers: Vec<crate::mcp::McpServerConfig>,
        on_failure: impl FnOnce(String) + Send + 'static,
    ) {
        let env = self.config.env.clone();
        let mut servers: Vec<_> = self
            .config
            .file
            .mcp_servers
            .iter()
            .map(|s| s.expand_env(|k| env.get(k).map(str::to_string)))
            .collect();
        servers.extend(editor_servers);
        if servers.is_empty() {
            return;
        }
        let Ok(mut slot) = session.mcp.clone().try_lock_owned() else {
            tracing::warn!(session = %session.id, "MCP servers are still connecting; ignoring the new list");
            return;
        };
        let (session, builtin) = (session.clone(), self.tools.clone());
        tokio::spawn(async move {
            if let Some(old) = slot.take() {
                old.close().await;
            }
            let cwd = session.settings().cwd;
            let connections = crate::mcp::connect_all(servers, &cwd).await;
            let mut registry = builtin;
            registry.extend(connections.tools());
            tracing::info!(session = %session.id, servers = ?connections.server_names(), tools = registry.len(), "MCP servers connected");
            session.set_tools(registry);
            if let Some(notice) = connections.failure_notice() {
                tracing::warn!(session = %session.id, "{notice}");
                on_failure(notice);
            }
            *slot = Some(connections);
        });
    }
}
