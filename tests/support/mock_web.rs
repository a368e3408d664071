//! A real HTTP mock of the web backends and of plain web pages on 127.0.0.1, one server with a
//! path prefix per backend: SearXNG (`/searx/search?format=json`), Firecrawl (`/fc/v2/search`,
//! `/fc/v2/scrape`), Tavily (`/tavily/search`, `/tavily/extract`), Parallel
//! (`/parallel/v1beta/search`, `/parallel/v1beta/extract`), and pages under `/pages/` (an
//! article with scripts, styles and a table, a redirect to it, and a redirect to the cloud
//! metadata address). A backend can be made to fail with a status; every request is recorded.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};

use super::mock_llm::respond;

/// One request the mock received.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    /// Path and query as sent.
    pub target: String,
    /// Header names lower-cased.
    pub headers: HashMap<String, String>,
    pub body: Value,
}

#[derive(Default)]
struct State {
    seen: Vec<Seen>,
    /// Prefix (`/tavily`) → (status, JSON body) answered instead of the normal reply.
    failures: HashMap<String, (u16, Value)>,
}

/// The running mock.
#[derive(Clone)]
pub struct MockWeb {
    pub port: u16,
    state: Arc<Mutex<State>>,
}

/// The article page: boilerplate the converter must drop, and a table it must keep.
pub const ARTICLE: &str = "<html><head><title>Mock Article</title><style>body { color: red; }</style>\
<script>var secretScript = 1;</script></head><body><h1>Heading One</h1><p>First paragraph with \
<a href=\"/pages/other\">a link</a>.</p><table><tr><th>Name</th><th>Value</th></tr>\
<tr><td>alpha</td><td>42</td></tr></table><script>trackVisitor();</script></body></html>";

impl MockWeb {
    pub async fn start() -> MockWeb {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind mock web");
        let mock = MockWeb {
            port: listener.local_addr().unwrap().port(),
            state: Arc::default(),
        };
        let server = mock.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let server = server.clone();
                tokio::spawn(async move { server.serve(socket).await });
            }
        });
        mock
    }

    /// `http://127.0.0.1:<port><path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Every request under `prefix` answers `status` with `body`.
    pub fn fail(&self, prefix: &str, status: u16, body: Value) {
        self.state
            .lock()
            .unwrap()
            .failures
            .insert(prefix.to_string(), (status, body));
    }

    /// The requests received whose target starts with `prefix`.
    pub fn seen(&self, prefix: &str) -> Vec<Seen> {
        let state = self.state.lock().unwrap();
        state
            .seen
            .iter()
            .filter(|s| s.target.starts_with(prefix))
            .cloned()
            .collect()
    }

    async fn serve(&self, mut socket: TcpStream) {
        let Some(seen) = read_request(&mut socket).await else {
            return;
        };
        let target = seen.target.clone();
        let failure = {
            let mut state = self.state.lock().unwrap();
            state.seen.push(seen.clone());
            (state.failures.iter())
                .find(|(prefix, _)| target.starts_with(prefix.as_str()))
                .map(|(_, f)| f.clone())
        };
        if let Some((status, body)) = failure {
            return respond(&mut socket, status, "application/json", &[], &body.to_string()).await;
        }
        let path = target.split('?').next().unwrap_or_default();
        let (status, kind, headers, body): (u16, &str, Vec<(&str, String)>, String) = match path {
            "/searx/search" => (200, "application/json", vec![], searxng_answer().to_string()),
            "/fc/v2/search" => (200, "application/json", vec![], firecrawl_search().to_string()),
            "/fc/v2/scrape" => {
                let url = seen.body["url"].as_str().unwrap_or_default().to_string();
                (200, "application/json", vec![], firecrawl_scrape(&url).to_string())
            }
            "/tavily/search" => (200, "application/json", vec![], tavily_search().to_string()),
            "/tavily/extract" => (200, "application/json", vec![], tavily_extract(&seen.body).to_string()),
            "/parallel/v1beta/search" => (200, "application/json", vec![], parallel_search().to_string()),
            "/pages/article" => (200, "text/html; charset=utf-8", vec![], ARTICLE.to_string()),
            "/pages/moved" => (
                302,
                "text/plain",
                vec![("Location", "/pages/article".to_string())],
                String::new(),
            ),
            "/pages/metadata" => (
                302,
                "text/plain",
                vec![("Location", "http://169.254.169.254/latest/meta-data/".to_string())],
                String::new(),
            ),
            _ => (
                404,
                "application/json",
                vec![],
                json!({"error": "not found"}).to_string(),
            ),
        };
        respond(&mut socket, status, kind, &headers, &body).await;
    }
}

pub fn searxng_answer() -> Value {
    json!({"query": "rust", "results": [
        {"title": "Second", "url": "https://second.example/", "content": "less relevant", "score": 1.0},
        {"title": "Rust", "url": "https://www.rust-lang.org/", "content": "A language empowering everyone", "score": 9.5}
    ]})
}

pub fn firecrawl_search() -> Value {
    json!({"success": true, "data": {"web": [
        {"url": "https://docs.firecrawl.dev/", "title": "Firecrawl Docs", "description": "Turn websites into LLM-ready data", "position": 1}
    ]}})
}

/// A scrape; a URL with `/inward` reports that it was redirected to the metadata address.
pub fn firecrawl_scrape(url: &str) -> Value {
    let source = if url.contains("/inward") {
        "http://169.254.169.254/latest/meta-data/"
    } else {
        url
    };
    json!({"success": true, "data": {
        "markdown": format!("# Scraped\n\nContent of {url}"),
        "metadata": {"title": "Scraped Page", "sourceURL": source, "statusCode": 200}
    }})
}

pub fn tavily_search() -> Value {
    json!({"query": "rust", "results": [
        {"title": "Tavily Hit", "url": "https://tavily.example/hit", "content": "snippet", "score": 0.9, "raw_content": null}
    ]})
}

pub fn tavily_extract(body: &Value) -> Value {
    let results: Vec<Value> = (body["urls"].as_array().into_iter().flatten())
        .map(|u| {
            let url = u.as_str().unwrap_or_default();
            // A long page (`/long` in the URL) for head+tail truncation.
            let text = if url.contains("/long") {
                (0..1_000).map(|i| format!("Line {i} of a long page\n")).collect()
            } else {
                format!("Extracted text of {url}")
            };
            json!({"url": u, "raw_content": text})
        })
        .collect();
    json!({"results": results, "failed_results": []})
}

pub fn parallel_search() -> Value {
    json!({"search_id": "s1", "results": [
        {"url": "https://parallel.example/", "title": "Parallel Hit", "excerpts": ["one", "two"]}
    ]})
}

/// One request as the web mocks record it: method, target, headers, JSON body.
async fn read_request(socket: &mut TcpStream) -> Option<Seen> {
    let (head, body) = super::mock_llm::read_request(socket).await?;
    let mut lines = head.lines();
    let mut first = lines.next().unwrap_or_default().split_whitespace();
    let method = first.next().unwrap_or_default().to_string();
    let target = first.next().unwrap_or_default().to_string();
    let headers: HashMap<String, String> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Some(Seen {
        method,
        target,
        headers,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    })
}
