//! Health of supervised streamable-HTTP servers, which keep no connection open between calls:
//! a call that fails on the transport marks the server dead, a failed liveness ping does the
//! same without any call, and either way the server is reconnected (same URL, restarted
//! process) and its tools work again.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use hermes_acp::mcp::{McpOptions, McpServerConfig, McpSupervisor};
use hermes_acp::runtime::{Tool, ToolRegistry};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::ctx;
use super::http::http_server_with;

/// The latest tool list the supervisor handed over.
type Published = Arc<Mutex<Vec<Arc<dyn Tool>>>>;

fn supervise(port: &str, dir: &std::path::Path, ping_interval: Option<Duration>) -> (McpSupervisor, Published) {
    let published: Published = Arc::default();
    let sink = published.clone();
    let servers = vec![McpServerConfig::Http {
        name: "web".into(),
        url: format!("http://127.0.0.1:{port}/mcp"),
        headers: vec![],
    }];
    let options = McpOptions {
        ping_interval,
        ..McpOptions::default()
    };
    let supervisor = McpSupervisor::start(
        servers,
        dir,
        options,
        Box::new(move |tools| *sink.lock().unwrap() = tools),
        Box::new(|_| {}),
    );
    (supervisor, published)
}

async fn echo(published: &Published, dir: &std::path::Path) -> hermes_acp::runtime::ToolOutput {
    let registry = ToolRegistry::new(published.lock().unwrap().clone());
    let args = json!({"text": "hi"}).to_string();
    registry
        .dispatch(&ctx(dir, CancellationToken::new()), "mcp_web_echo", &args)
        .await
}

/// Kills the server and waits until it is gone (its port is free again).
async fn stop(mut server: tokio::process::Child) {
    server.kill().await.unwrap();
}

#[tokio::test]
async fn a_call_that_loses_the_http_transport_marks_the_server_dead_and_it_reconnects() {
    let dir = tempfile::tempdir().unwrap();
    let (server, port) = http_server_with(&["--http"]).await;
    let (supervisor, published) = supervise(&port, dir.path(), None);
    assert!(supervisor.prepare_turn(Duration::from_secs(10)).await.is_empty());
    assert_eq!(echo(&published, dir.path()).await.content, r#"{"result":"echo: hi"}"#);

    stop(server).await;
    let failed = echo(&published, dir.path()).await;
    assert!(failed.is_error && failed.content.contains("stopped"), "{failed:?}");
    let notices = supervisor.health().check();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0].contains("MCP server 'web' stopped"), "{notices:?}");
    assert!(published.lock().unwrap().is_empty(), "the dead server's tools left");

    // The same address answers again (a restarted server): reconnected before the next turn.
    let (_server, again) = http_server_with(&["--http", &port]).await;
    assert_eq!(again, port);
    let notices = supervisor.prepare_turn(Duration::from_secs(20)).await;
    assert!(
        notices.iter().any(|n| n.contains("MCP server 'web' reconnected")),
        "{notices:?}"
    );
    assert_eq!(echo(&published, dir.path()).await.content, r#"{"result":"echo: hi"}"#);
    supervisor.close().await;
}

#[tokio::test]
async fn a_failed_liveness_ping_marks_an_idle_http_server_dead() {
    let dir = tempfile::tempdir().unwrap();
    let (server, port) = http_server_with(&["--http"]).await;
    let (supervisor, published) = supervise(&port, dir.path(), Some(Duration::from_millis(20)));
    assert!(supervisor.prepare_turn(Duration::from_secs(10)).await.is_empty());
    assert!(!published.lock().unwrap().is_empty());
    // Alive: pings succeed and nothing is reported.
    assert!(supervisor.health().check().is_empty());

    stop(server).await;
    // No call is made: only the ping can notice. Poll the check (a hang guard, not a delay).
    let health = supervisor.health();
    let notices = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let notices = health.check();
            if !notices.is_empty() {
                return notices;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the dead server was never noticed");
    assert!(notices[0].contains("MCP server 'web' stopped"), "{notices:?}");
    assert!(published.lock().unwrap().is_empty(), "the dead server's tools left");
    supervisor.close().await;
}
