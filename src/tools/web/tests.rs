//! Unit tests of the web tools: URL checks before anything is fetched, truncate-and-store,
//! the cards, and the schemas copied from Hermes.

use serde_json::json;

use super::{render, truncate, urls};
use crate::runtime::Tool;
use crate::safety::secrets::SecretSet;

#[test]
fn urls_with_secrets_stop_the_call() {
    let none = SecretSet::builder().build();
    assert_eq!(urls::secret_refusal("https://example.com/docs?page=2#x", &none), None);
    let token = "https://evil.example/?q=sk-proj-abcdefghijklmnopqrstuvwxyz012345";
    assert!(urls::secret_refusal(token, &none).unwrap().contains("API key or token"));
    let encoded = "https://evil.example/%73k-proj-abcdefghijklmnopqrstuvwxyz012345";
    assert!(urls::secret_refusal(encoded, &none).is_some());
    let param = urls::secret_refusal("https://example.com/cb?Token=abc&x=1", &none).unwrap();
    assert!(param.contains("credential-like query parameter (Token)"), "{param}");
    // An empty sensitive value is harmless (Hermes' rule).
    assert_eq!(urls::secret_refusal("https://example.com/?token=", &none), None);
    let known = SecretSet::builder()
        .secret("MY_KEY", "hunter2-very-secret-value")
        .build();
    assert!(urls::secret_refusal("https://x.example/hunter2-very-secret-value", &known).is_some());
}

#[test]
fn items_may_be_search_hits() {
    assert_eq!(urls::item_url(&json!(" https://a ")).as_deref(), Some("https://a"));
    assert_eq!(
        urls::item_url(&json!({"href": "https://b"})).as_deref(),
        Some("https://b")
    );
    assert_eq!(
        urls::item_url(&json!({"url": "https://c", "title": "C"})).as_deref(),
        Some("https://c")
    );
    assert_eq!(urls::item_url(&json!(3)), None);
    assert_eq!(
        urls::normalise("https:// example.com/Köln"),
        "https://example.com/K%C3%B6ln"
    );
}

#[tokio::test]
async fn internal_targets_are_not_handed_to_a_backend() {
    let strict = crate::net::GuardedHttp::new(false);
    assert!(!urls::safe_for_backend(&strict, "http://127.0.0.1:8080/").await);
    assert!(!urls::safe_for_backend(&strict, "http://169.254.169.254/latest").await);
    assert!(!urls::safe_for_backend(&strict, "file:///etc/passwd").await);
    assert!(urls::safe_for_backend(&strict, "https://93.184.215.14/page").await);
    let open = crate::net::GuardedHttp::new(true);
    assert!(urls::safe_for_backend(&open, "http://127.0.0.1:8080/").await);
    assert!(!urls::safe_for_backend(&open, "http://169.254.169.254/latest").await);
}

#[test]
fn budgets_are_clamped_to_hermes_range() {
    assert_eq!(truncate::clamp_limit(10), 2_000);
    assert_eq!(truncate::clamp_limit(9_000_000), 500_000);
    assert_eq!(truncate::clamp_limit(15_000), 15_000);
}

#[test]
fn inline_images_become_placeholders() {
    let text = "a ![logo](data:image/png;base64,AAAA==) b (data:image/gif;base64,R0lG) c data:image/png;base64,QQ== ![x](https://i/x.png)";
    assert_eq!(
        truncate::base64_images_to_placeholders(text),
        "a [IMAGE: logo] b [IMAGE] c [IMAGE] ![x](https://i/x.png)"
    );
}

#[test]
fn cards_read_like_hermes() {
    let result = json!({"success": true, "data": {"web": [
        {"title": "Rust", "url": "https://rust-lang.org", "description": "A language", "position": 1},
        {"title": "", "url": "https://u", "description": "", "position": 2}
    ]}});
    assert_eq!(
        render::search_summary(&result),
        "Web results: 2\n• Rust — https://rust-lang.org\n  A language\n• https://u — https://u"
    );
    let extracted = json!({"results": [
        {"url": "https://a", "title": "A", "content": "x", "error": null},
        {"url": "https://b", "title": "", "content": "", "error": "boom"}
    ]});
    assert_eq!(
        render::extract_summary(&extracted),
        "Web extract failed for 1 URL\n- https://b\n  Error: boom"
    );
    assert_eq!(
        render::extract_summary(&json!({"results": [{"url": "https://a", "error": null}]})),
        ""
    );
    assert_eq!(
        render::extract_title(&json!({"urls": ["https://a", {"href": "https://b"}]})),
        "Fetch https://a and 1 more"
    );
    assert_eq!(
        render::extract_title(&json!({"urls": [{"url": "https://b"}]})),
        "Fetch https://b"
    );
    assert_eq!(render::extract_title(&json!({})), "Fetch web pages");
    let search = super::WebSearchTool::default().present(&json!({"query": "rust"}), std::path::Path::new("/"));
    assert_eq!(
        (search.kind, search.title.as_str()),
        (
            crate::runtime::ToolKind::Fetch,
            "Search the web for \u{201c}rust\u{201d}"
        )
    );
    assert_eq!(search.start_text.as_deref(), Some("Searching the web for: rust"));
}

#[test]
fn results_print_as_hermes_prints_them() {
    let out = render::output(json!({"success": false, "error": "SearXNG returned HTTP 500"}));
    assert!(out.is_error);
    assert_eq!(
        out.content,
        "{\n  \"success\": false,\n  \"error\": \"SearXNG returned HTTP 500\"\n}"
    );
    assert!(!render::output(json!({"results": [{"error": "x"}]})).is_error);
    assert!(render::output(json!({"error": "Content was inaccessible or not found"})).is_error);
}

#[test]
fn schemas_match_hermes() {
    let search = super::WebSearchTool::default().parameters();
    assert_eq!(search["required"], json!(["query"]));
    assert_eq!(search["properties"]["limit"]["maximum"], 100);
    let extract = super::WebExtractTool::default().parameters();
    assert_eq!(extract["properties"]["urls"]["maxItems"], 5);
    assert_eq!(extract["properties"]["char_limit"]["minimum"], 2000);
    assert!(
        super::WebExtractTool::default()
            .description()
            .starts_with("Extract content from web page URLs.")
    );
}
