//! Secrets never leak: a command that prints every credential it can find runs (the user
//! allowed it), and none of the values reaches the model, the editor, the logs at
//! `RUST_LOG=trace`, or the session database; the command itself never sees them (its
//! environment lacks them and the sandbox hides Hermes' folder), and a copy that made it into
//! the project is masked by value. Also the
//! database's file modes and the editor terminal's blanked credentials.

use std::os::unix::fs::PermissionsExt;

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome};

const OPENAI: &str = "sk-proj-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp";
const ANTHROPIC: &str = "sk-ant-api03-Kk1Jj2Hh3Gg4Ff5Ee6Dd7Cc8Bb9Aa0";
const GITHUB: &str = "ghp_Mm1Nn2Bb3Vv4Cc5Xx6Zz7Ll8Kk9Jj0Hh1Gg";
/// No recognisable prefix: only redaction by value catches it.
const AWS: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
/// Only in HERMES_HOME/.env.
const DOTENV: &str = "dotenv-Qw3rTy7uI0oP4aS8dF2gH6jK";
/// Only in config.yaml (an MCP header nobody names as a secret).
const CONFIG: &str = "cfg-header-Lm5Nb6Vc7Xz8As9Df0Gh";

const ALL: [&str; 6] = [OPENAI, ANTHROPIC, GITHUB, AWS, DOTENV, CONFIG];

fn home_with_secrets(mock: &MockLlm) -> TestHome {
    let home = TestHome::new(&mock.url());
    let config = home.path().join("config.yaml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str(&format!(
        "mcp_servers:\n  web:\n    url: http://127.0.0.1:9/mcp\n    enabled: false\n    headers:\n      X-Custom: {CONFIG}\n"
    ));
    std::fs::write(&config, text).unwrap();
    std::fs::write(home.path().join(".env"), format!("DEPLOY_TOKEN={DOTENV}\n")).unwrap();
    home
}

async fn start(home: &TestHome, terminal: bool) -> (AgentProcess, String) {
    let env = [
        ("OPENAI_API_KEY", OPENAI),
        ("ANTHROPIC_API_KEY", ANTHROPIC),
        ("GITHUB_TOKEN", GITHUB),
        ("AWS_SECRET_ACCESS_KEY", AWS),
        ("RUST_LOG", "trace"),
        ("HERMES_YOLO_MODE", "1"),
    ];
    let mut agent = AgentProcess::spawn(home.path(), &env).await;
    agent
        .initialize_with(json!({"fs": {"readTextFile": false, "writeTextFile": false}, "terminal": terminal}))
        .await;
    let session = agent.new_session(&home.cwd()).await;
    (agent, session)
}

fn leaked(haystack: &[u8]) -> Vec<&'static str> {
    let text = String::from_utf8_lossy(haystack);
    ALL.into_iter().filter(|s| text.contains(s)).collect()
}

#[tokio::test]
async fn no_secret_reaches_the_model_the_editor_the_logs_or_the_database() {
    let mock = MockLlm::start().await;
    let home = home_with_secrets(&mock);
    // A copy of the keys inside the project: the sandbox cannot hide that one.
    let copy = format!("DEPLOY_TOKEN={DOTENV}\nX-Custom: {CONFIG}\n");
    std::fs::write(home.cwd().join("copied.txt"), copy).unwrap();
    let command = format!(
        "printenv OPENAI_API_KEY ANTHROPIC_API_KEY GITHUB_TOKEN AWS_SECRET_ACCESS_KEY; \
         echo \"gh=[$GITHUB_TOKEN] aws=[$AWS_SECRET_ACCESS_KEY] deploy=[$DEPLOY_TOKEN]\"; \
         cat {home}/.env {home}/config.yaml; echo hidden=$?; cat copied.txt",
        home = home.path().display()
    );
    mock.push(mock_llm::tool_calls(&[(
        "call_env",
        "terminal",
        json!({"command": command}),
    )]));
    mock.push(mock_llm::text(&["done"]));
    let (mut agent, session) = start(&home, false).await;
    let (response, _updates) = agent.prompt(&session, "show me the keys").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");

    // (1) The model: the tool result in the next request.
    let requests = mock.requests();
    let body = serde_json::to_string(&requests).unwrap();
    assert_eq!(leaked(body.as_bytes()), Vec::<&str>::new(), "model request leaks");
    let result = requests
        .last()
        .and_then(|r| r["messages"].as_array())
        .and_then(|m| m.iter().find(|m| m["tool_call_id"] == "call_env"))
        .map(|m| m["content"].as_str().unwrap().to_string())
        .expect("tool result sent to the model");
    let result: Value = serde_json::from_str(&result).unwrap();
    let output = result["output"].as_str().unwrap();
    // The child never saw them: empty values, not masked ones.
    assert!(output.contains("gh=[] aws=[] deploy=[]"), "{output}");
    // Hermes' own files are hidden from it (here HERMES_HOME is the home directory itself, so
    // its key files read as empty rather than the whole folder being hidden); only the copy in
    // the project printed the key, masked by value.
    assert_eq!(output.matches("DEPLOY_TOKEN=").count(), 1, "{output}");
    assert!(output.contains("DEPLOY_TOKEN=[REDACTED:DEPLOY_TOKEN]"), "{output}");
    assert!(
        output.contains("[REDACTED:MCP_SERVERS_WEB_HEADERS_X_CUSTOM]"),
        "{output}"
    );

    // (2) The editor: every stdout line.
    let stdout = agent.stdout_lines.lock().unwrap().join("\n");
    assert_eq!(leaked(stdout.as_bytes()), Vec::<&str>::new(), "editor leaks");
    assert!(stdout.contains("gh=[] aws=[] deploy=[]"));

    // (4) The database and its write-ahead log, while the agent still holds them open.
    let db_dir = home.path().join("hermes-acp");
    let mut db_bytes = Vec::new();
    for name in ["sessions.db", "sessions.db-wal"] {
        if let Ok(bytes) = std::fs::read(db_dir.join(name)) {
            db_bytes.extend(bytes);
        }
    }
    assert!(!db_bytes.is_empty());
    assert_eq!(leaked(&db_bytes), Vec::<&str>::new(), "database leaks");

    // (3) The logs, at trace level.
    let stderr = agent.shutdown_with_stderr().await;
    assert!(
        stderr.contains("TRACE") || stderr.contains("DEBUG"),
        "trace logging is on"
    );
    assert_eq!(leaked(stderr.as_bytes()), Vec::<&str>::new(), "logs leak");
}

#[tokio::test]
async fn the_editor_terminal_gets_credentials_blanked() {
    let mock = MockLlm::start().await;
    let home = home_with_secrets(&mock);
    mock.push(mock_llm::tool_calls(&[(
        "call_t",
        "terminal",
        json!({"command": "echo hi"}),
    )]));
    mock.push(mock_llm::text(&["done"]));
    let (mut agent, session) = start(&home, true).await;
    let (response, _) = agent.prompt(&session, "run").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let create = agent
        .agent_requests
        .iter()
        .find(|r| r["method"] == "terminal/create")
        .expect("ran in the editor terminal")
        .clone();
    let env = create["params"]["env"].as_array().cloned().unwrap_or_default();
    for name in [
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "GITHUB_TOKEN",
        "AWS_SECRET_ACCESS_KEY",
    ] {
        assert!(
            env.iter().any(|v| v["name"] == name && v["value"] == ""),
            "{name} not blanked: {env:?}"
        );
    }
    assert!(!env.iter().any(|v| v["name"] == "PATH"), "{env:?}");
    assert_eq!(leaked(create.to_string().as_bytes()), Vec::<&str>::new());
    agent.shutdown().await;
}

#[tokio::test]
async fn the_database_is_private_to_the_user() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    mock.push(mock_llm::text(&["hello"]));
    let (mut agent, session) = start(&home, false).await;
    agent.prompt(&session, "hi").await;
    let dir = home.path().join("hermes-acp");
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700);
    for name in ["sessions.db", "sessions.db-wal", "sessions.db-shm"] {
        let path = dir.join(name);
        if path.exists() {
            assert_eq!(mode(&path), 0o600, "{name}");
        } else {
            assert_ne!(name, "sessions.db", "the database exists");
        }
    }
    agent.shutdown().await;
}
