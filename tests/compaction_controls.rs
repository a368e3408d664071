//! Compaction on the user's terms, through the real binary: `/compact <instructions>` reaches
//! the summary request, and the per-session `auto_compact` toggle (announced with
//! `config_option_update`, persisted across a restart) stops automatic compaction while
//! `/compact` keeps working.

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome, agent_text};

/// A low threshold, so a few exchanges cross it.
fn write_config(home: &TestHome) {
    home.add_config("compression:\n  threshold_tokens: 2000\n  protect_last_n: 4\n");
}

/// Five exchanges with long answers; the last reports a prompt far over the threshold.
async fn fill(agent: &mut AgentProcess, mock: &MockLlm, session: &str) {
    for i in 0..5 {
        let usage = if i == 4 { 50_000 } else { 100 };
        mock.push(mock_llm::text_with_usage(
            &[&format!("answer {i} ").repeat(250)],
            usage,
            20,
        ));
        agent.prompt(session, &format!("question {i}")).await;
    }
}

fn option<'a>(options: &'a Value, id: &str) -> &'a Value {
    options
        .as_array()
        .and_then(|all| all.iter().find(|o| o["id"] == id))
        .unwrap_or_else(|| panic!("no option {id} in {options}"))
}

fn summary_prompt(request: &Value) -> String {
    request["messages"][1]["content"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn compact_with_instructions_puts_them_in_the_summary_request() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    write_config(&home);
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    // Small reported prompts: nothing compacts by itself here.
    for i in 0..5 {
        mock.push(mock_llm::text_with_usage(
            &[&format!("answer {i} ").repeat(250)],
            100,
            20,
        ));
        agent.prompt(&session, &format!("question {i}")).await;
    }
    mock.push(mock_llm::text(&["Goal: the parser. Kept: parser details."]));
    let (response, updates) = agent
        .prompt(&session, "/compact keep every detail about the parser bug")
        .await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert!(
        agent_text(&updates).starts_with("Context compressed:"),
        "{}",
        agent_text(&updates)
    );
    let prompt = summary_prompt(mock.requests().last().unwrap());
    assert!(
        prompt.contains("THE USER'S INSTRUCTIONS") && prompt.contains("keep every detail about the parser bug"),
        "{prompt}"
    );
    // Plain `/compact` sends no instructions block.
    for i in 5..9 {
        mock.push(mock_llm::text_with_usage(
            &[&format!("answer {i} ").repeat(250)],
            100,
            20,
        ));
        agent.prompt(&session, &format!("question {i}")).await;
    }
    mock.push(mock_llm::text(&["second summary"]));
    agent.prompt(&session, "/compact").await;
    let prompt = summary_prompt(mock.requests().last().unwrap());
    assert!(!prompt.contains("THE USER'S INSTRUCTIONS"), "{prompt}");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn auto_compact_off_stops_automatic_compaction_and_survives_a_restart() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    write_config(&home);
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    // A client that renders boolean options gets the toggle as one.
    agent
        .initialize_with(
            json!({"fs": {"readTextFile": false, "writeTextFile": false}, "terminal": false,
            "session": {"configOptions": {"boolean": {}}}}),
        )
        .await;
    let created = agent
        .request("session/new", json!({"cwd": home.cwd(), "mcpServers": []}))
        .await;
    let session = created["result"]["sessionId"].as_str().unwrap().to_string();
    let toggle = option(&created["result"]["configOptions"], "auto_compact");
    assert_eq!(
        (toggle["type"].as_str(), toggle["currentValue"].as_bool()),
        (Some("boolean"), Some(true)),
        "{toggle}"
    );

    // A value that is neither a boolean nor on/off is refused with invalid params; a boolean is
    // taken and announced.
    let wrong = agent
        .request(
            "session/set_config_option",
            json!({"sessionId": session, "configId": "auto_compact", "value": "maybe"}),
        )
        .await;
    assert_eq!(wrong["error"]["code"], -32602, "{wrong}");
    let set = agent
        .request(
            "session/set_config_option",
            json!({"sessionId": session, "configId": "auto_compact", "type": "boolean", "value": false}),
        )
        .await;
    assert_eq!(
        option(&set["result"]["configOptions"], "auto_compact")["currentValue"],
        false,
        "{set}"
    );
    let announced = agent.notifications();
    assert!(
        announced.iter().any(|u| u["sessionUpdate"] == "config_option_update"
            && option(&u["configOptions"], "auto_compact")["currentValue"] == false),
        "{announced:?}"
    );

    // Over the threshold, the next turn goes straight to the model: no summary call.
    fill(&mut agent, &mock, &session).await;
    mock.push(mock_llm::text(&["no compaction happened"]));
    let before = mock.requests().len();
    let (_, updates) = agent.prompt(&session, "question 5").await;
    assert_eq!(agent_text(&updates), "no compaction happened");
    assert_eq!(mock.requests().len(), before + 1, "one model call, no summary");
    let (_, context) = agent.prompt(&session, "/context").await;
    assert!(
        agent_text(&context).contains("Automatic compression is off"),
        "{}",
        agent_text(&context)
    );
    assert_eq!(agent.shutdown().await, Some(0));

    // After a restart the session still has it off (this client shows it as a select).
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let loaded = agent
        .request(
            "session/load",
            json!({"sessionId": session, "cwd": home.cwd(), "mcpServers": []}),
        )
        .await;
    assert_eq!(
        option(&loaded["result"]["configOptions"], "auto_compact")["currentValue"],
        "off",
        "{loaded}"
    );
    // `/compact` still works with automatic compaction off.
    mock.push(mock_llm::text(&["manual summary"]));
    let (_, updates) = agent.prompt(&session, "/compact").await;
    assert!(
        agent_text(&updates).starts_with("Context compressed:"),
        "{}",
        agent_text(&updates)
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

/// `/compact` on an Anthropic session whose turns carry signed thinking: the summary request
/// is plain text (no thinking block dangles in it), and the request after it sends back only
/// signed thinking, each first in its message.
#[tokio::test]
async fn compact_with_signed_thinking_sends_no_dangling_thinking() {
    use crate::support::mock_anthropic::{self, MockAnthropic, TOKENS};
    let mock = MockAnthropic::start().await;
    let home = TestHome::with_config(
        "model:\n  provider: anthropic\n  default: claude-sonnet-4-5\nagent:\n  reasoning_effort: high\ncompression:\n  threshold_tokens: 2000\n  protect_last_n: 4\n",
    );
    let mut agent = mock.spawn_agent(home.path()).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    for i in 0..5 {
        let answer = format!("answer {i} ").repeat(250);
        mock.push(mock_anthropic::thinking_then_text(
            &[&format!("thought {i}")],
            &[&answer],
            TOKENS,
        ));
        agent.prompt(&session, &format!("question {i}")).await;
    }
    mock.push(mock_anthropic::text(&["Goal: answers. Kept: all."]));
    let (response, updates) = agent.prompt(&session, "/compact").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert!(
        agent_text(&updates).starts_with("Context compressed:"),
        "{}",
        agent_text(&updates)
    );
    mock.push(mock_anthropic::text(&["after"]));
    let (response, _) = agent.prompt(&session, "next").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");

    let bodies = mock.bodies();
    let summary = &bodies[bodies.len() - 2];
    let blocks = |body: &Value| -> Vec<Value> {
        let messages = body["messages"].as_array().unwrap();
        messages
            .iter()
            .filter_map(|m| m["content"].as_array())
            .flatten()
            .cloned()
            .collect()
    };
    assert!(
        blocks(summary).iter().all(|b| b["type"] != "thinking"),
        "thinking in the summary request: {summary}"
    );
    let after = bodies.last().unwrap();
    assert!(
        blocks(after).iter().any(|b| b["type"] == "thinking"),
        "the kept turns' thinking goes back: {after}"
    );
    for message in after["messages"].as_array().unwrap() {
        let Some(content) = message["content"].as_array() else {
            continue;
        };
        for (at, block) in content.iter().enumerate() {
            if block["type"] == "thinking" {
                assert_eq!(at, 0, "thinking not first: {message}");
                assert!(block["signature"].as_str().is_some_and(|s| !s.is_empty()), "{message}");
                assert_eq!(message["role"], "assistant", "{message}");
            }
        }
    }
    assert_eq!(agent.shutdown().await, Some(0));
}

/// A client that does not advertise `session.configOptions.boolean` never gets a boolean option
/// (it may not render one, or refuse the whole list): the toggle is a select of on and off,
/// set by value id, and the boolean form is still understood.
#[tokio::test]
async fn without_boolean_options_the_toggle_is_an_on_off_select() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    write_config(&home);
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let created = agent
        .request("session/new", json!({"cwd": home.cwd(), "mcpServers": []}))
        .await;
    let session = created["result"]["sessionId"].as_str().unwrap().to_string();
    let options = created["result"]["configOptions"].as_array().unwrap().clone();
    assert!(options.iter().all(|o| o["type"] != "boolean"), "{options:?}");
    let toggle = option(&created["result"]["configOptions"], "auto_compact");
    let values: Vec<&str> = (toggle["options"].as_array().unwrap().iter())
        .filter_map(|o| o["value"].as_str())
        .collect();
    assert_eq!(
        (toggle["type"].as_str(), toggle["currentValue"].as_str(), values),
        (Some("select"), Some("on"), vec!["on", "off"]),
        "{toggle}"
    );
    let set = agent
        .request(
            "session/set_config_option",
            json!({"sessionId": session, "configId": "auto_compact", "value": "off"}),
        )
        .await;
    assert_eq!(
        option(&set["result"]["configOptions"], "auto_compact")["currentValue"],
        "off",
        "{set}"
    );
    let set = agent
        .request(
            "session/set_config_option",
            json!({"sessionId": session, "configId": "auto_compact", "type": "boolean", "value": true}),
        )
        .await;
    assert_eq!(
        option(&set["result"]["configOptions"], "auto_compact")["currentValue"],
        "on",
        "{set}"
    );
    assert_eq!(agent.shutdown().await, Some(0));
}
