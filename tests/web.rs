//! The web tools end to end through the real binary, against mocked backends and pages on
//! 127.0.0.1: `web_search` via SearXNG, Firecrawl (self-hosted at a private address), Tavily
//! and Parallel reaches the model as Hermes' result JSON on a `fetch` card; backend failures
//! become failed calls that say why; `web_search` is not offered without a backend; private
//! targets never reach an extract backend; without a backend pages are fetched here (scripts
//! and styles dropped, tables kept, redirects followed and re-checked, loopback refused unless
//! `web.allow_private`).

use serde_json::{Value, json};

use crate::support::mock_llm::{self, MockLlm};
use crate::support::mock_web::MockWeb;
use crate::support::{AgentProcess, TestHome};

/// One turn in which the model calls `name` with `args`, then answers "done". Returns the
/// result the model got, the updates of the turn, and every model request.
async fn call_tool(
    home: &TestHome,
    mock: &MockLlm,
    env: &[(&str, &str)],
    name: &str,
    args: Value,
) -> (Value, Vec<Value>) {
    mock.push(mock_llm::tool_calls(&[("call_web", name, args)]));
    mock.push(mock_llm::text(&["done"]));
    let mut agent = AgentProcess::spawn(home.path(), env).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    let (response, updates) = agent.prompt(&session, "look it up").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    let request = mock.requests().last().cloned().unwrap();
    let message = (request["messages"].as_array().unwrap().iter())
        .find(|m| m["tool_call_id"] == "call_web")
        .cloned()
        .unwrap_or_else(|| panic!("no tool result in {request}"));
    let content = message["content"].as_str().unwrap();
    (
        serde_json::from_str(content).unwrap_or_else(|_| json!(content)),
        updates,
    )
}

fn card(updates: &[Value]) -> Vec<&Value> {
    updates.iter().filter(|u| u["toolCallId"] == "call_web").collect()
}

/// The tool names the model was offered in its first request.
fn offered(mock: &MockLlm) -> Vec<String> {
    let first = mock.requests().first().cloned().unwrap();
    (first["tools"].as_array().into_iter().flatten())
        .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
        .collect()
}

fn home_with(mock: &MockLlm, web_yaml: &str) -> TestHome {
    let home = TestHome::new(&mock.url());
    let config = home.path().join("config.yaml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str(web_yaml);
    std::fs::write(config, text).unwrap();
    home
}

#[tokio::test]
async fn searxng_search_reaches_the_model_as_hermes_json_on_a_fetch_card() {
    let (mock, web) = (MockLlm::start().await, MockWeb::start().await);
    let home = TestHome::new(&mock.url());
    let searx = web.url("/searx");
    let env = [("SEARXNG_URL", searx.as_str())];
    let (result, updates) = call_tool(&home, &mock, &env, "web_search", json!({"query": "rust", "limit": 1})).await;
    assert_eq!(
        result,
        json!({"success": true, "data": {"web": [
            {"title": "Rust", "url": "https://www.rust-lang.org/", "description": "A language empowering everyone", "position": 1}
        ]}})
    );
    // Hermes' request: GET /search with q, format=json, pageno=1.
    let seen = web.seen("/searx");
    assert_eq!(seen.len(), 1);
    assert_eq!(
        (seen[0].method.as_str(), seen[0].target.as_str()),
        ("GET", "/searx/search?q=rust&format=json&pageno=1")
    );
    let cards = card(&updates);
    assert_eq!(cards[0]["kind"], "fetch", "{cards:#?}");
    assert_eq!(cards[0]["title"], "Search the web for \u{201c}rust\u{201d}");
    let last = cards.last().unwrap();
    assert_eq!(last["status"], "completed", "{cards:#?}");
    let shown = last["content"][0]["content"]["text"].as_str().unwrap_or_default();
    assert!(
        shown.starts_with("Web results: 1\n• Rust — https://www.rust-lang.org/"),
        "{shown}"
    );
    assert!(offered(&mock).contains(&"web_search".to_string()));
}

#[tokio::test]
async fn self_hosted_firecrawl_at_a_private_address_searches_and_extracts() {
    let (mock, web) = (MockLlm::start().await, MockWeb::start().await);
    let home = TestHome::new(&mock.url());
    let fc = web.url("/fc/");
    let env = [
        ("FIRECRAWL_API_URL", fc.as_str()),
        ("FIRECRAWL_API_KEY", "fc-test-0123456789abcdef"),
    ];
    let (result, _) = call_tool(&home, &mock, &env, "web_search", json!({"query": "crawl"})).await;
    assert_eq!(result["data"]["web"][0]["title"], "Firecrawl Docs", "{result}");
    let search = &web.seen("/fc/v2/search")[0];
    assert_eq!(search.body, json!({"query": "crawl", "limit": 5}));
    assert_eq!(search.headers["authorization"], "Bearer fc-test-0123456789abcdef");

    // A literal public address: no DNS needed, and it passes the guard.
    let page = "https://93.184.215.14/guide";
    let (result, updates) = call_tool(&home, &mock, &env, "web_extract", json!({"urls": [page]})).await;
    assert_eq!(
        result,
        json!({"results": [{"url": page, "title": "Scraped Page", "content": format!("# Scraped\n\nContent of {page}"), "error": null}]})
    );
    assert_eq!(
        web.seen("/fc/v2/scrape")[0].body,
        json!({"url": page, "formats": ["markdown"]})
    );
    let cards = card(&updates);
    assert_eq!(
        (cards[0]["kind"].as_str(), cards[0]["title"].as_str()),
        (Some("fetch"), Some(format!("Fetch {page}").as_str()))
    );

    // Firecrawl followed a redirect inward: the page is withheld.
    let args = json!({"urls": ["https://93.184.215.14/inward"]});
    let (result, _) = call_tool(&home, &mock, &env, "web_extract", args).await;
    assert_eq!(
        result,
        json!({"results": [{"url": "http://169.254.169.254/latest/meta-data/", "title": "Scraped Page", "content": "", "error": "Blocked: URL targets a private or internal network address"}]})
    );
}

#[tokio::test]
async fn tavily_searches_and_extracts_with_the_key_in_the_body() {
    let (mock, web) = (MockLlm::start().await, MockWeb::start().await);
    let home = TestHome::new(&mock.url());
    let base = web.url("/tavily");
    let env = [
        ("TAVILY_API_KEY", "tvly-test-0123456789abcdef"),
        ("TAVILY_BASE_URL", base.as_str()),
    ];
    let (result, _) = call_tool(&home, &mock, &env, "web_search", json!({"query": "rust", "limit": 50})).await;
    assert_eq!(
        result,
        json!({"success": true, "data": {"web": [{"title": "Tavily Hit", "url": "https://tavily.example/hit", "description": "snippet", "position": 1}]}})
    );
    assert_eq!(
        web.seen("/tavily/search")[0].body,
        json!({"query": "rust", "max_results": 20, "include_raw_content": false, "include_images": false, "api_key": "tvly-test-0123456789abcdef"})
    );
    // Two pages: a private one refused before Tavily sees it, a public one extracted; order kept.
    let args = json!({"urls": ["http://127.0.0.1:1/admin", {"url": "https://93.184.215.14/a", "title": "hit"}]});
    let (result, updates) = call_tool(&home, &mock, &env, "web_extract", args).await;
    assert_eq!(
        result,
        json!({"results": [
            {"url": "http://127.0.0.1:1/admin", "title": "", "content": "", "error": "Blocked: URL targets a private or internal network address"},
            {"url": "https://93.184.215.14/a", "title": "", "content": "Extracted text of https://93.184.215.14/a", "error": null}
        ]})
    );
    assert_eq!(
        web.seen("/tavily/extract")[0].body["urls"],
        json!(["https://93.184.215.14/a"])
    );
    let last = *card(&updates).last().unwrap();
    let shown = last["content"][0]["content"]["text"].as_str().unwrap_or_default();
    assert!(
        shown.starts_with("Web extract failed for 1 URL\n- http://127.0.0.1:1/admin"),
        "{last}"
    );
}

#[tokio::test]
async fn long_pages_come_back_as_head_and_tail_with_the_full_text_saved() {
    let (mock, web) = (MockLlm::start().await, MockWeb::start().await);
    let home = TestHome::new(&mock.url());
    let base = web.url("/tavily");
    let env = [
        ("TAVILY_API_KEY", "tvly-test-0123456789abcdef"),
        ("TAVILY_BASE_URL", base.as_str()),
    ];
    let args = json!({"urls": ["https://93.184.215.14/long"], "char_limit": 2000});
    let (result, _) = call_tool(&home, &mock, &env, "web_extract", args).await;
    let content = result["results"][0]["content"].as_str().unwrap();
    assert!(content.starts_with("Line 0 of a long page\n"), "{content}");
    assert!(content.contains("Line 999 of a long page"), "{content}");
    let saved = content
        .lines()
        .find_map(|l| l.strip_prefix("Full text saved to: "))
        .unwrap();
    let saved = std::path::Path::new(saved);
    assert!(saved.starts_with(home.path().join("cache/web")), "{}", saved.display());
    let full = std::fs::read_to_string(saved).unwrap();
    assert_eq!(full.lines().count(), 1_000);
    assert!(content.chars().count() < 2_000 + 600, "{}", content.chars().count());

    // A URL carrying a credential stops the call before anything is sent.
    let before = web.seen("/tavily/extract").len();
    let args = json!({"urls": ["https://93.184.215.14/cb?token=abc123"]});
    let (result, _) = call_tool(&home, &mock, &env, "web_extract", args).await;
    assert_eq!(result["success"], false);
    assert!(
        result["error"]
            .as_str()
            .unwrap()
            .contains("credential-like query parameter (token)"),
        "{result}"
    );
    assert_eq!(web.seen("/tavily/extract").len(), before);
}

#[tokio::test]
async fn parallel_search_sends_the_beta_header() {
    let (mock, web) = (MockLlm::start().await, MockWeb::start().await);
    let home = home_with(&mock, "web:\n  search_backend: parallel\n");
    let base = web.url("/parallel");
    let env = [
        ("PARALLEL_API_KEY", "par-test-0123456789"),
        ("PARALLEL_BASE_URL", base.as_str()),
    ];
    let (result, _) = call_tool(&home, &mock, &env, "web_search", json!({"query": "q"})).await;
    assert_eq!(result["data"]["web"][0]["description"], "one two", "{result}");
    let seen = &web.seen("/parallel")[0];
    assert_eq!(seen.headers["parallel-beta"], "search-extract-2025-10-10");
    assert_eq!(seen.headers["x-api-key"], "par-test-0123456789");
}

#[tokio::test]
async fn backend_failures_are_failed_calls_that_say_why() {
    let (mock, web) = (MockLlm::start().await, MockWeb::start().await);
    let home = TestHome::new(&mock.url());
    web.fail(
        "/tavily",
        401,
        json!({"detail": {"error": "Unauthorized"}, "error": "Invalid API key"}),
    );
    let base = web.url("/tavily");
    let env = [
        ("TAVILY_API_KEY", "tvly-wrong-0123456789abcdef"),
        ("TAVILY_BASE_URL", base.as_str()),
    ];
    let (result, updates) = call_tool(&home, &mock, &env, "web_search", json!({"query": "x"})).await;
    assert_eq!(
        result,
        json!({"success": false, "error": "Tavily search failed: HTTP 401: Invalid API key"})
    );
    assert_eq!(card(&updates).last().unwrap()["status"], "failed");

    web.fail("/searx", 500, json!({"error": "boom"}));
    let searx = web.url("/searx");
    let (result, updates) = call_tool(
        &home,
        &mock,
        &[("SEARXNG_URL", searx.as_str())],
        "web_search",
        json!({"query": "x"}),
    )
    .await;
    assert_eq!(result, json!({"success": false, "error": "SearXNG returned HTTP 500"}));
    let last = *card(&updates).last().unwrap();
    assert_eq!(last["status"], "failed");
    assert!(last.to_string().contains("SearXNG returned HTTP 500"), "{last}");
}

#[tokio::test]
async fn without_a_backend_web_search_is_not_offered_but_web_extract_is() {
    let mock = MockLlm::start().await;
    let home = TestHome::new(&mock.url());
    mock.push(mock_llm::text(&["hi"]));
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    agent.prompt(&session, "hello").await;
    let tools = offered(&mock);
    assert!(!tools.contains(&"web_search".to_string()), "{tools:?}");
    assert!(tools.contains(&"web_extract".to_string()), "{tools:?}");
}

#[tokio::test]
async fn without_a_backend_pages_are_fetched_converted_and_redirects_rechecked() {
    let (mock, web) = (MockLlm::start().await, MockWeb::start().await);
    // The mock pages are on 127.0.0.1, so this test allows private addresses; the metadata
    // address stays refused whatever the setting.
    let home = home_with(&mock, "web:\n  allow_private: true\n");
    let (article, moved, metadata) = (
        web.url("/pages/article"),
        web.url("/pages/moved"),
        web.url("/pages/metadata"),
    );
    let args = json!({"urls": [article, moved, metadata]});
    let (result, updates) = call_tool(&home, &mock, &[], "web_extract", args).await;
    let results = result["results"].as_array().unwrap_or_else(|| panic!("{result}"));
    assert_eq!(results.len(), 3, "{result}");
    let markdown = results[0]["content"].as_str().unwrap();
    assert!(
        markdown.contains("Heading One") && markdown.contains("First paragraph"),
        "{markdown}"
    );
    assert!(
        markdown.contains("alpha") && markdown.contains("42"),
        "the table is kept: {markdown}"
    );
    for dropped in ["trackVisitor", "secretScript", "color: red"] {
        assert!(!markdown.contains(dropped), "{dropped} in {markdown}");
    }
    assert_eq!(
        (results[0]["title"].as_str(), &results[0]["error"]),
        (Some("Mock Article"), &Value::Null)
    );
    // The redirect was followed to the article.
    assert_eq!(results[1]["url"], article.as_str(), "{result}");
    assert!(results[1]["content"].as_str().unwrap().contains("Heading One"));
    // The redirect to the metadata address was refused.
    let refused = results[2]["error"].as_str().unwrap_or_else(|| panic!("{result}"));
    assert!(refused.contains("169.254.169.254"), "{refused}");
    assert_eq!(results[2]["content"], "");
    let last = *card(&updates).last().unwrap();
    assert!(last.to_string().contains("Web extract failed for 1 URL"), "{last}");
}

#[tokio::test]
async fn without_allow_private_a_loopback_page_is_refused_unfetched() {
    let (mock, web) = (MockLlm::start().await, MockWeb::start().await);
    let home = TestHome::new(&mock.url());
    let article = web.url("/pages/article");
    let (result, _) = call_tool(&home, &mock, &[], "web_extract", json!({"urls": [article]})).await;
    let error = result["results"][0]["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{result}"));
    assert!(error.contains("web.allow_private"), "{error}");
    assert!(web.seen("/pages").is_empty());
}
