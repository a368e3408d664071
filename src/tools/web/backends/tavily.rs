//! Tavily: `POST {TAVILY_BASE_URL}/search` and `/extract` with the key in the body as
//! `api_key` (Hermes' `plugins/web/tavily`): search sends `max_results` (at most 20) without raw
//! content or images; extract sends the URLs and maps `results`, `failed_results` and
//! `failed_urls` to per-page documents.

use std::time::Duration;

use serde_json::{Value, json};

use super::{Backend, Doc, call, failure, field, text_of, web_hits};

const TIMEOUT: Duration = Duration::from_secs(60);

pub(super) fn search_body(backend: &Backend, query: &str, limit: usize) -> Value {
    json!({
        "query": query,
        "max_results": limit.min(20),
        "include_raw_content": false,
        "include_images": false,
        "api_key": backend.key(),
    })
}

pub(super) fn extract_body(backend: &Backend, urls: &[String]) -> Value {
    json!({"urls": urls, "include_images": false, "api_key": backend.key()})
}

pub(super) async fn search(backend: &Backend, client: &reqwest::Client, query: &str, limit: usize) -> Value {
    let request = (client.post(format!("{}/search", backend.base_url))).json(&search_body(backend, query, limit));
    match call(request, TIMEOUT).await {
        Ok(body) => parse_search(&body),
        Err(e) => failure(format!("Tavily search failed: {e}")),
    }
}

pub(super) fn parse_search(body: &Value) -> Value {
    let results = body.get("results").and_then(Value::as_array).into_iter().flatten();
    web_hits(results, field("content"))
}

pub(super) async fn extract(backend: &Backend, client: &reqwest::Client, urls: &[String]) -> Vec<Doc> {
    let request = (client.post(format!("{}/extract", backend.base_url))).json(&extract_body(backend, urls));
    match call(request, TIMEOUT).await {
        Ok(body) => parse_extract(&body, urls.first().map(String::as_str).unwrap_or_default()),
        Err(e) => (urls.iter())
            .map(|u| Doc::failed(u, format!("Tavily extract failed: {e}")))
            .collect(),
    }
}

pub(super) fn parse_extract(body: &Value, fallback_url: &str) -> Vec<Doc> {
    let list = |key: &str| body.get(key).and_then(Value::as_array).cloned().unwrap_or_default();
    let url_of = |r: &Value| match r.get("url") {
        Some(v) if !v.is_null() => text_of(Some(v)),
        _ => fallback_url.to_string(),
    };
    let mut docs: Vec<Doc> = (list("results").iter())
        .map(|r| {
            let raw = text_of(r.get("raw_content"));
            Doc {
                url: url_of(r),
                title: text_of(r.get("title")),
                content: if raw.is_empty() { text_of(r.get("content")) } else { raw },
                error: None,
            }
        })
        .collect();
    for fail in list("failed_results") {
        let error = match fail.get("error") {
            Some(v) if !v.is_null() => text_of(Some(v)),
            _ => "extraction failed".to_string(),
        };
        docs.push(Doc::failed(&url_of(&fail), error));
    }
    for fail in list("failed_urls") {
        docs.push(Doc::failed(&text_of(Some(&fail)), "extraction failed"));
    }
    docs
}
