//! The editor's `mcpServers` (ACP types) → our MCP server configs, and the notice a client sees
//! when a server could not start.

use std::sync::Arc;

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    ContentBlock, ContentChunk, McpServer, Notice, NoticeSeverity, SessionId, SessionNotification, SessionUpdate,
};

use super::state::AcpState;
use crate::mcp::McpServerConfig;
use crate::session::Session;

/// Converts the editor's server list (stdio, HTTP, SSE; anything else is skipped).
pub fn servers(list: &[McpServer]) -> Vec<McpServerConfig> {
    list.iter()
        .filter_map(|server| match server {
            McpServer::Stdio(s) => Some(McpServerConfig::Stdio {
                name: s.name.clone(),
                command: s.command.display().to_string(),
                args: s.args.clone(),
                env: s.env.iter().map(|e| (e.name.clone(), e.value.clone())).collect(),
            }),
            McpServer::Http(h) => Some(McpServerConfig::Http {
                name: h.name.clone(),
                url: h.url.clone(),
                headers: h.headers.iter().map(|h| (h.name.clone(), h.value.clone())).collect(),
            }),
            McpServer::Sse(h) => Some(McpServerConfig::Sse {
                name: h.name.clone(),
                url: h.url.clone(),
                headers: h.headers.iter().map(|h| (h.name.clone(), h.value.clone())).collect(),
            }),
            _ => {
                tracing::info!("skipping an MCP server of a transport this agent does not support");
                None
            }
        })
        .collect()
}

/// Connects the session's servers in the background; a failure becomes a `notice` (or, for
/// clients without notices, a short thought chunk) and never fails the request.
pub fn connect(state: &AcpState, session: &Arc<Session>, list: &[McpServer], cx: &ConnectionTo<Client>) {
    let cx = cx.clone();
    let session_id = SessionId::new(session.id.clone());
    let notices = state.supports_notices();
    state.manager.connect_mcp(session, servers(list), move |message| {
        let update = if notices {
            SessionUpdate::Notice(Notice::new(NoticeSeverity::Warning, message))
        } else {
            SessionUpdate::AgentThoughtChunk(ContentChunk::new(ContentBlock::from(format!("{message}\n"))))
        };
        let _ = cx.send_notification(SessionNotification::new(session_id.clone(), update));
    });
}
