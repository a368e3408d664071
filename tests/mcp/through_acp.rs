//! MCP end to end through the real binary: the editor passes a stdio server in `session/new`,
//! its tools reach the model as `mcp_<server>_<tool>`, a call round-trips with a card, and a
//! server that cannot start is reported without failing the session.

use serde_json::json;

use super::server_binary;
use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome, agent_text, chunk_text};

#[tokio::test]
async fn an_editor_mcp_server_becomes_tools_the_model_can_call() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    let init = agent.initialize().await;
    assert_eq!(
        init["result"]["agentCapabilities"]["mcpCapabilities"],
        json!({"http": true, "sse": true})
    );
    let servers = json!([
        {"name": "tester", "command": server_binary(), "args": [], "env": []},
        {"name": "broken", "command": "/nonexistent/mcp-server", "args": [], "env": []}
    ]);
    let response = agent
        .request("session/new", json!({"cwd": home.cwd(), "mcpServers": servers}))
        .await;
    let session = response["result"]["sessionId"]
        .as_str()
        .expect("session/new succeeds despite a broken server")
        .to_string();
    agent
        .wait(|m| m["params"]["update"]["sessionUpdate"] == "available_commands_update")
        .await;
    mock.push(mock_llm::tool_calls(&[(
        "m1",
        "mcp_tester_echo",
        json!({"text": "hi there"}),
    )]));
    mock.push(mock_llm::text(&["echoed"]));
    let (response, updates) = agent.prompt(&session, "use the echo tool").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "echoed");
    let first = &mock.requests()[0];
    let names: Vec<_> = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap().to_string())
        .collect();
    assert!(names.contains(&"mcp_tester_echo".to_string()), "{names:?}");
    let start = updates
        .iter()
        .find(|u| u["sessionUpdate"] == "tool_call" && u["toolCallId"] == "m1")
        .unwrap();
    assert_eq!(start["rawInput"], json!({"text": "hi there"}));
    let done = updates.iter().rev().find(|u| u["toolCallId"] == "m1").unwrap();
    assert_eq!(done["status"], "completed");
    let result_message = mock.requests()[1]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["tool_call_id"] == "m1")
        .cloned()
        .unwrap();
    assert!(result_message["content"].as_str().unwrap().contains("echo: hi there"));
    // The broken server was reported (a thought chunk for a client without notices).
    let all = [updates.clone(), agent.notifications()].concat();
    let text = chunk_text(&all, "agent_thought_chunk") + &agent.stderr.lock().unwrap();
    assert!(text.contains("broken"), "the failure is reported");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn an_image_from_an_mcp_tool_reaches_a_model_that_sees_images() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    std::fs::write(
        home.path().join("config.yaml"),
        format!(
            "model:\n  provider: custom\n  base_url: {}\n  default: openai/gpt-4o\n",
            mock.url()
        ),
    )
    .unwrap();
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let servers = json!([{"name": "tester", "command": server_binary(), "args": [], "env": []}]);
    let response = agent
        .request("session/new", json!({"cwd": home.cwd(), "mcpServers": servers}))
        .await;
    let session = response["result"]["sessionId"].as_str().unwrap().to_string();
    mock.push(mock_llm::tool_calls(&[("m1", "mcp_tester_mixed", json!({}))]));
    mock.push(mock_llm::text(&["a tiny png"]));
    let (response, _) = agent.prompt(&session, "what does the tool show?").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let messages = mock.requests()[1]["messages"].as_array().unwrap().clone();
    let result = messages.iter().position(|m| m["tool_call_id"] == "m1").unwrap();
    assert!(
        messages[result]["content"]
            .as_str()
            .unwrap()
            .contains("[image: image/png, 3 bytes]")
    );
    assert_eq!(
        messages[result + 1]["content"][1],
        json!({"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}),
        "the image follows the tool result"
    );
    assert_eq!(agent.shutdown().await, Some(0));
}
