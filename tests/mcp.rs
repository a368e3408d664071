//! MCP client, in-process: `connect_all` against `examples/mcp_test_server` over stdio and
//! streamable HTTP — tool names and schemas, call round trips, error results, cancellation and
//! timeouts, servers that fail to start, and children killed on close and on drop.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hermes_acp::mcp::{self, McpConnections, McpOptions, McpServerConfig};
use hermes_acp::tools::{
    DenyAll, LocalFs, SessionToolState, Tool, ToolContext, ToolOutput, ToolRegistry, ToolServices, Workspace,
};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio_util::sync::CancellationToken;

/// The example server, built by `cargo test` next to the test binary
/// (`target/<profile>/deps/all-…` → `target/<profile>/examples/mcp_test_server`). A filtered run
/// (`cargo test --test all mcp`) does not build examples, so then it is built here, once.
fn server_binary() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let exe = std::env::current_exe().unwrap();
            let profile_dir = exe.parent().and_then(Path::parent).unwrap();
            let path = profile_dir.join("examples").join("mcp_test_server");
            if !path.exists() {
                let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
                let mut build = std::process::Command::new(cargo);
                build.args(["build", "--quiet", "--example", "mcp_test_server"]);
                if profile_dir.file_name().is_some_and(|p| p == "release") {
                    build.arg("--release");
                }
                let status = build
                    .current_dir(env!("CARGO_MANIFEST_DIR"))
                    .env("CARGO_TARGET_DIR", profile_dir.parent().unwrap())
                    .status()
                    .expect("run cargo build --example mcp_test_server");
                assert!(status.success(), "cargo build --example mcp_test_server failed");
            }
            assert!(path.exists(), "{} is missing", path.display());
            path
        })
        .clone()
}

fn stdio(name: &str, args: &[&str], env: &[(&str, &str)]) -> McpServerConfig {
    McpServerConfig::Stdio {
        name: name.into(),
        command: server_binary().display().to_string(),
        args: args.iter().map(|a| a.to_string()).collect(),
        env: env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
    }
}

fn ctx(cwd: &Path, cancel: CancellationToken) -> ToolContext {
    ToolContext {
        session_id: "s".into(),
        call_id: "c".into(),
        workspace: Arc::new(Workspace::new(cwd.to_path_buf())),
        cancel,
        approver: Arc::new(DenyAll),
        fs: Arc::new(LocalFs),
        state: Arc::new(SessionToolState::default()),
        services: Arc::new(ToolServices::default()),
    }
}

async fn call(conns: &McpConnections, name: &str, args: Value) -> ToolOutput {
    let tmp = std::env::temp_dir();
    call_with(conns, name, args, &ctx(&tmp, CancellationToken::new())).await
}

async fn call_with(conns: &McpConnections, name: &str, args: Value, ctx: &ToolContext) -> ToolOutput {
    let registry = ToolRegistry::new(conns.tools());
    registry.dispatch(ctx, name, &args.to_string()).await
}

fn tool<'a>(tools: &'a [Arc<dyn Tool>], name: &str) -> &'a Arc<dyn Tool> {
    tools
        .iter()
        .find(|t| t.name() == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
}

/// Whether `pid` is gone (or a zombie awaiting its reaper).
fn process_gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// Live processes whose working directory is `dir` (each test has its own project folder, so
/// these are the MCP servers it started).
fn processes_in(dir: &Path) -> Vec<u32> {
    let dir = dir.canonicalize().unwrap();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| std::fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|cwd| cwd == dir))
        .filter(|pid| !process_gone(*pid))
        .collect()
}

async fn wait_gone(pid: u32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if process_gone(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

#[tokio::test]
async fn stdio_tools_are_listed_with_prefixed_names_and_schemas() {
    let project = tempfile::tempdir().unwrap();
    let conns = mcp::connect_all(vec![stdio("test.srv", &[], &[])], project.path()).await;
    assert!(conns.failures().is_empty(), "{:?}", conns.failures());
    assert_eq!(conns.server_names(), ["test.srv"]);
    let tools = conns.tools();
    let mut names: Vec<&str> = tools.iter().map(|t| t.name()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "mcp_test_srv_add",
            "mcp_test_srv_cwd",
            "mcp_test_srv_dotted_name_x",
            "mcp_test_srv_echo",
            "mcp_test_srv_env",
            "mcp_test_srv_fail",
            "mcp_test_srv_header",
            "mcp_test_srv_mixed",
            "mcp_test_srv_pid",
            "mcp_test_srv_slow",
        ]
    );
    let add = tool(&tools, "mcp_test_srv_add");
    assert_eq!(add.description(), "Adds two numbers.");
    assert_eq!(
        add.parameters(),
        json!({"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]})
    );
    // A bare `{"type": "object"}` gains `properties`; a missing description gets a stand-in.
    assert_eq!(
        tool(&tools, "mcp_test_srv_fail").parameters(),
        json!({"type": "object", "properties": {}})
    );
    assert_eq!(
        tool(&tools, "mcp_test_srv_dotted_name_x").description(),
        "MCP tool dotted.name-x from test.srv"
    );
    conns.close().await;
}

#[tokio::test]
async fn calls_round_trip_and_errors_are_flagged() {
    let project = tempfile::tempdir().unwrap();
    let conns = mcp::connect_all(
        vec![stdio("t", &[], &[("MCP_TEST_VAR", "from-config")])],
        project.path(),
    )
    .await;
    assert!(conns.failures().is_empty(), "{:?}", conns.failures());

    let echo = call(&conns, "mcp_t_echo", json!({"text": "hi there"})).await;
    assert_eq!(
        (echo.content.as_str(), echo.is_error),
        (r#"{"result":"echo: hi there"}"#, false)
    );
    let add = call(&conns, "mcp_t_add", json!({"a": 2, "b": 40})).await;
    assert_eq!(add.content, r#"{"result":"42"}"#);
    let fail = call(&conns, "mcp_t_fail", json!({})).await;
    assert_eq!(
        (fail.content.as_str(), fail.is_error),
        (r#"{"error":"this tool always fails"}"#, true)
    );
    let mixed = call(&conns, "mcp_t_mixed", json!({})).await;
    assert_eq!(
        mixed.content,
        r#"{"result":"see image\n[image: image/png, 3 bytes]","structuredContent":{"ok":true}}"#
    );
    let dotted = call(&conns, "mcp_t_dotted_name_x", json!({})).await;
    assert_eq!(dotted.content, r#"{"result":"dotted"}"#);

    // The entry's env reaches the child; our own secrets do not (only safe variables pass).
    let var = call(&conns, "mcp_t_env", json!({"name": "MCP_TEST_VAR"})).await;
    assert_eq!(var.content, r#"{"result":"from-config"}"#);
    let path = call(&conns, "mcp_t_env", json!({"name": "PATH"})).await;
    assert_ne!(path.content, r#"{"result":"<unset>"}"#);
    let leaked = call(&conns, "mcp_t_env", json!({"name": "CARGO_MANIFEST_DIR"})).await;
    assert_eq!(leaked.content, r#"{"result":"<unset>"}"#);

    // The child runs in the session cwd.
    let cwd = call(&conns, "mcp_t_cwd", json!({})).await;
    let expected = project.path().canonicalize().unwrap().display().to_string();
    assert_eq!(cwd.content, json!({"result": expected}).to_string());
    conns.close().await;
}

#[tokio::test]
async fn failing_servers_are_reported_without_failing_the_others() {
    let project = tempfile::tempdir().unwrap();
    let servers = vec![
        McpServerConfig::Stdio {
            name: "missing".into(),
            command: "/nonexistent/mcp-server-binary".into(),
            args: vec![],
            env: vec![],
        },
        stdio("crashes", &["--exit-immediately"], &[]),
        stdio("good", &[], &[]),
        McpServerConfig::Http {
            name: "refused".into(),
            url: "http://127.0.0.1:1/mcp".into(),
            headers: vec![],
        },
    ];
    let started = Instant::now();
    let conns = mcp::connect_all(servers, project.path()).await;
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
    assert_eq!(conns.server_names(), ["good"]);
    let failures: Vec<(&str, &str)> = conns
        .failures()
        .iter()
        .map(|f| (f.server.as_str(), f.message.as_str()))
        .collect();
    assert_eq!(failures.len(), 3, "{failures:?}");
    assert_eq!(failures[0].0, "missing");
    assert!(
        failures[0]
            .1
            .contains("failed to start `/nonexistent/mcp-server-binary`"),
        "{failures:?}"
    );
    assert_eq!(failures[1].0, "crashes");
    assert!(
        failures[1].1.contains("boom: this server refuses to start"),
        "{failures:?}"
    );
    assert_eq!(failures[2].0, "refused");
    let notice = conns.failure_notice().unwrap();
    assert!(notice.contains("MCP server 'missing' is unavailable"), "{notice}");
    assert!(conns.tools().iter().all(|t| t.name().starts_with("mcp_good_")));
    conns.close().await;
}

#[tokio::test]
async fn a_hanging_server_times_out_and_is_killed() {
    let project = tempfile::tempdir().unwrap();
    let options = McpOptions {
        connect_timeout: Duration::from_millis(500),
        ..McpOptions::default()
    };
    let servers = vec![stdio("hang", &["--hang"], &[])];
    let started = Instant::now();
    let conns = mcp::connect_all_with(servers, project.path(), options).await;
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(conns.failures().len(), 1);
    assert!(
        conns.failures()[0].message.contains("timed out"),
        "{:?}",
        conns.failures()
    );
    assert!(conns.child_pids().is_empty());
    let deadline = Instant::now() + Duration::from_secs(10);
    while !processes_in(project.path()).is_empty() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        processes_in(project.path()),
        Vec::<u32>::new(),
        "the hanging server survived"
    );
}

#[tokio::test]
async fn cancel_and_call_timeout_end_a_slow_call() {
    let project = tempfile::tempdir().unwrap();
    let options = McpOptions {
        call_timeout: Duration::from_millis(300),
        ..McpOptions::default()
    };
    let conns = mcp::connect_all_with(vec![stdio("t", &[], &[])], project.path(), options).await;

    let started = Instant::now();
    let timed_out = call(&conns, "mcp_t_slow", json!({"ms": 5000})).await;
    assert!(timed_out.is_error);
    assert!(timed_out.content.contains("timed out"), "{}", timed_out.content);
    assert!(started.elapsed() < Duration::from_secs(3));

    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        trigger.cancel();
    });
    let started = Instant::now();
    let cancelled = call_with(&conns, "mcp_t_slow", json!({"ms": 5000}), &ctx(project.path(), cancel)).await;
    assert_eq!(cancelled.content, r#"{"error":"Interrupted","interrupted":true}"#);
    assert!(started.elapsed() < Duration::from_secs(2));

    // The connection still works after abandoned calls.
    let echo = call(&conns, "mcp_t_echo", json!({"text": "still here"})).await;
    assert_eq!(echo.content, r#"{"result":"echo: still here"}"#);
    conns.close().await;
}

#[tokio::test]
async fn close_kills_the_child_and_later_calls_fail_cleanly() {
    let project = tempfile::tempdir().unwrap();
    let conns = mcp::connect_all(vec![stdio("t", &[], &[])], project.path()).await;
    let pid_out = call(&conns, "mcp_t_pid", json!({})).await;
    assert_eq!(processes_in(project.path()).len(), 1);
    let pid: u32 = serde_json::from_str::<Value>(&pid_out.content).unwrap()["result"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(conns.child_pids(), [pid]);
    assert!(!process_gone(pid));
    let tools = conns.tools();
    let started = Instant::now();
    conns.close().await;
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(wait_gone(pid).await, "server {pid} survived close");

    let registry = ToolRegistry::new(tools);
    let late = registry
        .dispatch(
            &ctx(project.path(), CancellationToken::new()),
            "mcp_t_echo",
            r#"{"text":"x"}"#,
        )
        .await;
    assert!(late.is_error, "{}", late.content);
}

#[tokio::test]
async fn dropping_the_connections_kills_the_child() {
    let project = tempfile::tempdir().unwrap();
    let conns = mcp::connect_all(vec![stdio("t", &[], &[])], project.path()).await;
    let pids = conns.child_pids();
    assert_eq!(pids.len(), 1);
    drop(conns);
    assert!(wait_gone(pids[0]).await, "server {} survived drop", pids[0]);
}

#[tokio::test]
async fn close_kills_the_whole_process_group_of_a_stubborn_server() {
    let project = tempfile::tempdir().unwrap();
    // A shell that outlives its stdin, running a server that does too: neither exits on EOF.
    let script = format!("{} --linger; sleep 3600", server_binary().display());
    let servers = vec![McpServerConfig::Stdio {
        name: "stubborn".into(),
        command: "sh".into(),
        args: vec!["-c".into(), script],
        env: vec![],
    }];
    let conns = mcp::connect_all(servers, project.path()).await;
    assert!(conns.failures().is_empty(), "{:?}", conns.failures());
    assert_eq!(processes_in(project.path()).len(), 2);
    let started = Instant::now();
    conns.close().await;
    assert!(started.elapsed() < Duration::from_secs(8), "{:?}", started.elapsed());
    let deadline = Instant::now() + Duration::from_secs(10);
    while !processes_in(project.path()).is_empty() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        processes_in(project.path()),
        Vec::<u32>::new(),
        "part of the server survived close"
    );
}

/// Starts the example in HTTP mode and returns it with its URL.
async fn http_server() -> (tokio::process::Child, String) {
    let mut child = tokio::process::Command::new(server_binary())
        .arg("--http")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let port = line.strip_prefix("LISTENING ").unwrap().to_string();
    (child, format!("http://127.0.0.1:{port}/mcp"))
}

#[tokio::test]
async fn streamable_http_server_with_headers() {
    let (_server, url) = http_server().await;
    let project = tempfile::tempdir().unwrap();
    let servers = vec![McpServerConfig::Http {
        name: "web".into(),
        url,
        headers: vec![("X-Api-Key".into(), "k-123".into())],
    }];
    let conns = mcp::connect_all(servers, project.path()).await;
    assert!(conns.failures().is_empty(), "{:?}", conns.failures());
    assert!(conns.child_pids().is_empty());
    let echo = call(&conns, "mcp_web_echo", json!({"text": "over http"})).await;
    assert_eq!(echo.content, r#"{"result":"echo: over http"}"#);
    let header = call(&conns, "mcp_web_header", json!({"name": "X-Api-Key"})).await;
    assert_eq!(header.content, r#"{"result":"k-123"}"#);
    let fail = call(&conns, "mcp_web_fail", json!({})).await;
    assert!(fail.is_error);
    conns.close().await;
}

#[tokio::test]
async fn duplicate_names_keep_the_last_entry() {
    let project = tempfile::tempdir().unwrap();
    let servers = vec![
        McpServerConfig::Stdio {
            name: "dup".into(),
            command: "/nonexistent/first".into(),
            args: vec![],
            env: vec![],
        },
        stdio("dup", &[], &[]),
    ];
    let conns = mcp::connect_all(servers, project.path()).await;
    assert!(conns.failures().is_empty(), "{:?}", conns.failures());
    assert_eq!(conns.server_names(), ["dup"]);
    conns.close().await;
}
