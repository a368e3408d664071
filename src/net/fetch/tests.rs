//! The guard against a real local server: refusals by default, redirects re-checked, bodies
//! capped, the resolver dropping blocked addresses.

use std::str::FromStr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use super::*;

const LIMITS: FetchLimits = FetchLimits {
    max_bytes: 1024,
    timeout: Duration::from_secs(10),
};

/// Serves `response` (raw HTTP) to every connection; returns the base URL.
async fn serve(response: String) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let response = response.clone();
            tokio::spawn(async move {
                let mut buf = [0u8; 4096];
                let _ = socket.read(&mut buf).await;
                let _ = socket.write_all(response.as_bytes()).await;
                let _ = socket.shutdown().await;
            });
        }
    });
    format!("http://{addr}")
}

fn redirect_to(location: &str) -> String {
    format!("HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
}

#[tokio::test]
async fn loopback_is_refused_unless_private_addresses_are_allowed() {
    let base = serve(
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello".into(),
    )
    .await;
    let refused = GuardedHttp::new(false).get(&base, LIMITS).await.unwrap_err();
    assert!(
        matches!(&refused, FetchError::Blocked { reason, .. } if reason == "a loopback address"),
        "{refused}"
    );
    assert!(refused.to_string().contains("web.allow_private: true"));
    let fetched = GuardedHttp::new(true).get(&base, LIMITS).await.unwrap();
    assert_eq!((fetched.status, fetched.body.as_slice()), (200, b"hello".as_slice()));
    assert_eq!(fetched.content_type.as_deref(), Some("text/plain"));
    assert!(!fetched.truncated);
}

#[tokio::test]
async fn a_redirect_to_metadata_is_refused_even_when_private_is_allowed() {
    for target in [
        "http://169.254.169.254/latest/meta-data/",
        "http://[::ffff:169.254.169.254]/",
        "http://metadata.google.internal/",
        "file:///etc/passwd",
    ] {
        let base = serve(redirect_to(target)).await;
        let refused = GuardedHttp::new(true).get(&base, LIMITS).await.unwrap_err();
        assert!(matches!(refused, FetchError::Redirect { .. }), "{target}: {refused}");
    }
}

#[tokio::test]
async fn bodies_are_cut_at_the_cap() {
    let body = "x".repeat(5000);
    let base = serve(format!(
        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ))
    .await;
    let fetched = GuardedHttp::new(true).get(&base, LIMITS).await.unwrap();
    assert_eq!(fetched.body.len(), 1024);
    assert!(fetched.truncated);
}

#[tokio::test]
async fn the_resolver_drops_blocked_addresses() {
    let resolver = GuardedResolver { allow_private: false };
    let error = resolver
        .resolve(Name::from_str("localhost").unwrap())
        .await
        .err()
        .unwrap();
    assert!(error.to_string().contains("loopback"), "{error}");
    let open = GuardedResolver { allow_private: true };
    assert!(open.resolve(Name::from_str("localhost").unwrap()).await.is_ok());
}

#[test]
fn urls_are_parsed_leniently_but_only_http() {
    assert_eq!(
        parse_http_url("  https://  example.com/a b").unwrap().as_str(),
        "https://example.com/a%20b"
    );
    for bad in ["ftp://example.com", "example.com", "javascript:alert(1)", "http://"] {
        assert!(matches!(parse_http_url(bad), Err(FetchError::NotHttp(_))), "{bad}");
    }
    let guard = GuardedHttp::new(false);
    for blocked in [
        "http://localhost:8080/",
        "http://10.0.0.1/",
        "http://[::1]/",
        "http://app.localhost/",
    ] {
        assert!(
            matches!(guard.check(blocked), Err(FetchError::Blocked { .. })),
            "{blocked}"
        );
    }
}
