//! `session/options` (unstable, advertised as `sessionCapabilities.options`): the modes and
//! config options a new session would start with, or a stored one has, answered without
//! creating a session or sending an update; the initial `configOptions` of `session/new` and
//! `session/load` applied in order (unknown ids and values ignored, a duplicate id refused
//! with -32602 before anything is created), with no `config_option_update` for them.

use serde_json::{Value, json};

use crate::support::mock_llm::MockLlm;
use crate::support::{AgentProcess, TestHome};

/// The current value of option `id` in a response's `configOptions`.
fn current(result: &Value, id: &str) -> Value {
    (result["configOptions"].as_array().into_iter().flatten())
        .find(|o| o["id"] == id)
        .map(|o| o["currentValue"].clone())
        .unwrap_or(Value::Null)
}

async fn session_count(agent: &mut AgentProcess) -> usize {
    let listed = agent.request("session/list", json!({})).await;
    listed["result"]["sessions"].as_array().map_or(0, Vec::len)
}

#[tokio::test]
async fn options_are_answered_for_a_folder_without_creating_a_session() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    let init = agent.initialize().await;
    assert_eq!(
        init["result"]["agentCapabilities"]["sessionCapabilities"]["options"],
        json!({}),
        "{init}"
    );
    let cwd = home.cwd();
    let answer = agent.request("session/options", json!({"cwd": cwd})).await;
    let result = &answer["result"];
    assert_eq!(current(result, "mode"), "default", "{answer}");
    assert!(current(result, "model").is_string(), "{answer}");
    assert_eq!(result["modes"]["currentModeId"], "default", "{answer}");
    assert_eq!(session_count(&mut agent).await, 0, "no session was created");
    assert!(agent.notifications().is_empty(), "no update was sent");

    let missing = agent
        .request("session/options", json!({"cwd": cwd.join("does-not-exist")}))
        .await;
    assert_eq!(missing["error"]["code"], -32602, "{missing}");
    let unknown = agent
        .request("session/options", json!({"cwd": cwd, "sessionId": "no-such-session"}))
        .await;
    assert_eq!(unknown["error"]["code"], -32002, "{unknown}");

    // A stored session: what load would answer, its mode included.
    let session = agent.new_session(&cwd).await;
    let set = agent
        .request("session/set_mode", json!({"sessionId": session, "modeId": "plan"}))
        .await;
    assert!(set.get("error").is_none(), "{set}");
    let stored = agent
        .request("session/options", json!({"cwd": cwd, "sessionId": session}))
        .await;
    assert_eq!(current(&stored["result"], "mode"), "plan", "{stored}");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn initial_options_apply_in_order_and_a_duplicate_is_refused() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let cwd = home.cwd();
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let created = agent
        .request(
            "session/new",
            json!({"cwd": cwd, "mcpServers": [], "configOptions": [
                {"configId": "mode", "value": "plan"},
                {"configId": "no-such-option", "value": "x"},
                {"configId": "mode", "value": "not-a-mode"},
            ]}),
        )
        .await;
    assert_eq!(created["error"]["code"], -32602, "a duplicate id: {created}");
    assert_eq!(session_count(&mut agent).await, 0, "nothing was created");

    let created = agent
        .request(
            "session/new",
            json!({"cwd": cwd, "mcpServers": [], "configOptions": [
                {"configId": "no-such-option", "value": "x"},
                {"configId": "auto_compact", "value": "not-a-boolean"},
                {"configId": "mode", "value": "accept_edits"},
            ]}),
        )
        .await;
    let session = created["result"]["sessionId"].as_str().expect("created").to_string();
    assert_eq!(current(&created["result"], "mode"), "accept_edits", "{created}");
    assert_eq!(created["result"]["modes"]["currentModeId"], "accept_edits", "{created}");
    let updates = agent.notifications();
    assert!(
        !updates.iter().any(|u| u["sessionUpdate"] == "config_option_update"),
        "{updates:?}"
    );

    let loaded = agent
        .request(
            "session/load",
            json!({"sessionId": session, "cwd": cwd, "mcpServers": [], "configOptions": [
                {"configId": "mode", "value": "read_only"},
            ]}),
        )
        .await;
    assert_eq!(current(&loaded["result"], "mode"), "read_only", "{loaded}");
    assert_eq!(agent.shutdown().await, Some(0));
}
