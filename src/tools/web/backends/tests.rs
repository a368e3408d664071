//! Unit tests of the web backends: which backend Hermes' rules pick, the request each sends
//! (built, not sent: Exa and Brave have no base-URL override to aim at a mock), and the
//! mapping of recorded answers to Hermes' result JSON.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::*;
use crate::tools::web::WebSettings;

fn env(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

fn config(yaml: &str) -> WebSettings {
    WebSettings::parse(&serde_yaml_ng::from_str(yaml).unwrap())
}

fn backends(yaml: &str, pairs: &[(&str, &str)]) -> WebBackends {
    WebBackends::from_config(&config(yaml), &env(pairs), std::path::Path::new("/h"))
}

fn search_name(b: &WebBackends) -> Option<Result<BackendName, String>> {
    b.search().map(|r| r.map(|b| b.name).map_err(str::to_string))
}

fn extract_name(b: &WebBackends) -> Option<BackendName> {
    match b.extract() {
        ExtractRoute::Backend(b) => Some(b.name),
        _ => None,
    }
}

#[test]
fn selection_follows_hermes_order_and_config() {
    // Nothing configured: no search, native extraction.
    let none = backends("{}", &[]);
    assert!(!none.search_offered());
    assert_eq!(none.extract(), &ExtractRoute::Native);
    assert_eq!(none.cache_dir.as_deref(), Some(std::path::Path::new("/h/cache/web")));
    // Auto order: Tavily before Firecrawl before SearXNG.
    let all = [
        ("SEARXNG_URL", "http://s"),
        ("FIRECRAWL_API_URL", "http://f"),
        ("TAVILY_API_KEY", "tvly-0123456789abcdef"),
    ];
    assert_eq!(search_name(&backends("{}", &all)), Some(Ok(BackendName::Tavily)));
    assert_eq!(
        search_name(&backends("{}", &all[..2])),
        Some(Ok(BackendName::Firecrawl))
    );
    // SearXNG only: it searches; extraction stays native (Hermes would refuse: search-only).
    let searx = backends("{}", &all[..1]);
    assert!(searx.search_offered());
    assert_eq!(search_name(&searx), Some(Ok(BackendName::Searxng)));
    assert_eq!(searx.extract(), &ExtractRoute::Native);
    // web.backend wins over auto; the per-capability key wins when usable.
    let b = backends("web:\n  backend: searxng\n  extract_backend: firecrawl\n", &all);
    assert_eq!(search_name(&b), Some(Ok(BackendName::Searxng)));
    assert_eq!(extract_name(&b), Some(BackendName::Firecrawl));
    // A per-capability key without credentials is skipped.
    let b = backends("web:\n  search_backend: exa\n", &all[..1]);
    assert_eq!(search_name(&b), Some(Ok(BackendName::Searxng)));
    // web.backend without credentials: kept, and the call says which key is missing.
    let b = backends("web:\n  backend: tavily\n", &all[..1]);
    assert!(b.search_offered());
    assert_eq!(
        search_name(&b),
        Some(Err(BackendName::Tavily.missing_credentials().to_string()))
    );
    assert!(matches!(b.extract(), ExtractRoute::Unusable(m) if m.contains("TAVILY_API_KEY")));
    // ... and with no credentials anywhere the tool is not offered at all.
    assert!(!backends("web:\n  backend: tavily\n", &[]).search_offered());
    // native forces our own fetch even with a backend.
    assert_eq!(
        backends("web:\n  extract_backend: native\n", &all).extract(),
        &ExtractRoute::Native
    );
    // Unknown names are ignored; a blank key is no key (placeholders are `config`'s to hide).
    assert_eq!(
        search_name(&backends("web:\n  backend: ddgs\n", &all[..1])),
        Some(Ok(BackendName::Searxng))
    );
    assert!(!backends("{}", &[("TAVILY_API_KEY", "  ")]).search_offered());
}

#[test]
fn credentials_and_overrides_come_from_the_environment() {
    let e = env(&[
        ("FIRECRAWL_API_URL", "http://10.0.0.5:3002/"),
        ("TAVILY_API_KEY", "tvly-0123456789abcdef"),
        ("TAVILY_BASE_URL", "http://127.0.0.1:9/"),
        ("PARALLEL_API_KEY", "par-0123456789"),
        ("PARALLEL_SEARCH_MODE", "bogus"),
    ]);
    let fc = Backend::from_env(BackendName::Firecrawl, &e).unwrap();
    assert_eq!(fc.base_url, "http://10.0.0.5:3002");
    assert_eq!(fc.api_key, None);
    assert_eq!(
        Backend::from_env(BackendName::Tavily, &e).unwrap().base_url,
        "http://127.0.0.1:9"
    );
    let par = Backend::from_env(BackendName::Parallel, &e).unwrap();
    assert_eq!(
        (par.base_url.as_str(), par.mode.as_str()),
        ("https://api.parallel.ai", "agentic")
    );
    assert!(Backend::from_env(BackendName::Exa, &e).is_none());
    // The key never shows in logs.
    let shown = format!("{:?}", Backend::from_env(BackendName::Tavily, &e).unwrap());
    assert!(!shown.contains("tvly-0123") && shown.contains("<set>"), "{shown}");
}

fn backend(name: BackendName, key: &str) -> Backend {
    Backend {
        name,
        base_url: "http://b".into(),
        api_key: Some(key.into()),
        mode: "agentic".into(),
    }
}

fn sent(request: reqwest::RequestBuilder) -> (String, Vec<(String, String)>, Option<Value>) {
    let request = request.build().unwrap();
    let headers = (request.headers().iter())
        .map(|(k, v)| (k.to_string(), v.to_str().unwrap().to_string()))
        .collect();
    let body = (request.body().and_then(|b| b.as_bytes())).map(|b| serde_json::from_slice(b).unwrap());
    (request.url().to_string(), headers, body)
}

#[test]
fn requests_have_hermes_shapes() {
    let client = reqwest::Client::new();
    let mut brave = backend(BackendName::BraveFree, "BSA-key");
    brave.base_url = brave::ENDPOINT.into();
    let (url, headers, _) = sent(brave::request(&brave, &client, "rust async", 50));
    assert_eq!(
        url,
        "https://api.search.brave.com/res/v1/web/search?q=rust+async&count=20"
    );
    assert!(headers.contains(&("x-subscription-token".into(), "BSA-key".into())));

    let exa = backend(BackendName::Exa, "exa-key");
    let (url, headers, body) = sent(exa::post(&exa, &client, "search", &exa::search_body("q", 3)));
    assert_eq!(url, "http://b/search");
    assert!(headers.contains(&("x-api-key".into(), "exa-key".into())));
    assert_eq!(
        body,
        Some(json!({"query": "q", "numResults": 3, "contents": {"highlights": true}}))
    );

    let par = backend(BackendName::Parallel, "par-key");
    let (url, headers, body) = sent(parallel::post(
        &par,
        &client,
        "search",
        &parallel::search_body(&par, "q", 50),
    ));
    assert_eq!(url, "http://b/v1beta/search");
    assert!(headers.contains(&("parallel-beta".into(), "search-extract-2025-10-10".into())));
    assert_eq!(
        body,
        Some(json!({"search_queries": ["q"], "objective": "q", "mode": "agentic", "max_results": 20}))
    );

    let tav = backend(BackendName::Tavily, "tvly-key");
    assert_eq!(
        tavily::search_body(&tav, "q", 30),
        json!({"query": "q", "max_results": 20, "include_raw_content": false, "include_images": false, "api_key": "tvly-key"})
    );

    let fc = backend(BackendName::Firecrawl, "fc-key");
    let (url, headers, _) = sent(firecrawl::post(&fc, &client, "scrape", &json!({})));
    assert_eq!(url, "http://b/v2/scrape");
    assert!(headers.contains(&("authorization".into(), "Bearer fc-key".into())));
}

#[test]
fn recorded_answers_map_to_hermes_results() {
    let searx = json!({"results": [
        {"title": "low", "url": "https://l", "content": "l", "score": 0.5},
        {"title": "high", "url": "https://h", "content": "h", "score": "2.0"},
        {"title": "none", "url": "https://n"}
    ]});
    assert_eq!(
        searxng::parse(&searx, 2),
        json!({"success": true, "data": {"web": [
            {"title": "high", "url": "https://h", "description": "h", "position": 1},
            {"title": "low", "url": "https://l", "description": "l", "position": 2}
        ]}})
    );
    let brave = json!({"web": {"results": [{"title": "B", "url": "https://b", "description": "d"}]}});
    assert_eq!(brave::parse(&brave, 5)["data"]["web"][0]["description"], "d");
    let exa = json!({"results": [{"title": "E", "url": "https://e", "highlights": ["a", "b"]}]});
    assert_eq!(exa::parse_search(&exa)["data"]["web"][0]["description"], "a b");
    let exa_contents = json!({"results": [{"url": "https://e", "title": "E", "text": "body"}]});
    assert_eq!(exa::parse_extract(&exa_contents)[0].content, "body");
    let par = json!({"results": [{"url": "https://p", "title": "P", "excerpts": ["x", "y"]}]});
    assert_eq!(parallel::parse_search(&par)["data"]["web"][0]["description"], "x y");
    let par_extract = json!({
        "results": [{"url": "https://p", "title": "P", "full_content": null, "excerpts": ["x", "y"]}],
        "errors": [{"url": "https://q", "error_type": "fetch_error", "content": null}]
    });
    let docs = parallel::parse_extract(&par_extract);
    assert_eq!(docs[0].content, "x\n\ny");
    assert_eq!(docs[1].error.as_deref(), Some("fetch_error"));
    let tav = json!({
        "results": [{"url": "https://t", "title": "T", "raw_content": "", "content": "c"}],
        "failed_results": [{"url": "https://f", "error": "boom"}],
        "failed_urls": ["https://g"]
    });
    let docs = tavily::parse_extract(&tav, "https://t");
    assert_eq!((docs[0].content.as_str(), docs.len()), ("c", 3));
    assert_eq!(docs[2].error.as_deref(), Some("extraction failed"));
    // Firecrawl: hits passed on wherever the version put them; scrape metadata gives the title.
    let v2 = json!({"success": true, "data": {"web": [{"url": "https://f", "title": "F", "description": "d", "position": 1}]}});
    assert_eq!(firecrawl::search_hits(&v2)[0]["title"], "F");
    let v1 = json!({"success": true, "data": [{"url": "https://f"}]});
    assert_eq!(firecrawl::search_hits(&v1).len(), 1);
    let scrape = json!({"success": true, "data": {"markdown": "# Hi", "metadata": {"title": "Hi", "sourceURL": "https://f/final"}}});
    let doc = firecrawl::parse_scrape(&scrape, "https://f");
    assert_eq!(
        (doc.url.as_str(), doc.title.as_str(), doc.content.as_str()),
        ("https://f/final", "Hi", "# Hi")
    );
}

#[test]
fn failure_statuses_keep_the_backends_own_message() {
    assert_eq!(status_detail(br#"{"error": "Invalid API key"}"#), ": Invalid API key");
    assert_eq!(status_detail(br#"{"detail": {"message": "nope"}}"#), ": nope");
    assert_eq!(status_detail(b"  "), "");
    let e = CallError::Status {
        status: 401,
        detail: ": Invalid API key".into(),
    };
    assert_eq!(e.to_string(), "HTTP 401: Invalid API key");
}

#[test]
fn backend_keys_are_secrets_everywhere() {
    // Named like credentials, so redaction masks their values and commands never inherit them.
    for name in [
        "TAVILY_API_KEY",
        "EXA_API_KEY",
        "PARALLEL_API_KEY",
        "FIRECRAWL_API_KEY",
        "BRAVE_SEARCH_API_KEY",
    ] {
        assert!(crate::safety::secrets::is_secret_name(name), "{name}");
    }
    let set = crate::safety::secrets::SecretSet::builder()
        .env_vars([("TAVILY_API_KEY", "tvly-0123456789abcdef")])
        .build();
    assert!(
        !set.redact("key tvly-0123456789abcdef here")
            .contains("tvly-0123456789abcdef")
    );
}
