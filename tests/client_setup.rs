//! What the editor sets up on a session beside its cwd, end to end through the real binary:
//! its own system prompt (`systemPrompt`) reaching every model request and kept across a
//! restart and `session/load`, unsupported prompts refused with -32602; a second project
//! folder (`additionalDirectories`) whose files are read, edited, searched, written by a
//! contained command and put back by `/undo`, listed by `session/list`; a missing folder
//! refused with -32602.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome, agent_text};

/// The system message of the newest model request.
fn last_system_prompt(mock: &MockLlm) -> String {
    let request = mock.requests().last().cloned().expect("a model request");
    request["messages"][0]["content"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// What the model was told a tool call returned.
fn tool_result(mock: &MockLlm, call_id: &str) -> String {
    (mock.requests().iter())
        .flat_map(|r| r["messages"].as_array().cloned().unwrap_or_default())
        .find(|m| m["role"] == "tool" && m["tool_call_id"] == call_id)
        .map(|m| m["content"].to_string())
        .unwrap_or_else(|| panic!("no result for {call_id}"))
}

fn error_data(response: &Value) -> String {
    response["error"]["data"].as_str().unwrap_or_default().to_string()
}

async fn session_count(agent: &mut AgentProcess) -> usize {
    let listed = agent.request("session/list", json!({})).await;
    listed["result"]["sessions"].as_array().map_or(0, Vec::len)
}

#[tokio::test]
async fn an_appended_system_prompt_reaches_the_model_and_survives_a_restart_and_load() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let cwd = home.cwd();
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    let init = agent.initialize().await;
    let capabilities = &init["result"]["agentCapabilities"]["sessionCapabilities"];
    assert_eq!(
        capabilities["systemPrompt"],
        json!({"mode": {"override": {}}}),
        "{init}"
    );
    assert_eq!(capabilities["additionalDirectories"], json!({}), "{init}");

    let instructions = "Always answer in Esperanto, whatever the question.";
    let created = agent
        .request(
            "session/new",
            json!({"cwd": cwd, "mcpServers": [], "systemPrompt": {"mode": "append", "content": [{"type": "text", "text": instructions}]}}),
        )
        .await;
    let session = created["result"]["sessionId"].as_str().expect("a session").to_string();
    mock.push(mock_llm::text(&["Saluton!"]));
    agent.prompt(&session, "hello").await;
    let system = last_system_prompt(&mock);
    // Added after the agent's own instructions, which stay.
    assert!(system.starts_with("You are Hermes Agent"), "{system}");
    assert!(system.trim_end().ends_with(instructions), "{system}");
    assert_eq!(agent.shutdown().await, Some(0));

    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let loaded = agent
        .request(
            "session/load",
            json!({"sessionId": session, "cwd": cwd, "mcpServers": []}),
        )
        .await;
    assert!(loaded.get("result").is_some(), "{loaded}");
    mock.push(mock_llm::text(&["Denove saluton!"]));
    agent.prompt(&session, "hello again").await;
    assert!(last_system_prompt(&mock).trim_end().ends_with(instructions));
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn an_override_replaces_the_identity_only_and_unsupported_prompts_are_invalid_params() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let cwd = home.cwd();
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let text = |t: &str| json!([{"type": "text", "text": t}]);
    for (prompt, expected) in [
        (
            json!({"mode": "_prepend", "content": text("x")}),
            "\"_prepend\" is not supported",
        ),
        (
            json!({"mode": "replace", "content": text("x")}),
            "\"replace\" is not supported",
        ),
        (json!({"mode": "append", "content": []}), "must not be empty"),
        (
            json!({"mode": "append", "content": [{"type": "resource_link", "uri": "file:///x", "name": "x"}]}),
            "only text blocks",
        ),
    ] {
        let refused = agent
            .request(
                "session/new",
                json!({"cwd": cwd, "mcpServers": [], "systemPrompt": prompt}),
            )
            .await;
        assert_eq!(refused["error"]["code"], -32602, "{refused}");
        assert!(error_data(&refused).contains(expected), "{refused}");
    }

    let created = agent
        .request(
            "session/new",
            json!({"cwd": cwd, "mcpServers": [], "systemPrompt": {"mode": "override", "content": [{"type": "text", "text": "You are Ada, a terse code reviewer."}]}}),
        )
        .await;
    let session = created["result"]["sessionId"].as_str().expect("a session").to_string();
    // Nothing was created by the refused requests.
    assert_eq!(
        session_count(&mut agent).await,
        0,
        "sessions without history are not listed"
    );
    mock.push(mock_llm::text(&["Noted."]));
    agent.prompt(&session, "review this").await;
    let system = last_system_prompt(&mock);
    assert!(system.starts_with("You are Ada, a terse code reviewer."), "{system}");
    assert!(!system.contains("You are Hermes Agent"), "{system}");
    // The operating rules and the tools stay.
    assert!(system.contains("if one is denied, do not retry it") && system.contains("Available tools:"));
    assert_eq!(session_count(&mut agent).await, 1);
    assert_eq!(agent.shutdown().await, Some(0));
}

/// A second project folder, canonical (the temp dir may be a symlink).
fn second_folder() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().canonicalize().unwrap();
    (dir, path)
}

fn path_text(path: &Path) -> String {
    path.display().to_string()
}

#[tokio::test]
async fn a_second_folder_is_read_edited_searched_written_by_a_command_and_undone() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let cwd = home.cwd();
    let (_keep, lib) = second_folder();
    std::fs::write(lib.join("notes.txt"), "alpha\nneedle-one\n").unwrap();
    std::fs::write(cwd.join("main.txt"), "needle-two\n").unwrap();
    let notes = lib.join("notes.txt");
    let made = lib.join("made.txt");

    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let created = agent
        .request(
            "session/new",
            json!({"cwd": cwd, "mcpServers": [], "additionalDirectories": [lib]}),
        )
        .await;
    let session = created["result"]["sessionId"].as_str().expect("a session").to_string();
    // Edits inside the project go through without a question in accept_edits: the second
    // folder is inside the project.
    let set = agent
        .request(
            "session/set_mode",
            json!({"sessionId": session, "modeId": "accept_edits"}),
        )
        .await;
    assert!(set.get("result").is_some(), "{set}");

    mock.push(mock_llm::tool_calls(&[
        ("c_read", "read_file", json!({"path": path_text(&notes)})),
        (
            "c_search",
            "search_files",
            json!({"pattern": "needle-", "output_mode": "files_only"}),
        ),
    ]));
    mock.push(mock_llm::tool_calls(&[(
        "c_patch",
        "patch",
        json!({"mode": "replace", "path": path_text(&notes), "old_string": "alpha", "new_string": "beta"}),
    )]));
    mock.push(mock_llm::tool_calls(&[(
        "c_cmd",
        "terminal",
        json!({"command": "printf 'made by a command\\n' > made.txt && cat made.txt", "workdir": path_text(&lib)}),
    )]));
    mock.push(mock_llm::text(&["Done in both folders."]));
    agent.notifications();
    let (response, _) = agent.prompt(&session, "work in the library").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");

    assert!(tool_result(&mock, "c_read").contains("needle-one"));
    let found = tool_result(&mock, "c_search");
    assert!(
        found.contains(&path_text(&notes)) && found.contains("main.txt"),
        "{found}"
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "beta\nneedle-one\n");
    let ran = tool_result(&mock, "c_cmd");
    assert!(ran.contains("made by a command") && !ran.contains("denied"), "{ran}");
    assert_eq!(std::fs::read_to_string(&made).unwrap(), "made by a command\n");
    // No question was needed for any of it.
    assert!(
        !agent
            .agent_requests
            .iter()
            .any(|r| r["method"] == "session/request_permission"),
        "{:#?}",
        agent.agent_requests
    );

    let listed = agent.request("session/list", json!({})).await;
    assert_eq!(
        listed["result"]["sessions"][0]["additionalDirectories"],
        json!([lib]),
        "{listed}"
    );

    let (_, updates) = agent.prompt(&session, "/undo").await;
    let reply = agent_text(&updates);
    assert!(reply.contains("work in the library"), "{reply}");
    assert_eq!(
        std::fs::read_to_string(&notes).unwrap(),
        "alpha\nneedle-one\n",
        "{reply}"
    );
    assert!(!made.exists(), "{reply}");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_folder_that_does_not_exist_is_invalid_params_on_new_load_and_fork() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let cwd = home.cwd();
    let missing = cwd.join("no-such-folder");
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let refused = agent
        .request(
            "session/new",
            json!({"cwd": cwd, "mcpServers": [], "additionalDirectories": [missing]}),
        )
        .await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let data = error_data(&refused);
    assert!(
        data.contains("additionalDirectories") && data.contains(&path_text(&missing)),
        "{data}"
    );
    let relative = agent
        .request(
            "session/new",
            json!({"cwd": cwd, "mcpServers": [], "additionalDirectories": ["lib"]}),
        )
        .await;
    assert!(error_data(&relative).contains("must be an absolute path"), "{relative}");

    let session = agent.new_session(&cwd).await;
    mock.push(mock_llm::text(&["ok"]));
    agent.prompt(&session, "hi").await;
    for method in ["session/load", "session/resume", "session/fork"] {
        let refused = agent
            .request(
                method,
                json!({"sessionId": session, "cwd": cwd, "mcpServers": [], "additionalDirectories": [missing]}),
            )
            .await;
        assert_eq!(refused["error"]["code"], -32602, "{method}: {refused}");
        assert!(
            error_data(&refused).contains(&path_text(&missing)),
            "{method}: {refused}"
        );
    }
    // Nothing changed: one session, no folders.
    let listed = agent.request("session/list", json!({})).await;
    assert_eq!(
        listed["result"]["sessions"].as_array().map(Vec::len),
        Some(1),
        "{listed}"
    );
    assert!(
        listed["result"]["sessions"][0].get("additionalDirectories").is_none(),
        "{listed}"
    );
    assert_eq!(agent.shutdown().await, Some(0));
}
