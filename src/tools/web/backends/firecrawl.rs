//! Firecrawl, cloud or self-hosted (`FIRECRAWL_API_URL`): `POST /v2/search` (`query`, `limit`)
//! and one `POST /v2/scrape` per page (`formats: ["markdown"]`), `Authorization: Bearer` when a
//! key is set — what Hermes' Firecrawl SDK client sends (`plugins/web/firecrawl`). Search hits
//! are passed on as Firecrawl returns them, as Hermes does; a scrape's title and final URL come
//! from its `metadata`.

use std::time::Duration;

use serde_json::{Value, json};

use super::{Backend, Doc, call, failure, text_of};

const TIMEOUT: Duration = Duration::from_secs(60);

pub(super) fn post(backend: &Backend, client: &reqwest::Client, path: &str, body: &Value) -> reqwest::RequestBuilder {
    let request = client.post(format!("{}/v2/{path}", backend.base_url)).json(body);
    match backend.api_key.as_deref() {
        Some(key) => request.bearer_auth(key),
        None => request,
    }
}

pub(super) async fn search(backend: &Backend, client: &reqwest::Client, query: &str, limit: usize) -> Value {
    let body = json!({"query": query, "limit": limit});
    match call(post(backend, client, "search", &body), TIMEOUT).await {
        Ok(body) => json!({"success": true, "data": {"web": search_hits(&body)}}),
        Err(e) => failure(format!("Firecrawl search failed: {e}")),
    }
}

/// The hits wherever this Firecrawl version put them: `data` as a list, `data.web`,
/// `data.results`, or top-level `web` / `results`.
pub(super) fn search_hits(body: &Value) -> Vec<Value> {
    let objects = |v: Option<&Value>| -> Vec<Value> {
        (v.and_then(Value::as_array).into_iter().flatten())
            .filter(|item| item.is_object())
            .cloned()
            .collect()
    };
    let data = body.get("data");
    if data.is_some_and(Value::is_array) {
        return objects(data);
    }
    [
        data.and_then(|d| d.get("web")),
        data.and_then(|d| d.get("results")),
        body.get("web"),
        body.get("results"),
    ]
    .into_iter()
    .map(objects)
    .find(|hits| !hits.is_empty())
    .unwrap_or_default()
}

pub(super) async fn extract(backend: &Backend, client: &reqwest::Client, urls: &[String]) -> Vec<Doc> {
    let mut docs = Vec::with_capacity(urls.len());
    for url in urls {
        let body = json!({"url": url, "formats": ["markdown"]});
        docs.push(match call(post(backend, client, "scrape", &body), TIMEOUT).await {
            Ok(body) => parse_scrape(&body, url),
            Err(e) => Doc::failed(url, format!("Firecrawl scrape failed: {e}")),
        });
    }
    docs
}

pub(super) fn parse_scrape(body: &Value, url: &str) -> Doc {
    let payload = match body.get("data") {
        Some(data) if data.is_object() => data,
        _ => body,
    };
    let metadata = payload.get("metadata").cloned().unwrap_or(Value::Null);
    let final_url = match metadata.get("sourceURL") {
        Some(v) if !v.is_null() => text_of(Some(v)),
        _ => url.to_string(),
    };
    Doc {
        url: final_url,
        title: text_of(metadata.get("title")),
        content: text_of(payload.get("markdown")),
        error: None,
    }
}
