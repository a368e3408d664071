//! Reasoning effort attacked from outside: garbage `session/set_config_option` values are
//! clean errors that change nothing, and a chosen level survives switching to a model without
//! reasoning and back (fitted to each model's levels).

use serde_json::json;

use crate::reasoning_effort::{OPTION, effort_option, home_with, new_session, set};
use crate::support::AgentProcess;
use crate::support::mock_llm::{self, MockLlm};

/// Hostile `session/set_config_option` calls: each is a clean JSON-RPC error, the agent lives
/// on, and the session's level is unchanged.
#[tokio::test]
async fn garbage_effort_values_are_clean_errors_and_change_nothing() {
    let mock = MockLlm::start().await;
    let home = home_with(&mock, "o4-mini", "");
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let (session, options) = new_session(&mut agent, &home).await;
    let before = effort_option(&options).unwrap()["currentValue"].clone();
    let garbage = [
        json!(5),
        json!(null),
        json!({}),
        json!([]),
        json!(""),
        json!("HIGH"),
        json!("max"),
        json!({"type": "boolean", "value": true}),
    ];
    for value in garbage {
        let reply = agent
            .request(
                "session/set_config_option",
                json!({"sessionId": session, "configId": OPTION, "value": value}),
            )
            .await;
        assert_eq!(reply["error"]["code"], -32602, "{value}: {reply}");
    }
    let reply = set(&mut agent, &session, "no_such_option", "high").await;
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    let reply = set(&mut agent, "no-such-session", OPTION, "high").await;
    assert!(reply["error"]["code"].is_i64(), "{reply}");
    assert!(reply.get("result").is_none(), "{reply}");
    let reply = agent
        .request(
            "session/set_config_option",
            json!({"sessionId": session, "configId": OPTION}),
        )
        .await;
    assert_eq!(reply["error"]["code"], -32602, "no value: {reply}");

    // Still alive, level unchanged.
    let reply = set(&mut agent, &session, "mode", "default").await;
    let options = &reply["result"]["configOptions"];
    assert_eq!(effort_option(options).unwrap()["currentValue"], before, "{reply}");
    assert_eq!(agent.shutdown().await, Some(0));
}

/// `minimal` on gpt-5, then a model without reasoning (no option, nothing sent), then o4-mini
/// (no `minimal`: `low` is sent and shown), then gpt-5 again (`minimal` again).
#[tokio::test]
async fn a_chosen_level_survives_a_model_without_reasoning_and_back() {
    let mock = MockLlm::start().await;
    mock.set_models(&["gpt-5", "mock-model", "o4-mini"]);
    let home = home_with(&mock, "gpt-5", "  allow_custom: true\n");
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let (session, _) = new_session(&mut agent, &home).await;
    let reply = set(&mut agent, &session, OPTION, "minimal").await;
    assert!(reply.get("error").is_none(), "{reply}");
    let steps = [
        ("mock-model", None),
        ("o4-mini", Some("low")),
        ("gpt-5", Some("minimal")),
    ];
    for (model, level) in steps {
        let reply = set(&mut agent, &session, "model", model).await;
        let option = effort_option(&reply["result"]["configOptions"]);
        assert_eq!(
            option.map(|o| o["currentValue"].clone()),
            level.map(|l| json!(l)),
            "{model}: {reply}"
        );
        mock.push(mock_llm::text(&["ok"]));
        let (response, _) = agent.prompt(&session, "hi").await;
        assert_eq!(response["result"]["stopReason"], "end_turn", "{model}: {response}");
        let sent = mock.requests().last().unwrap().get("reasoning_effort").cloned();
        assert_eq!(sent, level.map(|l| json!(l)), "{model}");
    }
    assert_eq!(agent.shutdown().await, Some(0));
}
