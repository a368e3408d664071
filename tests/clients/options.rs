//! One option per kind in every question a client can get, and what the options mean: an
//! answer naming an option the question did not offer allows nothing; "for this session" is
//! kept for the project only through `/permissions always`.

use std::collections::HashSet;

use serde_json::json;

use super::{permission_requests, started};
use crate::support::mock_llm::{self, MockLlm};
use crate::support::{PermissionPolicy, TestHome, agent_text};

/// Every kind of question — a command, one without the sandbox, an edit in the project, one
/// outside it, a new file, a subagent's command — offers each option kind at most once.
#[tokio::test]
async fn no_question_offers_two_options_of_one_kind() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.cwd().join("dist")).unwrap();
    std::fs::write(home.cwd().join("a.txt"), "a\n").unwrap();
    let outside_file = outside.path().join("x.txt").display().to_string();
    mock.push(mock_llm::tool_calls(&[
        ("c1", "terminal", json!({"command": "rm -rf dist"})),
        ("c2", "terminal", json!({"command": "ls", "unsandboxed": true})),
        ("e1", "write_file", json!({"path": "a.txt", "content": "b\n"})),
        ("e2", "write_file", json!({"path": outside_file, "content": "x\n"})),
        ("e3", "write_file", json!({"path": "new.txt", "content": "n\n"})),
        ("d1", "delegate_task", json!({"goal": "KID: remove dist"})),
    ]));
    mock.push_for(
        "KID",
        mock_llm::tool_calls(&[("k1", "terminal", json!({"command": "rm -rf dist"}))]),
    );
    mock.push_for("KID", mock_llm::text(&["ok"]));
    mock.push(mock_llm::text(&["done"]));
    let (mut agent, session) = started(&home, json!([])).await;
    agent.permission_policy = PermissionPolicy::Select("deny");
    let (response, _) = agent.prompt(&session, "do it all").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let asked = permission_requests(&agent);
    assert!(asked.len() >= 6, "{asked:#?}");
    for question in &asked {
        let kinds: Vec<&str> = (question["options"].as_array().unwrap().iter())
            .map(|o| o["kind"].as_str().unwrap())
            .collect();
        let unique: HashSet<&str> = kinds.iter().copied().collect();
        assert_eq!(unique.len(), kinds.len(), "two options of one kind: {question:#}");
        assert!(
            kinds.contains(&"allow_once") && kinds.contains(&"reject_once"),
            "{question:#}"
        );
        let title = question["toolCall"]["title"].as_str().unwrap_or_default();
        assert!(!title.is_empty(), "a question without a title: {question:#}");
    }
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn an_option_never_offered_allows_nothing_and_the_session_rule_can_be_kept() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    std::fs::create_dir_all(home.cwd().join("cache")).unwrap();
    let (mut agent, session) = started(&home, json!([])).await;
    // The persistent `allow_always` of earlier versions is no longer offered: a denial.
    agent.permission_policy = PermissionPolicy::Select("allow_always");
    mock.push(mock_llm::tool_calls(&[(
        "t1",
        "terminal",
        json!({"command": "rm -rf cache"}),
    )]));
    mock.push(mock_llm::text(&["not allowed"]));
    agent.prompt(&session, "clean cache").await;
    assert!(
        home.cwd().join("cache").exists(),
        "an option never offered allows nothing"
    );
    agent.permission_policy = PermissionPolicy::Select("allow_session");
    mock.push(mock_llm::tool_calls(&[(
        "t2",
        "terminal",
        json!({"command": "rm -rf cache"}),
    )]));
    mock.push(mock_llm::text(&["done"]));
    agent.prompt(&session, "clean cache").await;
    assert!(!home.cwd().join("cache").exists());
    let (_, updates) = agent.prompt(&session, "/permissions").await;
    let listed = agent_text(&updates);
    assert!(
        listed.contains("No remembered permission rules")
            && listed.contains("Allowed for this session only:\n  1. `rm -rf cache`"),
        "{listed}"
    );
    let (_, updates) = agent.prompt(&session, "/permissions always 1").await;
    assert_eq!(
        agent_text(&updates),
        "Always allowed in this project from now on:\n  `rm -rf cache`"
    );
    let (_, updates) = agent.prompt(&session, "/permissions").await;
    let listed = agent_text(&updates);
    assert!(listed.contains("1. allow: `rm -rf cache`"), "{listed}");
    assert!(
        !listed.contains("Allowed for this session only"),
        "kept, so listed once: {listed}"
    );
    // Another session of the project is not asked any more.
    let other = agent.new_session(&home.cwd()).await;
    std::fs::create_dir_all(home.cwd().join("cache")).unwrap();
    mock.push(mock_llm::tool_calls(&[(
        "t3",
        "terminal",
        json!({"command": "rm -rf cache"}),
    )]));
    mock.push(mock_llm::text(&["done again"]));
    agent.prompt(&other, "clean cache").await;
    assert!(!home.cwd().join("cache").exists());
    assert_eq!(
        permission_requests(&agent).len(),
        2,
        "asked twice, both in the first session"
    );
    assert_eq!(agent.shutdown().await, Some(0));
}
