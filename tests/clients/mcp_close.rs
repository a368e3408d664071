//! `session/close` ends every child the session started, whatever state it is in: an MCP
//! server that reads stdin and never answers `initialize` does not outlive the session (it
//! used to live on until the 30 s connect timeout).

use serde_json::json;

use crate::mcp::{poll_until, processes_in, server_binary, wait_none_in};
use crate::support::mock_llm::MockLlm;
use crate::support::{AgentProcess, TestHome};

#[tokio::test]
async fn close_ends_a_server_that_never_finished_initialising() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let servers = json!([{"name": "hanger", "command": server_binary(), "args": ["--hang"], "env": []}]);
    let response = agent
        .request("session/new", json!({"cwd": home.cwd(), "mcpServers": servers}))
        .await;
    let session = response["result"]["sessionId"].as_str().unwrap().to_string();
    // The server runs in the session's folder (and nothing else of this test does).
    assert!(
        poll_until(|| !processes_in(&home.cwd()).is_empty()).await,
        "the server started"
    );
    let closed = agent.request("session/close", json!({"sessionId": session})).await;
    assert!(closed.get("error").is_none(), "{closed}");
    assert!(
        wait_none_in(&home.cwd()).await,
        "left running after close: {:?}",
        processes_in(&home.cwd())
    );
    assert_eq!(agent.shutdown().await, Some(0));
}
