//! Providers' rate-limit headers, read once per response in `http` (successes and errors alike):
//! OpenAI's `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` (resets as Go durations such
//! as `6m0s`, `1.5s`, `20ms`), OpenRouter's `x-ratelimit-{limit,remaining,reset}` (the reset in
//! epoch milliseconds), Anthropic's `anthropic-ratelimit-{requests,tokens,input-tokens,
//! output-tokens}-{limit,remaining,reset}` (RFC 3339 times) and `retry-after`. Resets become
//! absolute UTC times when the response arrives, so they still mean something when shown later.

use std::time::Duration;

use chrono::{DateTime, SecondsFormat, Utc};
use reqwest::header::HeaderMap;
use serde::Serialize;

/// Below this share of a limit left, the user is told (once per crossing, see `llm::meter`).
pub const LOW_SHARE: f64 = 0.10;

/// One limited resource: how much the window allows, how much is left, when it refills.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Bucket {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remaining: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "rfc3339")]
    pub reset: Option<DateTime<Utc>>,
}

impl Bucket {
    fn is_empty(&self) -> bool {
        self.limit.is_none() && self.remaining.is_none() && self.reset.is_none()
    }

    /// Less than `LOW_SHARE` of a known, non-zero limit is left.
    pub fn is_low(&self) -> bool {
        match (self.limit, self.remaining) {
            (Some(limit), Some(remaining)) if limit > 0 => (remaining as f64) < limit as f64 * LOW_SHARE,
            _ => false,
        }
    }

    /// Nothing is left of it (a 429 waits for its reset).
    pub fn is_exhausted(&self) -> bool {
        self.remaining == Some(0)
    }
}

/// What one response said about the caller's rate limits. `requests` and `tokens` are the
/// buckets every provider reports; Anthropic also splits input and output tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RateLimits {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requests: Option<Bucket>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<Bucket>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<Bucket>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<Bucket>,
    /// `retry-after` as an absolute time.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "rfc3339")]
    pub retry_at: Option<DateTime<Utc>>,
}

fn rfc3339<S: serde::Serializer>(when: &Option<DateTime<Utc>>, s: S) -> Result<S::Ok, S::Error> {
    match when {
        Some(when) => s.serialize_str(&when.to_rfc3339_opts(SecondsFormat::Secs, true)),
        None => s.serialize_none(),
    }
}

impl RateLimits {
    /// The rate limits a response's headers carry (`None` when it carries none), resets taken
    /// relative to `now` (when the response arrived).
    pub fn from_headers(headers: &HeaderMap, now: DateTime<Utc>) -> Option<RateLimits> {
        let get = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
        let bucket = |prefix: &str, suffix: &str| {
            let bucket = Bucket {
                limit: get(&format!("{prefix}limit{suffix}")).and_then(parse_count),
                remaining: get(&format!("{prefix}remaining{suffix}")).and_then(parse_count),
                reset: get(&format!("{prefix}reset{suffix}")).and_then(|v| parse_reset(v, now)),
            };
            Some(bucket).filter(|b| !b.is_empty())
        };
        let anthropic = |what: &str| bucket(&format!("anthropic-ratelimit-{what}-"), "");
        let limits = RateLimits {
            // OpenAI names the bucket after the value, OpenRouter has only the request bucket.
            requests: bucket("x-ratelimit-", "-requests")
                .or_else(|| bucket("x-ratelimit-", ""))
                .or_else(|| anthropic("requests")),
            tokens: bucket("x-ratelimit-", "-tokens").or_else(|| anthropic("tokens")),
            input_tokens: anthropic("input-tokens"),
            output_tokens: anthropic("output-tokens"),
            retry_at: get("retry-after")
                .and_then(super::http::parse_retry_after)
                .and_then(|wait| after(now, wait)),
        };
        Some(limits).filter(|l| *l != RateLimits::default())
    }

    /// The buckets by the name the user reads, in a fixed order.
    pub fn buckets(&self) -> [(&'static str, Option<Bucket>); 4] {
        [
            ("requests", self.requests),
            ("tokens", self.tokens),
            ("input tokens", self.input_tokens),
            ("output tokens", self.output_tokens),
        ]
    }

    /// When a rate-limited caller may try again: `retry-after` when given, else the latest reset
    /// of the buckets with nothing left. `None` when the response names no time.
    pub fn retry_time(&self) -> Option<DateTime<Utc>> {
        self.retry_at.or_else(|| {
            self.buckets()
                .into_iter()
                .filter_map(|(_, b)| b.filter(Bucket::is_exhausted).and_then(|b| b.reset))
                .max()
        })
    }

    /// The `_meta.rateLimits` object of a `usage_update`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }
}

/// A time as the user reads it in a notice: `14:32 UTC`, with the date when it is not today
/// (UTC, so the text is the same wherever the agent runs and its logs line up with it).
pub fn clock(when: DateTime<Utc>, now: DateTime<Utc>) -> String {
    if when.date_naive() == now.date_naive() {
        when.format("%H:%M UTC").to_string()
    } else {
        when.format("%Y-%m-%d %H:%M UTC").to_string()
    }
}

fn after(now: DateTime<Utc>, wait: Duration) -> Option<DateTime<Utc>> {
    now.checked_add_signed(chrono::TimeDelta::from_std(wait).ok()?)
}

fn parse_count(value: &str) -> Option<u64> {
    value
        .parse::<u64>()
        .ok()
        // Some servers send counts as floats ("99.0").
        .or_else(|| {
            value
                .parse::<f64>()
                .ok()
                .filter(|f| f.is_finite() && *f >= 0.0)
                .map(|f| f as u64)
        })
}

/// A reset as an absolute time: an RFC 3339 time (Anthropic), epoch milliseconds or seconds
/// (OpenRouter), a bare number of seconds, or a Go-style duration (OpenAI: `6m0s`, `20ms`).
pub fn parse_reset(value: &str, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    if let Ok(when) = DateTime::parse_from_rfc3339(value) {
        return Some(when.with_timezone(&Utc));
    }
    if let Ok(number) = value.parse::<f64>() {
        if !number.is_finite() || number < 0.0 {
            return None;
        }
        // Past 10^12 only epoch milliseconds make sense (year 33658 in seconds), past 10^9
        // only epoch seconds (31 years as a wait).
        if number >= 1e12 {
            return DateTime::from_timestamp_millis(number as i64);
        }
        if number >= 1e9 {
            return DateTime::from_timestamp(number as i64, 0);
        }
        return after(now, Duration::try_from_secs_f64(number).ok()?);
    }
    after(now, parse_go_duration(value)?)
}

/// A Go `time.Duration` string as OpenAI sends it: `1h2m3.5s`, `6m0s`, `1.5s`, `20ms`.
pub fn parse_go_duration(value: &str) -> Option<Duration> {
    let mut rest = value.trim();
    if rest.is_empty() {
        return None;
    }
    let mut total = 0f64;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let number: f64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = match &rest[..unit_len] {
            "h" => 3600.0,
            "m" => 60.0,
            "s" => 1.0,
            "ms" => 1e-3,
            "us" | "µs" => 1e-6,
            "ns" => 1e-9,
            _ => return None,
        };
        total += number * scale;
        rest = &rest[unit_len..];
    }
    Duration::try_from_secs_f64(total).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::{HeaderName, HeaderValue};

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(
                HeaderName::from_bytes(k.as_bytes()).unwrap(),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        map
    }

    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-24T07:00:00Z")
            .unwrap()
            .with_timezone(&Utc)
    }

    fn at(text: &str) -> Option<DateTime<Utc>> {
        Some(DateTime::parse_from_rfc3339(text).unwrap().with_timezone(&Utc))
    }

    #[test]
    fn go_durations() {
        assert_eq!(parse_go_duration("6m0s"), Some(Duration::from_secs(360)));
        assert_eq!(parse_go_duration("1.5s"), Some(Duration::from_millis(1500)));
        assert_eq!(parse_go_duration("20ms"), Some(Duration::from_millis(20)));
        assert_eq!(parse_go_duration("1h2m3s"), Some(Duration::from_secs(3723)));
        assert_eq!(parse_go_duration("soon"), None);
        assert_eq!(parse_go_duration("5"), None);
        assert_eq!(parse_go_duration(""), None);
    }

    #[test]
    fn openai_headers() {
        let limits = RateLimits::from_headers(
            &headers(&[
                ("x-ratelimit-limit-requests", "500"),
                ("x-ratelimit-remaining-requests", "499"),
                ("x-ratelimit-reset-requests", "120ms"),
                ("x-ratelimit-limit-tokens", "30000"),
                ("x-ratelimit-remaining-tokens", "2000"),
                ("x-ratelimit-reset-tokens", "6m0s"),
            ]),
            now(),
        )
        .unwrap();
        let requests = limits.requests.unwrap();
        assert_eq!((requests.limit, requests.remaining), (Some(500), Some(499)));
        assert_eq!(requests.reset, at("2026-11-24T07:00:00.120Z"));
        let tokens = limits.tokens.unwrap();
        assert_eq!(tokens.reset, at("2026-11-24T07:06:00Z"));
        assert!(tokens.is_low() && !requests.is_low());
        assert_eq!(limits.input_tokens, None);
        assert_eq!(
            limits.to_json(),
            serde_json::json!({
                "requests": {"limit": 500, "remaining": 499, "reset": "2026-11-24T07:00:00Z"},
                "tokens": {"limit": 30000, "remaining": 2000, "reset": "2026-11-24T07:06:00Z"}
            })
        );
    }

    #[test]
    fn openrouter_headers() {
        let limits = RateLimits::from_headers(
            &headers(&[
                ("x-ratelimit-limit", "20"),
                ("x-ratelimit-remaining", "0"),
                ("x-ratelimit-reset", "1795503600000"),
            ]),
            now(),
        )
        .unwrap();
        let requests = limits.requests.unwrap();
        assert_eq!(requests.reset, DateTime::from_timestamp(1_795_503_600, 0));
        assert!(requests.is_exhausted());
        assert_eq!(limits.retry_time(), requests.reset);
    }

    #[test]
    fn anthropic_headers_and_retry_after() {
        let limits = RateLimits::from_headers(
            &headers(&[
                ("anthropic-ratelimit-requests-limit", "50"),
                ("anthropic-ratelimit-requests-remaining", "4"),
                ("anthropic-ratelimit-requests-reset", "2026-11-24T07:01:00Z"),
                ("anthropic-ratelimit-input-tokens-limit", "40000"),
                ("anthropic-ratelimit-input-tokens-remaining", "0"),
                ("anthropic-ratelimit-input-tokens-reset", "2026-11-24T07:00:30Z"),
                ("anthropic-ratelimit-output-tokens-remaining", "8000"),
                ("retry-after", "12"),
            ]),
            now(),
        )
        .unwrap();
        assert!(limits.requests.unwrap().is_low());
        assert_eq!(limits.tokens, None);
        assert_eq!(limits.output_tokens.unwrap().remaining, Some(8000));
        assert!(!limits.output_tokens.unwrap().is_low(), "no limit, no judgement");
        assert_eq!(limits.retry_time(), at("2026-11-24T07:00:12Z"), "retry-after wins");
        let json = limits.to_json();
        assert_eq!(json["inputTokens"]["reset"], "2026-11-24T07:00:30Z");
        assert_eq!(json["retryAt"], "2026-11-24T07:00:12Z");
    }

    #[test]
    fn no_headers_no_limits() {
        assert_eq!(
            RateLimits::from_headers(&headers(&[("content-type", "text/plain")]), now()),
            None
        );
        assert_eq!(parse_reset("-3", now()), None);
        assert_eq!(parse_reset("2.5", now()), at("2026-11-24T07:00:02.500Z"));
    }

    #[test]
    fn clock_times() {
        assert_eq!(clock(at("2026-11-24T14:32:59Z").unwrap(), now()), "14:32 UTC");
        assert_eq!(
            clock(at("2026-11-25T01:05:00Z").unwrap(), now()),
            "2026-11-25 01:05 UTC"
        );
    }
}
