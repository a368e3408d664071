//! The OS sandbox end to end through the real binary: a `terminal` call that writes outside
//! the project is blocked by Landlock and the model is told `"sandbox": "denied"`; config
//! `sandbox: read-only` blocks writes in the project; with `HERMES_ACP_SANDBOX=unavailable`
//! (the no-Landlock path) the same command runs unsandboxed. This machine and CI have
//! Landlock, so its absence fails these tests rather than skipping them.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome};
use hermes_acp::safety::sandbox;

fn require_landlock() {
    assert!(
        sandbox::status().is_contained(),
        "these tests need Landlock: {:?}",
        sandbox::status()
    );
}

/// A scratch dir outside the project and outside the agent's own temp dir (which sandboxed
/// commands may write to; see [`run_terminal`]).
fn outside_dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// Runs one prompt per command, each model turn a single `terminal` call, all in one session;
/// returns the results the model received.
async fn run_terminal(home: &TestHome, env: &[(&str, &str)], commands: &[&str]) -> Vec<Value> {
    let mock = MockLlm::start().await;
    let config = home.path().join("config.yaml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replace("http://placeholder", &mock.url())).unwrap();
    // The agent gets a temp dir of its own: the sandbox lets commands write to the temp dir,
    // and a checkout may itself live under /tmp.
    let agent_tmp = home.path().join("tmp");
    std::fs::create_dir_all(&agent_tmp).unwrap();
    let agent_tmp = agent_tmp.display().to_string();
    let mut env = env.to_vec();
    env.push(("TMPDIR", &agent_tmp));
    let mut agent = AgentProcess::spawn(home.path(), &env).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    let mut results = Vec::new();
    for (i, command) in commands.iter().enumerate() {
        let id = format!("call_{i}");
        mock.push(mock_llm::tool_calls(&[(
            &id,
            "terminal",
            json!({ "command": command }),
        )]));
        mock.push(mock_llm::text(&["done"]));
        let (response, _) = agent.prompt(&session, "run it").await;
        assert_eq!(response["result"]["stopReason"], "end_turn");
        let request = mock.requests().last().cloned().unwrap();
        let message = request["messages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["tool_call_id"] == id.as_str())
            .cloned()
            .unwrap();
        results.push(serde_json::from_str(message["content"].as_str().unwrap()).unwrap());
    }
    assert_eq!(agent.shutdown().await, Some(0));
    results
}

/// A home whose config points at a mock started later (see [`run_terminal`]), plus `extra`.
fn home_with(extra: &str) -> TestHome {
    let home = TestHome::new("http://placeholder");
    let path = home.path().join("config.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("{text}{extra}")).unwrap();
    home
}

fn touch(path: &Path) -> String {
    format!("touch '{}'", path.display())
}

#[tokio::test]
async fn a_command_writing_outside_the_project_is_denied_and_the_model_is_told() {
    require_landlock();
    let home = home_with("");
    let outside = outside_dir();
    let target = outside.path().join("x");
    // Inside the project the same kind of command just works.
    let results = run_terminal(&home, &[], &[&touch(&target), "touch inside && mkdir build"]).await;
    let denied = &results[0];
    assert_eq!(denied["sandbox"], "denied", "{denied}");
    assert!(
        denied["sandbox_note"].as_str().unwrap().contains("unsandboxed"),
        "{denied}"
    );
    assert!(!target.exists());
    let result = &results[1];
    assert_eq!(result["exit_code"], 0, "{result}");
    assert!(home.cwd().join("inside").exists() && home.cwd().join("build").is_dir());
}

#[tokio::test]
async fn config_read_only_blocks_writes_in_the_project() {
    require_landlock();
    let home = home_with("sandbox: read-only\n");
    let result = &run_terminal(&home, &[], &["touch x"]).await[0];
    assert_eq!(result["sandbox"], "denied", "{result}");
    assert!(!home.cwd().join("x").exists());
}

#[tokio::test]
async fn without_landlock_commands_run_unsandboxed() {
    let home = home_with("");
    let outside = outside_dir();
    let target = outside.path().join("x");
    let result = &run_terminal(&home, &[(sandbox::FORCE_ENV, "unavailable")], &[&touch(&target)]).await[0];
    assert_eq!(result["exit_code"], 0, "{result}");
    assert!(result.get("sandbox").is_none(), "{result}");
    assert!(target.exists());
}

#[tokio::test]
async fn config_off_runs_unsandboxed() {
    require_landlock();
    let home = home_with("sandbox: off\n");
    let outside = outside_dir();
    let target = outside.path().join("x");
    let result = &run_terminal(&home, &[], &[&touch(&target)]).await[0];
    assert_eq!(result["exit_code"], 0, "{result}");
    assert!(target.exists());
}
