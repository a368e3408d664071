//! Driving the parser over a live response (`event_stream`: a transport error or an end before
//! the terminal event is an error, never a complete answer) and the Responses failure events
//! (`response.failed`, `error`) as `LlmError`s.

use eventsource_stream::Event;
use futures::{Stream, StreamExt, stream};
use serde_json::Value;

use super::sse::ResponsesParser;
use crate::llm::{EventStream, LlmError};

/// A failure event as an error (`code: message`, as Hermes words it): rate limits and
/// server errors stay retryable, a rejected key names where it came from.
pub fn failure(provider: &str, key_hint: &str, error: &Value, fallback: &str) -> LlmError {
    let code = field(error, "code");
    let message = field(error, "message").trim();
    let message = match (code.is_empty(), message.is_empty()) {
        (false, false) => format!("{code}: {message}"),
        (true, false) => message.to_string(),
        (false, true) => code.to_string(),
        (true, true) => fallback.to_string(),
    };
    let status = match code {
        "rate_limit_exceeded" | "rate_limit_error" => 429,
        "insufficient_quota" => 402,
        "invalid_api_key" | "authentication_error" => 401,
        "permission_denied" => 403,
        "model_not_found" => 404,
        "context_length_exceeded" | "invalid_prompt" | "invalid_request_error" | "invalid_encrypted_content" => 400,
        "server_is_overloaded" | "overloaded" => 529,
        _ => error
            .get("status")
            .and_then(Value::as_u64)
            .and_then(|s| u16::try_from(s).ok())
            .unwrap_or(500),
    };
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
        retry_after: None,
    }
}

fn field<'v>(value: &'v Value, key: &str) -> &'v str {
    value.get(key).and_then(Value::as_str).unwrap_or("")
}

/// Drives `parser` over a response's SSE events. A transport error or an end before the
/// terminal event is an error: a partial answer is never passed off as complete.
pub fn event_stream<S>(parser: ResponsesParser, events: S) -> EventStream
where
    S: Stream<Item = Result<Event, String>> + Send + 'static,
{
    let state = (Box::pin(events), parser, Vec::new().into_iter(), false);
    stream::unfold(state, |(mut events, mut parser, mut pending, mut done)| async move {
        loop {
            if let Some(event) = pending.next() {
                return Some((Ok(event), (events, parser, pending, done)));
            }
            if done {
                return None;
            }
            let error = match events.next().await {
                Some(Ok(event)) => {
                    let mut out = Vec::new();
                    match parser.feed(&event.event, &event.data, &mut out) {
                        Ok(()) => {
                            done = parser.is_complete();
                            pending = out.into_iter();
                            continue;
                        }
                        Err(error) => error,
                    }
                }
                Some(Err(message)) => LlmError::Connect {
                    provider: parser.provider.clone(),
                    url: String::new(),
                    message,
                },
                None => LlmError::Truncated {
                    provider: parser.provider.clone(),
                },
            };
            done = true;
            return Some((Err(error), (events, parser, pending, done)));
        }
    })
    .boxed()
}
