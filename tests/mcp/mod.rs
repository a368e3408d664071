//! MCP client, in-process: `connect_all` against `examples/mcp_test_server` over stdio,
//! streamable HTTP and legacy SSE — tool names and schemas, call round trips, error results,
//! cancellation and timeouts, servers that fail to start, and children killed on close and drop.
//! This file holds the shared helpers and the stdio tool tests.

mod health;
mod http;
mod http_health;
mod lifecycle;
mod through_acp;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hermes_acp::mcp::{self, McpConnections, McpServerConfig};
use hermes_acp::runtime::{DenyAll, SessionScope, Tool, ToolContext, ToolOutput, ToolRegistry, ToolServices};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

/// The example server, built by `cargo test` next to the test binary
/// (`target/<profile>/deps/all-…` → `target/<profile>/examples/mcp_test_server`). A filtered run
/// (`cargo test --test all mcp`) does not build examples, so then it is built here, once.
pub(super) fn server_binary() -> PathBuf {
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
    let session = SessionScope::local("s", cwd.to_path_buf(), Arc::new(DenyAll));
    ToolContext::new(Arc::new(session), Arc::new(ToolServices::default()), "c", cancel)
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
/// these are the MCP servers or commands it started).
pub(crate) fn processes_in(dir: &Path) -> Vec<u32> {
    let dir = dir.canonicalize().unwrap();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| std::fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|cwd| cwd == dir))
        .filter(|pid| !process_gone(*pid))
        .collect()
}

/// Polls `done` until it holds; false if it still does not after ten seconds (a hang guard:
/// the condition is what the test waits for, never the time).
pub(crate) async fn poll_until(done: impl Fn() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    done()
}

async fn wait_gone(pid: u32) -> bool {
    poll_until(|| process_gone(pid)).await
}

/// Waits until no live process has `dir` as its working directory.
pub(crate) async fn wait_none_in(dir: &Path) -> bool {
    poll_until(|| processes_in(dir).is_empty()).await
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
