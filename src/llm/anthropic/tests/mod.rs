//! Unit tests of the Anthropic provider: history conversion, the request body (tools, cache
//! breakpoints, OAuth identity), the SSE parser, and base-URL / auth handling.

mod convert;
mod request;
mod sse;
mod thinking;

use super::*;

#[test]
fn base_urls_never_double_v1() {
    for (base, messages) in [
        ("https://api.anthropic.com", "https://api.anthropic.com/v1/messages"),
        ("https://api.anthropic.com/", "https://api.anthropic.com/v1/messages"),
        ("https://api.anthropic.com/v1", "https://api.anthropic.com/v1/messages"),
        ("https://api.anthropic.com/v1/", "https://api.anthropic.com/v1/messages"),
        (
            "https://proxy.example/anthropic",
            "https://proxy.example/anthropic/v1/messages",
        ),
        (
            "https://proxy.example/anthropic/v1",
            "https://proxy.example/anthropic/v1/messages",
        ),
        ("http://127.0.0.1:9", "http://127.0.0.1:9/v1/messages"),
    ] {
        let provider = AnthropicProvider::new("anthropic", base, None, None, "k", crate::llm::http::client());
        assert_eq!(provider.endpoint("messages"), messages, "{base}");
    }
}

#[test]
fn oauth_tokens_are_told_from_api_keys() {
    assert!(is_oauth("sk-ant-oat01-abc", Some("ANTHROPIC_API_KEY")));
    assert!(is_oauth("opaque-token", Some("CLAUDE_CODE_OAUTH_TOKEN")));
    assert!(is_oauth("opaque-token", Some("ANTHROPIC_TOKEN")));
    assert!(!is_oauth("sk-ant-api03-abc", Some("ANTHROPIC_TOKEN")));
    assert!(!is_oauth("sk-ant-test-1234", Some("ANTHROPIC_API_KEY")));
    assert!(!is_oauth("third-party-key", Some("CUSTOM_API_KEY")));
    assert!(!is_oauth("third-party-key", None));
    let provider = AnthropicProvider::new(
        "anthropic",
        "https://api.anthropic.com",
        Some("sk-ant-oat01-x".into()),
        Some("ANTHROPIC_API_KEY"),
        "k",
        crate::llm::http::client(),
    );
    assert!(provider.is_oauth());
}

#[test]
fn auth_headers_follow_the_key_kind() {
    let client = crate::llm::http::client();
    let headers = |key: &str, source: &str| {
        let provider = AnthropicProvider::new(
            "anthropic",
            "https://api.anthropic.com",
            Some(key.into()),
            Some(source),
            "k",
            client.clone(),
        );
        let request = provider
            .authorize(client.post("https://api.anthropic.com/v1/messages"))
            .build()
            .unwrap();
        request.headers().clone()
    };
    let api = headers("sk-ant-api03-k", "ANTHROPIC_API_KEY");
    assert_eq!(api["x-api-key"], "sk-ant-api03-k");
    assert_eq!(api["anthropic-version"], ANTHROPIC_VERSION);
    assert!(api.get("authorization").is_none());
    let oauth = headers("sk-ant-oat01-t", "CLAUDE_CODE_OAUTH_TOKEN");
    assert_eq!(oauth["authorization"], "Bearer sk-ant-oat01-t");
    assert!(oauth["anthropic-beta"].to_str().unwrap().contains("oauth-2025-04-20"));
    assert!(oauth.get("x-api-key").is_none());
}
