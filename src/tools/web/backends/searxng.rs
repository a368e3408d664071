//! SearXNG (search only): `GET {SEARXNG_URL}/search?q=…&format=json&pageno=1`, results sorted
//! by `score` and cut to the limit, `content` becoming the description (Hermes'
//! `plugins/web/searxng`).

use std::time::Duration;

use serde_json::Value;

use super::{Backend, CallError, call, failure, field, web_hits};

pub(super) async fn search(backend: &Backend, client: &reqwest::Client, query: &str, limit: usize) -> Value {
    let request = client
        .get(format!("{}/search", backend.base_url))
        .query(&[("q", query), ("format", "json"), ("pageno", "1")])
        .header("Accept", "application/json");
    match call(request, Duration::from_secs(15)).await {
        Ok(body) => parse(&body, limit),
        Err(CallError::Status { status, .. }) => failure(format!("SearXNG returned HTTP {status}")),
        Err(CallError::Connect(e)) => failure(format!("Could not reach SearXNG at {}: {e}", backend.base_url)),
        Err(CallError::NotJson) => failure("Could not parse SearXNG response as JSON"),
    }
}

pub(super) fn parse(body: &Value, limit: usize) -> Value {
    let mut raw: Vec<&Value> = (body.get("results").and_then(Value::as_array))
        .map(|r| r.iter().collect())
        .unwrap_or_default();
    let score = |r: &Value| match r.get("score") {
        Some(Value::Number(n)) => n.as_f64().unwrap_or(0.0),
        Some(Value::String(s)) => s.trim().parse().unwrap_or(0.0),
        _ => 0.0,
    };
    // Stable, descending, like Python's sorted(..., reverse=True).
    raw.sort_by(|a, b| score(b).total_cmp(&score(a)));
    web_hits(raw.into_iter().take(limit), field("content"))
}
