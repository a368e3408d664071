//! What the tests read back from a run: the results the model was sent, the permission
//! questions the editor got, and scripted `terminal` calls.

use serde_json::{Value, json};

use super::AgentProcess;
use super::mock_llm::{self, MockLlm};

/// The parsed result of tool call `call_id` in the last request the model got.
pub fn tool_result(mock: &MockLlm, call_id: &str) -> Value {
    let request = mock.requests().last().cloned().unwrap();
    let messages = request["messages"].as_array().unwrap();
    let message = messages.iter().find(|m| m["tool_call_id"] == call_id).unwrap();
    serde_json::from_str(message["content"].as_str().unwrap()).unwrap()
}

/// Every `session/request_permission` the agent sent.
pub fn permission_requests(agent: &AgentProcess) -> Vec<&Value> {
    agent
        .agent_requests
        .iter()
        .filter(|r| r["method"] == "session/request_permission")
        .collect()
}

/// The commands asked about, in order.
pub fn asked_commands(agent: &AgentProcess) -> Vec<String> {
    permission_requests(agent)
        .iter()
        .map(|r| {
            r["params"]["toolCall"]["rawInput"]["command"]
                .as_str()
                .unwrap_or("")
                .to_owned()
        })
        .collect()
}

/// One model response calling `terminal` with each of `calls` (its arguments), ids
/// `<prefix><index>`.
pub fn terminal_calls_with(prefix: &str, calls: &[Value]) -> mock_llm::Reply {
    let ids: Vec<String> = (0..calls.len()).map(|i| format!("{prefix}{i}")).collect();
    let refs: Vec<(&str, &str, Value)> = ids
        .iter()
        .zip(calls)
        .map(|(id, args)| (id.as_str(), "terminal", args.clone()))
        .collect();
    mock_llm::tool_calls(&refs)
}

/// One model response calling `terminal` once per command, ids `<prefix><index>`.
pub fn terminal_calls(prefix: &str, commands: &[&str]) -> mock_llm::Reply {
    let calls: Vec<Value> = commands.iter().map(|c| json!({ "command": c })).collect();
    terminal_calls_with(prefix, &calls)
}

/// `code` as a `python3 -c` command line: a program the analysis cannot see into.
pub fn python(code: &str) -> String {
    format!("python3 -c '{}'", code.replace('\'', "'\\''"))
}
