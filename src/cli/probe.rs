//! One honest test of a provider, shared by `--check` and `--setup`: list the models, then send
//! one tiny completion (`max_tokens` 1, a single attempt, no retries) and say precisely what
//! happened — unreachable, not an OpenAI-compatible API, key rejected, unknown model (with the
//! closest listed names), rate-limited, other provider failure, or OK with the latency.

use std::time::{Duration, Instant};

use futures::StreamExt;

use crate::llm::{ChatRequest, LlmError, Provider, StreamEvent};
use crate::transcript::Message;

/// How long the test completion may take in all (connect, queue, first token).
const COMPLETION_TIMEOUT: Duration = Duration::from_secs(45);
/// How long the model list may take.
const LIST_TIMEOUT: Duration = Duration::from_secs(10);

/// What the test found.
#[derive(Debug, Clone, PartialEq)]
pub enum Diagnosis {
    /// The model answered.
    Ok { latency: Duration, answer: String },
    /// Nothing answered at the base URL.
    Unreachable(String),
    /// Something answered, but not an LLM API (a web page, a 404 at the API path).
    NotAnApi(String),
    /// The provider rejected the key.
    BadKey(String),
    /// The provider does not have this model.
    UnknownModel { message: String, closest: Vec<String> },
    /// Too many requests or no credits left.
    RateLimited(String),
    /// Any other failure of the provider.
    Failed(String),
}

impl Diagnosis {
    /// The process exit code `--check` uses (documented in `--help`).
    pub fn exit_code(&self) -> u8 {
        match self {
            Diagnosis::Ok { .. } => 0,
            Diagnosis::Unreachable(_) => 2,
            Diagnosis::BadKey(_) => 3,
            Diagnosis::UnknownModel { .. } => 4,
            Diagnosis::RateLimited(_) => 5,
            Diagnosis::NotAnApi(_) => 6,
            Diagnosis::Failed(_) => 7,
        }
    }
}

/// The models a provider lists (empty when it has no list), or the error if listing failed.
pub async fn list_models(provider: &dyn Provider) -> Result<Vec<String>, LlmError> {
    match tokio::time::timeout(LIST_TIMEOUT, provider.list_models()).await {
        Ok(Ok(models)) => Ok(models),
        // Several OpenAI-compatible servers have no model list; that alone says nothing.
        Ok(Err(LlmError::Status { status: 404 | 405, .. })) => Ok(Vec::new()),
        Ok(Err(e)) => Err(e),
        Err(_) => Ok(Vec::new()),
    }
}

/// Sends one tiny completion to `model` and diagnoses the result against the listed `models`.
pub async fn complete_once(provider: &dyn Provider, model: &str, models: &[String]) -> Diagnosis {
    let mut request = ChatRequest {
        model: model.to_string(),
        messages: vec![Message::user("Reply with the single word OK.")],
        tools: vec![],
        max_tokens: Some(1),
        reasoning_effort: None,
    };
    let started = Instant::now();
    let mut result = attempt(provider, &request).await;
    // Some newer models refuse `max_tokens` (they want `max_completion_tokens`): ask again plainly.
    if let Err(LlmError::Status {
        status: 400, message, ..
    }) = &result
        && message.contains("max_tokens")
    {
        request.max_tokens = None;
        result = attempt(provider, &request).await;
    }
    match result {
        Ok(answer) => Diagnosis::Ok {
            latency: started.elapsed(),
            answer,
        },
        Err(error) => diagnose(&error, model, models),
    }
}

async fn attempt(provider: &dyn Provider, request: &ChatRequest) -> Result<String, LlmError> {
    let call = async {
        let mut stream = provider.stream(request).await?;
        let mut answer = String::new();
        while let Some(event) = stream.next().await {
            match event? {
                StreamEvent::Text(t) => answer.push_str(&t),
                // One token is all we asked for; a finish reason means the call worked.
                StreamEvent::Finish(_) => break,
                _ => {}
            }
        }
        Ok(answer)
    };
    match tokio::time::timeout(COMPLETION_TIMEOUT, call).await {
        Ok(result) => result,
        Err(_) => Err(LlmError::Protocol {
            provider: provider.id().to_string(),
            message: format!("no answer within {} s", COMPLETION_TIMEOUT.as_secs()),
        }),
    }
}

/// Classifies a failed test completion.
pub fn diagnose(error: &LlmError, model: &str, models: &[String]) -> Diagnosis {
    let text = error.to_string();
    match error {
        LlmError::Connect { .. } => Diagnosis::Unreachable(text),
        LlmError::Auth { .. } => Diagnosis::BadKey(text),
        LlmError::Protocol { message, .. } if message.starts_with("no answer within") => Diagnosis::Failed(text),
        LlmError::Protocol { .. } => Diagnosis::NotAnApi(text),
        LlmError::Truncated { .. } => {
            Diagnosis::NotAnApi(format!("{text}: it answered, but not with a streamed chat completion"))
        }
        LlmError::Status { message, .. } if message.starts_with("an HTML page") => Diagnosis::NotAnApi(text),
        LlmError::Status { status: 429 | 402, .. } => Diagnosis::RateLimited(text),
        LlmError::Status {
            status: 400 | 404 | 422,
            message,
            ..
        } if mentions_unknown_model(message) || (!models.is_empty() && !models.iter().any(|m| m == model)) => {
            Diagnosis::UnknownModel {
                message: text,
                closest: closest(model, models),
            }
        }
        LlmError::Status { status: 404 | 405, .. } => Diagnosis::NotAnApi(text),
        LlmError::Status { .. } => Diagnosis::Failed(text),
    }
}

fn mentions_unknown_model(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    m.contains("model")
        && [
            "not found",
            "does not exist",
            "not exist",
            "unknown",
            "invalid model",
            "not a valid",
            "no such",
            "not available",
        ]
        .iter()
        .any(|p| m.contains(p))
}

/// Up to three listed models closest to `model` (compared whole and without a vendor prefix).
pub fn closest(model: &str, models: &[String]) -> Vec<String> {
    let wanted = model.to_ascii_lowercase();
    let short = |s: &str| s.rsplit('/').next().unwrap_or(s).to_string();
    let mut scored: Vec<(f64, &String)> = models
        .iter()
        .map(|m| {
            let lower = m.to_ascii_lowercase();
            let score =
                strsim::jaro_winkler(&wanted, &lower).max(strsim::jaro_winkler(&short(&wanted), &short(&lower)));
            (score, m)
        })
        .filter(|(score, _)| *score >= 0.7)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().take(3).map(|(_, m)| m.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(status: u16, message: &str) -> LlmError {
        LlmError::Status {
            provider: "p".into(),
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    #[test]
    fn failures_are_told_apart() {
        let listed = vec!["gpt-4o".to_string(), "gpt-4o-mini".to_string(), "o3".to_string()];
        let unknown = diagnose(&status(404, "The model `gpt-4x` does not exist"), "gpt-4x", &listed);
        assert_eq!(unknown.exit_code(), 4);
        assert!(matches!(&unknown, Diagnosis::UnknownModel { closest, .. } if closest[0] == "gpt-4o"));
        assert_eq!(diagnose(&status(404, "not found"), "gpt-4o", &listed).exit_code(), 6);
        assert_eq!(
            diagnose(&status(501, "an HTML page (\"501\"), not an API answer"), "m", &[]).exit_code(),
            6
        );
        assert_eq!(diagnose(&status(429, "slow down"), "m", &[]).exit_code(), 5);
        assert_eq!(diagnose(&status(500, "boom"), "m", &[]).exit_code(), 7);
        let refused = LlmError::Connect {
            provider: "p".into(),
            url: "u".into(),
            message: "connection refused".into(),
        };
        assert_eq!(diagnose(&refused, "m", &[]).exit_code(), 2);
    }

    #[test]
    fn closest_names_ignore_the_vendor_prefix() {
        let listed: Vec<String> = ["anthropic/claude-sonnet-4", "openai/gpt-4o", "meta/llama-3"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(closest("claude-sonet-4", &listed)[0], "anthropic/claude-sonnet-4");
        assert!(closest("zzzzzz", &listed).is_empty());
    }
}
