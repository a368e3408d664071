//! Sessions Hermes saved, through the real binary: a `state.db` built here from Hermes'
//! documented schema (reference §6.1) is listed with ours, a Hermes session loads (text and
//! tool cards replayed) and the next prompt continues it with its history carried to the model,
//! across a restart — and Hermes' file never changes.

use std::hash::{Hash, Hasher};
use std::path::Path;

use rusqlite::{Connection, params};
use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome, agent_text};

/// The parts of Hermes' schema this test fills (the real file has more columns and tables).
const SCHEMA: &str = "
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES (22);
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, model_config TEXT,
    parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL, end_reason TEXT,
    message_count INTEGER DEFAULT 0, tool_call_count INTEGER DEFAULT 0, cwd TEXT, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,
    role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT,
    timestamp REAL NOT NULL, reasoning TEXT, reasoning_content TEXT,
    active INTEGER NOT NULL DEFAULT 1, compacted INTEGER NOT NULL DEFAULT 0);
";

/// Two ACP sessions (one with a tool call) and a CLI one. `live`: the writer stays open, with
/// its WAL and index beside the file, as a running Hermes; else it closes (which checkpoints
/// and removes them), as after Hermes exited.
fn write_state_db(home: &Path, cwd: &Path, live: bool) {
    let conn = Connection::open(home.join("state.db")).unwrap();
    conn.pragma_update(None, "journal_mode", "wal").unwrap();
    conn.execute_batch(SCHEMA).unwrap();
    let config = json!({"cwd": cwd, "provider": "custom", "api_mode": "chat_completions"}).to_string();
    let session = |id: &str, source: &str, title: Option<&str>, started: f64, count: i64| {
        conn.execute(
            "INSERT INTO sessions (id, source, model, model_config, started_at, message_count, title) \
             VALUES (?1, ?2, 'mock-model', ?3, ?4, ?5, ?6)",
            params![id, source, config, started, count, title],
        )
        .unwrap();
    };
    let message = |session: &str, role: &str, content: &str, at: f64, call: (&str, &str, &str)| {
        let none = |s: &str| (!s.is_empty()).then(|| s.to_string());
        conn.execute(
            "INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![session, role, content, none(call.0), none(call.1), none(call.2), at],
        )
        .unwrap();
    };
    session("hermes-plain", "acp", None, 1_700_000_000.0, 2);
    message("hermes-plain", "user", "what is 2+2?", 1_700_000_001.0, ("", "", ""));
    message("hermes-plain", "assistant", "4", 1_700_000_002.0, ("", "", ""));
    session("hermes-tools", "acp", Some("Read the notes"), 1_700_000_100.0, 4);
    message("hermes-tools", "user", "read notes.txt", 1_700_000_101.0, ("", "", ""));
    let calls =
        r#"[{"id":"tc-1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"notes.txt\"}"}}]"#;
    message("hermes-tools", "assistant", "", 1_700_000_102.0, ("", calls, ""));
    message(
        "hermes-tools",
        "tool",
        "{\"content\": \"1|remember the milk\"}",
        1_700_000_103.0,
        ("tc-1", "", "read_file"),
    );
    message(
        "hermes-tools",
        "assistant",
        "The notes say: remember the milk.",
        1_700_000_104.0,
        ("", "", ""),
    );
    session("hermes-cli", "cli", None, 1_700_000_200.0, 1);
    message("hermes-cli", "user", "a cli question", 1_700_000_201.0, ("", "", ""));
    if live {
        std::mem::forget(conn);
    }
}

/// Every `state.db*` file of Hermes' folder as (name, length, hash): the database, its WAL and
/// its `-shm` index (where a plain reader would write its read marks), and any file a reader
/// would create beside them.
fn fingerprint(home: &Path) -> Vec<(String, usize, u64)> {
    let mut files: Vec<_> = std::fs::read_dir(home)
        .unwrap()
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().starts_with("state.db"))
        .map(|entry| {
            let bytes = std::fs::read(entry.path()).unwrap();
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            bytes.hash(&mut hasher);
            (
                entry.file_name().to_string_lossy().into_owned(),
                bytes.len(),
                hasher.finish(),
            )
        })
        .collect();
    files.sort();
    files
}

fn listed(response: &Value) -> Vec<(String, String)> {
    response["result"]["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["sessionId"].as_str().unwrap().to_string(),
                s["title"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn hermes_sessions_are_listed_loaded_and_continued_without_touching_state_db() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    write_state_db(home.path(), &home.cwd(), true);
    let before = fingerprint(home.path());
    assert_eq!(before.len(), 3, "the fixture is a live Hermes: a WAL and its index");

    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let ours = agent.new_session(&home.cwd()).await;
    mock.push(mock_llm::text(&["hello back"]));
    agent.prompt(&ours, "hello").await;
    let list = agent.request("session/list", json!({})).await;
    let entries = listed(&list);
    let ids: Vec<&str> = entries.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, [ours.as_str(), "hermes-tools", "hermes-plain"], "{list}");
    assert_eq!(entries[1].1, "Read the notes");
    assert_eq!(entries[2].1, "what is 2+2?", "a title from the first message");
    let cwd = home.cwd().display().to_string();
    assert!(
        list["result"]["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["cwd"] == cwd.as_str())
    );

    // Load replays Hermes' history: the user's text, the tool card, the answer.
    let loaded = agent
        .request(
            "session/load",
            json!({"sessionId": "hermes-tools", "cwd": home.cwd(), "mcpServers": []}),
        )
        .await;
    assert!(loaded.get("error").is_none(), "{loaded}");
    let replay = agent.notifications();
    let kinds: Vec<&str> = replay.iter().filter_map(|u| u["sessionUpdate"].as_str()).collect();
    assert!(
        kinds.contains(&"user_message_chunk") && kinds.contains(&"tool_call"),
        "{kinds:?}"
    );
    let card = replay.iter().find(|u| u["sessionUpdate"] == "tool_call").unwrap();
    assert_eq!(card["kind"], "read", "{card}");
    assert!(agent_text(&replay).contains("remember the milk"), "{replay:?}");

    // The next prompt carries the Hermes history to the model.
    mock.push(mock_llm::text(&["continued"]));
    let (response, updates) = agent.prompt("hermes-tools", "and then?").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "continued");
    let request = mock.requests().last().unwrap().clone();
    let messages = request["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages.iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(
        roles,
        ["system", "user", "assistant", "tool", "assistant", "user"],
        "{request}"
    );
    assert_eq!(messages[2]["tool_calls"][0]["id"], "tc-1");
    assert_eq!(messages[3]["tool_call_id"], "tc-1");
    assert_eq!(messages[5]["content"], "and then?");
    assert_eq!(agent.shutdown().await, Some(0));

    // After a restart it is listed once (now ours) and loads from our database.
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let list = agent.request("session/list", json!({})).await;
    let ids: Vec<String> = listed(&list).into_iter().map(|(id, _)| id).collect();
    assert_eq!(ids.iter().filter(|id| *id == "hermes-tools").count(), 1, "{list}");
    assert_eq!(ids[0], "hermes-tools", "continued just now: newest");
    assert!(!ids.contains(&"hermes-cli".to_string()), "only ACP sessions");
    let loaded = agent
        .request(
            "session/load",
            json!({"sessionId": "hermes-tools", "cwd": home.cwd(), "mcpServers": []}),
        )
        .await;
    assert!(loaded.get("error").is_none(), "{loaded}");
    assert!(agent_text(&agent.notifications()).contains("continued"));
    assert_eq!(agent.shutdown().await, Some(0));
    assert_eq!(
        fingerprint(home.path()),
        before,
        "Hermes' state.db, WAL and index are byte-identical"
    );
}

#[tokio::test]
async fn an_unknown_id_is_still_an_error_with_a_state_db_present() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    write_state_db(home.path(), &home.cwd(), true);
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    for id in ["missing", "hermes-cli"] {
        let loaded = agent
            .request(
                "session/load",
                json!({"sessionId": id, "cwd": home.cwd(), "mcpServers": []}),
            )
            .await;
        assert!(
            loaded["error"]["message"]
                .as_str()
                .unwrap_or_default()
                .contains("not found"),
            "{loaded}"
        );
    }
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn listing_a_closed_hermes_database_creates_nothing_beside_it() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    write_state_db(home.path(), &home.cwd(), false);
    let before = fingerprint(home.path());
    assert_eq!(before.len(), 1, "Hermes exited: state.db alone {before:?}");
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let list = agent.request("session/list", json!({})).await;
    let ids: Vec<String> = listed(&list).into_iter().map(|(id, _)| id).collect();
    assert_eq!(ids, ["hermes-tools", "hermes-plain"], "{list}");
    let loaded = agent
        .request(
            "session/load",
            json!({"sessionId": "hermes-plain", "cwd": home.cwd(), "mcpServers": []}),
        )
        .await;
    assert!(loaded.get("error").is_none(), "{loaded}");
    assert_eq!(agent.shutdown().await, Some(0));
    assert_eq!(
        fingerprint(home.path()),
        before,
        "no -wal or -shm created, state.db unchanged"
    );
}
