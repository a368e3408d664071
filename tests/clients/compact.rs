//! `/compact` (and Hermes' `/compress`) compacts now, however short the conversation:
//! everything but the last exchange goes into one summarisation request that carries the
//! user's instructions, and a client that advertises `session.compaction` sees the lifecycle
//! as `compaction_update`s besides the text reply.

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome, agent_text};

async fn three_exchanges(home: &TestHome, mock: &MockLlm, compaction: bool) -> (AgentProcess, String) {
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    let mut caps = json!({"fs": {"readTextFile": false, "writeTextFile": false}, "terminal": false});
    if compaction {
        caps["session"] = json!({"compaction": {}});
    }
    agent.initialize_with(caps).await;
    let session = agent.new_session(&home.cwd()).await;
    for i in 0..3 {
        mock.push(mock_llm::text(&[&format!("answer {i}")]));
        agent.prompt(&session, &format!("question {i}")).await;
    }
    (agent, session)
}

/// The text of the summarisation request: the conversation it was asked to summarise.
fn request_text(request: &Value) -> String {
    request["messages"].to_string()
}

#[tokio::test]
async fn compact_on_three_exchanges_summarises_all_but_the_last_with_the_instructions() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let (mut agent, session) = three_exchanges(&home, &mock, true).await;
    mock.push(mock_llm::text(&["Files: a.rs, b.rs."]));
    let (response, updates) = agent.prompt(&session, "/compact keep only the file names").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let reply = agent_text(&updates);
    assert!(reply.starts_with("Context compressed: 6 -> 3 messages"), "{reply}");
    let summary_request = request_text(mock.requests().last().unwrap());
    assert!(
        summary_request.contains("keep only the file names"),
        "{summary_request}"
    );
    assert!(
        summary_request.contains("question 0") && summary_request.contains("answer 1"),
        "the first two exchanges are summarised: {summary_request}"
    );
    assert!(
        !summary_request.contains("question 2"),
        "the last exchange stays as it is: {summary_request}"
    );
    let lifecycle: Vec<&str> = (updates.iter())
        .filter(|u| u["sessionUpdate"] == "compaction_update")
        .filter_map(|u| u["status"].as_str())
        .collect();
    assert_eq!(lifecycle, ["in_progress", "completed"], "{updates:#?}");
    // The next request carries the summary and the last exchange only.
    mock.push(mock_llm::text(&["ok"]));
    agent.prompt(&session, "go on").await;
    let next = mock.requests().last().unwrap().clone();
    let roles: Vec<&str> = (next["messages"].as_array().unwrap().iter())
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["system", "user", "user", "assistant", "user"], "{next}");
    assert!(
        next["messages"][1]["content"]
            .as_str()
            .unwrap()
            .contains("Files: a.rs, b.rs.")
    );
    assert_eq!(next["messages"][2]["content"], "question 2");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn compress_is_the_same_command_and_one_exchange_has_nothing_to_compress() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let (mut agent, session) = three_exchanges(&home, &mock, false).await;
    mock.push(mock_llm::text(&["Summary."]));
    let (_, updates) = agent.prompt(&session, "/compress").await;
    assert!(agent_text(&updates).starts_with("Context compressed:"), "{updates:#?}");
    assert!(
        !updates.iter().any(|u| u["sessionUpdate"] == "compaction_update"),
        "not advertised, not sent"
    );
    let fresh = agent.new_session(&home.cwd()).await;
    mock.push(mock_llm::text(&["only answer"]));
    agent.prompt(&fresh, "only question").await;
    let requests = mock.requests().len();
    let (_, updates) = agent.prompt(&fresh, "/compact").await;
    assert_eq!(
        agent_text(&updates),
        "Nothing to compress yet — all 2 messages belong to the last exchange."
    );
    assert_eq!(mock.requests().len(), requests, "no summarisation request");
    assert_eq!(agent.shutdown().await, Some(0));
}
