//! What each client shows, and the behaviours clients depend on (issue 20): exact
//! `session/request_permission` and `tool_call` JSON for a command, an edit, a V4A patch, an
//! MCP call and a subagent's call; one option per kind; usage after a cancel; `/compact` now;
//! keepalives during a silent command; MCP servers ended by `session/close`; new files through
//! an editor's fs; JetBrains' handshake and one process across chats.

mod cards;
mod compact;
mod delegated;
mod editor_fs;
mod jetbrains;
// Unix only: `sleep` as the silent command.
#[cfg(unix)]
mod keepalive;
// Unix only: finds the server's process through /proc.
#[cfg(unix)]
mod mcp_close;
mod options;
mod usage;

use std::path::Path;

use serde_json::Value;

use crate::support::{AgentProcess, TestHome};

/// `value` with the session id and the project folder replaced, for snapshots.
fn shown(value: &Value, session: &str, cwd: &Path) -> Value {
    let text = value
        .to_string()
        .replace(session, "<session>")
        .replace(&cwd.display().to_string(), "<cwd>");
    serde_json::from_str(&text).unwrap()
}

/// The permission requests the agent sent so far (their `params`).
fn permission_requests(agent: &AgentProcess) -> Vec<Value> {
    (agent.agent_requests.iter())
        .filter(|r| r["method"] == "session/request_permission")
        .map(|r| r["params"].clone())
        .collect()
}

/// The `tool_call` update that announced `call_id`.
fn announced<'a>(updates: &'a [Value], call_id: &str) -> &'a Value {
    updates
        .iter()
        .find(|u| u["sessionUpdate"] == "tool_call" && u["toolCallId"] == call_id)
        .unwrap_or_else(|| panic!("no tool_call for {call_id} in {updates:#?}"))
}

/// A new session in the test's project with the editor's `servers`, its commands consumed.
async fn started(home: &TestHome, servers: Value) -> (AgentProcess, String) {
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let response = agent
        .request(
            "session/new",
            serde_json::json!({"cwd": home.cwd(), "mcpServers": servers}),
        )
        .await;
    let session = response["result"]["sessionId"].as_str().unwrap().to_string();
    agent
        .wait(|m| m["params"]["update"]["sessionUpdate"] == "available_commands_update")
        .await;
    (agent, session)
}
