//! MCP health through the real binary: a server that never answers `initialize` does not hold
//! a prompt (bounded wait, notice naming it); a server that dies is announced, reconnected
//! before the next turn and its tools work again; one that cannot come back leaves the tools;
//! one that dies during a tool call leaves the very next model request of that turn.

use serde_json::{Value, json};

use super::{server_binary, wait_gone};
use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome};

fn notices(updates: &[Value]) -> String {
    updates
        .iter()
        .filter(|u| u["sessionUpdate"] == "notice")
        .map(|u| u.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

fn tool_names(request: &Value) -> Vec<String> {
    request["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The content of the tool result for `call_id` in a recorded model request.
fn tool_result(request: &Value, call_id: &str) -> String {
    request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["tool_call_id"] == call_id)
        .map(|m| m["content"].as_str().unwrap_or_default().to_string())
        .unwrap_or_default()
}

async fn start(home: &TestHome, servers: Value) -> (AgentProcess, String) {
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize_with(json!({"session": {"notices": {}}})).await;
    let response = agent
        .request("session/new", json!({"cwd": home.cwd(), "mcpServers": servers}))
        .await;
    let session = response["result"]["sessionId"].as_str().unwrap().to_string();
    agent
        .wait(|m| m["params"]["update"]["sessionUpdate"] == "available_commands_update")
        .await;
    (agent, session)
}

/// Turn one: the model asks the server for its pid.
async fn pid_turn(agent: &mut AgentProcess, mock: &MockLlm, session: &str, call_id: &str) -> (u32, Vec<Value>) {
    mock.push(mock_llm::tool_calls(&[(call_id, "mcp_tester_pid", json!({}))]));
    mock.push(mock_llm::text(&["ok"]));
    let (response, updates) = agent.prompt(session, "which pid?").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let result = tool_result(mock.requests().last().unwrap(), call_id);
    let pid = serde_json::from_str::<Value>(&result).unwrap()["result"]
        .as_str()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no pid in {result}"));
    (pid, updates)
}

fn kill(pid: u32) {
    let status = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

#[tokio::test]
async fn a_server_that_never_initializes_does_not_hold_the_first_prompt() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let servers = json!([
        {"name": "tester", "command": server_binary(), "args": [], "env": []},
        {"name": "hanger", "command": server_binary(), "args": ["--hang"], "env": []}
    ]);
    let (mut agent, session) = start(&home, servers).await;
    mock.push(mock_llm::text(&["answered"]));
    let (response, updates) = agent.prompt(&session, "hello").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let notices = notices(&updates);
    assert!(notices.contains("Still connecting to MCP server 'hanger'"), "{notices}");
    let names = tool_names(&mock.requests()[0]);
    assert!(names.contains(&"mcp_tester_echo".to_string()), "{names:?}");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_killed_server_is_announced_reconnected_and_its_tools_work_on_the_next_turn() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let servers = json!([{"name": "tester", "command": server_binary(), "args": [], "env": []}]);
    let (mut agent, session) = start(&home, servers).await;
    let (first, _) = pid_turn(&mut agent, &mock, &session, "p1").await;
    kill(first);
    assert!(wait_gone(first).await, "the server did not die");

    let (second, updates) = pid_turn(&mut agent, &mock, &session, "p2").await;
    let notices = notices(&updates);
    assert!(notices.contains("MCP server 'tester' stopped"), "{notices}");
    assert!(notices.contains("MCP server 'tester' reconnected"), "{notices}");
    assert_ne!(first, second, "a new server process answers");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[cfg(unix)]
#[tokio::test]
async fn a_server_that_cannot_come_back_leaves_the_next_model_request() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    // A link we can remove, so the respawn fails the way a deleted binary would.
    let link_dir = tempfile::tempdir().unwrap();
    let link = link_dir.path().join("mcp-server");
    std::os::unix::fs::symlink(server_binary(), &link).unwrap();
    let servers = json!([{"name": "tester", "command": link, "args": [], "env": []}]);
    let (mut agent, session) = start(&home, servers).await;
    let (pid, _) = pid_turn(&mut agent, &mock, &session, "p1").await;
    assert!(tool_names(&mock.requests()[0]).contains(&"mcp_tester_pid".to_string()));
    std::fs::remove_file(&link).unwrap();
    kill(pid);
    assert!(wait_gone(pid).await, "the server did not die");

    mock.push(mock_llm::text(&["without it"]));
    let (response, updates) = agent.prompt(&session, "again").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let notices = notices(&updates);
    assert!(notices.contains("MCP server 'tester' stopped"), "{notices}");
    let names = tool_names(mock.requests().last().unwrap());
    assert!(!names.iter().any(|n| n.starts_with("mcp_tester_")), "{names:?}");
    assert!(names.contains(&"read_file".to_string()), "{names:?}");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_server_that_dies_during_a_tool_call_leaves_the_next_model_request_of_the_same_turn() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let servers = json!([{"name": "tester", "command": server_binary(), "args": [], "env": []}]);
    let (mut agent, session) = start(&home, servers).await;
    let (pid, _) = pid_turn(&mut agent, &mock, &session, "p1").await;

    // The model starts a call that never ends on its own; the server dies while it runs.
    mock.push(mock_llm::tool_calls(&[(
        "s1",
        "mcp_tester_slow",
        json!({"ms": 600_000}),
    )]));
    mock.push(mock_llm::text(&["carrying on without it"]));
    agent.notifications();
    let id = agent
        .send_request(
            "session/prompt",
            json!({"sessionId": session, "prompt": [{"type": "text", "text": "go"}]}),
        )
        .await;
    agent
        .wait(|m| {
            let u = &m["params"]["update"];
            u["sessionUpdate"] == "tool_call_update" && u["toolCallId"] == "s1" && u["status"] == "in_progress"
        })
        .await;
    kill(pid);
    let response = agent.response(id).await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let updates = agent.notifications();
    let said = notices(&updates);
    assert!(said.contains("MCP server 'tester' stopped"), "{said}");

    let requests = mock.requests();
    let last = requests.last().unwrap();
    assert!(
        tool_result(last, "s1").contains("stopped"),
        "{}",
        tool_result(last, "s1")
    );
    let names = tool_names(last);
    assert!(!names.iter().any(|n| n.starts_with("mcp_tester_")), "{names:?}");
    assert!(names.contains(&"read_file".to_string()), "{names:?}");

    // Reconnected before the next turn, its tools are offered again.
    let (again, updates) = pid_turn(&mut agent, &mock, &session, "p2").await;
    assert_ne!(again, pid);
    assert!(
        notices(&updates).contains("MCP server 'tester' reconnected"),
        "{updates:?}"
    );
    assert_eq!(agent.shutdown().await, Some(0));
}
