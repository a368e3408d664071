//! Sessions across restarts: list, load with replay, resume without, fork, close, delete, and
//! settings that persist.

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome, agent_text, normalize};

/// Runs one conversation of two turns and shuts the agent down.
async fn conversation(mock: &MockLlm, home: &TestHome) -> String {
    mock.push(mock_llm::reasoning_then_text(&["pondering"], &["first ", "answer"]));
    mock.push(mock_llm::text(&["second answer"]));
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    agent.prompt(&session, "first question").await;
    agent.prompt(&session, "second question").await;
    assert_eq!(agent.shutdown().await, Some(0));
    session
}

#[tokio::test]
async fn after_a_restart_the_session_is_listed_and_load_replays_it() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let session = conversation(&mock, &home).await;

    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let list = agent.request("session/list", json!({})).await;
    let sessions = list["result"]["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 1);
    assert_eq!(sessions[0]["sessionId"], session.as_str());
    assert_eq!(sessions[0]["title"], "first question");
    assert_eq!(sessions[0]["cwd"], home.cwd().display().to_string());
    assert!(sessions[0]["updatedAt"].as_str().unwrap().ends_with('Z'));

    let other = tempfile::tempdir().unwrap();
    let filtered = agent.request("session/list", json!({"cwd": other.path()})).await;
    assert_eq!(filtered["result"]["sessions"], json!([]));

    let response = agent
        .request(
            "session/load",
            json!({"sessionId": session, "cwd": home.cwd(), "mcpServers": []}),
        )
        .await;
    assert!(response["result"]["configOptions"].is_array(), "{response}");
    let replay: Vec<Value> = agent
        .notifications()
        .into_iter()
        .filter(|u| u["sessionUpdate"] != "available_commands_update")
        .collect();
    expect_test::expect![[r#"[{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"first question"}},{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"pondering"}},{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"first answer"}},{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"second question"}},{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"second answer"}}]"#]]
    .assert_eq(&normalize(&json!(replay), &session).to_string());

    // The reloaded conversation continues with its history.
    mock.push(mock_llm::text(&["third"]));
    let (response, updates) = agent.prompt(&session, "third question").await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    assert_eq!(agent_text(&updates), "third");
    let messages = mock.requests().last().unwrap()["messages"].as_array().unwrap().len();
    assert_eq!(messages, 6, "system + two exchanges + new question");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn resume_restores_without_replay_and_a_prompt_restores_implicitly() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let session = conversation(&mock, &home).await;
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let response = agent
        .request("session/resume", json!({"sessionId": session, "cwd": home.cwd()}))
        .await;
    assert!(response["result"]["modes"].is_object(), "{response}");
    let updates = agent.notifications();
    assert!(
        updates
            .iter()
            .all(|u| u["sessionUpdate"] == "available_commands_update"),
        "no replay: {updates:#?}"
    );
    assert_eq!(agent.shutdown().await, Some(0));

    // A prompt on an id that is only in the database restores it.
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    mock.push(mock_llm::text(&["restored"]));
    let (response, updates) = agent.prompt(&session, "still there?").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "restored");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn fork_copies_history_into_a_new_session() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let session = conversation(&mock, &home).await;
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let elsewhere = tempfile::tempdir().unwrap();
    let cwd = elsewhere.path().canonicalize().unwrap();
    let response = agent
        .request("session/fork", json!({"sessionId": session, "cwd": cwd}))
        .await;
    let fork = response["result"]["sessionId"].as_str().unwrap().to_string();
    assert_ne!(fork, session);
    mock.push(mock_llm::text(&["forked"]));
    agent.prompt(&fork, "in the fork").await;
    let request = mock.requests().last().cloned().unwrap();
    assert_eq!(request["messages"].as_array().unwrap().len(), 6);
    assert!(
        request["messages"][0]["content"]
            .as_str()
            .unwrap()
            .contains(&cwd.display().to_string())
    );
    // The source is unchanged.
    let load = agent
        .request(
            "session/load",
            json!({"sessionId": session, "cwd": home.cwd(), "mcpServers": []}),
        )
        .await;
    assert!(load.get("result").is_some());
    let user_chunks = agent
        .notifications()
        .iter()
        .filter(|u| u["sessionUpdate"] == "user_message_chunk")
        .count();
    assert_eq!(user_chunks, 2);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn close_frees_and_delete_removes() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let session = conversation(&mock, &home).await;
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    agent
        .request("session/resume", json!({"sessionId": session, "cwd": home.cwd()}))
        .await;
    let closed = agent.request("session/close", json!({"sessionId": session})).await;
    assert_eq!(closed["result"], json!({}));
    // Closing a stored-but-not-live session is fine; it is restored on demand afterwards.
    let again = agent.request("session/close", json!({"sessionId": session})).await;
    assert_eq!(again["result"], json!({}));
    let deleted = agent.request("session/delete", json!({"sessionId": session})).await;
    assert_eq!(deleted["result"], json!({}));
    let list = agent.request("session/list", json!({})).await;
    assert_eq!(list["result"]["sessions"], json!([]));
    let load = agent
        .request(
            "session/load",
            json!({"sessionId": session, "cwd": home.cwd(), "mcpServers": []}),
        )
        .await;
    assert_eq!(load["error"]["code"], -32002);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn model_and_mode_options_persist_and_announce_changes() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let response = agent
        .request("session/new", json!({"cwd": home.cwd(), "mcpServers": []}))
        .await;
    let session = response["result"]["sessionId"].as_str().unwrap().to_string();
    let options = &response["result"]["configOptions"];
    assert_eq!(options[0]["id"], "model");
    assert_eq!(options[0]["category"], "model");
    assert_eq!(options[0]["currentValue"], "mock-model");
    let models: Vec<_> = options[0]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["value"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        models,
        ["mock-model", "mock-large"],
        "config plus the provider's /models"
    );
    assert_eq!(options[1]["category"], "mode");
    assert_eq!(response["result"]["modes"]["currentModeId"], "default");

    let set = agent
        .request(
            "session/set_config_option",
            json!({"sessionId": session, "configId": "model", "value": "mock-large"}),
        )
        .await;
    assert_eq!(set["result"]["configOptions"][0]["currentValue"], "mock-large");
    let set = agent
        .request(
            "session/set_config_option",
            json!({"sessionId": session, "configId": "mode", "value": "accept_edits"}),
        )
        .await;
    assert_eq!(set["result"]["configOptions"][1]["currentValue"], "accept_edits");
    let updates = agent.notifications();
    assert!(
        updates
            .iter()
            .any(|u| u["sessionUpdate"] == "current_mode_update" && u["currentModeId"] == "accept_edits")
    );
    assert_eq!(
        updates
            .iter()
            .filter(|u| u["sessionUpdate"] == "config_option_update")
            .count(),
        2
    );
    let bad = agent
        .request(
            "session/set_config_option",
            json!({"sessionId": session, "configId": "mode", "value": "chaos"}),
        )
        .await;
    assert_eq!(bad["error"]["code"], -32602);

    mock.push(mock_llm::text(&["hi"]));
    agent.prompt(&session, "hello").await;
    assert_eq!(mock.requests()[0]["model"], "mock-large");
    assert_eq!(agent.shutdown().await, Some(0));

    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let resumed = agent
        .request("session/resume", json!({"sessionId": session, "cwd": home.cwd()}))
        .await;
    assert_eq!(resumed["result"]["modes"]["currentModeId"], "accept_edits");
    assert_eq!(resumed["result"]["configOptions"][0]["currentValue"], "mock-large");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn slash_commands_are_answered_locally() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let response = agent
        .request("session/new", json!({"cwd": home.cwd(), "mcpServers": []}))
        .await;
    let session = response["result"]["sessionId"].as_str().unwrap().to_string();
    let commands = agent
        .wait(|m| m["params"]["update"]["sessionUpdate"] == "available_commands_update")
        .await;
    let names: Vec<_> = commands["params"]["update"]["availableCommands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    assert!(names.contains(&"help".to_string()) && names.contains(&"model".to_string()));
    let (response, updates) = agent.prompt(&session, "/help").await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    assert!(agent_text(&updates).starts_with("Available commands:"));
    let (_, updates) = agent.prompt(&session, "/model").await;
    assert_eq!(
        agent_text(&updates),
        "Current model: mock-model\nProvider: custom\nAvailable models:\n  mock-model (current)\n  mock-large\nSwitch with /model <id>."
    );
    assert!(mock.requests().is_empty(), "no model call for slash commands");
    // Unknown /words go to the model.
    mock.push(mock_llm::text(&["sure"]));
    let (_, updates) = agent.prompt(&session, "/frobnicate now").await;
    assert_eq!(agent_text(&updates), "sure");
    assert_eq!(mock.requests()[0]["messages"][1]["content"], "/frobnicate now");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_prompt_stored_by_an_earlier_version_still_replays_its_blocks() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let session = conversation(&mock, &home).await;
    // Earlier versions kept the editor's prompt blocks as protocol JSON under `meta.prompt`.
    let old_body = json!({"role": "user", "parts": [{"type": "text", "text": "first question"}],
        "meta": {"prompt": [{"type": "text", "text": "first question"},
            {"type": "resource_link", "name": "notes.txt", "uri": "file:///w/notes.txt", "size": 42}]}});
    let db = rusqlite::Connection::open(home.path().join("hermes-acp").join("sessions.db")).unwrap();
    let changed = db
        .execute(
            "UPDATE messages SET body = ?2 WHERE id = (SELECT id FROM messages WHERE session_id = ?1 ORDER BY seq LIMIT 1)",
            rusqlite::params![session, old_body.to_string()],
        )
        .unwrap();
    assert_eq!(changed, 1);
    drop(db);

    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let response = agent
        .request(
            "session/load",
            json!({"sessionId": session, "cwd": home.cwd(), "mcpServers": []}),
        )
        .await;
    assert!(response.get("result").is_some(), "{response}");
    let users: Vec<Value> = agent
        .notifications()
        .into_iter()
        .filter(|u| u["sessionUpdate"] == "user_message_chunk")
        .map(|u| u["content"].clone())
        .collect();
    assert_eq!(
        users,
        [
            json!({"type": "text", "text": "first question"}),
            json!({"type": "resource_link", "name": "notes.txt", "uri": "file:///w/notes.txt", "size": 42}),
            json!({"type": "text", "text": "second question"}),
        ]
    );
    assert_eq!(agent.shutdown().await, Some(0));
}
