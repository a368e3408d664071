//! Parallel: `POST {PARALLEL_BASE_URL}/v1beta/search` (objective and one search query, the
//! `PARALLEL_SEARCH_MODE`, at most 20 results; excerpts as the description) and
//! `/v1beta/extract` (`full_content: true`, excerpts when there is no full text; `errors` become
//! failed pages), key in `x-api-key` with the search-extract beta header, as Hermes' SDK calls
//! send them (`plugins/web/parallel`).

use std::time::Duration;

use serde_json::{Value, json};

use super::{Backend, Doc, call, failure, text_of, web_hits};

const TIMEOUT: Duration = Duration::from_secs(60);
const BETA: &str = "search-extract-2025-10-10";

pub(super) fn post(backend: &Backend, client: &reqwest::Client, path: &str, body: &Value) -> reqwest::RequestBuilder {
    client
        .post(format!("{}/v1beta/{path}", backend.base_url))
        .header("x-api-key", backend.key())
        .header("parallel-beta", BETA)
        .json(body)
}

pub(super) fn search_body(backend: &Backend, query: &str, limit: usize) -> Value {
    json!({
        "search_queries": [query],
        "objective": query,
        "mode": backend.mode,
        "max_results": limit.min(20),
    })
}

pub(super) async fn search(backend: &Backend, client: &reqwest::Client, query: &str, limit: usize) -> Value {
    match call(
        post(backend, client, "search", &search_body(backend, query, limit)),
        TIMEOUT,
    )
    .await
    {
        Ok(body) => parse_search(&body),
        Err(e) => failure(format!("Parallel search failed: {e}")),
    }
}

fn list<'a>(body: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    body.get(key).and_then(Value::as_array).into_iter().flatten()
}

fn excerpts(r: &Value, separator: &str) -> String {
    (list(r, "excerpts").map(|e| text_of(Some(e))))
        .collect::<Vec<_>>()
        .join(separator)
}

pub(super) fn parse_search(body: &Value) -> Value {
    web_hits(list(body, "results"), |r| excerpts(r, " "))
}

pub(super) async fn extract(backend: &Backend, client: &reqwest::Client, urls: &[String]) -> Vec<Doc> {
    let body = json!({"urls": urls, "full_content": true});
    match call(post(backend, client, "extract", &body), TIMEOUT).await {
        Ok(body) => parse_extract(&body),
        Err(e) => (urls.iter())
            .map(|u| Doc::failed(u, format!("Parallel extract failed: {e}")))
            .collect(),
    }
}

pub(super) fn parse_extract(body: &Value) -> Vec<Doc> {
    let mut docs: Vec<Doc> = list(body, "results")
        .map(|r| {
            let full = text_of(r.get("full_content"));
            Doc {
                url: text_of(r.get("url")),
                title: text_of(r.get("title")),
                content: if full.is_empty() { excerpts(r, "\n\n") } else { full },
                error: None,
            }
        })
        .collect();
    for e in list(body, "errors") {
        let message = [text_of(e.get("content")), text_of(e.get("error_type"))]
            .into_iter()
            .find(|s| !s.is_empty())
            .unwrap_or_else(|| "extraction failed".to_string());
        docs.push(Doc::failed(&text_of(e.get("url")), message));
    }
    docs
}
