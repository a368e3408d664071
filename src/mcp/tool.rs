//! One remote MCP tool wrapped as a `runtime::Tool`: its schema comes from `tools/list`, a call is
//! one `tools/call` on the server's connection, bounded by a timeout and the turn's cancel
//! token. Results are shaped like Hermes' MCP handler: `{"result": <text>}` (plus
//! `structuredContent` when the server sent one), `{"error": <text>}` when the server flags an
//! error. Non-text content blocks are summarised in the text rather than dropped.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{Peer, RoleClient};
use serde_json::{Map, Value, json};

use crate::runtime::describe::{self, Presentation, ToolEffect, ToolKind};
use crate::runtime::{Tool, ToolContext, ToolOutput};

use super::naming;
use super::result::format_result;

/// A tool of a connected MCP server.
pub struct McpTool {
    name: &'static str,
    server: String,
    remote_name: String,
    description: String,
    parameters: Value,
    /// The card's kind and title, from the server's annotations.
    kind: ToolKind,
    title: String,
    /// The server says the tool only reads (`readOnlyHint`).
    read_only: bool,
    peer: Peer<RoleClient>,
    call_timeout: Duration,
    /// Set when a call finds the connection gone, so the server is reconnected before the
    /// next turn.
    lost: Option<Arc<std::sync::atomic::AtomicBool>>,
}

impl McpTool {
    /// Wraps `tool` (as listed by the server) for `server`, reached through `peer`.
    pub(crate) fn new(
        server: &str,
        tool: &rmcp::model::Tool,
        peer: Peer<RoleClient>,
        call_timeout: Duration,
    ) -> McpTool {
        let description = tool
            .description
            .as_deref()
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(str::to_string)
            .unwrap_or_else(|| format!("MCP tool {} from {server}", tool.name));
        McpTool {
            name: naming::intern(&naming::tool_name(server, &tool.name)),
            server: server.to_string(),
            remote_name: tool.name.to_string(),
            description,
            parameters: normalize_schema(Value::Object((*tool.input_schema).clone())),
            kind: card_kind(tool.annotations.as_ref()),
            title: card_title(server, tool),
            read_only: tool.annotations.as_ref().and_then(|a| a.read_only_hint) == Some(true),
            peer,
            call_timeout,
            lost: None,
        }
    }

    /// Reports a lost connection through `flag` (see `McpSupervisor`).
    pub(crate) fn reporting_loss_to(mut self, flag: Arc<std::sync::atomic::AtomicBool>) -> McpTool {
        self.lost = Some(flag);
        self
    }

    /// The server's own name for the tool.
    pub fn remote_name(&self) -> &str {
        &self.remote_name
    }

    /// The (raw) name of the server it belongs to.
    pub fn server(&self) -> &str {
        &self.server
    }

    async fn call(&self, ctx: &ToolContext, args: Value) -> ToolOutput {
        let arguments = match args {
            Value::Object(map) => map,
            Value::Null => Map::new(),
            other => return ToolOutput::error(format!("Invalid tool arguments: expected a JSON object, got {other}")),
        };
        if ctx.cancel.is_cancelled() {
            return interrupted();
        }
        let params = CallToolRequestParams::new(self.remote_name.clone()).with_arguments(arguments);
        // Dropping the request future (cancel or timeout) makes rmcp send
        // `notifications/cancelled` for it, so the server can stop working too.
        let call = tokio::time::timeout(self.call_timeout, self.peer.call_tool_once(params));
        let outcome = tokio::select! {
            biased;
            () = ctx.cancel.cancelled() => return interrupted(),
            outcome = call => outcome,
        };
        match outcome {
            Err(_) => ToolOutput::error(format!(
                "MCP tool '{}' on server '{}' timed out after {}s",
                self.remote_name,
                self.server,
                self.call_timeout.as_secs()
            )),
            Ok(Err(e @ (rmcp::ServiceError::TransportClosed | rmcp::ServiceError::TransportSend(_)))) => {
                if let Some(lost) = &self.lost {
                    lost.store(true, std::sync::atomic::Ordering::SeqCst);
                }
                ToolOutput::error(format!(
                    "MCP server '{}' stopped ({e}); it will be reconnected before the next turn",
                    self.server
                ))
            }
            Ok(Err(e)) => ToolOutput::error(format!(
                "MCP tool '{}' on server '{}' failed: {e}",
                self.remote_name, self.server
            )),
            Ok(Ok(rmcp::model::CallToolResponse::Complete(result))) => match serde_json::to_value(&result) {
                Ok(value) => format_result(&value),
                Err(e) => ToolOutput::error(format!("MCP tool result could not be read: {e}")),
            },
            Ok(Ok(_)) => ToolOutput::error(format!(
                "MCP tool '{}' on server '{}' asked for user input or started a task, which this agent does not support",
                self.remote_name, self.server
            )),
        }
    }
}

impl Tool for McpTool {
    fn name(&self) -> &'static str {
        self.name
    }

    fn description(&self) -> String {
        self.description.clone()
    }

    fn parameters(&self) -> Value {
        self.parameters.clone()
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(self.call(ctx, args))
    }

    /// The server's read-only hint travels with the effect, but it is the server's claim, not
    /// something we can check: read-only mode keeps refusing every MCP call (fails closed);
    /// plan mode lets the ones that claim to only read run (see `ToolEffect::refusal`).
    fn effect(&self, _args: &Value) -> ToolEffect {
        ToolEffect::External {
            read_only: self.read_only,
        }
    }

    fn present(&self, args: &Value, cwd: &Path) -> Presentation {
        Presentation {
            kind: self.kind,
            title: self.title.clone(),
            ..describe::generic_presentation(self.name, args, cwd)
        }
    }
}

/// The card kind from the server's hints. Read-only tools read (or fetch, when they reach the
/// outside world); a tool that says it may destroy shows the delete icon, so the user sees the
/// risk; one that only says it writes is an edit; without hints we know nothing (other).
fn card_kind(hints: Option<&rmcp::model::ToolAnnotations>) -> ToolKind {
    let Some(hints) = hints else { return ToolKind::Other };
    match (hints.read_only_hint, hints.destructive_hint, hints.open_world_hint) {
        (Some(true), _, Some(true)) => ToolKind::Fetch,
        (Some(true), _, _) => ToolKind::Read,
        (_, Some(true), _) => ToolKind::Delete,
        (Some(false), _, _) => ToolKind::Edit,
        _ => ToolKind::Other,
    }
}

/// `title (server)` (no `name:` prefix, which clients cut at): the human title, else the name.
fn card_title(server: &str, tool: &rmcp::model::Tool) -> String {
    let title = tool
        .annotations
        .as_ref()
        .and_then(|a| a.title.as_deref())
        .or(tool.title.as_deref())
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .unwrap_or(&tool.name);
    format!("{title} ({server})")
}

/// Shared handles are what the registry stores.
pub(crate) fn into_dyn(tool: McpTool) -> Arc<dyn Tool> {
    Arc::new(tool)
}

fn interrupted() -> ToolOutput {
    ToolOutput::json_error(json!({"error": "Interrupted", "interrupted": true}))
}

/// Makes a server's `inputSchema` acceptable as function parameters: always an object schema
/// with `properties` (Hermes' `_normalize_mcp_input_schema`, plus a missing `type` filled in).
pub fn normalize_schema(schema: Value) -> Value {
    let Value::Object(mut map) = schema else {
        return json!({"type": "object", "properties": {}});
    };
    if !map.contains_key("type") {
        map.insert("type".into(), json!("object"));
    }
    if map.get("type") == Some(&json!("object")) && !map.contains_key("properties") {
        map.insert("properties".into(), json!({}));
    }
    Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemas_become_object_schemas() {
        assert_eq!(
            normalize_schema(json!(null)),
            json!({"type": "object", "properties": {}})
        );
        assert_eq!(normalize_schema(json!({})), json!({"type": "object", "properties": {}}));
        let full = json!({"type": "object", "properties": {"a": {"type": "number"}}, "required": ["a"]});
        assert_eq!(normalize_schema(full.clone()), full);
    }

    #[test]
    fn cards_come_from_the_servers_hints() {
        use rmcp::model::ToolAnnotations as Hints;
        assert_eq!(card_kind(None), ToolKind::Other);
        assert_eq!(card_kind(Some(&Hints::new().read_only(true))), ToolKind::Read);
        assert_eq!(
            card_kind(Some(&Hints::new().read_only(true).open_world(true))),
            ToolKind::Fetch
        );
        assert_eq!(
            card_kind(Some(&Hints::new().read_only(false).destructive(true))),
            ToolKind::Delete
        );
        assert_eq!(
            card_kind(Some(&Hints::new().read_only(false).destructive(false))),
            ToolKind::Edit
        );
        let schema = std::sync::Arc::new(Map::new());
        let plain = rmcp::model::Tool::new("get_docs", "d", schema.clone());
        assert_eq!(card_title("ctx7", &plain), "get_docs (ctx7)");
        let titled = plain.clone().with_title("Get docs");
        assert_eq!(card_title("ctx7", &titled), "Get docs (ctx7)");
        let annotated = titled.with_annotations(Hints::with_title("Fetch library docs"));
        assert_eq!(card_title("ctx7", &annotated), "Fetch library docs (ctx7)");
    }
}
