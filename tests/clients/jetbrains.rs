//! JetBrains 2026.1's handshake and habits: `terminal: false`, `auth._meta.gateway`, `nes` and
//! `positionEncodings` as null, one agent process reused across chats, and a UI built only from
//! `configOptions`. Nothing may depend on the editor's terminal or on one process per chat, and
//! every setting a user changes is a config option, per chat.

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome, agent_text};

/// The client capabilities JetBrains 2026.1 sends (from an IDE log).
fn jetbrains_capabilities() -> Value {
    json!({
        "fs": {"readTextFile": true, "writeTextFile": true},
        "terminal": false,
        "auth": {"_meta": {"gateway": true}},
        "nes": null,
        "positionEncodings": null,
        "_meta": {"terminal-auth": true}
    })
}

fn option_ids(result: &Value) -> Vec<String> {
    (result["configOptions"].as_array().unwrap().iter())
        .map(|o| o["id"].as_str().unwrap().to_string())
        .collect()
}

fn current(result: &Value, id: &str) -> Value {
    (result["configOptions"].as_array().unwrap().iter())
        .find(|o| o["id"] == id)
        .map(|o| o["currentValue"].clone())
        .unwrap_or(Value::Null)
}

#[tokio::test]
async fn one_process_serves_two_chats_without_the_editor_terminal() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let other = tempfile::tempdir().unwrap();
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    let init = agent.initialize_with(jetbrains_capabilities()).await;
    let methods = init["result"]["authMethods"].as_array().unwrap();
    assert!(!methods.is_empty(), "{init}");

    // Two chats, two folders, one process.
    let first = agent
        .request("session/new", json!({"cwd": home.cwd(), "mcpServers": []}))
        .await;
    let second = agent
        .request("session/new", json!({"cwd": other.path(), "mcpServers": []}))
        .await;
    let (a, b) = (
        first["result"]["sessionId"].as_str().unwrap().to_string(),
        second["result"]["sessionId"].as_str().unwrap().to_string(),
    );
    for result in [&first["result"], &second["result"]] {
        let ids = option_ids(result);
        for id in ["model", "mode", "auto_compact"] {
            assert!(ids.contains(&id.to_string()), "{id} is a config option: {ids:?}");
        }
    }

    // Every setting changes through `session/set_config_option`, for that chat only.
    let set = |session: &str, id: &str, value: Value| json!({"sessionId": session, "configId": id, "value": value});
    let changed = agent
        .request("session/set_config_option", set(&a, "mode", json!("accept_edits")))
        .await;
    assert_eq!(current(&changed["result"], "mode"), "accept_edits", "{changed}");
    // JetBrains does not advertise boolean options: the toggle is a select it can show.
    let changed = agent
        .request("session/set_config_option", set(&a, "auto_compact", json!("off")))
        .await;
    assert_eq!(current(&changed["result"], "auto_compact"), "off", "{changed}");
    let untouched = agent
        .request("session/set_config_option", set(&b, "model", json!("mock-model")))
        .await;
    assert_eq!(current(&untouched["result"], "mode"), "default", "{untouched}");
    assert_eq!(current(&untouched["result"], "auto_compact"), "on", "{untouched}");

    // A command runs without the editor's terminal.
    mock.push(mock_llm::tool_calls(&[(
        "t1",
        "terminal",
        json!({"command": "echo from-a > a.txt"}),
    )]));
    mock.push(mock_llm::text(&["done in a"]));
    let (response, updates) = agent.prompt(&a, "write a").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "done in a");
    assert_eq!(std::fs::read_to_string(home.cwd().join("a.txt")).unwrap(), "from-a\n");
    assert!(
        !agent
            .agent_requests
            .iter()
            .any(|r| r["method"].as_str().unwrap_or("").starts_with("terminal/")),
        "no terminal request to an editor that has none"
    );

    // Closing one chat leaves the other working in the same process.
    let closed = agent.request("session/close", json!({"sessionId": a})).await;
    assert!(closed.get("error").is_none(), "{closed}");
    mock.push(mock_llm::text(&["still here"]));
    let (response, updates) = agent.prompt(&b, "are you there?").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "still here");
    assert_eq!(agent.shutdown().await, Some(0));
}
