//! Reasoning effort through the real binary: the `thought_level` option offers the levels of
//! the session's model (and is hidden for a model without them), a choice is announced with
//! `config_option_update`, reaches the next request and survives a restart;
//! `agent.reasoning_effort` is the default; and on Anthropic a thinking tool loop sends the
//! signed thinking block back, first, in the request that continues it.

use serde_json::{Value, json};

use crate::support::mock_anthropic::{self, MockAnthropic};
use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome};

pub(crate) const OPTION: &str = "reasoning_effort";

/// A home whose chat-completions model is `model`, with extra config lines.
pub(crate) fn home_with(mock: &MockLlm, model: &str, extra: &str) -> TestHome {
    let home = TestHome::unconfigured();
    let config = format!(
        "model:\n  provider: custom\n  base_url: {}\n  default: {model}\n{extra}",
        mock.url()
    );
    std::fs::write(home.path().join("config.yaml"), config).unwrap();
    home
}

pub(crate) fn effort_option(options: &Value) -> Option<&Value> {
    options.as_array()?.iter().find(|o| o["id"] == OPTION)
}

pub(crate) fn level_ids(option: &Value) -> Vec<&str> {
    option["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["value"].as_str().unwrap())
        .collect()
}

pub(crate) async fn new_session(agent: &mut AgentProcess, home: &TestHome) -> (String, Value) {
    let created = agent
        .request("session/new", json!({"cwd": home.cwd(), "mcpServers": []}))
        .await;
    let session = created["result"]["sessionId"].as_str().unwrap().to_string();
    (session, created["result"]["configOptions"].clone())
}

pub(crate) async fn set(agent: &mut AgentProcess, session: &str, id: &str, value: &str) -> Value {
    agent
        .request(
            "session/set_config_option",
            json!({"sessionId": session, "configId": id, "value": value}),
        )
        .await
}

#[tokio::test]
async fn thought_level_is_offered_set_announced_sent_and_kept_across_a_restart() {
    let mock = MockLlm::start().await;
    let home = home_with(&mock, "o4-mini", "");
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let (session, options) = new_session(&mut agent, &home).await;
    let option = effort_option(&options).unwrap_or_else(|| panic!("no effort option: {options}"));
    assert_eq!(option["category"], "thought_level", "{option}");
    assert_eq!(option["type"], "select");
    assert_eq!(option["currentValue"], "medium", "the provider's default");
    assert_eq!(level_ids(option), ["low", "medium", "high"]);

    // A level the model lacks, or no level at all, is refused with invalid params.
    for wrong in ["xhigh", "turbo"] {
        let refused = set(&mut agent, &session, OPTION, wrong).await;
        assert_eq!(refused["error"]["code"], -32602, "{refused}");
    }
    let changed = set(&mut agent, &session, OPTION, "high").await;
    let option = effort_option(&changed["result"]["configOptions"]).unwrap();
    assert_eq!(option["currentValue"], "high", "{changed}");
    let announced = agent.notifications();
    assert!(
        announced.iter().any(|u| u["sessionUpdate"] == "config_option_update"
            && effort_option(&u["configOptions"]).is_some_and(|o| o["currentValue"] == "high")),
        "{announced:?}"
    );

    mock.push(mock_llm::text(&["thought hard"]));
    agent.prompt(&session, "think").await;
    assert_eq!(mock.requests().last().unwrap()["reasoning_effort"], "high");
    assert_eq!(agent.shutdown().await, Some(0));

    // After a restart the session keeps its level, shown and sent.
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let loaded = agent
        .request(
            "session/load",
            json!({"sessionId": session, "cwd": home.cwd(), "mcpServers": []}),
        )
        .await;
    let option = effort_option(&loaded["result"]["configOptions"]).unwrap_or_else(|| panic!("{loaded}"));
    assert_eq!(option["currentValue"], "high");
    mock.push(mock_llm::text(&["still hard"]));
    agent.prompt(&session, "again").await;
    assert_eq!(mock.requests().last().unwrap()["reasoning_effort"], "high");

    // A model without reasoning hides the option and sends no effort.
    let switched = set(&mut agent, &session, "model", "mock-model").await;
    assert!(
        effort_option(&switched["result"]["configOptions"]).is_none(),
        "{switched}"
    );
    let refused = set(&mut agent, &session, OPTION, "high").await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    mock.push(mock_llm::text(&["plain"]));
    agent.prompt(&session, "plain").await;
    let last = mock.requests().last().unwrap().clone();
    assert_eq!(last["model"], "mock-model");
    assert!(last.get("reasoning_effort").is_none(), "{last}");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_model_without_reasoning_has_no_option_until_model_switches_to_one() {
    let mock = MockLlm::start().await;
    let config = "  allow_custom: true\nagent:\n  reasoning_effort: high\n";
    let home = home_with(&mock, "mock-model", config);
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let (session, options) = new_session(&mut agent, &home).await;
    assert!(effort_option(&options).is_none(), "{options}");
    mock.push(mock_llm::text(&["ok"]));
    agent.prompt(&session, "hi").await;
    assert!(mock.requests()[0].get("reasoning_effort").is_none());

    // `/model` to a reasoning model announces the options again, now with its levels.
    let (_, updates) = agent.prompt(&session, "/model o4-mini").await;
    let announced = updates
        .iter()
        .find(|u| u["sessionUpdate"] == "config_option_update")
        .unwrap_or_else(|| panic!("no config_option_update: {updates:#?}"));
    let option = effort_option(&announced["configOptions"]).unwrap();
    assert_eq!(
        option["currentValue"], "high",
        "the config's level, now that it applies"
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn agent_reasoning_effort_is_the_default_fitted_to_the_model() {
    let mock = MockLlm::start().await;
    // Hermes' spelling `minimal`: o3 has no such level, so it thinks at low.
    let home = home_with(&mock, "o3", "agent:\n  reasoning_effort: minimal\n");
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let (session, options) = new_session(&mut agent, &home).await;
    assert_eq!(effort_option(&options).unwrap()["currentValue"], "low", "{options}");
    mock.push(mock_llm::text(&["ok"]));
    agent.prompt(&session, "hi").await;
    assert_eq!(mock.requests()[0]["reasoning_effort"], "low");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn anthropic_thinking_signatures_go_back_first_in_the_tool_loop() {
    let mock = MockAnthropic::start().await;
    let home = anthropic_home();
    let mut agent = mock.spawn_agent(home.path()).await;
    agent.initialize().await;
    let (session, options) = new_session(&mut agent, &home).await;
    let option = effort_option(&options).unwrap_or_else(|| panic!("{options}"));
    assert_eq!(option["currentValue"], "high");
    assert_eq!(level_ids(option), ["none", "low", "medium", "high"]);

    let input = "{\"todos\": [{\"id\": \"1\", \"content\": \"Think\", \"status\": \"pending\"}]}";
    mock.push(mock_anthropic::thinking_then_tool_use(
        "I should plan.",
        "SIGNED-abc123",
        "toolu_01",
        "todo",
        input,
    ));
    mock.push(mock_anthropic::text(&["Planned."]));
    let (response, _) = agent.prompt(&session, "plan it").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");

    let bodies = mock.bodies();
    assert_eq!(bodies.len(), 2);
    for body in &bodies {
        assert_eq!(body["thinking"], json!({"type": "enabled", "budget_tokens": 16000}));
        assert!(body["max_tokens"].as_u64().unwrap() > 16000);
        assert!(body.get("temperature").is_none());
    }
    let assistant = &bodies[1]["messages"][1];
    assert_eq!(assistant["role"], "assistant");
    assert_eq!(
        assistant["content"][0],
        json!({"type": "thinking", "thinking": "I should plan.", "signature": "SIGNED-abc123"})
    );
    assert_eq!(assistant["content"][1]["type"], "tool_use");
    assert_eq!(assistant["content"][1]["id"], "toolu_01");

    // Switching thinking off: the next request says so.
    let off = set(&mut agent, &session, OPTION, "none").await;
    assert_eq!(
        effort_option(&off["result"]["configOptions"]).unwrap()["currentValue"],
        "none"
    );
    mock.push(mock_anthropic::text(&["Quick."]));
    agent.prompt(&session, "quick").await;
    let last = mock.bodies().last().unwrap().clone();
    assert!(last.get("thinking").is_none(), "4.5 thinks only when asked: {last}");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn delegated_children_think_at_the_parents_level() {
    let mock = MockLlm::start().await;
    let home = home_with(&mock, "o4-mini", "");
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let (session, _) = new_session(&mut agent, &home).await;
    set(&mut agent, &session, OPTION, "low").await;
    mock.push(mock_llm::tool_calls(&[(
        "call_d",
        "delegate_task",
        json!({"tasks": [{"goal": "CHILD: count the files"}]}),
    )]));
    mock.push_for("CHILD", mock_llm::text(&["three"]));
    mock.push(mock_llm::text(&["Done."]));
    let (response, _) = agent.prompt(&session, "delegate").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let requests = mock.requests();
    assert_eq!(requests.len(), 3);
    assert!(
        requests.iter().all(|r| r["reasoning_effort"] == "low"),
        "parent and child: {:?}",
        requests.iter().map(|r| &r["reasoning_effort"]).collect::<Vec<_>>()
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

/// Every thinking block in a request's messages, with whether it carries a signature.
fn thinking_blocks(body: &Value) -> Vec<(String, bool)> {
    let messages = body["messages"].as_array().unwrap();
    let blocks = messages.iter().filter_map(|m| m["content"].as_array()).flatten();
    blocks
        .filter(|b| b["type"] == "thinking")
        .map(|b| {
            let signed = b["signature"].as_str().is_some_and(|s| !s.is_empty());
            (b["thinking"].as_str().unwrap_or_default().to_string(), signed)
        })
        .collect()
}

fn anthropic_home() -> TestHome {
    TestHome::with_config(
        "model:\n  provider: anthropic\n  default: claude-sonnet-4-5\nagent:\n  reasoning_effort: high\n",
    )
}

/// A stream that dies mid-thought (no signature yet) leaves nothing Anthropic would refuse;
/// a signed thinking loop is stored, and after a restart and `session/load` goes back signed.
#[tokio::test]
async fn unsigned_thinking_is_never_replayed_and_signed_thinking_survives_a_restart() {
    let mock = MockAnthropic::start().await;
    let home = anthropic_home();
    let mut agent = mock.spawn_agent(home.path()).await;
    agent.initialize().await;
    let (session, _) = new_session(&mut agent, &home).await;
    // Cut before the signature: the thought reached the user, so no retry; the turn fails.
    mock.push(mock_anthropic::thinking_cut("half a thou"));
    let (response, _) = agent.prompt(&session, "think").await;
    assert!(response.get("error").is_some(), "{response}");
    let input = "{\"todos\": [{\"id\": \"1\", \"content\": \"Think\", \"status\": \"pending\"}]}";
    mock.push(mock_anthropic::thinking_then_tool_use(
        "I should plan.",
        "SIGNED-abc123",
        "toolu_01",
        "todo",
        input,
    ));
    mock.push(mock_anthropic::text(&["Planned."]));
    let (response, _) = agent.prompt(&session, "plan it").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    for body in mock.bodies() {
        assert!(
            thinking_blocks(&body).iter().all(|(_, signed)| *signed),
            "an unsigned thinking block was sent: {body}"
        );
    }
    assert_eq!(agent.shutdown().await, Some(0));

    let mut agent = mock.spawn_agent(home.path()).await;
    agent.initialize().await;
    let loaded = agent
        .request(
            "session/load",
            json!({"sessionId": session, "cwd": home.cwd(), "mcpServers": []}),
        )
        .await;
    assert!(loaded.get("error").is_none(), "{loaded}");
    mock.push(mock_anthropic::text(&["Again."]));
    let (response, _) = agent.prompt(&session, "again").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let last = mock.bodies().last().unwrap().clone();
    assert_eq!(thinking_blocks(&last), [("I should plan.".to_string(), true)], "{last}");
    assert_eq!(agent.shutdown().await, Some(0));
}
