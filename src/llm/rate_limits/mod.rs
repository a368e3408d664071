//! Providers' rate-limit headers, read once per response (by the request skeleton in `request`
//! on a success, by `http`'s error mapping for a 429's reset):
//! OpenAI's `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` (resets as Go durations such
//! as `6m0s`, `1.5s`, `20ms`), OpenRouter's `x-ratelimit-{limit,remaining,reset}` (the reset in
//! epoch milliseconds), Anthropic's `anthropic-ratelimit-{requests,tokens,input-tokens,
//! output-tokens}-{limit,remaining,reset}` (RFC 3339 times) and `retry-after`. Resets become
//! absolute UTC times when the response arrives, so they still mean something when shown later.
//! `parse_retry_after` lives here too: the error mapping in `http` reads the same header.

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
                .and_then(parse_retry_after)
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
                // Above 2^53 a float is no count (and `as u64` would saturate to u64::MAX).
                .filter(|f| f.is_finite() && (0.0..=9_007_199_254_740_992.0).contains(f))
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

/// `Retry-After` as seconds (integer or fractional) or an HTTP date.
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<f64>() {
        // `1e20` or `inf` would panic `Duration::from_secs_f64`: clamp (the retry policy caps
        // the wait further).
        return crate::duration::clamped_seconds(secs, crate::duration::MAX_SETTING);
    }
    let when = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let delta = when.with_timezone(&chrono::Utc) - chrono::Utc::now();
    Some(delta.to_std().unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests;
