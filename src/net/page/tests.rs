//! `extract` against a local raw-HTTP server: HTML converted, redirects followed and re-checked,
//! loopback refused by the strict guard, text kept, binaries refused, charsets honoured, long
//! pages windowed with the full text saved.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use super::*;

/// Serves the response `route` gives for each request path (raw HTTP); returns the base URL.
async fn serve(route: fn(&str, &str) -> Vec<u8>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let shown = base.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let base = shown.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 8192];
                let n = socket.read(&mut buf).await.unwrap_or(0);
                let request = String::from_utf8_lossy(&buf[..n]);
                let path = request.split_whitespace().nth(1).unwrap_or("/").to_string();
                let _ = socket.write_all(&route(&base, &path)).await;
                let _ = socket.shutdown().await;
            });
        }
    });
    base
}

fn response(status: &str, headers: &str, body: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "HTTP/1.1 {status}\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body);
    out
}

const PAGE: &str = r#"<!DOCTYPE html><html><head><title>Release notes</title>
<style>body { font-family: sans-serif }</script></style>
<script>document.write("SCRIPT TEXT")</script></head><body>
<nav><a href="/">Home</a></nav>
<h1>Version 2</h1><p>See <a href="https://example.com/changes">the changes</a>.</p>
<table><thead><tr><th>Crate</th><th>Speed</th></tr></thead>
<tbody><tr><td>htmd</td><td>fast</td></tr></tbody></table>
</body></html>"#;

fn site(base: &str, path: &str) -> Vec<u8> {
    match path {
        "/page" => response("200 OK", "Content-Type: text/html; charset=utf-8\r\n", PAGE.as_bytes()),
        "/moved" => response("301 Moved Permanently", &format!("Location: {base}/page\r\n"), b""),
        "/metadata" => response("302 Found", "Location: http://169.254.169.254/latest/meta-data/\r\n", b""),
        "/notes.txt" => response("200 OK", "Content-Type: text/plain\r\n", b"# not markdown-converted <b>\n"),
        "/paper.pdf" => response("200 OK", "Content-Type: application/pdf\r\n", b"%PDF-1.7\n"),
        "/image" => response("200 OK", "Content-Type: image/png\r\n", b"\x89PNG\r\n\x1a\n"),
        "/latin1" => response(
            "200 OK",
            "Content-Type: text/html\r\n",
            b"<html><head><meta charset=\"iso-8859-1\"><title>Caf\xe9</title></head><p>Cr\xe8me br\xfbl\xe9e</p></html>",
        ),
        "/long" => {
            let body: String = (0..2000).map(|i| format!("<p>paragraph {i:04}</p>")).collect();
            response("200 OK", "Content-Type: text/html\r\n", body.as_bytes())
        }
        _ => response("404 Not Found", "Content-Type: text/html\r\n", b"<p>nothing here</p>"),
    }
}

async fn fetch(path: &str) -> (String, Result<ExtractedPage, FetchError>) {
    let base = serve(site).await;
    let dir = tempfile::tempdir().unwrap();
    let page = extract(&GuardedHttp::new(true), &format!("{base}{path}"), 15_000, dir.path()).await;
    (base, page)
}

#[tokio::test]
async fn html_becomes_markdown_without_scripts_and_with_its_table() {
    let (base, page) = fetch("/page").await;
    let page = page.unwrap();
    assert_eq!(page.url, format!("{base}/page"));
    assert_eq!(page.title.as_deref(), Some("Release notes"));
    assert_eq!(
        page.content,
        "# Version 2\n\nSee [the changes](https://example.com/changes).\n\n| Crate | Speed |\n| ----- | ----- |\n| htmd  | fast  |"
    );
    assert_eq!(page.full_chars, page.content.chars().count());
    assert_eq!(page.saved_to, None);
}

#[tokio::test]
async fn redirects_are_followed_and_the_final_url_reported() {
    let (base, page) = fetch("/moved").await;
    let page = page.unwrap();
    assert_eq!(page.url, format!("{base}/page"));
    assert!(page.content.starts_with("# Version 2"));
}

#[tokio::test]
async fn a_redirect_to_a_metadata_address_is_refused() {
    let (_, page) = fetch("/metadata").await;
    let error = page.unwrap_err();
    assert!(
        matches!(&error, FetchError::Redirect { reason, .. } if reason.contains("169.254.169.254")),
        "{error}"
    );
}

#[tokio::test]
async fn the_strict_guard_refuses_a_loopback_server() {
    let base = serve(site).await;
    let dir = tempfile::tempdir().unwrap();
    let error = extract(&GuardedHttp::new(false), &format!("{base}/page"), 15_000, dir.path())
        .await
        .unwrap_err();
    assert!(matches!(error, FetchError::Blocked { .. }), "{error}");
}

#[tokio::test]
async fn plain_text_is_kept_as_served() {
    let page = fetch("/notes.txt").await.1.unwrap();
    assert_eq!(
        (page.title, page.content.as_str()),
        (None, "# not markdown-converted <b>\n")
    );
}

#[tokio::test]
async fn pdfs_binaries_and_error_statuses_are_refused_with_a_reason() {
    for (path, expected) in [
        ("/paper.pdf", "it is a PDF (application/pdf)"),
        ("/image", "it is image/png, not a web page or text"),
        ("/missing", "the server answered HTTP 404"),
    ] {
        let error = fetch(path).await.1.unwrap_err();
        assert!(
            matches!(&error, FetchError::Failed { message, .. } if message.starts_with(expected)),
            "{path}: {error}"
        );
    }
}

#[tokio::test]
async fn a_latin1_page_is_decoded_by_its_meta_charset() {
    let page = fetch("/latin1").await.1.unwrap();
    assert_eq!(page.title.as_deref(), Some("Café"));
    assert_eq!(page.content, "Crème brûlée");
}

#[tokio::test]
async fn a_long_page_is_windowed_and_saved_whole() {
    let base = serve(site).await;
    let dir = tempfile::tempdir().unwrap();
    let page = extract(&GuardedHttp::new(true), &format!("{base}/long"), 2000, dir.path())
        .await
        .unwrap();
    let saved = std::fs::read_to_string(page.saved_to.as_ref().unwrap()).unwrap();
    assert!(saved.starts_with("paragraph 0000\n\nparagraph 0001") && saved.ends_with("paragraph 1999"));
    assert_eq!(page.full_chars, saved.chars().count());
    assert!(page.content.starts_with("paragraph 0000\n"));
    assert!(page.content.contains("\n\n[... middle omitted — see footer ...]\n\n"));
    assert!(page.content.contains("paragraph 1999\n"));
    assert!(!page.content.contains("paragraph 1000"));
    assert!(
        page.content
            .contains(&format!("Full text saved to: {}", page.saved_to.unwrap().display()))
    );
}

#[test]
fn bodies_without_a_content_type_are_sniffed() {
    assert_eq!(kind_of(None, b"  <!DOCTYPE html><p>x"), Ok(Kind::Html));
    assert_eq!(kind_of(Some(""), b"just words"), Ok(Kind::Text));
    assert!(kind_of(None, b"\x00\x01binary").is_err());
    assert_eq!(
        kind_of(Some("application/vnd.api+json; charset=utf-8"), b"{}"),
        Ok(Kind::Text)
    );
    assert_eq!(kind_of(Some("TEXT/HTML"), b""), Ok(Kind::Html));
}
