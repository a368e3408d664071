//! The HTTP side shared by providers: one pooled reqwest client (rustls), error-status mapping
//! (auth failures, Retry-After), and turning a response body into a stream of SSE events with
//! the `eventsource-stream` crate.

use std::time::Duration;

use eventsource_stream::{Event, Eventsource};
use futures::{Stream, StreamExt};

use super::LlmError;

/// A client tuned for streaming model calls: fast connect timeout, no overall timeout (answers
/// can stream for minutes), a read timeout so a silent connection does not hang a turn forever.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(10))
        .read_timeout(Duration::from_secs(300))
        .pool_idle_timeout(Duration::from_secs(90))
        .tcp_nodelay(true)
        .user_agent(concat!("hermes-acp/", env!("CARGO_PKG_VERSION")))
        .build()
        .unwrap_or_else(|_| reqwest::Client::new())
}

/// Maps a failed send to an error.
pub fn connect_error(provider: &str, url: &str, error: &reqwest::Error) -> LlmError {
    LlmError::Connect {
        provider: provider.to_string(),
        url: url.to_string(),
        message: error_chain(error),
    }
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

/// Turns a non-success response into an error, reading a bounded amount of its body for the
/// message (provider error bodies explain what is wrong: unknown model, quota, …).
pub async fn status_error(provider: &str, key_hint: &str, response: reqwest::Response) -> LlmError {
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(parse_retry_after);
    let body = response.text().await.unwrap_or_default();
    let message = error_message(&body);
    if status == 401 || status == 403 {
        return LlmError::Auth {
            provider: provider.to_string(),
            status,
            message,
            key_hint: key_hint.to_string(),
        };
    }
    LlmError::Status {
        provider: provider.to_string(),
        status,
        message,
        retry_after,
    }
}

/// The human part of a provider error body (`{"error": {"message": …}}` or plain text).
pub fn error_message(body: &str) -> String {
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
    if text.is_empty() {
        "no details".to_string()
    } else {
        text
    }
}

/// `Retry-After` as seconds (integer or fractional) or an HTTP date.
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<f64>() {
        // `1e20` or `inf` would panic `Duration::from_secs_f64`: clamp (the retry policy caps
        // the wait further).
        return crate::config::duration::clamped_seconds(secs, crate::config::duration::MAX_SETTING);
    }
    let when = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let delta = when.with_timezone(&chrono::Utc) - chrono::Utc::now();
    Some(delta.to_std().unwrap_or(Duration::ZERO))
}

/// The SSE events of a streaming response body.
pub fn sse_events(response: reqwest::Response) -> impl Stream<Item = Result<Event, String>> + Send + 'static {
    response
        .bytes_stream()
        .eventsource()
        .map(|item| item.map_err(|e| e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_seconds_and_dates() {
        assert_eq!(parse_retry_after("2"), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon"), None);
        assert_eq!(parse_retry_after("1e20"), Some(crate::config::duration::MAX_SETTING));
        assert_eq!(parse_retry_after("NaN"), None);
        assert_eq!(parse_retry_after("-1"), None);
    }

    #[test]
    fn error_bodies_are_summarised() {
        assert_eq!(
            error_message(r#"{"error":{"message":"model not found","code":404}}"#),
            "model not found"
        );
        assert_eq!(error_message("upstream exploded\n"), "upstream exploded");
        assert_eq!(error_message(""), "no details");
    }
}
