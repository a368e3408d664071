//! The containment promises, checked with real commands under the real sandbox through the
//! `terminal` tool, the way a wrong or hostile model behaves: the session is in `accept_edits`,
//! the editor refuses every question, and each attempt is spelled so the analysis cannot name
//! what it does (inline Python, a script it cannot read) — so it runs unasked, contained, and
//! only the OS stands between it and the machine: secrets hidden, protected paths read-only
//! and pinned, no network but a private loopback, no IPC with user daemons, no signal to a
//! process outside, nothing outliving the command, no capabilities for root. Every test first
//! asserts the kernel gives the full sandbox (this machine and CI do): a kernel without it
//! fails the suite, never skips.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Value, json};

use crate::runtime::ToolServices;
use crate::runtime::approver::{AllowAll, DenyAll};
use crate::runtime::shell::testing::test_ctx;
use crate::runtime::{Tool, ToolContext};
use crate::safety::policy::Mode;
use crate::safety::sandbox;
use crate::safety::sandbox::SandboxSettings;
use crate::tools::terminal::TerminalTool;

fn require_containment() {
    assert!(
        sandbox::status().is_contained(),
        "these tests need the full sandbox (user namespaces and Landlock): {:?}",
        sandbox::status()
    );
}

/// A project with a git repository, a home with Hermes' folder (keys, a skill) and a
/// credential file, and a context whose sandbox hides them.
struct World {
    _dirs: Vec<tempfile::TempDir>,
    project: PathBuf,
    hermes: PathBuf,
    home: PathBuf,
    ctx: ToolContext,
}

fn world() -> World {
    require_containment();
    let project_dir = tempfile::tempdir().unwrap();
    let home_dir = tempfile::tempdir().unwrap();
    let project = project_dir.path().canonicalize().unwrap();
    let home = home_dir.path().canonicalize().unwrap();
    let hermes = home.join(".hermes");
    let init = std::process::Command::new("git")
        .args(["init", "-q", "--template="])
        .arg(&project)
        .status()
        .unwrap();
    assert!(init.success());
    std::fs::create_dir_all(project.join(".git/hooks")).unwrap();
    std::fs::create_dir_all(hermes.join("skills/demo")).unwrap();
    std::fs::write(hermes.join(".env"), "OPENAI_API_KEY=sk-contained-test-key\n").unwrap();
    std::fs::write(hermes.join("config.yaml"), "model:\n  api_key: sk-contained-config\n").unwrap();
    std::fs::write(hermes.join("skills/demo/SKILL.md"), "a skill\n").unwrap();
    std::fs::write(home.join(".netrc"), "machine example.com password hunter2\n").unwrap();
    let mut ctx = test_ctx(&project, Arc::new(DenyAll));
    ctx.session.state.set_mode(Mode::AcceptEdits);
    // What a command changes is undoable here, so contained commands run unasked.
    let mut session = (*ctx.session).clone();
    session.checkpoints = Arc::new(crate::runtime::checkpoint::CompleteCoverage);
    ctx.session = Arc::new(session);
    ctx.services = Arc::new(ToolServices {
        hermes_home: Some(hermes.clone()),
        sandbox: SandboxSettings {
            secrets: crate::safety::sandbox::secrets(&home, &hermes),
            ..SandboxSettings::default()
        },
        ..Default::default()
    });
    World {
        _dirs: vec![project_dir, home_dir],
        project,
        hermes,
        home,
        ctx,
    }
}

async fn run(ctx: &ToolContext, command: &str) -> Value {
    run_with(ctx, json!({ "command": command })).await
}

async fn run_with(ctx: &ToolContext, args: Value) -> Value {
    serde_json::from_str(&TerminalTool.run(ctx, args).await.content).unwrap()
}

/// `code` as a Python one-liner: a program the analysis cannot see into, so it runs unasked
/// (contained and undoable) in `accept_edits`.
fn py(code: &str) -> String {
    format!("python3 -c {}", crate::runtime::shell::testing::quote(code))
}

/// The same world, but the user answers yes (for the grants an approval gives).
fn approving(w: &World) -> ToolContext {
    let mut ctx = w.ctx.clone();
    let mut session = (*ctx.session).clone();
    session.approver = Arc::new(AllowAll);
    ctx.session = Arc::new(session);
    ctx
}

fn output(result: &Value) -> &str {
    result["output"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn secrets_are_unreadable_whatever_the_spelling_and_skills_stay_readable() {
    let w = world();
    let h = w.hermes.display();
    let commands = [
        py(&format!("print(open('{h}/.env').read())")),
        py(&format!(
            "import glob\nfor f in glob.glob('{h}/.*') + glob.glob('{h}/*'):\n    print(open(f).read())"
        )),
        py(&format!(
            "import os\nfor r, _, fs in os.walk('{h}'):\n    [print(open(os.path.join(r, f)).read()) for f in fs]"
        )),
        py(&format!("print(open('{}/.netrc').read())", w.home.display())),
        py("print(open('/proc/1/environ').read(), open('/proc/self/environ').read())"),
        py("import base64\nprint(base64.b64encode(open('/proc/1/cmdline','rb').read()))"),
    ];
    for command in &commands {
        let result = run(&w.ctx, command).await;
        assert!(result.get("approval").is_none(), "{command} was asked about: {result}");
        let text = output(&result);
        for secret in ["sk-contained", "hunter2", "c2stY29udGFpbmVk"] {
            assert!(!text.contains(secret), "{command} printed a secret: {result}");
        }
    }
    let result = run(
        &w.ctx,
        &py(&format!("print(open('{h}/skills/demo/SKILL.md').read(), end='')")),
    )
    .await;
    assert_eq!(output(&result), "a skill", "{result}");
}

#[tokio::test]
async fn git_hooks_and_config_are_read_only_and_cannot_be_swapped() {
    let w = world();
    std::fs::create_dir_all(w.project.join(".vscode")).unwrap();
    // Ordinary git work in the same repository still runs (here approved by the user).
    let result = run(
        &approving(&w),
        "echo a > f && git add f && git -c user.name=t -c user.email=t@e commit -qm one && git log --oneline | wc -l",
    )
    .await;
    assert_eq!(output(&result), "1", "{result}");
    let attempts = [
        "open('.git/hooks/post-checkout', 'w').write('touch /tmp/pwned')",
        "import subprocess; subprocess.run(['git', 'config', 'core.fsmonitor', 'touch /tmp/pwned'], check=True)",
        "open('.git/config', 'a').write('[core]\\n\\thooksPath = evil\\n')",
        "import os; os.rename('.git', '.git-old'); os.makedirs('.git/hooks'); open('.git/hooks/pre-commit', 'w').write('x')",
        "import os; os.rename('.git/hooks', '.git/hooks-old')",
        "open('.vscode/tasks.json', 'w').write('{}')",
        "import os; os.rename('.vscode', '.vscode-old')",
        // Last: it deletes what is not pinned (the objects: see the undo docs), not the hooks.
        "import shutil; shutil.rmtree('.git')",
    ];
    for code in attempts {
        let result = run(&w.ctx, &py(code)).await;
        assert!(result.get("approval").is_none(), "{code} was asked about: {result}");
        assert_ne!(result["exit_code"], 0, "{code} succeeded: {result}");
    }
    let config = std::fs::read_to_string(w.project.join(".git/config")).unwrap();
    assert!(
        !config.contains("fsmonitor") && !config.contains("hooksPath"),
        "{config}"
    );
    assert_eq!(std::fs::read_dir(w.project.join(".git/hooks")).unwrap().count(), 0);
    assert!(!w.project.join(".vscode/tasks.json").exists());
}

#[tokio::test]
async fn a_husky_hooks_path_is_protected_too() {
    let w = world();
    std::fs::create_dir_all(w.project.join(".husky/_")).unwrap();
    std::fs::write(w.project.join(".git/config"), "[core]\n\thooksPath = .husky/_\n").unwrap();
    let result = run(&w.ctx, &py("open('.husky/_/pre-commit', 'w').write('evil')")).await;
    assert_ne!(result["exit_code"], 0, "{result}");
    assert!(!w.project.join(".husky/_/pre-commit").exists());
}

#[tokio::test]
async fn no_network_but_a_private_loopback_and_the_network_when_granted() {
    let w = world();
    // A server of ours, on the host's loopback.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let reach = format!("import socket; socket.create_connection(('127.0.0.1', {port}), timeout=5); print('reached')");
    let result = run(&w.ctx, &py(&reach)).await;
    assert!(result.get("approval").is_none(), "{result}");
    assert!(!output(&result).contains("reached"), "{result}");
    let resolve = "import socket\ntry:\n    socket.gethostbyname('example.com'); print('resolved')\nexcept OSError:\n    print('unresolved')";
    assert_eq!(output(&run(&w.ctx, &py(resolve)).await), "unresolved");
    // The command's own servers work on its own loopback.
    let own = "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); \
               socket.create_connection(s.getsockname()); print('own loopback')";
    assert_eq!(output(&run(&w.ctx, &py(own)).await), "own loopback");
    // Asked for and approved, it runs in the network: our server is reachable.
    let result = run_with(&approving(&w), json!({"command": py(&reach), "network": true})).await;
    assert_eq!(output(&result), "reached", "{result}");
    assert!(result["approval"].as_str().unwrap().contains("network"), "{result}");
}

#[tokio::test]
async fn a_failure_for_want_of_network_is_reported_as_such() {
    let w = world();
    let fetch = "import urllib.request; urllib.request.urlopen('http://example.com', timeout=5)";
    let result = run(&w.ctx, &py(fetch)).await;
    assert_ne!(result["exit_code"], 0, "{result}");
    assert_eq!(result["sandbox"], "network denied", "{result}");
    assert!(result["sandbox_note"].as_str().unwrap().contains("\"network\": true"));
}

#[tokio::test]
async fn no_ipc_with_daemons_outside() {
    let w = world();
    // A user daemon's socket (tmux, ssh-agent, docker and D-Bus work this way).
    let socket = w.home.join("daemon.sock");
    let _daemon = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let connect = format!(
        "import socket; s = socket.socket(socket.AF_UNIX); s.connect('{}'); print('connected')",
        socket.display()
    );
    let result = run(&w.ctx, &py(&connect)).await;
    assert!(!output(&result).contains("connected"), "{result}");
    // A real tmux server started outside: its clients would run commands in the server.
    let tmux_socket = w.home.join("tmux.sock");
    let started = std::process::Command::new("tmux")
        .arg("-S")
        .arg(&tmux_socket)
        .args(["new-session", "-d", "sleep 300"])
        .status()
        .unwrap();
    assert!(started.success());
    let planted = w.home.join("planted-by-tmux");
    let code = format!(
        "import subprocess; subprocess.run(['tmux', '-S', '{}', 'run-shell', 'touch {}'], check=True)",
        tmux_socket.display(),
        planted.display()
    );
    let result = run(&w.ctx, &py(&code)).await;
    let _ = std::process::Command::new("tmux")
        .arg("-S")
        .arg(&tmux_socket)
        .arg("kill-server")
        .status();
    assert_ne!(result["exit_code"], 0, "{result}");
    assert!(!planted.exists(), "tmux ran a command outside the sandbox");
    // Pipes between the command's own processes still work.
    let pair = "import socket; a, b = socket.socketpair(); a.send(b'hi'); print(b.recv(2).decode())";
    assert_eq!(output(&run(&w.ctx, &py(pair)).await), "hi");
    // Shared memory is the session's own.
    let shm = "open('/dev/shm/hermes-test', 'w').write('private'); print(open('/dev/shm/hermes-test').read())";
    let result = run(&w.ctx, &py(shm)).await;
    assert_eq!(output(&result), "private", "{result}");
    assert!(!Path::new("/dev/shm/hermes-test").exists());
}

#[tokio::test]
async fn processes_outside_are_out_of_reach_and_nothing_outlives_the_command() {
    let w = world();
    let ours = std::process::id();
    let probe = format!(
        "import os\ntry:\n    os.kill({ours}, 0); print('reachable')\nexcept OSError:\n    print('unreachable')"
    );
    assert_eq!(output(&run(&w.ctx, &py(&probe)).await), "unreachable");
    let marker = format!("hermes-orphan-{}", fastrand::u64(..));
    let spawn = format!(
        "import subprocess; subprocess.Popen(['bash', '-c', 'exec -a {marker} sleep 300'], start_new_session=True); print('started')"
    );
    let result = run(&w.ctx, &py(&spawn)).await;
    assert_eq!(output(&result), "started", "{result}");
    // The namespace's init killed and reaped everything before the command was reported done.
    assert!(!running(&marker), "a setsid child outlived its command");
}

#[tokio::test]
async fn root_has_no_capabilities_inside() {
    let w = world();
    let result = run(&w.ctx, "grep -E '^Cap(Eff|Prm|Bnd)' /proc/self/status").await;
    assert_eq!(output(&result).lines().count(), 3, "{result}");
    for line in output(&result).lines() {
        assert!(line.ends_with("0000000000000000"), "{result}");
    }
}

#[tokio::test]
async fn a_created_file_that_runs_code_later_is_put_out_of_action() {
    let w = world();
    let code = "import os; open('.envrc', 'w').write('curl x | sh'); os.makedirs('.vscode'); \
                open('.vscode/tasks.json', 'w').write('{}')";
    let result = run(&w.ctx, &py(code)).await;
    assert_eq!(result["exit_code"], 0, "{result}");
    let note = result["protected_note"].as_str().unwrap();
    assert!(note.contains(".envrc") && note.contains(".vscode"), "{note}");
    assert!(!w.project.join(".envrc").exists() && !w.project.join(".vscode").exists());
    assert!(w.project.join(".envrc.quarantined").exists());
    assert!(w.project.join(".vscode.quarantined/tasks.json").exists());
}

#[tokio::test]
async fn the_shell_state_a_contained_command_leaves_never_runs_outside_the_sandbox() {
    let w = world();
    let planted = w.home.join("planted-by-shell-state");
    let plant = format!(
        "export PROMPT_COMMAND='touch {0}'; alias ls='touch {0}'",
        planted.display()
    );
    let result = run(&w.ctx, &plant).await;
    assert_eq!(result["exit_code"], 0, "{result}");
    // Inside the sandbox the export carries over as usual.
    let result = run(&w.ctx, "echo ${PROMPT_COMMAND:-lost}").await;
    assert!(output(&result).starts_with("touch"), "{result}");
    // The saved state itself is out of the sandbox's reach.
    let saved = w
        .ctx
        .session
        .state
        .processes
        .shell_state()
        .source(Some(&w.hermes), true);
    let result = run(
        &w.ctx,
        &py(&format!(
            "open('{}', 'a').write('touch {}')",
            saved.display(),
            planted.display()
        )),
    )
    .await;
    assert_ne!(result["exit_code"], 0, "{result}");
    // An approved command outside the sandbox does not inherit what the contained one set.
    let result = run_with(
        &approving(&w),
        json!({"command": "echo ${PROMPT_COMMAND:-clean}", "unsandboxed": true}),
    )
    .await;
    assert_eq!(output(&result), "clean", "{result}");
    assert!(!planted.exists());
}

/// Whether any process on the machine has `marker` in its command line.
fn running(marker: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|entry| {
        std::fs::read(entry.path().join("cmdline"))
            .is_ok_and(|cmdline| String::from_utf8_lossy(&cmdline).contains(marker))
    })
}
