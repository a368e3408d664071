//! `clarify` through the editor's forms (`elicitation/create`, form mode): offered only to an
//! editor that advertises `elicitation.form`; the form the editor gets; accept (a pick or typed
//! text), decline and cancel reaching the model as results it can act on; a form left open
//! until the approvals timeout, or the turn cancelled while it is open, withdrawn with
//! `$/cancel_request`.

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, ElicitationPolicy, TestHome, agent_text};

const QUESTION: &str = "Which deployment target?";

/// An editor with forms (and neither editor files nor terminals).
fn with_forms() -> Value {
    json!({"fs": {"readTextFile": false, "writeTextFile": false}, "terminal": false, "elicitation": {"form": {}}})
}

async fn started(home: &TestHome, capabilities: Value) -> (AgentProcess, String) {
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize_with(capabilities).await;
    let session = agent.new_session(&home.cwd()).await;
    (agent, session)
}

fn ask(mock: &MockLlm, choices: Option<&[&str]>) {
    let mut args = json!({"question": QUESTION});
    if let Some(choices) = choices {
        args["choices"] = json!(choices);
    }
    mock.push(mock_llm::tool_calls(&[("c1", "clarify", args)]));
    mock.push(mock_llm::text(&["ok"]));
}

/// The JSON result the model got for `call_id` in the last request.
fn tool_result(mock: &MockLlm, call_id: &str) -> Value {
    let request = mock.requests().last().cloned().unwrap();
    let message = request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["tool_call_id"] == call_id)
        .cloned()
        .unwrap_or_else(|| panic!("no result for {call_id}: {request:#}"));
    serde_json::from_str(message["content"].as_str().unwrap()).unwrap()
}

fn offered_tools(request: &Value) -> Vec<String> {
    request["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
        .collect()
}

fn elicitations(agent: &AgentProcess) -> Vec<Value> {
    agent
        .agent_requests
        .iter()
        .filter(|r| r["method"] == "elicitation/create")
        .cloned()
        .collect()
}

/// Runs one turn where the model asks (with `choices`) and the editor answers `reply`.
async fn answered(reply: Value, choices: Option<&[&str]>) -> (Value, Vec<Value>, Vec<String>) {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let (mut agent, session) = started(&home, with_forms()).await;
    agent.elicitation_policy = ElicitationPolicy::Reply(reply);
    ask(&mock, choices);
    let (response, updates) = agent.prompt(&session, "deploy it").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "ok");
    // The card says what was asked (kind "other", the default, may be left out).
    let card = updates.iter().find(|u| u["toolCallId"] == "c1").unwrap();
    assert_eq!(card["title"], format!("Ask \u{201c}{QUESTION}\u{201d}"));
    assert!(card["kind"].is_null() || card["kind"] == "other", "{card}");
    let tools = offered_tools(&mock.requests()[0]);
    let forms = elicitations(&agent);
    let result = tool_result(&mock, "c1");
    assert_eq!(agent.shutdown().await, Some(0));
    (result, forms, tools)
}

#[tokio::test]
async fn accept_a_choice_and_the_model_gets_the_answer() {
    let reply = json!({"action": "accept", "content": {"answer": "prod"}});
    let (result, forms, tools) = answered(reply, Some(&["staging", "prod"])).await;
    assert!(tools.contains(&"clarify".to_string()), "{tools:?}");
    assert_eq!(
        result,
        json!({"question": QUESTION, "choices_offered": ["staging", "prod"], "user_response": "prod"})
    );
    // One form, tied to the session and the call's card, the question as its title.
    assert_eq!(forms.len(), 1);
    let form = &forms[0]["params"];
    assert_eq!(form["mode"], "form");
    assert_eq!(form["message"], QUESTION);
    assert_eq!(form["toolCallId"], "c1");
    assert!(form["sessionId"].as_str().is_some_and(|s| !s.is_empty()));
    let schema = &form["requestedSchema"];
    assert_eq!(schema["title"], QUESTION);
    assert_eq!(schema["required"], json!(["answer"]));
    assert_eq!(
        schema["properties"]["answer"]["enum"],
        json!(["staging", "prod", "Other (type your answer)"])
    );
    assert_eq!(schema["properties"]["other"]["type"], "string");
}

#[tokio::test]
async fn accept_with_typed_text_and_an_open_question() {
    let reply = json!({"action": "accept", "content": {"answer": "Other (type your answer)", "other": "qa cluster"}});
    let (result, _, _) = answered(reply, Some(&["staging", "prod"])).await;
    assert_eq!(result["user_response"], "qa cluster");
    let reply = json!({"action": "accept", "content": {"answer": "  whatever is cheapest "}});
    let (result, forms, _) = answered(reply, None).await;
    assert_eq!(
        result,
        json!({"question": QUESTION, "choices_offered": null, "user_response": "whatever is cheapest"})
    );
    let schema = &forms[0]["params"]["requestedSchema"];
    assert_eq!(schema["properties"]["answer"]["type"], "string");
    assert!(schema["properties"]["answer"].get("enum").is_none());
}

#[tokio::test]
async fn decline_is_reported_to_the_model() {
    let (result, _, _) = answered(json!({"action": "decline"}), Some(&["staging", "prod"])).await;
    assert_eq!(result["status"], "declined");
    assert_eq!(result["user_response"], Value::Null);
    assert!(
        result["message"].as_str().unwrap().contains("declined to answer"),
        "{result}"
    );
}

#[tokio::test]
async fn cancel_is_reported_to_the_model() {
    let (result, _, _) = answered(json!({"action": "cancel"}), None).await;
    assert_eq!(result["status"], "cancelled");
    assert!(
        result["message"].as_str().unwrap().contains("without answering"),
        "{result}"
    );
}

#[tokio::test]
async fn not_offered_to_an_editor_without_forms() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    mock.push(mock_llm::text(&["hi"]));
    let (response, _) = agent.prompt(&session, "hello").await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    let tools = offered_tools(&mock.requests()[0]);
    assert!(
        tools.contains(&"todo".to_string()) && !tools.contains(&"clarify".to_string()),
        "{tools:?}"
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn cancelling_the_turn_withdraws_the_open_form() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let (mut agent, session) = started(&home, with_forms()).await;
    agent.elicitation_policy = ElicitationPolicy::Ignore;
    mock.push(mock_llm::tool_calls(&[(
        "c1",
        "clarify",
        json!({"question": QUESTION}),
    )]));
    let id = agent
        .send_request(
            "session/prompt",
            json!({"sessionId": session, "prompt": [{"type": "text", "text": "deploy it"}]}),
        )
        .await;
    let form = agent.wait(|m| m["method"] == "elicitation/create").await;
    agent.notify("session/cancel", json!({"sessionId": session})).await;
    let response = agent.response(id).await;
    assert_eq!(response["result"]["stopReason"], "cancelled", "{response}");
    let withdrawn = agent.wait(|m| m["method"] == "$/cancel_request").await;
    assert_eq!(withdrawn["params"]["requestId"], form["id"]);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn an_unanswered_form_times_out_like_hermes() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    home.add_config("approvals:\n  timeout: 0.5\n");
    let (mut agent, session) = started(&home, with_forms()).await;
    agent.elicitation_policy = ElicitationPolicy::Ignore;
    ask(&mock, Some(&["staging", "prod"]));
    let (response, _) = agent.prompt(&session, "deploy it").await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    let answer = tool_result(&mock, "c1")["user_response"].as_str().unwrap().to_string();
    assert!(
        answer.contains("did not provide a response within the time limit"),
        "{answer}"
    );
    let withdrawn = agent.wait(|m| m["method"] == "$/cancel_request").await;
    assert_eq!(withdrawn["params"]["requestId"], elicitations(&agent)[0]["id"]);
    assert_eq!(agent.shutdown().await, Some(0));
}
