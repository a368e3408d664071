//! `hermes-acp --setup` with piped input, against the mock LLM: a bad key re-asked and
//! retested, the editor snippet printed, and a clean stop when input ends.

use std::path::Path;

use crate::cli::run_cli;
use crate::support::TestHome;
use crate::support::mock_llm::{self, MockLlm};

/// Runs `--setup` with `input` piped to stdin; returns (exit code, stdout, stderr).
async fn run_setup(home: &Path, path: &Path, input: &str) -> (i32, String, String) {
    use tokio::io::AsyncWriteExt;
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_hermes-acp"))
        .env_clear()
        .env("PATH", path)
        .env("HOME", home)
        .env("HERMES_HOME", home)
        .arg("--setup")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).await.unwrap();
    drop(stdin);
    let out = tokio::time::timeout(crate::support::TIMEOUT, child.wait_with_output())
        .await
        .expect("setup finishes")
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[tokio::test]
async fn setup_re_asks_bad_input_retests_and_prints_the_editor_snippet() {
    let mock = MockLlm::start().await;
    mock.push(mock_llm::status_message(401, "Missing bearer token"));
    mock.push(mock_llm::text(&["OK"]));
    let home = TestHome::unconfigured();
    std::fs::create_dir_all(home.path().join(".config/zed")).unwrap();
    let empty_path = tempfile::tempdir().unwrap();
    let url = mock.url();
    let bare = url.trim_start_matches("http://");
    let input = format!("5\ncusotm\ncustom\n{bare}\n{url}\n\nmock-modle\nn\n2\n\nsk-test-123456\n");
    let (code, out, err) = run_setup(home.path(), empty_path.path(), &input).await;
    assert_eq!(code, 0, "{out}");
    assert_eq!(err, "", "no log lines on the wizard's screen");
    for expected in [
        "  '5' is not one of the choices: type 1-4 or a name (openrouter, openai, anthropic, custom).\n",
        "  'cusotm' is not one of the choices",
        &format!(
            "  The base URL is '{bare}', which is not a usable URL: it must start with http:// or https://. Did you mean 'http://{bare}'?\n"
        ),
        "  'mock-modle' is not in the provider's list. Closest: mock-model, mock-large.\n",
        "Testing mock-large with one tiny completion…\n",
        "  the API key was rejected (provider 'custom' rejected the API key (HTTP 401): Missing bearer token. Check CUSTOM_API_KEY (read from what you typed))\n",
        "Change the [k]ey, [u]rl, [m]odel, [r]etry, [s]ave anyway or [q]uit? [k]: ",
        "  OK: mock-large answered in ",
        "Zed — merge into Zed's settings.json",
        &format!(
            "\"command\": \"{}\"",
            std::fs::canonicalize(env!("CARGO_BIN_EXE_hermes-acp"))
                .unwrap()
                .display()
        ),
    ] {
        assert!(out.contains(expected), "missing {expected:?} in:\n{out}");
    }
    // Only the editor found (Zed), with its own next step; the result last, where it stays on
    // screen.
    assert!(out.contains("  Next: then in Zed open the agent panel"), "{out}");
    assert!(!out.contains("Neovim") && !out.contains("acpx"), "{out}");
    let last_lines: Vec<&str> = out.trim_end().lines().rev().take(2).collect();
    assert!(
        last_lines[0].starts_with("Setup OK: mock-large answered the test in ")
            && last_lines[0].ends_with(" ms. Check it any time with `hermes-acp --check`."),
        "{out}"
    );
    assert!(
        last_lines[1].starts_with("Saved: model.provider custom and model.default mock-large in "),
        "{out}"
    );
    assert!(out.find("Zed —").unwrap() < out.find("Saved:").unwrap());
    let config = std::fs::read_to_string(home.path().join("config.yaml")).unwrap();
    assert_eq!(
        config,
        format!("model:\n  provider: custom\n  default: mock-large\n  base_url: \"{url}\"\n")
    );
    let env = std::fs::read_to_string(home.path().join(".env")).unwrap();
    assert_eq!(
        env, "CUSTOM_API_KEY=sk-test-123456\n",
        "the key goes to .env, not config.yaml"
    );
    let requests = mock.requests();
    assert_eq!(requests.len(), 2, "one tiny completion per test");
    assert_eq!(requests[1]["max_tokens"], 1);

    // The saved configuration passes the check.
    mock.push(mock_llm::text(&["OK"]));
    let (code, out) = run_cli(home.path(), &["--check"], &[]).await;
    assert_eq!(code, 0, "{out}");
}

#[tokio::test]
async fn setup_stops_cleanly_when_input_ends() {
    let home = TestHome::unconfigured();
    let empty_path = tempfile::tempdir().unwrap();
    let (code, out, _) = run_setup(home.path(), empty_path.path(), "2\n").await;
    assert_eq!(code, 1);
    assert!(
        out.ends_with("Setup did not finish: input closed; nothing was saved\n"),
        "{out}"
    );
    assert!(!home.path().join("config.yaml").exists());
}
