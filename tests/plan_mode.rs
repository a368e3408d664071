//! Plan mode end to end through the real binary: offered as a mode and as a value of the
//! `mode` config option; in it a write and a mutating command are refused while reading goes
//! on; `exit_plan_mode` shows the plan as an ACP plan update and asks with one option per kind;
//! "keep planning" leaves the mode alone, approval switches it and the work proceeds.

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, PermissionPolicy, TestHome};

fn tool_result(mock: &MockLlm, call_id: &str) -> String {
    (mock.requests().iter())
        .flat_map(|r| r["messages"].as_array().cloned().unwrap_or_default())
        .find(|m| m["role"] == "tool" && m["tool_call_id"] == call_id)
        .map(|m| m["content"].to_string())
        .unwrap_or_else(|| panic!("no result for {call_id}"))
}

fn updates_of<'a>(updates: &'a [Value], kind: &str) -> Vec<&'a Value> {
    updates.iter().filter(|u| u["sessionUpdate"] == kind).collect()
}

const PLAN: &str = "1. Add `greet` to lib.txt\n2. Run the tests";

#[tokio::test]
async fn plan_mode_refuses_changes_shows_the_plan_and_switches_only_when_approved() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let cwd = home.cwd();
    std::fs::write(cwd.join("lib.txt"), "old\n").unwrap();
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let created = agent
        .request("session/new", json!({"cwd": cwd, "mcpServers": []}))
        .await;
    let session = created["result"]["sessionId"].as_str().unwrap().to_string();
    let modes: Vec<&str> = (created["result"]["modes"]["availableModes"].as_array().unwrap().iter())
        .filter_map(|m| m["id"].as_str())
        .collect();
    assert!(modes.contains(&"plan") && modes.contains(&"observe"), "{modes:?}");
    let mode_option = (created["result"]["configOptions"].as_array().unwrap().iter())
        .find(|o| o["id"] == "mode")
        .unwrap()
        .clone();
    assert!(mode_option["options"].to_string().contains("\"plan\""), "{mode_option}");
    let set = agent
        .request(
            "session/set_config_option",
            json!({"sessionId": session, "configId": "mode", "value": "plan"}),
        )
        .await;
    assert!(set.get("result").is_some(), "{set}");

    // Reading works; a write and a mutating command are refused; the plan is rejected.
    agent.permission_policy = PermissionPolicy::Select("plan");
    mock.push(mock_llm::tool_calls(&[
        ("c_read", "read_file", json!({"path": "lib.txt"})),
        ("c_write", "write_file", json!({"path": "lib.txt", "content": "new\n"})),
        ("c_rm", "terminal", json!({"command": "rm lib.txt"})),
    ]));
    mock.push(mock_llm::tool_calls(&[(
        "c_plan1",
        "exit_plan_mode",
        json!({"plan": PLAN}),
    )]));
    mock.push(mock_llm::text(&["I will refine the plan."]));
    agent.notifications();
    let (response, updates) = agent.prompt(&session, "plan the greeting").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert!(tool_result(&mock, "c_read").contains("old"));
    for refused in ["c_write", "c_rm"] {
        let result = tool_result(&mock, refused);
        assert!(result.contains("exit_plan_mode"), "{refused}: {result}");
    }
    assert_eq!(std::fs::read_to_string(cwd.join("lib.txt")).unwrap(), "old\n");
    let plans = updates_of(&updates, "plan");
    assert!(!plans.is_empty(), "{updates:#?}");
    let entries: Vec<&str> = (plans[0]["entries"].as_array().unwrap().iter())
        .filter_map(|e| e["content"].as_str())
        .collect();
    assert_eq!(entries, ["Add `greet` to lib.txt", "Run the tests"]);
    let question = (agent.agent_requests.iter())
        .rfind(|r| r["method"] == "session/request_permission")
        .expect("the plan question")
        .clone();
    let kinds: Vec<(&str, &str)> = (question["params"]["options"].as_array().unwrap().iter())
        .map(|o| (o["optionId"].as_str().unwrap(), o["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("accept_edits", "allow_always"),
            ("default", "allow_once"),
            ("plan", "reject_once")
        ]
    );
    assert!(tool_result(&mock, "c_plan1").contains("keep planning"));
    assert!(updates_of(&updates, "current_mode_update").is_empty(), "{updates:#?}");

    // Approved: the mode switches to accept_edits and the edit goes through.
    agent.permission_policy = PermissionPolicy::Select("accept_edits");
    mock.push(mock_llm::tool_calls(&[(
        "c_plan2",
        "exit_plan_mode",
        json!({"plan": PLAN}),
    )]));
    mock.push(mock_llm::tool_calls(&[(
        "c_write2",
        "write_file",
        json!({"path": "lib.txt", "content": "greet\n"}),
    )]));
    mock.push(mock_llm::text(&["Done."]));
    let (response, updates) = agent.prompt(&session, "looks good").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let switched = updates_of(&updates, "current_mode_update");
    assert_eq!(switched.len(), 1, "{updates:#?}");
    assert_eq!(switched[0]["currentModeId"], "accept_edits");
    assert_eq!(std::fs::read_to_string(cwd.join("lib.txt")).unwrap(), "greet\n");
    assert_eq!(agent.shutdown().await, Some(0));
}
