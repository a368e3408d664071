//! One model call with retries: open the stream, forward every event as it arrives, fold them
//! into the assistant message. Rate limits, server errors and dropped connections are retried
//! with exponential backoff and jitter (honouring `Retry-After`) as long as nothing has been
//! streamed yet; a failure after the first event is reported, never passed off as a complete
//! answer. A 429 that names when the limit resets is announced with that time, and fails at
//! once (saying the time) when the wait is longer than `max_delay`: a shorter wait would only
//! spend the retries. Cancellation wins over everything and drops the HTTP stream at once.

use std::time::Duration;

use chrono::{DateTime, Utc};
use futures::StreamExt;
use tokio_util::sync::CancellationToken;

use super::{Assembled, Assembler, ChatRequest, LlmError, Provider, StreamEvent};

/// How often and how patiently to retry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    pub base_delay: Duration,
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> RetryPolicy {
        RetryPolicy {
            max_retries: 3,
            base_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    /// The wait before retry number `retry` (1-based): the provider's `Retry-After` when given
    /// (capped), else `base * 2^(retry-1)` with ±25 % jitter.
    pub fn delay(&self, retry: u32, error: &LlmError) -> Duration {
        if let Some(after) = error.retry_after() {
            return after.min(self.max_delay);
        }
        let exp = self
            .base_delay
            .saturating_mul(1u32 << (retry.saturating_sub(1)).min(16));
        let jitter = 0.75 + fastrand::f64() * 0.5;
        // Not `mul_f64`: it panics when the product overflows a `Duration`.
        Duration::try_from_secs_f64(exp.as_secs_f64() * jitter)
            .unwrap_or(Duration::MAX)
            .min(self.max_delay)
    }
}

/// Told to the caller before each retry so the user can see it.
#[derive(Debug, Clone, PartialEq)]
pub struct RetryNotice {
    pub provider: String,
    /// 1-based retry number.
    pub retry: u32,
    pub max_retries: u32,
    pub delay: Duration,
    /// Short reason: "429", "503", "connection error".
    pub reason: String,
    /// When a rate limit resets, if the provider's 429 said so.
    pub rate_limited_until: Option<DateTime<Utc>>,
}

/// How a call ended.
#[derive(Debug)]
pub enum CallOutcome {
    Completed(Assembled),
    /// Cancelled; carries what had been streamed so far.
    Cancelled(Assembled),
}

/// Runs one model call with retries, calling `on_event` for every event as it arrives.
pub async fn call_with_retry(
    provider: &dyn Provider,
    request: &ChatRequest,
    policy: &RetryPolicy,
    cancel: &CancellationToken,
    on_event: &mut (dyn FnMut(&StreamEvent) + Send),
    on_retry: &mut (dyn FnMut(&RetryNotice) + Send),
) -> Result<CallOutcome, LlmError> {
    let mut retry = 0;
    loop {
        let mut assembler = Assembler::default();
        let attempt = async {
            let mut stream = provider.stream(request).await?;
            while let Some(event) = stream.next().await {
                let event = event?;
                on_event(&event);
                assembler.push(&event);
            }
            Ok::<(), LlmError>(())
        };
        let result = tokio::select! {
            biased;
            _ = cancel.cancelled() => None,
            result = attempt => Some(result),
        };
        let error = match result {
            None => return Ok(CallOutcome::Cancelled(assembler.finish())),
            Some(Ok(())) => return Ok(CallOutcome::Completed(assembler.finish())),
            Some(Err(error)) => error,
        };
        let until = rate_limited_until(&error);
        let past_budget = until.is_some() && error.retry_after().is_some_and(|wait| wait > policy.max_delay);
        // Once something reached the user, a retry would repeat it: report instead.
        if !error.is_retryable() || retry >= policy.max_retries || !assembler.is_empty() || past_budget {
            return Err(match until {
                Some(until) => with_reset_time(error, until, past_budget.then_some(policy.max_delay)),
                None => error,
            });
        }
        retry += 1;
        let delay = policy.delay(retry, &error);
        tracing::warn!(provider = provider.id(), retry, delay_ms = delay.as_millis() as u64, %error, "model call failed, retrying");
        on_retry(&RetryNotice {
            provider: provider.id().to_string(),
            retry,
            max_retries: policy.max_retries,
            delay,
            reason: error.short_reason(),
            rate_limited_until: until,
        });
        tokio::select! {
            biased;
            _ = cancel.cancelled() => return Ok(CallOutcome::Cancelled(Assembler::default().finish())),
            _ = tokio::time::sleep(delay) => {}
        }
    }
}

/// When a 429 says the limit resets (Retry-After, or the exhausted bucket's reset header).
fn rate_limited_until(error: &LlmError) -> Option<DateTime<Utc>> {
    match error {
        LlmError::Status {
            status: 429,
            retry_after: Some(wait),
            ..
        } => Utc::now().checked_add_signed(chrono::TimeDelta::from_std(*wait).ok()?),
        _ => None,
    }
}

/// The error with the reset time in its message (and why it was not waited for, when it was
/// too far away): this is what the editor shows as the prompt's error.
fn with_reset_time(error: LlmError, until: DateTime<Utc>, budget: Option<Duration>) -> LlmError {
    let LlmError::Status {
        provider,
        status,
        message,
        retry_after,
    } = error
    else {
        return error;
    };
    let when = super::rate_limits::clock(until, Utc::now());
    let why = match budget {
        Some(max) if max < Duration::from_secs(1) => {
            format!(
                ", later than the {} ms hermes-acp waits before a retry",
                max.as_millis()
            )
        }
        Some(max) => format!(", later than the {} s hermes-acp waits before a retry", max.as_secs()),
        None => String::new(),
    };
    LlmError::Status {
        provider,
        status,
        message: format!("{message}; rate limited until {when}{why}"),
        retry_after,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers every call with a 429 that asks for `wait`.
    struct Limited {
        wait: Duration,
        calls: std::sync::atomic::AtomicU32,
    }

    impl Provider for Limited {
        fn id(&self) -> &str {
            "p"
        }
        fn stream<'a>(
            &'a self,
            _: &'a ChatRequest,
        ) -> futures::future::BoxFuture<'a, Result<super::super::EventStream, LlmError>> {
            self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let error = LlmError::Status {
                provider: "p".into(),
                status: 429,
                message: "slow down".into(),
                retry_after: Some(self.wait),
            };
            Box::pin(async move { Err(error) })
        }
        fn list_models(&self) -> futures::future::BoxFuture<'_, Result<Vec<String>, LlmError>> {
            Box::pin(async { Ok(Vec::new()) })
        }
    }

    async fn call(wait: Duration) -> (Result<CallOutcome, LlmError>, Vec<RetryNotice>, u32) {
        let provider = Limited {
            wait,
            calls: Default::default(),
        };
        let request = ChatRequest {
            model: "m".into(),
            messages: Vec::new(),
            tools: Vec::new(),
            max_tokens: None,
            reasoning_effort: None,
        };
        let policy = RetryPolicy {
            max_retries: 1,
            base_delay: Duration::from_millis(1),
            max_delay: Duration::from_secs(30),
        };
        let mut notices = Vec::new();
        let result = call_with_retry(
            &provider,
            &request,
            &policy,
            &CancellationToken::new(),
            &mut |_| {},
            &mut |n| notices.push(n.clone()),
        )
        .await;
        (
            result,
            notices,
            provider.calls.load(std::sync::atomic::Ordering::SeqCst),
        )
    }

    #[tokio::test]
    async fn a_429_names_its_reset_time_and_is_not_waited_for_past_the_budget() {
        let (result, notices, calls) = call(Duration::from_millis(5)).await;
        assert_eq!(calls, 2, "retried within the budget");
        assert!(notices[0].rate_limited_until.is_some());
        let message = result.unwrap_err().to_string();
        assert!(message.contains("slow down; rate limited until "), "{message}");
        assert!(!message.contains("later than"), "{message}");

        let (result, notices, calls) = call(Duration::from_secs(7200)).await;
        assert_eq!((calls, notices.len()), (1, 0), "two hours away: no retry");
        let message = result.unwrap_err().to_string();
        assert!(
            message.ends_with(", later than the 30 s hermes-acp waits before a retry"),
            "{message}"
        );
    }

    #[test]
    fn backoff_grows_and_honours_retry_after() {
        let policy = RetryPolicy {
            max_retries: 5,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(1),
        };
        let err = LlmError::Status {
            provider: "p".into(),
            status: 500,
            message: String::new(),
            retry_after: None,
        };
        let d1 = policy.delay(1, &err);
        let d3 = policy.delay(3, &err);
        assert!(
            d1 >= Duration::from_millis(75) && d1 <= Duration::from_millis(125),
            "{d1:?}"
        );
        assert!(
            d3 >= Duration::from_millis(300) && d3 <= Duration::from_millis(500),
            "{d3:?}"
        );
        assert_eq!(policy.delay(9, &err), Duration::from_secs(1));
        let limited = LlmError::Status {
            provider: "p".into(),
            status: 429,
            message: String::new(),
            retry_after: Some(Duration::from_millis(7)),
        };
        assert_eq!(policy.delay(1, &limited), Duration::from_millis(7));
        let huge = RetryPolicy {
            max_retries: 5,
            base_delay: Duration::MAX,
            max_delay: Duration::from_secs(30),
        };
        assert_eq!(huge.delay(20, &err), Duration::from_secs(30));
    }
}
