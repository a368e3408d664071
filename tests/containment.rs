//! The containment promises through the real binary, the mock provider and this machine's
//! kernel: everyday work runs without a click when contained (a table of 30+ commands in
//! `accept_edits` and `dont_ask`, package installs with the network allowed in config); a
//! command in the editor's terminal is contained too (through our launcher); the network is
//! asked for per command and granted only to it; with the sandbox off by configuration only
//! commands known to be harmless run unasked. The per-class hostile cases live beside the code
//! (`src/tools/terminal/tests/containment.rs`, the `safety::command` tables).

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::support::calls::{permission_requests, python, terminal_calls, terminal_calls_with, tool_result};
use crate::support::mock_llm::{self, MockLlm};
use crate::support::{AgentProcess, PermissionPolicy, TestHome};

/// A project with git history, a Rust crate, an npm package (with a local dependency), a
/// Python module and a Makefile.
fn project(dir: &Path) {
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "Cargo.toml",
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    write(
        "src/main.rs",
        "fn double(x: u32) -> u32 { x * 2 }\nfn main() { println!(\"{}\", double(21)); }\n\
         #[cfg(test)]\nmod tests { #[test] fn doubles() { assert_eq!(super::double(2), 4); } }\n",
    );
    write(
        "package.json",
        r#"{"name":"demo","version":"1.0.0","scripts":{"test":"node test.js","build":"node build.js"},"dependencies":{"localdep":"file:localdep"}}"#,
    );
    write(
        "test.js",
        "require('assert').strictEqual(1 + 1, 2); console.log('js ok');\n",
    );
    write("build.js", "require('fs').writeFileSync('out.txt', 'built\\n');\n");
    write(
        "localdep/package.json",
        r#"{"name":"localdep","version":"1.0.0","main":"index.js"}"#,
    );
    write("localdep/index.js", "module.exports = 42;\n");
    write("calc.py", "def add(a, b):\n    return a + b\n");
    write(
        "test_calc.py",
        "import unittest\nimport calc\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(calc.add(2, 3), 5)\n\nif __name__ == '__main__':\n    unittest.main()\n",
    );
    write(
        "Makefile",
        "all:\n\techo built > made.txt\n\ntest:\n\tpython3 -m unittest -q test_calc\n",
    );
    write("notes.md", "# Notes\nalpha\nbeta\n");
    write(".gitignore", "target/\nnode_modules/\n__pycache__/\n");
    let git = |args: &[&str]| {
        let status = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@e"])
            .args(args)
            .current_dir(dir)
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    };
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-qm", "first"]);
}

/// Everyday commands: build, test, lint, git reads, file chores, a package install.
const EVERYDAY: &[&str] = &[
    "cargo build --offline -q",
    "cargo test --offline -q",
    "cargo check --offline -q",
    "cargo run --offline -q",
    "cargo fmt --check || true",
    "npm install --offline --no-audit --no-fund",
    "npm test --silent",
    "npm run build --silent",
    "node -e 'console.log(require(\"localdep\"))'",
    "python3 -m unittest -q test_calc",
    "python3 -c 'import calc; print(calc.add(1, 2))'",
    "make",
    "make test",
    "git status --short",
    "git diff",
    "git log --oneline -5",
    "git show --stat HEAD",
    "git branch --list",
    "git ls-files",
    "ls -la",
    "find . -name '*.rs' -not -path './target/*'",
    "grep -rn alpha notes.md",
    "wc -l src/main.rs calc.py",
    "head -n 2 notes.md",
    "cat notes.md | sort | uniq",
    "sed -n 2p notes.md",
    "awk 'NR==3' notes.md",
    "diff notes.md notes.md",
    "mkdir -p build/tmp",
    "echo scratch > build/tmp/new.txt",
    "cp notes.md build/notes-copy.md",
    "tar czf build/src.tgz src",
    "jq -n '1 + 1'",
    "sqlite3 build/demo.db 'create table t(x); insert into t values (1); select count(*) from t;'",
];

/// The toolchain lives under the real home; commands get it through these variables (the
/// agent's own HOME is a scratch folder).
fn toolchain_env() -> Vec<(&'static str, String)> {
    let real_home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    let var = |name: &str, default: String| std::env::var(name).unwrap_or(default);
    vec![
        ("RUSTUP_HOME", var("RUSTUP_HOME", format!("{real_home}/.rustup"))),
        ("CARGO_HOME", var("CARGO_HOME", format!("{real_home}/.cargo"))),
    ]
}

async fn agent_for(home: &TestHome, scratch_home: &Path, terminal: bool) -> (AgentProcess, String) {
    let toolchain = toolchain_env();
    let mut env: Vec<(&str, &str)> = toolchain.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let scratch = scratch_home.to_str().unwrap();
    env.push(("HOME", scratch));
    let mut agent = AgentProcess::spawn(home.path(), &env).await;
    agent
        .initialize_with(json!({"fs": {"readTextFile": false, "writeTextFile": false}, "terminal": terminal}))
        .await;
    let session = agent.new_session(&home.cwd()).await;
    (agent, session)
}

async fn set_mode(agent: &mut AgentProcess, session: &str, mode: &str) {
    let response = agent
        .request("session/set_mode", json!({"sessionId": session, "modeId": mode}))
        .await;
    assert!(response.get("error").is_none(), "{response}");
}

#[tokio::test]
async fn everyday_commands_run_without_a_click_when_contained() {
    for mode in ["accept_edits", "dont_ask"] {
        let mock = MockLlm::start().await;
        let home = TestHome::new(&mock.url());
        home.add_config("terminal:\n  network: allow\n");
        project(&home.cwd());
        let scratch = tempfile::tempdir().unwrap();
        let (mut agent, session) = agent_for(&home, scratch.path(), false).await;
        set_mode(&mut agent, &session, mode).await;
        agent.permission_policy = PermissionPolicy::Select("deny");
        mock.push(terminal_calls("c", EVERYDAY));
        mock.push(mock_llm::text(&["done"]));
        let (response, _) = agent.prompt(&session, "work").await;
        assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
        let asked: Vec<&Value> = permission_requests(&agent);
        assert!(asked.is_empty(), "{mode}: asked about {asked:?}");
        for (i, command) in EVERYDAY.iter().enumerate() {
            let result = tool_result(&mock, &format!("c{i}"));
            assert_eq!(result["exit_code"], 0, "{mode}: `{command}` failed: {result}");
        }
        assert!(home.cwd().join("node_modules/localdep/index.js").exists());
        assert!(home.cwd().join("made.txt").exists() && home.cwd().join("out.txt").exists());
        assert_eq!(agent.shutdown().await, Some(0));
    }
}

#[tokio::test]
async fn a_command_in_the_editors_terminal_is_contained_too() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    project(&home.cwd());
    let scratch = tempfile::tempdir().unwrap();
    std::fs::write(scratch.path().join(".netrc"), "machine x password hunter2-netrc\n").unwrap();
    let (mut agent, session) = agent_for(&home, scratch.path(), true).await;
    set_mode(&mut agent, &session, "accept_edits").await;
    agent.permission_policy = PermissionPolicy::Select("deny");
    let read = python(&format!("print(open('{}/.netrc').read())", scratch.path().display()));
    let plant = python("open('.git/hooks/post-checkout', 'w').write('touch /tmp/pwned')");
    mock.push(terminal_calls("e", &[read.as_str(), plant.as_str(), "echo visible"]));
    mock.push(mock_llm::text(&["done"]));
    let (response, _) = agent.prompt(&session, "try").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert!(permission_requests(&agent).is_empty());
    let creates: Vec<&Value> = agent
        .agent_requests
        .iter()
        .filter(|r| r["method"] == "terminal/create")
        .collect();
    assert_eq!(creates.len(), 3, "every command ran in the editor's terminal");
    // Our launcher runs in the terminal (with the spec in its environment) and gets the
    // shell's own arguments, which the editor shows as the terminal's label.
    for create in &creates {
        assert!(
            create["params"]["command"].as_str().unwrap().ends_with("hermes-acp"),
            "{create}"
        );
        assert_eq!(create["params"]["args"][0], "-c", "{create}");
        let env = create["params"]["env"].as_array().unwrap();
        assert!(env.iter().any(|v| v["name"] == "HERMES_ACP_SANDBOX_SPEC"), "{create}");
    }
    assert!(!tool_result(&mock, "e0").to_string().contains("hunter2"));
    assert_ne!(tool_result(&mock, "e1")["exit_code"], 0);
    assert!(!home.cwd().join(".git/hooks/post-checkout").exists());
    assert_eq!(tool_result(&mock, "e2")["output"], "visible");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn the_network_is_asked_for_and_granted_to_that_command_only() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let reach = python(&format!(
        "import socket; socket.create_connection((\"127.0.0.1\", {port}), timeout=5); print(\"reached\")"
    ));
    let lookup = python("import socket; socket.getaddrinfo(\"example.invalid\", 80)");
    let scratch = tempfile::tempdir().unwrap();
    let (mut agent, session) = agent_for(&home, scratch.path(), false).await;
    set_mode(&mut agent, &session, "accept_edits").await;
    agent.permission_policy = PermissionPolicy::Select("allow_once");
    let calls = [
        json!({"command": reach, "network": true}),
        json!({ "command": reach }),
        json!({ "command": lookup }),
    ];
    mock.push(terminal_calls_with("n", &calls));
    mock.push(mock_llm::text(&["done"]));
    agent.prompt(&session, "fetch").await;
    let asked = permission_requests(&agent);
    assert_eq!(asked.len(), 1, "only the call that asked for the network asks");
    let title = asked[0]["params"]["toolCall"]["title"].as_str().unwrap();
    assert!(title.contains("needs the network"), "{title}");
    assert_eq!(tool_result(&mock, "n0")["output"], "reached");
    // Without the grant, the same command runs offline (its own loopback has no server).
    assert!(!tool_result(&mock, "n1")["output"].as_str().unwrap().contains("reached"));
    let offline = tool_result(&mock, "n2");
    assert_eq!(offline["sandbox"], "network denied", "{offline}");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn with_the_sandbox_off_only_harmless_commands_run_unasked() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    home.add_config("sandbox: off\n");
    project(&home.cwd());
    let scratch = tempfile::tempdir().unwrap();
    let (mut agent, session) = agent_for(&home, scratch.path(), false).await;
    set_mode(&mut agent, &session, "dont_ask").await;
    agent.permission_policy = PermissionPolicy::Select("deny");
    let unknown = python("open(\"made-by-python\", \"w\").write(\"x\")");
    mock.push(terminal_calls(
        "o",
        &["ls", "git status --short", unknown.as_str(), "cargo build --offline -q"],
    ));
    mock.push(mock_llm::text(&["done"]));
    agent.prompt(&session, "go").await;
    let asked: Vec<String> = permission_requests(&agent)
        .iter()
        .map(|r| {
            r["params"]["toolCall"]["rawInput"]["command"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(asked, [unknown.clone(), "cargo build --offline -q".to_string()]);
    assert_eq!(tool_result(&mock, "o0")["exit_code"], 0);
    assert!(!home.cwd().join("made-by-python").exists());
    assert!(!home.cwd().join("target").exists());
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn without_namespaces_landlock_and_seccomp_still_confine_what_was_approved() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let outside = tempfile::tempdir_in("/var/tmp").unwrap();
    let reach = python(&format!(
        "import socket; socket.create_connection((\"127.0.0.1\", {port}), timeout=5); print(\"reached\")"
    ));
    let escape = python(&format!("open(\"{}/x\", \"w\").write(\"x\")", outside.path().display()));
    let scratch = tempfile::tempdir().unwrap();
    let toolchain = toolchain_env();
    let mut env: Vec<(&str, &str)> = toolchain.iter().map(|(k, v)| (*k, v.as_str())).collect();
    env.extend([
        ("HOME", scratch.path().to_str().unwrap()),
        ("HERMES_ACP_SANDBOX", "no-namespaces"),
    ]);
    let mut agent = AgentProcess::spawn(home.path(), &env).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    set_mode(&mut agent, &session, "accept_edits").await;
    agent.permission_policy = PermissionPolicy::Select("allow_once");
    mock.push(terminal_calls("p", &["ls", reach.as_str(), escape.as_str()]));
    mock.push(mock_llm::text(&["done"]));
    agent.prompt(&session, "go").await;
    // Not fully contained: anything not known to be harmless asks.
    assert_eq!(permission_requests(&agent).len(), 2);
    // Approved, they still run confined: no network, no write outside the project.
    assert!(!tool_result(&mock, "p1")["output"].as_str().unwrap().contains("reached"));
    assert_ne!(tool_result(&mock, "p2")["exit_code"], 0);
    assert!(!outside.path().join("x").exists());
    assert_eq!(agent.shutdown().await, Some(0));
}
