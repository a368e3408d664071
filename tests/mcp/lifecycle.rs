//! Connection lifecycle: failing and hanging servers, call timeouts and cancellation, and
//! stdio children (with their process groups) killed on close and on drop.

use std::time::Duration;

use hermes_acp::mcp::{self, McpOptions, McpServerConfig};
use hermes_acp::runtime::ToolRegistry;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::{call, call_with, ctx, process_gone, processes_in, server_binary, stdio, wait_gone, wait_none_in};

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
    let conns = mcp::connect_all(servers, project.path()).await;
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
    // Each failed for its own reason, not by waiting out the 30 s connect deadline.
    assert!(failures.iter().all(|f| !f.1.contains("timed out")), "{failures:?}");
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
    let conns = mcp::connect_all_with(servers, project.path(), options).await;
    assert_eq!(conns.failures().len(), 1);
    assert!(
        conns.failures()[0].message.contains("timed out"),
        "{:?}",
        conns.failures()
    );
    assert!(conns.child_pids().is_empty());
    assert!(
        wait_none_in(project.path()).await,
        "the hanging server survived: {:?}",
        processes_in(project.path())
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

    let timed_out = call(&conns, "mcp_t_slow", json!({"ms": 5000})).await;
    assert!(timed_out.is_error);
    // The slow call would answer "done" after 5 s: "timed out" proves the deadline cut it.
    assert!(timed_out.content.contains("timed out"), "{}", timed_out.content);

    // Cancel once the call is under way (sent, waiting for its answer).
    let cancel = CancellationToken::new();
    let cx = ctx(project.path(), cancel.clone());
    let cancelled = {
        let mut slow = std::pin::pin!(call_with(&conns, "mcp_t_slow", json!({"ms": 5000}), &cx));
        assert!(futures::poll!(&mut slow).is_pending());
        cancel.cancel();
        slow.await
    };
    assert_eq!(cancelled.content, r#"{"error":"Interrupted","interrupted":true}"#);

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
    conns.close().await;
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
    conns.close().await;
    assert!(
        wait_none_in(project.path()).await,
        "part of the server survived close: {:?}",
        processes_in(project.path())
    );
}
