//! Brave Search, free tier (search only): `GET https://api.search.brave.com/res/v1/web/search`
//! with `q` and `count` (at most 20) and the key in `X-Subscription-Token` (Hermes'
//! `plugins/web/brave_free`). Brave has no base-URL override in Hermes, so its endpoint is fixed.

use std::time::Duration;

use serde_json::Value;

use super::{Backend, CallError, call, failure, field, web_hits};

pub(super) const ENDPOINT: &str = "https://api.search.brave.com/res/v1/web/search";

pub(super) fn request(
    backend: &Backend,
    client: &reqwest::Client,
    query: &str,
    limit: usize,
) -> reqwest::RequestBuilder {
    let count = limit.clamp(1, 20).to_string();
    client
        .get(&backend.base_url)
        .query(&[("q", query), ("count", count.as_str())])
        .header("X-Subscription-Token", backend.key())
        .header("Accept", "application/json")
}

pub(super) async fn search(backend: &Backend, client: &reqwest::Client, query: &str, limit: usize) -> Value {
    match call(request(backend, client, query, limit), Duration::from_secs(15)).await {
        Ok(body) => parse(&body, limit),
        Err(CallError::Status { status, .. }) => failure(format!("Brave Search returned HTTP {status}")),
        Err(CallError::Connect(e)) => failure(format!("Could not reach Brave Search: {e}")),
        Err(CallError::NotJson) => failure("Could not parse Brave Search response as JSON"),
    }
}

pub(super) fn parse(body: &Value, limit: usize) -> Value {
    let raw = (body.get("web").and_then(|w| w.get("results")).and_then(Value::as_array))
        .cloned()
        .unwrap_or_default();
    web_hits(raw.iter().take(limit), field("description"))
}
