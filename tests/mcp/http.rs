//! Network servers: streamable HTTP and legacy SSE, with custom headers.

use std::process::Stdio;
use std::time::Duration;

use hermes_acp::mcp::{self, McpServerConfig};
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};

use super::{call, server_binary};

/// Starts the example in HTTP mode (`--http` or `--sse`) and returns it with its URL.
async fn http_server(mode: &str) -> (tokio::process::Child, String) {
    let (child, port) = http_server_with(&[mode]).await;
    let path = if mode == "--sse" { "sse" } else { "mcp" };
    (child, format!("http://127.0.0.1:{port}/{path}"))
}

/// Starts the example with `args` and returns it with the port it listens on.
pub(super) async fn http_server_with(args: &[&str]) -> (tokio::process::Child, String) {
    let mut child = tokio::process::Command::new(server_binary())
        .args(args)
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
    (child, port)
}

#[tokio::test]
async fn streamable_http_server_with_headers() {
    let (_server, url) = http_server("--http").await;
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
async fn legacy_sse_server_with_headers() {
    let (_server, url) = http_server("--sse").await;
    let project = tempfile::tempdir().unwrap();
    let servers = vec![McpServerConfig::Sse {
        name: "old".into(),
        url,
        headers: vec![("Authorization".into(), "Bearer s3".into())],
    }];
    let conns = mcp::connect_all(servers, project.path()).await;
    assert!(conns.failures().is_empty(), "{:?}", conns.failures());
    assert_eq!(conns.tools().len(), 10);
    let add = call(&conns, "mcp_old_add", json!({"a": 1.5, "b": 2})).await;
    assert_eq!(add.content, r#"{"result":"3.5"}"#);
    let header = call(&conns, "mcp_old_header", json!({"name": "authorization"})).await;
    assert_eq!(header.content, r#"{"result":"Bearer s3"}"#);
    let fail = call(&conns, "mcp_old_fail", json!({})).await;
    assert!(fail.is_error);
    conns.close().await;
}
