//! The editor bridge: modes, remembered permissions, timeouts, concurrent sessions, editor
//! buffers and writes, and a `session/load` replay identical to the live trace.

use serde_json::{Value, json};

use crate::support::calls::permission_requests;
use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, PermissionPolicy, TestHome, agent_text, normalize};

fn last_tool_result(mock: &MockLlm, call_id: &str) -> Value {
    let request = mock.requests().last().cloned().unwrap();
    let message = request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["tool_call_id"] == call_id)
        .cloned()
        .unwrap();
    serde_json::from_str(message["content"].as_str().unwrap()).unwrap()
}

fn write_call(id: &str, path: &str, content: &str) -> mock_llm::Reply {
    mock_llm::tool_calls(&[(id, "write_file", json!({"path": path, "content": content}))])
}

#[tokio::test]
async fn modes_decide_what_needs_asking_and_survive_a_reload() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    agent.permission_policy = PermissionPolicy::Select("deny");

    // default: the edit asks, the user denies, the file is untouched.
    mock.push(write_call("w1", "a.txt", "one"));
    mock.push(mock_llm::text(&["denied"]));
    agent.prompt(&session, "write a").await;
    assert!(!home.cwd().join("a.txt").exists());
    assert_eq!(
        last_tool_result(&mock, "w1")["error"],
        "Edit approval denied by ACP client; file was not modified."
    );
    assert_eq!(permission_requests(&agent).len(), 1);

    // accept_edits: workspace edits go through without asking.
    agent
        .request(
            "session/set_mode",
            json!({"sessionId": session, "modeId": "accept_edits"}),
        )
        .await;
    mock.push(write_call("w2", "a.txt", "two"));
    mock.push(mock_llm::text(&["written"]));
    agent.prompt(&session, "write a").await;
    assert_eq!(std::fs::read_to_string(home.cwd().join("a.txt")).unwrap(), "two");
    assert_eq!(permission_requests(&agent).len(), 1);

    // read_only: edits refused before anyone is asked.
    agent
        .request(
            "session/set_config_option",
            json!({"sessionId": session, "configId": "mode", "value": "read_only"}),
        )
        .await;
    mock.push(write_call("w3", "a.txt", "three"));
    mock.push(mock_llm::text(&["refused"]));
    agent.prompt(&session, "write a").await;
    assert_eq!(std::fs::read_to_string(home.cwd().join("a.txt")).unwrap(), "two");
    assert!(
        last_tool_result(&mock, "w3")["error"]
            .as_str()
            .unwrap()
            .starts_with("Read-only mode")
    );
    assert_eq!(agent.shutdown().await, Some(0));

    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let resumed = agent
        .request("session/resume", json!({"sessionId": session, "cwd": home.cwd()}))
        .await;
    assert_eq!(resumed["result"]["modes"]["currentModeId"], "read_only");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn allow_for_session_then_always_allow_survives_a_restart_and_is_revocable() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    std::fs::create_dir_all(home.cwd().join("out1")).unwrap();
    std::fs::create_dir_all(home.cwd().join("out2")).unwrap();
    agent.permission_policy = PermissionPolicy::Select("allow_session");
    let clean_out1 = "mkdir -p out1 && rm -rf out1";
    mock.push(mock_llm::tool_calls(&[(
        "t1",
        "terminal",
        json!({"command": clean_out1}),
    )]));
    mock.push(mock_llm::tool_calls(&[(
        "t2",
        "terminal",
        json!({"command": clean_out1}),
    )]));
    mock.push(mock_llm::text(&["cleaned"]));
    agent.prompt(&session, "clean").await;
    assert!(!home.cwd().join("out1").exists());
    assert_eq!(
        permission_requests(&agent).len(),
        1,
        "the same command, allowed for the session, is not asked again"
    );
    // The rule names the exact command: another recursive delete asks again.
    agent.permission_policy = PermissionPolicy::Select("deny");
    mock.push(mock_llm::tool_calls(&[(
        "t2b",
        "terminal",
        json!({"command": "rm -rf out2"}),
    )]));
    mock.push(mock_llm::text(&["asked"]));
    agent.prompt(&session, "clean out2").await;
    assert_eq!(permission_requests(&agent).len(), 2, "a different command asks");
    assert!(home.cwd().join("out2").exists());
    // Allowed for the session, then kept for the project: remembered across restarts.
    agent.permission_policy = PermissionPolicy::Select("allow_session");
    let session2 = agent.new_session(&home.cwd()).await;
    std::fs::create_dir_all(home.cwd().join("cache")).unwrap();
    mock.push(mock_llm::tool_calls(&[(
        "t3",
        "terminal",
        json!({"command": "rm -rf cache"}),
    )]));
    mock.push(mock_llm::text(&["done"]));
    agent.prompt(&session2, "clean cache").await;
    agent.prompt(&session2, "/permissions always").await;
    assert_eq!(permission_requests(&agent).len(), 3);
    assert_eq!(agent.shutdown().await, Some(0));

    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    agent.permission_policy = PermissionPolicy::Select("deny");
    let session3 = agent.new_session(&home.cwd()).await;
    std::fs::create_dir_all(home.cwd().join("cache")).unwrap();
    mock.push(mock_llm::tool_calls(&[(
        "t4",
        "terminal",
        json!({"command": "rm -rf cache"}),
    )]));
    mock.push(mock_llm::text(&["done again"]));
    agent.prompt(&session3, "clean cache").await;
    assert!(!home.cwd().join("cache").exists(), "the remembered rule allowed it");
    assert!(permission_requests(&agent).is_empty());
    let (_, updates) = agent.prompt(&session3, "/permissions").await;
    assert!(
        agent_text(&updates).contains("1. allow: `rm -rf cache`"),
        "{}",
        agent_text(&updates)
    );
    let (_, updates) = agent.prompt(&session3, "/permissions revoke 1").await;
    assert_eq!(agent_text(&updates), "Revoked: allow `rm -rf cache`");
    std::fs::create_dir_all(home.cwd().join("cache")).unwrap();
    mock.push(mock_llm::tool_calls(&[(
        "t5",
        "terminal",
        json!({"command": "rm -rf cache"}),
    )]));
    mock.push(mock_llm::text(&["asked"]));
    agent.prompt(&session3, "clean cache").await;
    assert_eq!(permission_requests(&agent).len(), 1, "asks again after revoking");
    assert!(home.cwd().join("cache").exists());
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn an_unanswered_permission_times_out_and_says_so() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    home.add_config("approvals:\n  timeout: 0.5\n");
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    agent.permission_policy = PermissionPolicy::Ignore;
    std::fs::create_dir_all(home.cwd().join("dist")).unwrap();
    mock.push(mock_llm::tool_calls(&[(
        "t1",
        "terminal",
        json!({"command": "rm -rf dist"}),
    )]));
    mock.push(mock_llm::text(&["timed out"]));
    let (response, _) = agent.prompt(&session, "clean").await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    assert!(home.cwd().join("dist").exists());
    let error = last_tool_result(&mock, "t1")["error"].as_str().unwrap().to_string();
    assert!(error.contains("timed out") && !error.contains("User denied"), "{error}");
    // The editor was told to drop the stale request.
    let cancelled = agent.wait(|m| m["method"] == "$/cancel_request").await;
    assert_eq!(cancelled["params"]["requestId"], permission_requests(&agent)[0]["id"]);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn two_sessions_ask_for_permission_at_the_same_time() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let other = tempfile::tempdir().unwrap();
    let s1 = agent.new_session(&home.cwd()).await;
    let s2 = agent.new_session(&other.path().canonicalize().unwrap()).await;
    agent.permission_policy = PermissionPolicy::Ignore;
    mock.push(write_call("e1", "one.txt", "1"));
    mock.push(write_call("e2", "two.txt", "2"));
    mock.set_fallback(mock_llm::text(&["done"]));
    let p1 = agent
        .send_request(
            "session/prompt",
            json!({"sessionId": s1, "prompt": [{"type": "text", "text": "a"}]}),
        )
        .await;
    agent.wait(|m| m["method"] == "session/request_permission").await;
    let p2 = agent
        .send_request(
            "session/prompt",
            json!({"sessionId": s2, "prompt": [{"type": "text", "text": "b"}]}),
        )
        .await;
    agent.wait(|m| m["method"] == "session/request_permission").await;
    let asks: Vec<Value> = permission_requests(&agent).into_iter().cloned().collect();
    assert_eq!(asks.len(), 2);
    let sessions: Vec<_> = asks
        .iter()
        .map(|a| a["params"]["sessionId"].as_str().unwrap().to_string())
        .collect();
    assert!(sessions.contains(&s1) && sessions.contains(&s2));
    // Answer the second session first: each answer reaches its own turn.
    for ask in asks.iter().rev() {
        let option = if ask["params"]["sessionId"] == s2.as_str() {
            "allow_once"
        } else {
            "deny"
        };
        agent.send(json!({"jsonrpc": "2.0", "id": ask["id"], "result": {"outcome": {"outcome": "selected", "optionId": option}}})).await;
    }
    assert_eq!(agent.response(p2).await["result"]["stopReason"], "end_turn");
    assert_eq!(agent.response(p1).await["result"]["stopReason"], "end_turn");
    assert!(other.path().join("two.txt").exists());
    assert!(!home.cwd().join("one.txt").exists());
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn reads_see_unsaved_buffers_and_writes_go_through_the_editor() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let file = home.cwd().join("main.rs");
    std::fs::write(&file, "fn main() {}\n").unwrap();
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent
        .initialize_with(json!({"fs": {"readTextFile": true, "writeTextFile": true}, "terminal": false}))
        .await;
    let session = agent.new_session(&home.cwd()).await;
    agent.overlays.insert(
        file.display().to_string(),
        "fn main() { println!(\"unsaved\"); }\n".into(),
    );
    mock.push(mock_llm::tool_calls(&[("r1", "read_file", json!({"path": "main.rs"}))]));
    mock.push(write_call("w1", "new.rs", "pub fn new() {}\n"));
    mock.push(mock_llm::text(&["ok"]));
    agent.prompt(&session, "look").await;
    let read = last_tool_result(&mock, "r1");
    assert_eq!(read["content"], "1|fn main() { println!(\"unsaved\"); }");
    assert_eq!(
        agent.editor_writes,
        vec![(
            home.cwd().join("new.rs").display().to_string(),
            "pub fn new() {}\n".to_string()
        )]
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn load_replays_the_same_cards_as_the_live_turn() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    std::fs::write(home.cwd().join("notes.md"), "# Notes\n").unwrap();
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    mock.push(mock_llm::tool_calls(&[
        ("r1", "read_file", json!({"path": "notes.md"})),
        (
            "e1",
            "patch",
            json!({"mode": "replace", "path": "notes.md", "old_string": "# Notes", "new_string": "# Notes\n\n- item"}),
        ),
        (
            "t1",
            "todo",
            json!({"todos": [{"id": "1", "content": "write notes", "status": "completed"}]}),
        ),
    ]));
    mock.push(mock_llm::text(&["Done."]));
    let (_, live) = agent.prompt(&session, "update the notes").await;
    assert_eq!(agent.shutdown().await, Some(0));

    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    agent
        .request(
            "session/load",
            json!({"sessionId": session, "cwd": home.cwd(), "mcpServers": []}),
        )
        .await;
    let replay = agent.notifications();
    // Live: cards go pending → in_progress → final; replay shows the start and the final state.
    let keep = |u: &&Value| {
        u["sessionUpdate"] == "tool_call"
            || (u["sessionUpdate"] == "tool_call_update" && u["status"] != "in_progress")
            || u["sessionUpdate"] == "plan"
    };
    let live_cards: Vec<Value> = live.iter().filter(keep).cloned().collect();
    let replay_cards: Vec<Value> = replay.iter().filter(keep).cloned().collect();
    assert_eq!(live_cards.len(), 7, "3 starts, 3 ends, 1 plan");
    // Live completions arrive in completion order (the patch waited for approval); compare each
    // card's own sequence, which is what the editor renders.
    for id in ["r1", "e1", "t1"] {
        let of = |cards: &[Value]| -> Vec<Value> { cards.iter().filter(|u| u["toolCallId"] == id).cloned().collect() };
        assert_eq!(
            normalize(&json!(of(&replay_cards)), &session),
            normalize(&json!(of(&live_cards)), &session),
            "card {id}"
        );
    }
    let plan = |cards: &[Value]| cards.iter().find(|u| u["sessionUpdate"] == "plan").cloned();
    assert_eq!(plan(&replay_cards), plan(&live_cards));
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn commands_run_in_the_editor_terminal_when_offered() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    std::fs::create_dir(home.cwd().join("sub")).unwrap();
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent
        .initialize_with(json!({"fs": {"readTextFile": false, "writeTextFile": false}, "terminal": true}))
        .await;
    let session = agent.new_session(&home.cwd()).await;
    mock.push(mock_llm::tool_calls(&[(
        "t1",
        "terminal",
        json!({"command": "echo from-editor && cd sub"}),
    )]));
    mock.push(mock_llm::tool_calls(&[("t2", "terminal", json!({"command": "pwd"}))]));
    mock.push(mock_llm::text(&["ran"]));
    let (response, updates) = agent.prompt(&session, "run it").await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    // Each card embedded its terminal before the terminal was released.
    for (id, term) in [("t1", "term-1"), ("t2", "term-2")] {
        let embedded = updates
            .iter()
            .any(|u| u["toolCallId"] == id && u["content"][0] == json!({"type": "terminal", "terminalId": term}));
        assert!(embedded, "{id} embeds {term}: {updates:#?}");
    }
    assert_eq!(agent.terminals.len(), 2);
    assert!(
        agent.terminals.values().all(|(_, _, released)| *released),
        "every terminal released"
    );
    assert_eq!(last_tool_result(&mock, "t1")["output"], "from-editor");
    // `cd` carried over to the next command.
    assert_eq!(
        last_tool_result(&mock, "t2")["output"],
        home.cwd().join("sub").display().to_string()
    );
    let creates: Vec<&Value> = agent
        .agent_requests
        .iter()
        .filter(|r| r["method"] == "terminal/create")
        .collect();
    assert_eq!(creates.len(), 2);
    // The editor labels its terminal with what it was given: the user's command, not a wrapper.
    assert_eq!(
        creates[0]["params"]["args"],
        json!(["-c", "echo from-editor && cd sub"])
    );
    assert_eq!(creates[1]["params"]["args"], json!(["-c", "pwd"]));
    assert_eq!(agent.shutdown().await, Some(0));
}
