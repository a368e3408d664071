//! The HTTP side shared by providers: one pooled reqwest client (rustls, built on first use),
//! the mapping of a failed send or error status to a typed `LlmError` (auth failures,
//! Retry-After, a 429's reset time, an HTML error page in one line), and turning a response
//! body into a stream of SSE events with the `eventsource-stream` crate. `request` puts these
//! together into the one request every provider sends.

use std::time::Duration;

use eventsource_stream::{Event, Eventsource};
use futures::StreamExt;
use futures::stream::BoxStream;

use super::LlmError;
use super::rate_limits::{RateLimits, parse_retry_after};

/// The providers' shared HTTP client, built on first use (`initialize` needs no network).
pub type HttpClient = crate::net::LazyClient;

/// A new shared client (nothing is built yet).
pub fn client() -> HttpClient {
    crate::net::LazyClient::new(build_client)
}

/// A client tuned for streaming model calls: fast connect timeout, no overall timeout (answers
/// can stream for minutes), a read timeout so a silent connection does not hang a turn forever.
fn build_client() -> reqwest::Client {
    reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(10))
        .read_timeout(Duration::from_secs(300))
        .pool_idle_timeout(Duration::from_secs(90))
        .tcp_nodelay(true)
        .user_agent(concat!("hermes-acp/", env!("CARGO_PKG_VERSION")))
        .build()
        .unwrap_or_else(|_| reqwest::Client::new())
}

/// Maps a failed send to an error. A request that could not even be built (a base URL without
/// `http://`, say) is a configuration mistake that no retry can fix, so it is not a `Connect`.
pub fn connect_error(provider: &str, url: &str, error: &reqwest::Error) -> LlmError {
    if error.is_builder() {
        return LlmError::Protocol {
            provider: provider.to_string(),
            message: format!(
                "'{url}' is not a usable URL ({}); the base URL must start with http:// or https://",
                error_chain(error)
            ),
        };
    }
    LlmError::Connect {
        provider: provider.to_string(),
        url: url.to_string(),
        message: connect_reason(error),
    }
}

/// The cause of a connection failure in a few words ("connection refused"), falling back to
/// reqwest's whole chain when it is something unusual.
fn connect_reason(error: &reqwest::Error) -> String {
    let chain = error_chain(error);
    let lower = chain.to_ascii_lowercase();
    if error.is_timeout() {
        return "timed out".into();
    }
    for (needle, short) in [
        ("connection refused", "connection refused (is the server running?)"),
        ("dns error", "unknown host (DNS lookup failed)"),
        ("failed to lookup address", "unknown host (DNS lookup failed)"),
        ("certificate", "TLS certificate rejected"),
        ("connection reset", "connection reset"),
    ] {
        if lower.contains(needle) {
            return short.to_string();
        }
    }
    chain
}

fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// How long until the exhausted bucket a 429 names refills (for a 429 without Retry-After). A
/// reset already past says nothing (a stale or skewed header): the usual backoff applies then,
/// instead of a zero wait that would spend every retry at once.
fn named_reset(headers: &reqwest::header::HeaderMap, now: chrono::DateTime<chrono::Utc>) -> Option<Duration> {
    let when = RateLimits::from_headers(headers, now)?.retry_time()?;
    (when - now).to_std().ok().filter(|wait| !wait.is_zero())
}

/// Turns a non-success response into an error, reading its whole body for the message
/// (provider error bodies explain what is wrong: unknown model, quota, …).
pub async fn status_error(provider: &str, key_hint: &str, response: reqwest::Response) -> LlmError {
    let status = response.status().as_u16();
    let now = chrono::Utc::now();
    let retry_after = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(parse_retry_after)
        .or_else(|| {
            if status == 429 {
                named_reset(response.headers(), now)
            } else {
                None
            }
        });
    let body = response.text().await.unwrap_or_default();
    LlmError::from_status(provider, status, error_message(&body), key_hint, retry_after)
}

/// The human part of a provider error body (`{"error": {"message": …}}` or plain text). An
/// HTML page (a web server or proxy, not an API) becomes one line naming its title.
pub fn error_message(body: &str) -> String {
    if let Some(summary) = html_summary(body) {
        return summary;
    }
    let parsed: Option<serde_json::Value> = serde_json::from_str(body).ok();
    let from_json = parsed.as_ref().and_then(|v| {
        v.pointer("/error/message")
            .or_else(|| v.get("message"))
            .or_else(|| v.get("error"))
            .and_then(|m| m.as_str())
            .map(str::to_string)
    });
    let text = from_json.unwrap_or_else(|| body.trim().to_string());
    let text: String = text.chars().take(500).collect();
    // Messages often end with a period and we append our own sentence after them.
    let text = text.trim_end_matches('.').trim_end().to_string();
    if text.is_empty() {
        "no details".to_string()
    } else {
        text
    }
}

/// `an HTML page ("404 Not Found")` when `body` looks like HTML, else `None`.
pub fn html_summary(body: &str) -> Option<String> {
    let head: String = body
        .trim_start()
        .chars()
        .take(512)
        .collect::<String>()
        .to_ascii_lowercase();
    if !(head.starts_with("<!doctype html")
        || head.starts_with("<html")
        || head.contains("<head")
        || head.contains("<body"))
    {
        return None;
    }
    let lower = body.to_ascii_lowercase();
    let title = lower
        .find("<title>")
        .map(|start| start + "<title>".len())
        .and_then(|start| {
            lower[start..]
                .find("</title>")
                .map(|len| body[start..start + len].trim())
        })
        .or_else(|| {
            let start = lower.find("<h1>")? + "<h1>".len();
            let len = lower[start..].find("</h1>")?;
            Some(body[start..start + len].trim())
        })
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|t| !t.is_empty());
    Some(match title {
        Some(t) => format!(
            "an HTML page (\"{}\"), not an API answer",
            t.chars().take(80).collect::<String>()
        ),
        None => "an HTML page, not an API answer".to_string(),
    })
}

/// The SSE events of a streaming response: each event, or the transport error that ended them.
pub type SseEvents = BoxStream<'static, Result<Event, String>>;

/// The SSE events of a streaming response body.
pub fn sse_events(response: reqwest::Response) -> SseEvents {
    response
        .bytes_stream()
        .eventsource()
        .map(|item| item.map_err(|e| e.to_string()))
        .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_429_names_a_future_reset_but_not_a_past_one() {
        use reqwest::header::{HeaderMap, HeaderValue};
        let now = chrono::DateTime::parse_from_rfc3339("2026-11-24T07:00:00Z")
            .unwrap()
            .to_utc();
        let exhausted = |reset: &'static str| {
            let mut headers = HeaderMap::new();
            headers.insert("anthropic-ratelimit-requests-limit", HeaderValue::from_static("50"));
            headers.insert("anthropic-ratelimit-requests-remaining", HeaderValue::from_static("0"));
            headers.insert("anthropic-ratelimit-requests-reset", HeaderValue::from_static(reset));
            headers
        };
        assert_eq!(
            named_reset(&exhausted("2026-11-24T07:00:12Z"), now),
            Some(Duration::from_secs(12))
        );
        assert_eq!(
            named_reset(&exhausted("2026-11-24T06:59:00Z"), now),
            None,
            "past: back off as usual"
        );
        assert_eq!(
            named_reset(&exhausted("2026-11-24T07:00:00Z"), now),
            None,
            "now: back off as usual"
        );
        assert_eq!(named_reset(&HeaderMap::new(), now), None);
    }

    #[test]
    fn error_bodies_are_summarised() {
        assert_eq!(
            error_message(r#"{"error":{"message":"model not found","code":404}}"#),
            "model not found"
        );
        assert_eq!(error_message("upstream exploded\n"), "upstream exploded");
        assert_eq!(error_message(""), "no details");
        assert_eq!(
            error_message(r#"{"error":{"message":"Invalid API key."}}"#),
            "Invalid API key"
        );
        let page =
            "<!DOCTYPE html>\n<html><head><title>501 Not\n Implemented</title></head><body><p>lots</p>\n</body></html>";
        assert_eq!(
            error_message(page),
            "an HTML page (\"501 Not Implemented\"), not an API answer"
        );
        assert_eq!(
            error_message("<html><body><h1>Welcome to nginx!</h1></body></html>"),
            "an HTML page (\"Welcome to nginx!\"), not an API answer"
        );
    }
}
