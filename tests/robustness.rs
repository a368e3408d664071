//! Bad input gets an error, not a panic or a hang: a broken config.yaml, a cwd that does not
//! exist, a FIFO attached to a prompt, a hostile Retry-After, a corrupt stored message, and an
//! oversized embedded resource whose replay must stay in small frames.

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome, agent_text};

#[tokio::test]
async fn a_broken_config_still_answers_initialize_and_sessions_name_the_file_and_line() {
    let home = TestHome::unconfigured();
    let config = home.path().join("config.yaml");
    std::fs::write(&config, "model:\n  default: x\n  provider: [unclosed\napprovals: {}\n").unwrap();
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let response = agent
        .request("session/new", json!({"cwd": home.cwd(), "mcpServers": []}))
        .await;
    let message = response["error"]["message"].as_str().unwrap_or_default().to_string();
    assert!(message.contains(&config.display().to_string()), "{response}");
    assert!(message.contains("line"), "{response}");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn an_infinite_approval_timeout_is_refused_with_the_key_named() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let config = home.path().join("config.yaml");
    let text = std::fs::read_to_string(&config).unwrap() + "approvals:\n  timeout: .inf\n";
    std::fs::write(&config, text).unwrap();
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let response = agent
        .request("session/new", json!({"cwd": home.cwd(), "mcpServers": []}))
        .await;
    let message = response["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("approvals.timeout"), "{response}");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_cwd_that_is_missing_or_a_file_is_invalid_params() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let file = home.cwd().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let session = agent.new_session(&home.cwd()).await;
    for cwd in [home.cwd().join("missing"), file] {
        let new = agent
            .request("session/new", json!({"cwd": cwd, "mcpServers": []}))
            .await;
        assert_eq!(new["error"]["code"], -32602, "{new}");
        let load = agent
            .request(
                "session/load",
                json!({"sessionId": session, "cwd": cwd, "mcpServers": []}),
            )
            .await;
        assert_eq!(load["error"]["code"], -32602, "{load}");
        let fork = agent
            .request("session/fork", json!({"sessionId": session, "cwd": cwd}))
            .await;
        assert_eq!(fork["error"]["code"], -32602, "{fork}");
    }
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_fifo_attachment_is_refused_and_the_turn_completes() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let fifo = home.cwd().join("pipe");
    let status = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    mock.push(mock_llm::text(&["ok"]));
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    let response = agent
        .request(
            "session/prompt",
            json!({"sessionId": session, "prompt": [
                {"type": "text", "text": "read this"},
                {"type": "resource_link", "name": "pipe", "uri": format!("file://{}", fifo.display())}
            ]}),
        )
        .await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let sent = mock.requests().last().unwrap().to_string();
    assert!(sent.contains("a named pipe"), "{sent}");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_huge_retry_after_does_not_panic_the_turn() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    mock.push(mock_llm::status(429, Some("1e20")));
    mock.push(mock_llm::text(&["after the wait"]));
    // The policy caps any wait at its maximum delay, which tests shorten.
    let mut agent = AgentProcess::spawn(home.path(), &[("HERMES_ACP_RETRY_MAX_MS", "50")]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    let (response, _) = agent.prompt(&session, "hi").await;
    // A reset that far away is not waited for: the prompt fails at once saying until when.
    let message = response["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("rate limited until"), "{response}");
    let (response, updates) = agent.prompt(&session, "again").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "after the wait");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_corrupt_stored_message_is_skipped_with_a_notice_and_the_session_continues() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    mock.push(mock_llm::text(&["first answer"]));
    mock.push(mock_llm::text(&["second answer"]));
    mock.push(mock_llm::text(&["third answer"]));
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    agent.prompt(&session, "first question").await;
    agent.prompt(&session, "second question").await;
    assert_eq!(agent.shutdown().await, Some(0));

    let db = rusqlite::Connection::open(home.path().join("hermes-acp").join("sessions.db")).unwrap();
    let changed = db
        .execute(
            "UPDATE messages SET body = '{broken' WHERE id = (SELECT id FROM messages WHERE session_id = ?1 ORDER BY seq LIMIT 1 OFFSET 1)",
            [&session],
        )
        .unwrap();
    assert_eq!(changed, 1);
    drop(db);

    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize_with(json!({"session": {"notices": {}}})).await;
    let response = agent
        .request(
            "session/load",
            json!({"sessionId": session, "cwd": home.cwd(), "mcpServers": []}),
        )
        .await;
    assert!(response.get("result").is_some(), "{response}");
    let updates = agent.notifications();
    let texts: Vec<&str> = updates.iter().filter_map(|u| u["content"]["text"].as_str()).collect();
    assert_eq!(
        texts,
        ["first question", "second question", "second answer"],
        "{updates:#?}"
    );
    assert!(
        updates.iter().any(|u| u["sessionUpdate"] == "notice"
            && u.to_string()
                .contains("1 stored message could not be read and was skipped")),
        "{updates:#?}"
    );

    // The session continues: the next turn sends the readable history and is stored.
    let (response, updates) = agent.prompt(&session, "third question").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "third answer");
    let requests = mock.requests();
    let sent: Vec<String> = requests.last().unwrap()["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] != "system")
        .map(|m| m["content"].to_string())
        .collect();
    assert_eq!(sent.len(), 4, "{sent:#?}");
    for (sent, expected) in sent
        .iter()
        .zip(["first question", "second question", "second answer", "third question"])
    {
        assert!(sent.contains(expected), "{sent} should carry {expected}");
    }
    assert_eq!(agent.shutdown().await, Some(0));
    let db = rusqlite::Connection::open(home.path().join("hermes-acp").join("sessions.db")).unwrap();
    let rows: i64 = db
        .query_row("SELECT COUNT(*) FROM messages WHERE session_id = ?1", [&session], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(rows, 6, "the unreadable row is kept, the new turn appended");
}

#[tokio::test]
async fn an_oversized_embedded_resource_is_stored_as_a_reference_and_replay_frames_stay_small() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    mock.push(mock_llm::text(&["seen"]));
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    let big = "y".repeat(5 * 1024 * 1024);
    let response = agent
        .request(
            "session/prompt",
            json!({"sessionId": session, "prompt": [
                {"type": "text", "text": "summarise"},
                {"type": "resource", "resource": {"uri": "file:///p/huge.log", "text": big}}
            ]}),
        )
        .await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent.shutdown().await, Some(0));

    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    agent
        .request(
            "session/load",
            json!({"sessionId": session, "cwd": home.cwd(), "mcpServers": []}),
        )
        .await;
    let updates: Vec<Value> = agent.notifications();
    let largest = updates.iter().map(|u| u.to_string().len()).max().unwrap();
    assert!(largest < 1024 * 1024, "largest replayed update: {largest} bytes");
    let link = updates
        .iter()
        .find(|u| u["content"]["type"] == "resource_link")
        .unwrap_or_else(|| panic!("{updates:#?}"));
    assert_eq!(link["content"]["uri"], "file:///p/huge.log");
    assert_eq!(link["content"]["size"], 5 * 1024 * 1024);
    assert_eq!(agent.shutdown().await, Some(0));
}
