//! Containment first, recognition second, through the real binary: `default` asks for what is
//! not known to be harmless (an unknown script, a fresh Makefile's recipes, project commands)
//! and the modes that accept edits run it contained and undoable; a shell script
//! with a recognised danger inside asks even in `accept_edits`; without containment
//! (`HERMES_ACP_SANDBOX=unavailable`) `accept_edits` falls back to allowlist semantics; and an
//! "always in this project" rule for `cargo test …` allows exactly what it names.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::calls::{asked_commands, permission_requests, terminal_calls};
use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, PermissionPolicy, TestHome, agent_text};

async fn set_mode(agent: &mut AgentProcess, session: &str, mode: &str) {
    agent
        .request("session/set_mode", json!({"sessionId": session, "modeId": mode}))
        .await;
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

#[tokio::test]
async fn default_mode_asks_for_an_unknown_script_and_a_fresh_makefile() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let project = home.cwd();
    write(&project, "x.py", "open('from-python.txt', 'w').write('hi')\n");
    write(&project, "Makefile", "all:\n\tpython3 x.py > made.txt\n");
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    agent.permission_policy = PermissionPolicy::Select("deny");
    let session = agent.new_session(&project).await;
    let commands = [
        "python3 x.py",
        "make",
        "ls",
        "echo x > new-file",
        "git status 2>/dev/null; true",
    ];
    mock.push(terminal_calls("d", &commands));
    mock.push(mock_llm::text(&["tried"]));
    agent.prompt(&session, "run them").await;
    assert_eq!(asked_commands(&agent), ["python3 x.py", "make"]);
    for request in permission_requests(&agent) {
        let raw = &request["params"]["toolCall"]["rawInput"];
        assert!(
            raw["reason"]
                .as_str()
                .unwrap()
                .starts_with("not known to be harmless: "),
            "{raw}"
        );
    }
    let remembered: Vec<&Value> = permission_requests(&agent)
        .iter()
        .map(|r| &r["params"]["toolCall"]["rawInput"]["remember"])
        .collect();
    assert_eq!(remembered, [&json!(["python3 x.py …"]), &json!(["make …"])]);
    assert!(!project.join("from-python.txt").exists());
    assert!(!project.join("made.txt").exists());
    assert!(project.join("new-file").exists(), "a harmless command just runs");
    assert_eq!(agent.shutdown().await, Some(0));
}

/// Project commands and scripts: `default` asks once for each; contained and undoable, the
/// modes that accept edits run them without a click.
const PROJECT: &[&str] = &[
    "cargo build --offline --manifest-path none/Cargo.toml 2>/dev/null; true",
    "cargo test --offline --manifest-path none/Cargo.toml 2>/dev/null; true",
    "npm test --prefix none 2>/dev/null; true",
    "make -C none 2>/dev/null; true",
    "python3 script.py 2>/dev/null; true",
    "export X=1 && echo $X",
];

#[tokio::test]
async fn project_commands_ask_in_default_and_run_contained_where_edits_are_accepted() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    agent.permission_policy = PermissionPolicy::Select("deny");
    let session = agent.new_session(&home.cwd()).await;
    mock.push(terminal_calls("p", PROJECT));
    mock.push(mock_llm::text(&["asked"]));
    agent.prompt(&session, "build").await;
    assert_eq!(asked_commands(&agent), PROJECT);
    for mode in ["accept_edits", "dont_ask"] {
        set_mode(&mut agent, &session, mode).await;
        mock.push(terminal_calls(&format!("{mode}_"), PROJECT));
        mock.push(mock_llm::text(&["built"]));
        agent.prompt(&session, "build").await;
        assert_eq!(
            asked_commands(&agent).len(),
            PROJECT.len(),
            "{mode}: {:#?}",
            asked_commands(&agent)
        );
    }
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_script_with_rm_rf_inside_asks_in_accept_edits_however_it_is_run() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let project = home.cwd();
    std::fs::create_dir_all(project.join("data")).unwrap();
    write(&project, "data/keep", "precious\n");
    write(&project, "cleanup.sh", "#!/bin/sh\necho cleaning\nrm -rf data\n");
    write(&project, "listing.sh", "#!/bin/sh\nls\n");
    write(&project, "Makefile", "clean:\n\t@echo cleaning\n\trm -rf data\n");
    write(
        &project,
        "package.json",
        r#"{"scripts": {"reset": "echo resetting && rm -rf data"}}"#,
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(project.join("cleanup.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    agent.permission_policy = PermissionPolicy::Select("deny");
    let session = agent.new_session(&project).await;
    set_mode(&mut agent, &session, "accept_edits").await;
    let dangerous = [
        "bash cleanup.sh",
        "sh ./cleanup.sh",
        "./cleanup.sh",
        ". ./cleanup.sh",
        "make clean",
        "npm run reset",
    ];
    let mut commands = dangerous.to_vec();
    commands.push("bash listing.sh");
    mock.push(terminal_calls("s", &commands));
    mock.push(mock_llm::text(&["tried"]));
    agent.prompt(&session, "clean up").await;
    assert_eq!(asked_commands(&agent), dangerous);
    for request in permission_requests(&agent) {
        let reason = request["params"]["toolCall"]["rawInput"]["reason"].as_str().unwrap();
        assert!(reason.contains("deletes files: data"), "{reason}");
    }
    assert_eq!(
        std::fs::read_to_string(project.join("data/keep")).unwrap(),
        "precious\n"
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn without_containment_accept_edits_runs_only_harmless_commands_unasked() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let project = home.cwd();
    write(&project, "x.py", "open('from-python.txt', 'w').write('hi')\n");
    let mut agent = AgentProcess::spawn(home.path(), &[("HERMES_ACP_SANDBOX", "unavailable")]).await;
    agent.initialize().await;
    agent.permission_policy = PermissionPolicy::Select("deny");
    let session = agent.new_session(&project).await;
    set_mode(&mut agent, &session, "dont_ask").await;
    mock.push(terminal_calls("n", &["python3 x.py", "mkdir made", "ls"]));
    mock.push(mock_llm::text(&["tried"]));
    agent.prompt(&session, "run").await;
    assert_eq!(asked_commands(&agent), ["python3 x.py"]);
    let reason = permission_requests(&agent)[0]["params"]["toolCall"]["rawInput"]["reason"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        reason.starts_with("not contained (no OS sandbox for this command)"),
        "{reason}"
    );
    assert!(!project.join("from-python.txt").exists());
    assert!(project.join("made").is_dir());
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_rule_for_cargo_test_allows_exactly_what_it_names() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let project = home.cwd();
    std::fs::create_dir_all(project.join("x")).unwrap();
    write(&project, "x/keep", "precious\n");
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&project).await;
    // No Cargo.toml: cargo fails at once, which is all this needs.
    // "Allow `cargo test …` for this session" (kept for the project with `/permissions always`).
    agent.permission_policy = PermissionPolicy::Select("allow_session");
    mock.push(terminal_calls("a", &["cargo test --offline 2>/dev/null"]));
    mock.push(mock_llm::text(&["asked once"]));
    agent.prompt(&session, "test").await;
    assert_eq!(asked_commands(&agent), ["cargo test --offline 2>/dev/null"]);
    let raw = &permission_requests(&agent)[0]["params"]["toolCall"]["rawInput"];
    assert_eq!(raw["remember"], json!(["cargo test …"]));

    agent.permission_policy = PermissionPolicy::Select("deny");
    let commands = [
        "cargo test --lib --offline 2>/dev/null",
        "cargo test --offline; rm -rf x",
        "cargo build --offline 2>/dev/null",
    ];
    mock.push(terminal_calls("b", &commands));
    mock.push(mock_llm::text(&["later"]));
    agent.prompt(&session, "test again").await;
    assert_eq!(
        asked_commands(&agent)[1..],
        ["cargo test --offline; rm -rf x", "cargo build --offline 2>/dev/null"],
        "the rule covers `cargo test --lib`, never an `rm -rf` beside it, nor `cargo build`"
    );
    assert_eq!(std::fs::read_to_string(project.join("x/keep")).unwrap(), "precious\n");
    // Kept for the project, it is listed as the pattern it allows.
    agent.prompt(&session, "/permissions always").await;
    let (_, updates) = agent.prompt(&session, "/permissions").await;
    let listing = agent_text(&updates);
    assert!(listing.contains("allow: `cargo test …`"), "{listing}");
    assert_eq!(agent.shutdown().await, Some(0));
}
