//! Issue-5 behaviour through the real binary: fallback providers, cancel during backoff, a
//! stream dropped before any text, notices, context compaction past the threshold, project
//! context from the session cwd, memory and past-session search.

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome, agent_text, chunk_text};

fn write_config(home: &TestHome, extra: &str, mock: &MockLlm) {
    let text = format!(
        "model:\n  provider: custom\n  base_url: {}\n  default: mock-model\n{extra}",
        mock.url()
    );
    std::fs::write(home.path().join("config.yaml"), text).unwrap();
}

async fn start(home: &TestHome) -> (AgentProcess, String) {
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    (agent, session)
}

#[tokio::test]
async fn a_failing_provider_falls_back_to_the_next_one() {
    let main = MockLlm::start().await;
    let backup = MockLlm::start().await;
    main.set_fallback(mock_llm::status(503, None));
    backup.push(mock_llm::text(&["from the backup"]));
    let home = TestHome::new(&main.url());
    write_config(
        &home,
        &format!(
            "fallback_providers:\n  - provider: custom\n    base_url: {}\n    model: backup-model\n",
            backup.url()
        ),
        &main,
    );
    let (mut agent, session) = start(&home).await;
    let (response, updates) = agent.prompt(&session, "hello").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "from the backup");
    let thoughts = chunk_text(&updates, "agent_thought_chunk");
    assert!(thoughts.contains("continuing with custom (backup-model)"), "{thoughts}");
    assert_eq!(main.requests().len(), 4, "main provider: first try + 3 retries");
    assert_eq!(backup.requests()[0]["model"], "backup-model");
    assert_eq!(
        backup.requests()[0]["messages"][1]["content"],
        "hello",
        "same conversation"
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn cancel_during_backoff_answers_cancelled_at_once() {
    let mock = MockLlm::start().await;
    mock.set_fallback(mock_llm::status(429, Some("30")));
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent
        .initialize_with(json!({"fs": {"readTextFile": false, "writeTextFile": false}, "terminal": false, "session": {"notices": {}}}))
        .await;
    let session = agent.new_session(&home.cwd()).await;
    let id = agent
        .send_request(
            "session/prompt",
            json!({"sessionId": session, "prompt": [{"type": "text", "text": "hi"}]}),
        )
        .await;
    // Retries are visible while they happen: a notice, since this client renders them.
    let notice = agent.wait(|m| m["params"]["update"]["sessionUpdate"] == "notice").await;
    assert!(
        notice["params"]["update"]["title"]
            .as_str()
            .unwrap()
            .contains("provider busy (429), retrying in 30 s"),
        "{notice}"
    );
    agent.notify("session/cancel", json!({"sessionId": session})).await;
    // The 30 s Retry-After outlasts the harness's wait: an answer at all means the cancel cut
    // the backoff short.
    let response = agent.response(id).await;
    assert_eq!(response["result"]["stopReason"], "cancelled");
    assert_eq!(mock.requests().len(), 1, "no retry after the cancel");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_stream_dropped_before_any_text_is_retried() {
    let mock = MockLlm::start().await;
    mock.push(mock_llm::cut_stream(&[]));
    mock.push(mock_llm::text(&["second try"]));
    let home = TestHome::new(&mock.url());
    let (mut agent, session) = start(&home).await;
    let (response, updates) = agent.prompt(&session, "hi").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "second try");
    assert!(chunk_text(&updates, "agent_thought_chunk").contains("stream closed early"));
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_long_session_is_compacted_past_the_threshold_and_keeps_everything_stored() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    write_config(
        &home,
        "compression:\n  threshold_tokens: 2000\n  protect_last_n: 4\n",
        &mock,
    );
    let (mut agent, session) = start(&home).await;
    // Five exchanges; the fifth answer reports a prompt far over the threshold.
    for i in 0..5 {
        let usage = if i == 4 { 50_000 } else { 100 };
        mock.push(mock_llm::text_with_usage(
            &[&format!("answer {i} ").repeat(250)],
            usage,
            20,
        ));
        agent.prompt(&session, &format!("question {i}")).await;
    }
    mock.push(mock_llm::text(&[
        "Goal: test compaction. Progress: five questions answered.",
    ]));
    mock.push(mock_llm::text(&["after compaction"]));
    let (response, updates) = agent.prompt(&session, "question 5").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "after compaction");
    let requests = mock.requests();
    let summary_request = &requests[requests.len() - 2];
    assert!(summary_request.get("tools").is_none(), "the summary call has no tools");
    let last = &requests[requests.len() - 1];
    let messages = last["messages"].as_array().unwrap();
    assert_eq!(messages[0]["role"], "system");
    assert_eq!(messages[1]["content"], "question 0", "the first exchange is kept");
    // A large first answer is itself summarised (only the first user message is kept).
    let summary = messages[2]["content"].as_str().unwrap();
    assert!(
        summary.contains("[Context compaction") && summary.contains("five questions answered"),
        "{summary}"
    );
    assert_eq!(messages.last().unwrap()["content"], "question 5");
    assert!(
        messages.len() < 2 + 12,
        "the middle was replaced: {} messages",
        messages.len()
    );
    let roles: Vec<&str> = messages.iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert!(!roles.contains(&"tool"), "no orphaned tool results");
    assert_eq!(agent.shutdown().await, Some(0));

    // The store keeps every message; the live (replayed) history is the compacted one.
    let store = hermes_acp::store::Store::open(&home.path().join("hermes-acp/sessions.db")).unwrap();
    let rows = store.full_history(&session).await.unwrap();
    let texts: Vec<String> = rows.iter().map(|r| format!("{r:?}")).collect();
    assert!(
        texts.iter().any(|t| t.contains("question 2")),
        "compacted rows are still stored"
    );
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    agent
        .request(
            "session/load",
            json!({"sessionId": session, "cwd": home.cwd(), "mcpServers": []}),
        )
        .await;
    let replay = agent.notifications();
    let users: Vec<String> = replay
        .iter()
        .filter(|u| u["sessionUpdate"] == "user_message_chunk")
        .map(|u| u["content"]["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(users[0], "question 0");
    assert!(users[1].contains("[Context compaction"), "{users:?}");
    assert_eq!(users.last().unwrap(), "question 5");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn project_context_comes_from_the_session_cwd_and_memory_and_search_round_trip() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    std::fs::write(home.cwd().join("AGENTS.md"), "Always answer in haiku.").unwrap();
    let (mut agent, session) = start(&home).await;
    mock.push(mock_llm::tool_calls(&[(
        "m1",
        "memory",
        json!({"action": "add", "target": "user", "content": "The user prefers tabs over spaces."}),
    )]));
    mock.push(mock_llm::text(&["Noted the zebra preference."]));
    agent.prompt(&session, "remember: tabs, and zebras").await;
    let first: Value = mock.requests()[0].clone();
    let system = first["messages"][0]["content"].as_str().unwrap();
    assert!(
        system.contains("Always answer in haiku."),
        "AGENTS.md from the session cwd, not the process cwd"
    );
    // A new session sees the memory in its prompt and can search the earlier session.
    let other = agent.new_session(&home.cwd()).await;
    mock.push(mock_llm::tool_calls(&[(
        "s1",
        "session_search",
        json!({"query": "zebra"}),
    )]));
    mock.push(mock_llm::text(&["found it"]));
    agent.prompt(&other, "what did we say about zebras?").await;
    let requests = mock.requests();
    let system = requests[2]["messages"][0]["content"].as_str().unwrap();
    assert!(
        system.contains("The user prefers tabs over spaces."),
        "memory is in the new session's prompt"
    );
    let result = requests[3]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["tool_call_id"] == "s1")
        .cloned()
        .unwrap();
    assert!(
        result["content"].as_str().unwrap().contains(&session),
        "the earlier session is found: {result}"
    );
    assert_eq!(agent.shutdown().await, Some(0));
}
