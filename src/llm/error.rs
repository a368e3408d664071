//! Provider errors, with enough detail to say what to fix and whether a retry can help.

use std::time::Duration;

/// Why a model call failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LlmError {
    /// The provider answered with an error status.
    #[error("provider '{provider}' returned HTTP {status}: {message}")]
    Status {
        provider: String,
        status: u16,
        message: String,
        retry_after: Option<Duration>,
    },
    /// The key was rejected.
    #[error("provider '{provider}' rejected the API key (HTTP {status}): {message}. Check {key_hint}")]
    Auth {
        provider: String,
        status: u16,
        message: String,
        key_hint: String,
    },
    /// The provider could not be reached.
    #[error("cannot reach provider '{provider}' at {url}: {message}")]
    Connect {
        provider: String,
        url: String,
        message: String,
    },
    /// The stream ended before the answer was complete.
    #[error("provider '{provider}' closed the stream before the answer was complete")]
    Truncated { provider: String },
    /// The provider sent something we could not understand.
    #[error("provider '{provider}' sent an invalid response: {message}")]
    Protocol { provider: String, message: String },
}

impl LlmError {
    /// An error status as the error it means: 401 and 403 reject the key (and name where it
    /// came from), anything else is a `Status`.
    pub fn from_status(
        provider: &str,
        status: u16,
        message: String,
        key_hint: &str,
        retry_after: Option<Duration>,
    ) -> LlmError {
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

    /// Whether another attempt may succeed (rate limits, server errors, dropped connections).
    /// A server that does not implement the call (501, 505) or answers with a web page will not
    /// change its mind in a few seconds.
    pub fn is_retryable(&self) -> bool {
        match self {
            LlmError::Status { status: 501 | 505, .. } => false,
            LlmError::Status { status, .. } => *status == 429 || *status == 408 || *status >= 500,
            LlmError::Connect { .. } | LlmError::Truncated { .. } => true,
            LlmError::Auth { .. } | LlmError::Protocol { .. } => false,
        }
    }

    /// The delay the provider asked for, if any.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            LlmError::Status { retry_after, .. } => *retry_after,
            _ => None,
        }
    }

    /// A short label for retry notices: "429", "503", "connection error".
    pub fn short_reason(&self) -> String {
        match self {
            LlmError::Status { status, .. } | LlmError::Auth { status, .. } => status.to_string(),
            LlmError::Connect { message, .. } if message.starts_with("connection refused") => {
                "connection refused".into()
            }
            LlmError::Connect { .. } => "connection error".into(),
            LlmError::Truncated { .. } => "stream closed early".into(),
            LlmError::Protocol { .. } => "invalid response".into(),
        }
    }
}
