//! Exa: `POST https://api.exa.ai/search` (`numResults`, highlights as the description) and
//! `POST /contents` (`text: true`), key in `x-api-key`, as Hermes' `exa-py` client sends them
//! (`plugins/web/exa`). Hermes has no base-URL override for Exa, so the root is fixed.

use std::time::Duration;

use serde_json::{Value, json};

use super::{Backend, Doc, call, failure, text_of, web_hits};

const TIMEOUT: Duration = Duration::from_secs(60);

pub(super) fn post(backend: &Backend, client: &reqwest::Client, path: &str, body: &Value) -> reqwest::RequestBuilder {
    client
        .post(format!("{}/{path}", backend.base_url))
        .header("x-api-key", backend.key())
        .header("x-exa-integration", "hermes-agent")
        .json(body)
}

pub(super) fn search_body(query: &str, limit: usize) -> Value {
    json!({"query": query, "numResults": limit, "contents": {"highlights": true}})
}

pub(super) async fn search(backend: &Backend, client: &reqwest::Client, query: &str, limit: usize) -> Value {
    match call(post(backend, client, "search", &search_body(query, limit)), TIMEOUT).await {
        Ok(body) => parse_search(&body),
        Err(e) => failure(format!("Exa search failed: {e}")),
    }
}

fn results(body: &Value) -> impl Iterator<Item = &Value> {
    body.get("results").and_then(Value::as_array).into_iter().flatten()
}

pub(super) fn parse_search(body: &Value) -> Value {
    web_hits(results(body), |r| {
        let highlights: Vec<String> = (r.get("highlights").and_then(Value::as_array).into_iter().flatten())
            .map(|h| text_of(Some(h)))
            .collect();
        highlights.join(" ")
    })
}

pub(super) async fn extract(backend: &Backend, client: &reqwest::Client, urls: &[String]) -> Vec<Doc> {
    let body = json!({"urls": urls, "text": true});
    match call(post(backend, client, "contents", &body), TIMEOUT).await {
        Ok(body) => parse_extract(&body),
        Err(e) => (urls.iter())
            .map(|u| Doc::failed(u, format!("Exa extract failed: {e}")))
            .collect(),
    }
}

pub(super) fn parse_extract(body: &Value) -> Vec<Doc> {
    results(body)
        .map(|r| Doc {
            url: text_of(r.get("url")),
            title: text_of(r.get("title")),
            content: text_of(r.get("text")),
            error: None,
        })
        .collect()
}
