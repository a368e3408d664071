//! The command line a newcomer meets: `--check` against the mock LLM for every verdict it can
//! give (OK, unreachable, HTML server, bad key and where it came from, unknown model with the
//! closest names, rate limit, configuration mistakes) with its exit code, and `--help`.

use std::path::Path;

use serde_json::json;

use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, TestHome};

/// Runs the binary with a clean environment (HOME and HERMES_HOME in `home`).
pub async fn run_cli(home: &Path, args: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_hermes-acp"));
    cmd.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("HERMES_HOME", home)
        .args(args)
        .kill_on_drop(true);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = tokio::time::timeout(crate::support::TIMEOUT, cmd.output())
        .await
        .expect("the command finishes")
        .expect("run hermes-acp");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
    )
}

fn config(home: &Path, yaml: &str) {
    std::fs::write(home.join("config.yaml"), yaml).unwrap();
}

/// The launch an editor makes skips the argument parser: no arguments and `acp` both serve
/// (stdin is empty here, so they end at once, cleanly and silent on stdout); anything else still
/// goes through clap and is refused.
#[tokio::test]
async fn no_arguments_and_acp_serve_other_words_are_refused() {
    let home = tempfile::tempdir().unwrap();
    assert_eq!(run_cli(home.path(), &[], &[]).await, (0, String::new()));
    assert_eq!(run_cli(home.path(), &["acp"], &[]).await, (0, String::new()));
    let (code, out) = run_cli(home.path(), &["acpx"], &[]).await;
    assert_eq!((code, out.as_str()), (2, ""), "clap's usage error goes to stderr");
    let (code, _) = run_cli(home.path(), &["acp", "--bogus"], &[]).await;
    assert_eq!(code, 2);
}

/// `hermes-acp setup` (as `hermes setup` is spelled): clap's error with a tip naming the flag.
#[tokio::test]
async fn flags_typed_without_dashes_get_a_tip() {
    let home = tempfile::tempdir().unwrap();
    for (word, flag) in [("setup", "--setup"), ("check", "--check"), ("help", "--help")] {
        let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_hermes-acp"))
            .env("HOME", home.path())
            .env("HERMES_HOME", home.path())
            .arg(word)
            .output()
            .await
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{word}");
        assert!(out.stdout.is_empty(), "{word}");
        let err = String::from_utf8_lossy(&out.stderr);
        for needle in [
            format!("unexpected argument '{word}'"),
            format!("tip: a similar argument exists: '{flag}'"),
            "Usage: hermes-acp".to_string(),
        ] {
            assert!(err.contains(&needle), "{needle:?} in:\n{err}");
        }
    }
    assert_eq!(std::fs::read_dir(home.path()).unwrap().count(), 0);
}

/// A first start with nothing configured (an editor trying the agent, the registry's probe)
/// leaves nothing behind: no `HERMES_HOME/hermes-acp` and no database. The message names our
/// own commands only (a new user may not have the Hermes CLI).
#[tokio::test]
async fn starting_with_nothing_configured_creates_no_folder_and_needs_no_hermes_cli() {
    let home = TestHome::unconfigured();
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let listed = agent.request("session/list", json!({})).await;
    assert_eq!(listed["result"]["sessions"], json!([]), "{listed}");
    let response = agent
        .request("session/new", json!({"cwd": home.cwd(), "mcpServers": []}))
        .await;
    let message = response["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("hermes-acp --setup") && !message.contains("hermes model"),
        "{message}"
    );
    assert_eq!(agent.shutdown().await, Some(0));
    let left: Vec<_> = std::fs::read_dir(home.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "HERMES_HOME stays empty: {left:?}");
}

#[tokio::test]
async fn check_ok_sends_one_tiny_completion_and_reports_latency() {
    let mock = MockLlm::start().await;
    mock.push(mock_llm::text(&["OK"]));
    let home = TestHome::new(&mock.url());
    let (code, out) = run_cli(home.path(), &["--check"], &[]).await;
    assert_eq!(code, 0, "{out}");
    assert!(
        out.starts_with("hermes-acp check OK: model 'mock-model' answered in "),
        "{out}"
    );
    assert!(out.contains(&format!("  base URL  {}\n", mock.url())), "{out}");
    assert!(
        out.contains("  key       none (a server on this machine usually needs none)\n"),
        "{out}"
    );
    assert!(out.contains("  models    2 listed by the provider\n"), "{out}");
    let requests = mock.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0]["max_tokens"], 1);
    assert_eq!(requests[0]["model"], "mock-model");
}

#[tokio::test]
async fn check_names_the_file_a_rejected_key_came_from() {
    let mock = MockLlm::start().await;
    mock.set_fallback(mock_llm::status_message(401, "Invalid API key."));
    let home = TestHome::new(&mock.url());
    std::fs::write(home.path().join(".env"), "CUSTOM_API_KEY=sk-wrong-123456\n").unwrap();
    let (code, out) = run_cli(home.path(), &["--check"], &[]).await;
    assert_eq!(code, 3, "{out}");
    let env_file = home.path().join(".env").display().to_string();
    assert!(
        out.starts_with("hermes-acp check FAILED: the API key was rejected (provider 'custom' rejected the API key (HTTP 401): Invalid API key. Check CUSTOM_API_KEY (read from "),
        "{out}"
    );
    assert!(
        out.contains(&format!("  key       CUSTOM_API_KEY, read from {env_file}\n")),
        "{out}"
    );
    assert!(
        out.contains(&format!("  fix       replace CUSTOM_API_KEY in {env_file}")),
        "{out}"
    );
    assert!(!out.contains("HERMES_HOME/.env") && !out.contains(".."), "{out}");
    assert_eq!(mock.requests().len(), 1, "a rejected key is not retried");

    std::fs::remove_file(home.path().join(".env")).unwrap();
    let (code, out) = run_cli(home.path(), &["--check"], &[("CUSTOM_API_KEY", "sk-shell-123456")]).await;
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("  key       CUSTOM_API_KEY, read from the shell environment\n"),
        "{out}"
    );
    assert!(out.contains("CUSTOM_API_KEY comes from your shell"), "{out}");
}

#[tokio::test]
async fn check_reports_an_unknown_model_with_the_closest_names() {
    let mock = MockLlm::start().await;
    mock.set_models(&["qwen2.5-coder:14b", "qwen2.5-coder:7b", "llama3.1:8b"]);
    mock.push(mock_llm::status_message(
        404,
        "model \"qwen2.5-coder:15b\" not found, try pulling it first",
    ));
    let home = TestHome::new(&mock.url());
    config(
        home.path(),
        &format!(
            "model:\n  provider: custom\n  base_url: {}\n  default: qwen2.5-coder:15b\n",
            mock.url()
        ),
    );
    let (code, out) = run_cli(home.path(), &["--check"], &[]).await;
    assert_eq!(code, 4, "{out}");
    assert!(
        out.starts_with("hermes-acp check FAILED: the provider does not have the model 'qwen2.5-coder:15b'"),
        "{out}"
    );
    assert!(
        out.contains("  models    3 listed by the provider (the model is not among them)\n"),
        "{out}"
    );
    assert!(out.contains("  closest   qwen2.5-coder:14b, qwen2.5-coder:7b"), "{out}");
}

#[tokio::test]
async fn check_says_a_web_server_is_not_an_api_in_one_line() {
    let mock = MockLlm::start().await;
    mock.set_html_everywhere(
        501,
        "<!DOCTYPE HTML>\n<html><head><title>Error response</title></head>\n<body><h1>Error response</h1><p>Error code: 501</p>\n<p>Unsupported method ('POST').</p></body></html>\n",
    );
    let home = TestHome::new(&mock.url());
    let (code, out) = run_cli(home.path(), &["--check"], &[]).await;
    assert_eq!(code, 6, "{out}");
    assert!(out.starts_with("hermes-acp check FAILED: this is not an OpenAI-compatible API (provider 'custom' returned HTTP 501: an HTML page (\"Error response\"), not an API answer)\n"), "{out}");
    assert!(
        !out.contains("<p>") && !out.contains("busy") && !out.contains("try again later"),
        "{out}"
    );
}

#[tokio::test]
async fn check_names_the_responses_endpoint_when_that_mode_finds_no_api() {
    let mock = MockLlm::start().await;
    mock.set_html_everywhere(
        404,
        "<html><head><title>Not Found</title></head><body>nope</body></html>",
    );
    let home = TestHome::new(&mock.url());
    // Without `provider: custom`: a bare custom endpoint ignores codex_responses, as Hermes does.
    std::fs::write(
        home.path().join("config.yaml"),
        format!(
            "model:\n  base_url: {}\n  api_mode: codex_responses\n  default: gpt-5-mock\n",
            mock.url()
        ),
    )
    .unwrap();
    let (code, out) = run_cli(home.path(), &["--check"], &[]).await;
    assert_eq!(code, 6, "{out}");
    assert!(
        out.starts_with("hermes-acp check FAILED: this is not an OpenAI Responses API ("),
        "{out}"
    );
    let fix = format!(
        "the base URL must be the API root that serves {}/responses — usually ending in /v1",
        mock.url()
    );
    assert!(out.contains(&fix), "{out}");
    assert!(!out.contains("/chat/completions"), "{out}");
}

#[tokio::test]
async fn check_says_unreachable_when_nothing_listens() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let home = TestHome::new(&format!("http://127.0.0.1:{port}/v1"));
    let (code, out) = run_cli(home.path(), &["--check"], &[]).await;
    assert_eq!(code, 2, "{out}");
    assert!(
        out.starts_with("hermes-acp check FAILED: the provider is unreachable ("),
        "{out}"
    );
    assert!(out.contains("connection refused (is the server running?)"), "{out}");
    assert!(!out.contains("busy"), "{out}");
}

#[tokio::test]
async fn check_reports_rate_limits_without_retrying() {
    let mock = MockLlm::start().await;
    mock.set_fallback(mock_llm::status(429, Some("30")));
    let home = TestHome::new(&mock.url());
    let (code, out) = run_cli(home.path(), &["--check"], &[]).await;
    assert_eq!(code, 5, "{out}");
    assert!(
        out.starts_with("hermes-acp check FAILED: the provider is rate-limiting"),
        "{out}"
    );
    assert_eq!(mock.requests().len(), 1);
}

#[tokio::test]
async fn configuration_mistakes_are_found_when_config_is_read() {
    let home = TestHome::unconfigured();
    config(
        home.path(),
        "model:\n  provider: custom\n  base_url: localhost:11434/v1\n  default: m\n",
    );
    let (code, out) = run_cli(home.path(), &["--check"], &[]).await;
    assert_eq!(code, 1, "{out}");
    let yaml = home.path().join("config.yaml").display().to_string();
    assert_eq!(
        out.lines().next().unwrap(),
        format!(
            "hermes-acp check FAILED: model.base_url in {yaml} is 'localhost:11434/v1', which is not a usable URL: it must start with http:// or https://. Did you mean 'http://localhost:11434/v1'?"
        )
    );
    config(home.path(), "model:\n  provider: openrouer\n  default: m\n");
    let (code, out) = run_cli(home.path(), &["--check"], &[]).await;
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Provider 'openrouer' (from model.provider in "), "{out}");
    assert!(out.contains("Did you mean 'openrouter'?"), "{out}");
}

#[tokio::test]
async fn help_documents_exit_codes_files_and_variables() {
    let home = TestHome::unconfigured();
    let (code, out) = run_cli(home.path(), &["--help"], &[]).await;
    assert_eq!(code, 0);
    for needle in [
        "Without arguments",
        "config.yaml",
        ".env",
        "HERMES_HOME",
        "OPENROUTER_API_KEY",
        "RUST_LOG",
        "Exit codes of --check:",
        "  4  the provider does not have the model",
    ] {
        assert!(out.contains(needle), "--help mentions {needle}:\n{out}");
    }
}
