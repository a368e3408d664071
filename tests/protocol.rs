//! Protocol-level behaviour of the real binary.

use expect_test::expect;
use serde_json::json;

use crate::support::mock_llm::MockLlm;
use crate::support::{AgentProcess, TestHome};

#[tokio::test]
async fn initialize_describes_what_works() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    let response = agent
        .request(
            "initialize",
            json!({"protocolVersion": 1, "clientCapabilities": {"fs": {"readTextFile": true, "writeTextFile": true}, "terminal": true, "auth": {"terminal": true}}}),
        )
        .await;
    let mut result = response["result"].clone();
    result["agentInfo"]["version"] = json!("<version>");
    expect![[r#"
        {
          "protocolVersion": 1,
          "agentCapabilities": {
            "loadSession": true,
            "promptCapabilities": {
              "image": true,
              "audio": false,
              "embeddedContext": true
            },
            "mcpCapabilities": {
              "http": true,
              "sse": true
            },
            "sessionCapabilities": {
              "list": {},
              "delete": {},
              "additionalDirectories": {},
              "systemPrompt": {
                "mode": {
                  "override": {}
                }
              },
              "fork": {},
              "options": {},
              "resume": {},
              "close": {}
            },
            "auth": {}
          },
          "authMethods": [
            {
              "id": "custom",
              "name": "custom runtime credentials",
              "description": "Use the custom provider configured in HERMES_HOME (http://127.0.0.1:<port>/v1)."
            },
            {
              "type": "terminal",
              "id": "hermes-setup",
              "name": "Configure a provider",
              "description": "Open hermes-acp's interactive provider and model setup in a terminal.",
              "args": [
                "--setup"
              ]
            }
          ],
          "agentInfo": {
            "name": "hermes-acp",
            "title": "Hermes (Rust)",
            "version": "<version>"
          },
          "_meta": {
            "steering": {
              "supported": true,
              "idleBehavior": "startNewTurn"
            }
          }
        }"#]]
    .assert_eq(
        &serde_json::to_string_pretty(&result)
            .unwrap()
            .replace(&mock.port.to_string(), "<port>"),
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn malformed_json_and_unknown_methods_get_errors_and_the_server_keeps_serving() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    agent.send_raw("{this is not json").await;
    let parse_error = agent.wait(|m| m["error"]["code"] == -32700).await;
    assert_eq!(parse_error["error"]["code"], -32700);
    let unknown = agent.request("ping", json!({})).await;
    assert_eq!(unknown["error"]["code"], -32601);
    let ext = agent.request("_hermes/foo", json!({})).await;
    assert_eq!(ext["error"]["code"], -32601);
    let bad_params = agent.request("session/new", json!({"cwd": 5})).await;
    assert_eq!(bad_params["error"]["code"], -32602);
    // Still serving.
    let session = agent.new_session(&home.cwd()).await;
    assert!(!session.is_empty());
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn unknown_session_ids_are_errors_not_silent_success() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let cwd = home.cwd();
    for (method, params) in [
        (
            "session/prompt",
            json!({"sessionId": "nope", "prompt": [{"type": "text", "text": "hi"}]}),
        ),
        (
            "session/load",
            json!({"sessionId": "nope", "cwd": cwd, "mcpServers": []}),
        ),
        ("session/resume", json!({"sessionId": "nope", "cwd": cwd})),
        ("session/fork", json!({"sessionId": "nope", "cwd": cwd})),
        ("session/close", json!({"sessionId": "nope"})),
        ("session/delete", json!({"sessionId": "nope"})),
        ("session/set_mode", json!({"sessionId": "nope", "modeId": "default"})),
        (
            "session/set_config_option",
            json!({"sessionId": "nope", "configId": "mode", "value": "default"}),
        ),
    ] {
        let response = agent.request(method, params).await;
        assert_eq!(response["error"]["code"], -32002, "{method}: {response}");
        assert_eq!(response["error"]["data"]["sessionId"], "nope", "{method}");
    }
    let relative = agent
        .request("session/new", json!({"cwd": "relative/dir", "mcpServers": []}))
        .await;
    assert_eq!(relative["error"]["code"], -32602);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn without_a_provider_the_server_starts_and_session_new_says_how_to_configure() {
    let home = TestHome::unconfigured();
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    let init = agent.initialize().await;
    assert_eq!(init["result"]["authMethods"][0]["id"], "hermes-config");
    let response = agent
        .request("session/new", json!({"cwd": home.cwd(), "mcpServers": []}))
        .await;
    assert_eq!(response["error"]["code"], -32000, "{response}");
    let message = response["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("hermes-acp --setup") && message.contains("OPENROUTER_API_KEY"),
        "{message}"
    );
    let auth = agent
        .request("authenticate", json!({"methodId": "hermes-config"}))
        .await;
    assert_eq!(auth["error"]["code"], -32000);
    assert_eq!(agent.shutdown().await, Some(0));
    assert!(agent_stderr_mentions_setup(home.path()).await);
}

async fn agent_stderr_mentions_setup(home: &std::path::Path) -> bool {
    let mut agent = AgentProcess::spawn(home, &[]).await;
    agent.initialize().await;
    let stderr = agent.stderr.clone();
    agent.shutdown().await;
    let text = stderr.lock().unwrap().clone();
    text.contains("hermes-acp --setup")
}

#[tokio::test]
async fn authenticate_checks_the_provider_answers() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let ok = agent.request("authenticate", json!({"methodId": "custom"})).await;
    assert_eq!(ok["result"], json!({}), "{ok}");
    let bogus = agent.request("authenticate", json!({"methodId": "bogus"})).await;
    assert_eq!(bogus["error"]["code"], -32602);
    let logout = agent.request("logout", json!({})).await;
    assert_eq!(logout["result"], json!({}));
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn only_json_reaches_stdout_even_with_trace_logging() {
    let mock = MockLlm::start().await;
    mock.set_fallback(crate::support::mock_llm::text(&["fine"]));
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[("RUST_LOG", "trace")]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    let (response, _) = agent.prompt(&session, "hello").await;
    assert_eq!(response["result"]["stopReason"], "end_turn");
    let lines = agent.stdout_lines.clone();
    let stderr = agent.stderr.clone();
    assert_eq!(agent.shutdown().await, Some(0));
    let lines = lines.lock().unwrap();
    assert!(lines.len() >= 4);
    for line in lines.iter() {
        let v: serde_json::Value = serde_json::from_str(line).expect("stdout line is JSON");
        assert_eq!(v["jsonrpc"], "2.0");
    }
    assert!(stderr.lock().unwrap().contains("TRACE") || stderr.lock().unwrap().contains("DEBUG"));
}

#[tokio::test]
async fn version_and_help_print_and_exit() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hermes-acp"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("hermes-acp {}", env!("CARGO_PKG_VERSION"))
    );
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_hermes-acp"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("--setup"));
    let setup = std::process::Command::new(env!("CARGO_BIN_EXE_hermes-acp"))
        .arg("--setup")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    // Scripted (piped) input is allowed; input that ends stops the wizard without saving.
    assert_eq!(setup.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&setup.stdout).contains("input closed; nothing was saved"));
}
