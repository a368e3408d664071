//! `execute_code` through the real binary: a script calling every `hermes_tools` function, each
//! inner call a card of its own; a write in default mode asking the editor (a denial reaches the
//! script as an error); the limits (tool calls, stdout, timeout) from `config.yaml`; a wrong
//! token refused; cancel killing the script's process. Needs python3 (the CI image has it).

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, PermissionPolicy, TestHome};

async fn started(home: &TestHome) -> (AgentProcess, String) {
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    (agent, session)
}

/// The tool result the model received for `call_id` in the last request.
fn tool_result(mock: &MockLlm, call_id: &str) -> Value {
    let request = mock.requests().last().cloned().unwrap();
    let messages = request["messages"].as_array().unwrap();
    let message = messages.iter().find(|m| m["tool_call_id"] == call_id).unwrap();
    serde_json::from_str(message["content"].as_str().unwrap()).unwrap()
}

fn script(id: &str, code: &str) -> mock_llm::Reply {
    mock_llm::tool_calls(&[(id, "execute_code", json!({"code": code}))])
}

/// The last status each card reached, by id.
fn final_status<'a>(updates: &'a [Value], id: &str) -> Option<&'a str> {
    updates
        .iter()
        .filter(|u| u["toolCallId"] == id)
        .filter_map(|u| u["status"].as_str())
        .next_back()
}

#[tokio::test]
async fn a_script_calls_every_tool_and_each_call_is_a_card() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    std::fs::write(home.cwd().join("notes.txt"), "alpha\nbeta\n").unwrap();
    let code = r#"
import json, os, socket
from hermes_tools import read_file, write_file, search_files, patch, terminal
write_file("out.txt", "one\ntwo\n")
patch("out.txt", "two", "three")
print(read_file("out.txt")["content"].count("three"))
print(len(search_files("beta", path=".")["matches"]))
print(terminal("echo from-terminal")["output"])
c = socket.socket(fileno=os.dup(int(os.environ["HERMES_RPC_FD"])))
c.sendall(b'{"token": "forged", "tool": "write_file", "args": {"path": "forged.txt", "content": "x"}}\n')
print(json.loads(c.makefile("rb").readline())["error"])
"#;
    mock.push(script("call_py", code));
    mock.push(mock_llm::text(&["done"]));
    let (mut agent, session) = started(&home).await;
    let (response, updates) = agent.prompt(&session, "run it").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let result = tool_result(&mock, "call_py");
    assert_eq!(result["status"], "success", "{result}");
    assert_eq!(result["tool_calls_made"], 5);
    assert_eq!(result["output"], "1\n1\nfrom-terminal\nUnauthorized RPC request\n");
    assert_eq!(
        std::fs::read_to_string(home.cwd().join("out.txt")).unwrap(),
        "one\nthree\n"
    );
    assert!(!home.cwd().join("forged.txt").exists());
    // The script's card, and one card per inner call under a nested id.
    let start = updates.iter().find(|u| u["toolCallId"] == "call_py").unwrap();
    assert_eq!(start["kind"], "execute");
    assert_eq!(start["title"], "Run Python `import json, os, socket`");
    assert_eq!(final_status(&updates, "call_py"), Some("completed"));
    for (n, name) in ["write_file", "patch", "read_file", "search_files", "terminal"]
        .iter()
        .enumerate()
    {
        let id = format!("call_py/{}", n + 1);
        let card = updates.iter().find(|u| u["toolCallId"] == id.as_str());
        assert!(card.is_some(), "no card for {name} ({id})");
        assert_eq!(final_status(&updates, &id), Some("completed"), "{id}");
    }
    // Default mode: the script asked, then the write and the patch, each on its own card.
    let asked: Vec<&str> = agent
        .agent_requests
        .iter()
        .filter(|r| r["method"] == "session/request_permission")
        .map(|r| r["params"]["toolCall"]["toolCallId"].as_str().unwrap())
        .collect();
    assert_eq!(asked, ["call_py", "call_py/1", "call_py/2"]);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_write_asks_in_default_mode_and_a_denial_reaches_the_script() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let code = "from hermes_tools import write_file\nprint(write_file('x.txt', 'data')['error'])";
    mock.push(script("call_w", code));
    mock.push(mock_llm::text(&["done"]));
    let (mut agent, session) = started(&home).await;
    agent.permission_policy = PermissionPolicy::Ignore;
    let prompt = agent
        .send_request(
            "session/prompt",
            json!({"sessionId": session, "prompt": [{"type": "text", "text": "write"}]}),
        )
        .await;
    for option in ["allow_once", "deny"] {
        let ask = agent.wait(|m| m["method"] == "session/request_permission").await;
        let answer = json!({"outcome": {"outcome": "selected", "optionId": option}});
        agent
            .send(json!({"jsonrpc": "2.0", "id": ask["id"], "result": answer}))
            .await;
    }
    assert_eq!(agent.response(prompt).await["result"]["stopReason"], "end_turn");
    let result = tool_result(&mock, "call_w");
    assert_eq!(result["status"], "success", "{result}");
    assert!(result["output"].as_str().unwrap().contains("denied"), "{result}");
    assert!(!home.cwd().join("x.txt").exists());
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn limits_come_from_config_and_every_one_holds() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let config = home.path().join("config.yaml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    // Long enough for the calls and the print to happen first on a loaded machine.
    text.push_str("code_execution:\n  timeout: 3\n  max_tool_calls: 2\n");
    std::fs::write(&config, text).unwrap();
    std::fs::write(home.cwd().join("a.txt"), "a").unwrap();
    let code = r#"
import time
from hermes_tools import read_file
errors = [read_file("a.txt").get("error") for _ in range(3)]
print(errors[2])
print("x" * 100000, flush=True)
time.sleep(60)
"#;
    mock.push(script("call_l", code));
    mock.push(mock_llm::text(&["done"]));
    let (mut agent, session) = started(&home).await;
    agent.permission_policy = PermissionPolicy::Select("allow_once");
    let (response, _) = agent.prompt(&session, "limits").await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    let result = tool_result(&mock, "call_l");
    assert_eq!(result["status"], "timeout", "{result}");
    assert_eq!(result["error"], "Script timed out after 3s and was killed.");
    assert_eq!(result["tool_calls_made"], 2);
    assert_eq!(result["stdout_truncated"], true);
    assert_eq!(result["stdout_bytes_captured"], 50_000);
    let output = result["output"].as_str().unwrap();
    assert!(output.starts_with("Tool call limit reached (2)."), "{output}");
    assert!(output.ends_with("⏰ Script timed out after 3s and was killed."));
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn cancel_kills_the_script() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let code =
        "import sys, time\nfrom hermes_tools import write_file\nwrite_file('script', sys.argv[0])\ntime.sleep(60)";
    mock.push(script("call_c", code));
    let (mut agent, session) = started(&home).await;
    let prompt = agent
        .send_request(
            "session/prompt",
            json!({"sessionId": session, "prompt": [{"type": "text", "text": "sleep"}]}),
        )
        .await;
    // The write finished: the script's path is on disk and the script is sleeping.
    agent
        .wait(|m| m["params"]["update"]["toolCallId"] == "call_c/1" && m["params"]["update"]["status"] == "completed")
        .await;
    let script = std::fs::read_to_string(home.cwd().join("script")).unwrap();
    agent.notify("session/cancel", json!({"sessionId": session})).await;
    assert_eq!(agent.response(prompt).await["result"]["stopReason"], "cancelled");
    assert!(gone(&script).await, "python {script} still runs after cancel");
    assert_eq!(agent.shutdown().await, Some(0));
}

/// True once no process runs `script` (a zombie's command line is empty), polling up to 5 s.
async fn gone(script: &str) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        // The sandbox's PID namespace hides the script's pid: it is found by its unique path.
        let running = std::fs::read_dir("/proc").unwrap().flatten().any(|entry| {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            String::from_utf8_lossy(&cmdline).contains(script)
        });
        if !running {
            return true;
        }
        if std::time::Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}
