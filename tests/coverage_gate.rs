//! What `/undo` can restore decides what runs unasked: in `accept_edits`, a contained command
//! whose changes the turn's checkpoint cannot all hold (a precious file over the size cap)
//! asks "cannot be undone", while the same command in a project the checkpoint holds whole
//! runs without a click; and a repository nested in the project has its hooks and
//! configuration read-only to commands, like the project's own.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::calls::{permission_requests, python, terminal_calls, tool_result};
use crate::support::git::git;
use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, PermissionPolicy, TestHome};

/// A committed project, with `extra` written before the commit.
fn project(dir: &Path, extra: impl FnOnce(&Path)) {
    std::fs::write(dir.join("notes.md"), "alpha\n").unwrap();
    extra(dir);
    git(dir, &["init", "-q"]);
    git(dir, &["add", "."]);
    git(dir, &["commit", "-qm", "first"]);
}

async fn accept_edits_agent(home: &TestHome) -> (AgentProcess, String) {
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    let response = agent
        .request(
            "session/set_mode",
            json!({"sessionId": session, "modeId": "accept_edits"}),
        )
        .await;
    assert!(response.get("error").is_none(), "{response}");
    agent.permission_policy = PermissionPolicy::Select("deny");
    (agent, session)
}

/// Runs `command` in a fresh `accept_edits` session of a project built by `extra`; returns
/// the permission requests' titles and reasons, and the command's result.
async fn run_once(extra: impl FnOnce(&Path), command: &str) -> (Vec<String>, Value, TestHome) {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    project(&home.cwd(), extra);
    let (mut agent, session) = accept_edits_agent(&home).await;
    mock.push(terminal_calls("c", &[command]));
    mock.push(mock_llm::text(&["done"]));
    let (response, _) = agent.prompt(&session, "go").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let asked: Vec<String> = permission_requests(&agent).iter().map(|r| r.to_string()).collect();
    let result = tool_result(&mock, "c0");
    assert_eq!(agent.shutdown().await, Some(0));
    (asked, result, home)
}

#[tokio::test]
async fn a_change_the_checkpoint_cannot_hold_asks_and_one_it_holds_runs_unasked() {
    let command = python("open(\"made.txt\", \"w\").write(\"1\")");
    // The checkpoint holds the whole project: the contained command runs without a click.
    let (asked, result, home) = run_once(|_| {}, &command).await;
    assert!(asked.is_empty(), "asked about a covered command: {asked:?}");
    assert_eq!(result["exit_code"], 0, "{result}");
    assert!(home.cwd().join("made.txt").exists());
    // A precious file over the checkpoint's size cap: /undo could not restore it if the
    // command changed it, so the same command asks, and is not run when refused.
    let big = |dir: &Path| std::fs::write(dir.join("model.bin"), vec![7u8; 11 * 1024 * 1024]).unwrap();
    let (asked, result, home) = run_once(big, &command).await;
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert!(asked[0].contains("cannot be undone"), "{}", asked[0]);
    assert_ne!(result["exit_code"], 0, "{result}");
    assert!(!home.cwd().join("made.txt").exists());
}

#[tokio::test]
async fn a_nested_repositorys_hooks_and_config_are_read_only_to_commands() {
    let nested = |dir: &Path| {
        let lib = dir.join("vendor/lib");
        std::fs::create_dir_all(&lib).unwrap();
        std::fs::write(lib.join("lib.txt"), "lib\n").unwrap();
        git(&lib, &["init", "-q"]);
        git(&lib, &["add", "."]);
        git(&lib, &["commit", "-qm", "lib"]);
    };
    let plant = python(
        "import os\nfor p in (\"vendor/lib/.git/hooks/post-checkout\", \"vendor/lib/.git/config\"):\n    try:\n        open(p, \"a\").write(\"touch /tmp/pwned\\n\")\n        print(\"wrote\", p)\n    except OSError as e:\n        print(\"refused\", p, e.errno)",
    );
    let (asked, result, home) = run_once(nested, &plant).await;
    assert!(asked.is_empty(), "{asked:?}");
    let output = result["output"].as_str().unwrap_or_default();
    assert!(!output.contains("wrote"), "{result}");
    assert_eq!(output.matches("refused").count(), 2, "{result}");
    let lib_git = home.cwd().join("vendor/lib/.git");
    assert!(!lib_git.join("hooks/post-checkout").exists());
    assert!(
        !std::fs::read_to_string(lib_git.join("config"))
            .unwrap()
            .contains("pwned")
    );
}
