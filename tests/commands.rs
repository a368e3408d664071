//! Slash commands and model choices as a newcomer meets them: every command that works is
//! advertised and listed by `/help`, `/model` lists the choices, and a model outside the offered
//! options is refused (`-32602` for `session/set_config_option`) unless `model.allow_custom`.

use serde_json::json;

use crate::support::mock_llm::MockLlm;
use crate::support::{AgentProcess, TestHome, agent_text};

#[tokio::test]
async fn every_working_command_is_advertised_and_in_help() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    agent
        .request("session/new", json!({"cwd": home.cwd(), "mcpServers": []}))
        .await;
    let update = agent
        .wait(|m| m["params"]["update"]["sessionUpdate"] == "available_commands_update")
        .await;
    let commands = update["params"]["update"]["availableCommands"]
        .as_array()
        .unwrap()
        .clone();
    let names: Vec<&str> = commands.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "help",
            "model",
            "tools",
            "context",
            "reset",
            "compact",
            "compress",
            "steer",
            "queue",
            "permissions",
            "undo",
            "checkpoints",
            "version"
        ]
    );
    let steer = commands.iter().find(|c| c["name"] == "steer").unwrap();
    assert_eq!(steer["input"]["hint"], "guidance for the running turn");
    let session = update["params"]["sessionId"].as_str().unwrap().to_string();
    let (_, updates) = agent.prompt(&session, "/help").await;
    let help = agent_text(&updates);
    for name in names {
        assert!(help.contains(&format!("/{name} ")), "/help lists /{name}:\n{help}");
    }
    assert!(mock.requests().is_empty());
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn models_outside_the_offered_options_are_refused() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    let (_, updates) = agent.prompt(&session, "/model bogus").await;
    assert_eq!(
        agent_text(&updates),
        "Error executing /model: unknown model 'bogus'; choose one of: mock-model, mock-large (or set model.allow_custom: true in config.yaml)"
    );
    let bad = agent
        .request(
            "session/set_config_option",
            json!({"sessionId": session, "configId": "model", "value": "bogus"}),
        )
        .await;
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    let (_, updates) = agent.prompt(&session, "/model mock-large").await;
    assert_eq!(agent_text(&updates), "Model switched to: mock-large\nProvider: custom");
    assert_eq!(agent.shutdown().await, Some(0));

    // With model.allow_custom the id is accepted and becomes one of the options.
    std::fs::write(
        home.path().join("config.yaml"),
        format!(
            "model:\n  provider: custom\n  base_url: {}\n  default: mock-model\n  allow_custom: true\n",
            mock.url()
        ),
    )
    .unwrap();
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    let set = agent
        .request(
            "session/set_config_option",
            json!({"sessionId": session, "configId": "model", "value": "my-finetune"}),
        )
        .await;
    let model = &set["result"]["configOptions"][0];
    assert_eq!(model["currentValue"], "my-finetune", "{set}");
    assert!(
        model["options"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["value"] == "my-finetune")
    );
    assert_eq!(agent.shutdown().await, Some(0));
}
