//! `/undo` and `/checkpoints` end to end through the real binary: a turn that writes a new
//! file, patches another and removes a binary one in the terminal is undone byte for byte and
//! leaves the conversation; a turn that changes nothing takes no checkpoint; after a restart
//! and `session/load`, `/undo` walks back turn by turn (text through the editor's
//! `fs/write_text_file`); the project's own `.git` is never touched.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::support::git::git;
use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome, agent_text};

/// Every file under `dir` with its bytes, sorted.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if entry.file_type().unwrap().is_dir() {
                stack.push(path);
            } else {
                out.push((path.clone(), std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// The text of everything the model was sent in the last request.
fn last_request(mock: &MockLlm) -> String {
    mock.requests().last().unwrap()["messages"].to_string()
}

#[tokio::test]
async fn undo_restores_a_written_a_patched_and_a_removed_file_and_drops_the_turn() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let cwd = home.cwd();
    git(&cwd, &["init", "-q"]);
    std::fs::write(cwd.join("existing.txt"), "alpha\r\nbeta\r\n").unwrap();
    let binary: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
    std::fs::write(cwd.join("victim.bin"), &binary).unwrap();
    let before = files(&cwd);
    let project_git = files(&cwd.join(".git"));

    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&cwd).await;

    // A turn that only reads takes no checkpoint.
    mock.push(mock_llm::tool_calls(&[(
        "call_ls",
        "terminal",
        json!({"command": "ls -la"}),
    )]));
    mock.push(mock_llm::text(&["Two files."]));
    agent.prompt(&session, "what is here?").await;
    let (_, updates) = agent.prompt(&session, "/checkpoints").await;
    assert!(
        agent_text(&updates).starts_with("No checkpoints"),
        "{}",
        agent_text(&updates)
    );
    assert!(
        !home.path().join("checkpoints").exists(),
        "no shadow repository for a read-only turn"
    );

    mock.push(mock_llm::tool_calls(&[
        (
            "call_w",
            "write_file",
            json!({"path": "new.txt", "content": "brand new\n"}),
        ),
        (
            "call_p",
            "patch",
            json!({"mode": "replace", "path": "existing.txt", "old_string": "beta", "new_string": "gamma"}),
        ),
    ]));
    mock.push(mock_llm::tool_calls(&[(
        "call_rm",
        "terminal",
        json!({"command": "rm victim.bin"}),
    )]));
    mock.push(mock_llm::text(&["Changed three files."]));
    let (response, _) = agent.prompt(&session, "change three things").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert!(!cwd.join("victim.bin").exists());
    assert_eq!(
        std::fs::read_to_string(cwd.join("existing.txt")).unwrap(),
        "alpha\r\ngamma\r\n"
    );
    assert!(cwd.join("new.txt").exists());

    let (_, updates) = agent.prompt(&session, "/checkpoints").await;
    let listed = agent_text(&updates);
    assert!(
        listed.contains("1. ") && listed.contains("change three things"),
        "{listed}"
    );
    assert!(listed.contains("3 file(s) changed"), "{listed}");
    assert!(!listed.contains("2. "), "{listed}");

    let (_, updates) = agent.prompt(&session, "/undo").await;
    let reply = agent_text(&updates);
    assert!(
        reply.contains("change three things") && reply.contains("Restored 3 file(s)"),
        "{reply}"
    );
    for line in ["removed new.txt", "restored existing.txt", "recreated victim.bin"] {
        assert!(reply.contains(line), "{line} in {reply}");
    }
    assert_eq!(files(&cwd), before, "the folder is byte-identical to before the turn");
    assert_eq!(files(&cwd.join(".git")), project_git, "the project's .git is untouched");

    // The next request holds the first turn but nothing of the undone one.
    mock.push(mock_llm::text(&["Fresh start."]));
    agent.prompt(&session, "and now?").await;
    let sent = last_request(&mock);
    assert!(sent.contains("what is here?") && sent.contains("and now?"), "{sent}");
    for gone in ["change three things", "call_w", "call_rm", "Changed three files."] {
        assert!(!sent.contains(gone), "{gone} still sent: {sent}");
    }
    let (_, updates) = agent.prompt(&session, "/checkpoints").await;
    assert!(agent_text(&updates).starts_with("No checkpoints"));
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn after_a_restart_and_load_undo_walks_back_turn_by_turn_through_the_editor() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let cwd = home.cwd();
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&cwd).await;
    mock.push(mock_llm::tool_calls(&[(
        "c1",
        "write_file",
        json!({"path": "a.txt", "content": "A1\n"}),
    )]));
    mock.push(mock_llm::text(&["one"]));
    agent.prompt(&session, "turn one").await;
    mock.push(mock_llm::tool_calls(&[
        ("c2", "write_file", json!({"path": "a.txt", "content": "A2\n"})),
        ("c3", "write_file", json!({"path": "sub/b.txt", "content": "B\n"})),
    ]));
    mock.push(mock_llm::text(&["two"]));
    agent.prompt(&session, "turn two").await;
    mock.push(mock_llm::text(&["just talk"]));
    agent.prompt(&session, "turn three").await;
    assert_eq!(agent.shutdown().await, Some(0));

    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent
        .initialize_with(json!({"fs": {"readTextFile": true, "writeTextFile": true}, "terminal": false}))
        .await;
    let load = agent
        .request(
            "session/load",
            json!({"sessionId": session, "cwd": cwd, "mcpServers": []}),
        )
        .await;
    assert!(load.get("result").is_some(), "{load}");
    agent.notifications();

    // Turn three changed no file: only the conversation goes back.
    let (_, updates) = agent.prompt(&session, "/undo").await;
    let reply = agent_text(&updates);
    assert!(
        reply.contains("turn three") && reply.contains("changed no files"),
        "{reply}"
    );
    assert_eq!(std::fs::read_to_string(cwd.join("a.txt")).unwrap(), "A2\n");

    let (_, updates) = agent.prompt(&session, "/undo").await;
    let reply = agent_text(&updates);
    assert!(
        reply.contains("turn two") && reply.contains("Restored 2 file(s)"),
        "{reply}"
    );
    assert_eq!(std::fs::read_to_string(cwd.join("a.txt")).unwrap(), "A1\n");
    assert!(!cwd.join("sub/b.txt").exists());
    // Text went back through the editor, so its open buffer follows.
    let a = cwd.join("a.txt").display().to_string();
    assert_eq!(agent.editor_writes, vec![(a, "A1\n".to_string())]);

    let (_, updates) = agent.prompt(&session, "/undo").await;
    assert!(agent_text(&updates).contains("turn one"));
    assert!(!cwd.join("a.txt").exists());
    let (_, updates) = agent.prompt(&session, "/undo").await;
    assert_eq!(agent_text(&updates), "Nothing to undo.");

    mock.push(mock_llm::text(&["clean slate"]));
    agent.prompt(&session, "hello again").await;
    let messages = mock.requests().last().unwrap()["messages"].as_array().unwrap().clone();
    let roles: Vec<&str> = messages.iter().filter_map(|m: &Value| m["role"].as_str()).collect();
    assert_eq!(roles, ["system", "user"], "only the new prompt is left");
    assert_eq!(agent.shutdown().await, Some(0));
}
