//! The Responses failure events (`response.failed`, `error`) as `LlmError`s: the parser meets
//! them mid-stream, and the codes map to the statuses the retry policy understands.

use serde_json::Value;

use crate::llm::LlmError;

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
    LlmError::from_status(provider, status, message, key_hint, None)
}

fn field<'v>(value: &'v Value, key: &str) -> &'v str {
    value.get(key).and_then(Value::as_str).unwrap_or("")
}
