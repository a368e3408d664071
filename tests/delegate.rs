//! `delegate_task` end to end through the real binary: children run in parallel within the
//! parent's turn and their answers are its tool result; the editor sees subagent sessions when
//! it advertises `subagents`, else one live card; cancelling the parent (or one child's
//! session) stops children promptly and drops their provider streams; children's questions
//! name their goal; their tokens count in the parent's usage. The mock routes each child's
//! requests by a marker in its goal (its system prompt), whatever order they arrive in.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome, agent_text};

const ALPHA: &str = "ALPHA: list the modules";
const BETA: &str = "BETA: read the readme";

async fn started(home: &TestHome, subagents: bool) -> (AgentProcess, String) {
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    let mut caps = json!({"fs": {"readTextFile": false, "writeTextFile": false}, "terminal": false});
    if subagents {
        caps["subagents"] = json!({});
    }
    agent.initialize_with(caps).await;
    let session = agent.new_session(&home.cwd()).await;
    (agent, session)
}

fn delegate_two() -> mock_llm::Reply {
    mock_llm::tool_calls(&[(
        "call_d",
        "delegate_task",
        json!({"tasks": [{"goal": ALPHA}, {"goal": BETA, "context": "the repo root"}]}),
    )])
}

/// The delegate_task result the parent's model received.
fn delegate_result(mock: &MockLlm) -> Value {
    let request = mock.requests().last().cloned().unwrap();
    let message = (request["messages"].as_array().unwrap().iter())
        .find(|m| m["tool_call_id"] == "call_d")
        .cloned()
        .expect("the parent got the delegate_task result");
    serde_json::from_str(message["content"].as_str().unwrap()).unwrap()
}

async fn send_prompt(agent: &mut AgentProcess, session: &str, text: &str) -> u64 {
    agent
        .send_request(
            "session/prompt",
            json!({"sessionId": session, "prompt": [{"type": "text", "text": text}]}),
        )
        .await
}

#[tokio::test]
async fn two_children_answer_within_the_turn_on_one_live_card() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    mock.push(delegate_two());
    mock.push_for("ALPHA", mock_llm::text(&["alpha ", "done"]));
    mock.push_for("BETA", mock_llm::text(&["beta done"]));
    mock.push(mock_llm::text(&["Both done."]));
    let (mut agent, session) = started(&home, false).await;
    let (response, updates) = agent.prompt(&session, "split the work").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(
        agent_text(&updates),
        "Both done.",
        "children's text stays off the parent's answer"
    );
    let result = delegate_result(&mock);
    let results = result["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["summary"], "alpha done");
    assert_eq!(results[1]["summary"], "beta done");
    assert!(
        results
            .iter()
            .all(|r| r["status"] == "completed" && r["api_calls"] == 1)
    );
    // Each child had its own focused prompt, its goal as the user message, and no delegation.
    let children: Vec<Value> = (mock.requests().into_iter())
        .filter(|r| {
            r["messages"][0]["content"]
                .as_str()
                .unwrap()
                .contains("focused subagent")
        })
        .collect();
    assert_eq!(children.len(), 2);
    for child in &children {
        let tools: Vec<&str> = (child["tools"].as_array().unwrap().iter())
            .map(|t| t["function"]["name"].as_str().unwrap())
            .collect();
        assert!(
            !tools.contains(&"delegate_task") && !tools.contains(&"memory"),
            "{tools:?}"
        );
        assert!(tools.contains(&"read_file"));
    }
    let beta = children.iter().find(|c| c["messages"][1]["content"] == BETA).unwrap();
    assert!(
        beta["messages"][0]["content"]
            .as_str()
            .unwrap()
            .contains("CONTEXT:\nthe repo root")
    );
    // The card's live text showed one line per child, ending with both completed.
    let progress: Vec<String> = (updates.iter())
        .filter(|u| u["toolCallId"] == "call_d" && u["sessionUpdate"] == "tool_call_update")
        .filter_map(|u| u["content"][0]["content"]["text"].as_str().map(str::to_string))
        .collect();
    assert!(
        progress
            .iter()
            .any(|t| t == "1. ALPHA: list the modules — completed\n2. BETA: read the readme — completed"),
        "{progress:#?}"
    );
    assert!(!updates.iter().any(|u| u["sessionUpdate"] == "subagent_update"));
    // Usage: the parent's two calls (150/30, 100/20) plus each child's (100/20).
    assert_eq!(response["result"]["usage"]["inputTokens"], 450, "{response}");
    assert_eq!(response["result"]["usage"]["outputTokens"], 90, "{response}");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn children_are_subagent_sessions_when_the_editor_shows_them() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    mock.push(delegate_two());
    mock.push_for("ALPHA", mock_llm::reasoning_then_text(&["thinking"], &["alpha done"]));
    mock.push_for("BETA", mock_llm::text(&["beta done"]));
    mock.push(mock_llm::text(&["Both done."]));
    let (mut agent, session) = started(&home, true).await;
    agent.session_updates();
    let id = send_prompt(&mut agent, &session, "split the work").await;
    let response = agent.response(id).await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let updates = agent.session_updates();
    let announced: Vec<&Value> = (updates.iter())
        .filter(|u| u["sessionId"] == session.as_str() && u["update"]["sessionUpdate"] == "subagent_update")
        .collect();
    let child_of = |goal: &str| {
        (announced.iter())
            .find(|u| u["update"]["title"] == goal)
            .map(|u| u["update"]["sessionId"].as_str().unwrap().to_string())
            .unwrap_or_else(|| panic!("{goal} announced: {announced:#?}"))
    };
    let (alpha, beta) = (child_of(ALPHA), child_of(BETA));
    assert_ne!(alpha, beta);
    for child in [&alpha, &beta] {
        let states: Vec<&Value> = (announced.iter())
            .filter(|u| u["update"]["sessionId"] == child.as_str())
            .map(|u| &u["update"]["state"])
            .collect();
        assert_eq!(states[0]["state"], "running", "{states:#?}");
        assert_eq!(states.last().unwrap()["state"], "idle");
        assert_eq!(states.last().unwrap()["stopReason"], "end_turn");
    }
    let first = announced
        .iter()
        .find(|u| u["update"]["sessionId"] == beta.as_str())
        .unwrap();
    assert_eq!(first["update"]["description"], "the repo root");
    assert!(first["update"]["capabilities"]["cancel"].is_object());
    // The child's own session carries its task, thoughts and answer; the parent's does not.
    let on = |child: &str, kind: &str| -> String {
        (updates.iter())
            .filter(|u| u["sessionId"] == child && u["update"]["sessionUpdate"] == kind)
            .filter_map(|u| u["update"]["content"]["text"].as_str())
            .collect()
    };
    assert_eq!(on(&alpha, "user_message_chunk"), ALPHA);
    assert_eq!(on(&alpha, "agent_thought_chunk"), "thinking");
    assert_eq!(on(&alpha, "agent_message_chunk"), "alpha done");
    assert_eq!(on(&beta, "agent_message_chunk"), "beta done");
    assert_eq!(on(&session, "agent_message_chunk"), "Both done.");
    assert_eq!(delegate_result(&mock)["results"][0]["summary"], "alpha done");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn cancel_during_a_child_slow_stream_ends_the_turn_and_drops_the_stream() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    mock.push(mock_llm::tool_calls(&[(
        "call_d",
        "delegate_task",
        json!({"goal": ALPHA}),
    )]));
    // 50 s of chunks, longer than the harness waits: only the cancel can end this turn in time.
    mock.push_for("ALPHA", mock_llm::slow_text(1000, Duration::from_millis(50)));
    let (mut agent, session) = started(&home, false).await;
    let id = send_prompt(&mut agent, &session, "delegate slowly").await;
    // The child is streaming once its line says it is writing.
    agent
        .wait(|m| {
            m["params"]["update"]["toolCallId"] == "call_d"
                && (m["params"]["update"]["content"][0]["content"]["text"].as_str())
                    .is_some_and(|t| t.ends_with("running: writing"))
        })
        .await;
    agent.notify("session/cancel", json!({"sessionId": session})).await;
    let response = agent.response(id).await;
    assert_eq!(response["result"]["stopReason"], "cancelled", "{response}");
    assert!(
        mock.wait_for(Duration::from_secs(5), |m| m.disconnects() == 1).await,
        "the child's provider stream was dropped"
    );
    let requests = mock.requests().len();
    // The next turn runs normally, and no child asked the provider for more meanwhile.
    mock.push(mock_llm::text(&["ok"]));
    let (response, _) = agent.prompt(&session, "next").await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    assert_eq!(mock.requests().len(), requests + 1);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn cancelling_a_child_session_stops_only_that_child() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    mock.push(delegate_two());
    mock.push_for("ALPHA", mock_llm::slow_text(1000, Duration::from_millis(50)));
    mock.push_for("BETA", mock_llm::text(&["beta done"]));
    mock.push(mock_llm::text(&["One was stopped."]));
    let (mut agent, session) = started(&home, true).await;
    let id = send_prompt(&mut agent, &session, "split the work").await;
    let announced = agent
        .wait(|m| {
            m["params"]["update"]["sessionUpdate"] == "subagent_update" && m["params"]["update"]["title"] == ALPHA
        })
        .await;
    let alpha = announced["params"]["update"]["sessionId"].as_str().unwrap().to_string();
    agent
        .wait(|m| {
            m["params"]["sessionId"] == alpha.as_str()
                && m["params"]["update"]["sessionUpdate"] == "agent_message_chunk"
        })
        .await;
    agent.notify("session/cancel", json!({"sessionId": alpha})).await;
    let response = agent.response(id).await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let results = delegate_result(&mock)["results"].clone();
    assert_eq!(results[0]["status"], "interrupted", "{results:#}");
    assert_eq!(results[1]["status"], "completed");
    assert!(
        mock.wait_for(Duration::from_secs(5), |m| m.disconnects() == 1).await,
        "the cancelled child's provider stream was dropped"
    );
    let updates = agent.session_updates();
    let last_state = (updates.iter())
        .rfind(|u| u["update"]["sessionUpdate"] == "subagent_update" && u["update"]["sessionId"] == alpha.as_str())
        .map(|u| u["update"]["state"].clone())
        .unwrap();
    assert_eq!(last_state, json!({"state": "idle", "stopReason": "cancelled"}));
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_childs_permission_question_names_its_goal() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    std::fs::create_dir_all(home.cwd().join("build")).unwrap();
    mock.push(mock_llm::tool_calls(&[(
        "call_d",
        "delegate_task",
        json!({"goal": ALPHA}),
    )]));
    mock.push_for(
        "ALPHA",
        mock_llm::tool_calls(&[("call_rm", "terminal", json!({"command": "rm -rf build"}))]),
    );
    mock.push_for("ALPHA", mock_llm::text(&["cleaned"]));
    mock.push(mock_llm::text(&["Done."]));
    let (mut agent, session) = started(&home, false).await;
    let (response, updates) = agent.prompt(&session, "clean up").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let asked: Vec<&Value> = (agent.agent_requests.iter())
        .filter(|r| r["method"] == "session/request_permission")
        .collect();
    assert_eq!(asked.len(), 1, "{asked:#?}");
    let question = &asked[0]["params"];
    assert_eq!(question["sessionId"], session.as_str());
    let text = question["toolCall"]["content"][0]["content"]["text"].as_str().unwrap();
    assert!(
        text.starts_with("Subagent \u{201c}ALPHA: list the modules\u{201d} needs your approval"),
        "{text}"
    );
    // It points at the child's call, shown as a nested card of the parent session.
    let card = question["toolCall"]["toolCallId"].as_str().unwrap();
    assert!(card.starts_with("call_d.") && card.ends_with(".call_rm"), "{card}");
    assert!(
        updates
            .iter()
            .any(|u| u["toolCallId"] == card && u["sessionUpdate"] == "tool_call")
    );
    assert!(!home.cwd().join("build").exists(), "allowed once, the command ran");
    assert_eq!(delegate_result(&mock)["results"][0]["summary"], "cleaned");
    assert_eq!(agent.shutdown().await, Some(0));
}
