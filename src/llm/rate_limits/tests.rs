//! Rate-limit headers of each provider, and malformed ones: ignored, never a panic or a
//! nonsense value.

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
fn malformed_headers_are_ignored_never_nonsense() {
    let limits = RateLimits::from_headers(
        &headers(&[
            ("x-ratelimit-limit-requests", "0"),
            ("x-ratelimit-remaining-requests", "5"),
            ("x-ratelimit-reset-requests", "-5s"),
            ("x-ratelimit-limit-tokens", "18446744073709551616"),
            ("x-ratelimit-remaining-tokens", "-1"),
            ("x-ratelimit-reset-tokens", "1h2m3.5s"),
            ("anthropic-ratelimit-input-tokens-limit", "1e400"),
            ("anthropic-ratelimit-input-tokens-remaining", "NaN"),
            ("anthropic-ratelimit-input-tokens-reset", "9999-12-31T23:59:59Z"),
            ("anthropic-ratelimit-output-tokens-limit", ""),
            ("anthropic-ratelimit-output-tokens-remaining", "1e30"),
            ("anthropic-ratelimit-output-tokens-reset", "1e300"),
            ("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT"),
        ]),
        now(),
    )
    .unwrap();
    let requests = limits.requests.unwrap();
    assert_eq!(
        (requests.limit, requests.remaining, requests.reset),
        (Some(0), Some(5), None)
    );
    assert!(
        !requests.is_low() && !requests.is_exhausted(),
        "limit 0: no division, no judgement"
    );
    let tokens = limits.tokens.unwrap();
    assert_eq!(
        (tokens.limit, tokens.remaining),
        (None, None),
        "no count past u64 or below 0"
    );
    assert_eq!(tokens.reset, at("2026-11-24T08:02:03.500Z"));
    let input = limits.input_tokens.unwrap();
    assert_eq!((input.limit, input.remaining), (None, None));
    assert_eq!(input.reset, at("9999-12-31T23:59:59Z"));
    assert_eq!(limits.output_tokens, None, "nothing usable: no bucket");
    assert!(
        limits.retry_at.is_some_and(|when| when >= now()),
        "a past date waits zero"
    );
    assert!(limits.to_json().to_string().len() < 400);
    for bad in [
        "",
        " ",
        "-5s",
        "1..5s",
        "5x",
        "s",
        "99999999999999999999h",
        "1e999",
        "NaN",
        "inf",
        "µs",
    ] {
        assert_eq!(parse_reset(bad, now()), None, "{bad:?}");
    }
    assert_eq!(
        parse_reset("1000000000", now()),
        DateTime::from_timestamp(1_000_000_000, 0)
    );
}

#[test]
fn clock_times() {
    assert_eq!(clock(at("2026-11-24T14:32:59Z").unwrap(), now()), "14:32 UTC");
    assert_eq!(
        clock(at("2026-11-25T01:05:00Z").unwrap(), now()),
        "2026-11-25 01:05 UTC"
    );
}

#[test]
fn retry_after_seconds_and_dates() {
    assert_eq!(parse_retry_after("2"), Some(Duration::from_secs(2)));
    assert_eq!(parse_retry_after("0.5"), Some(Duration::from_millis(500)));
    assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), Some(Duration::ZERO));
    assert_eq!(parse_retry_after("soon"), None);
    assert_eq!(parse_retry_after("1e20"), Some(crate::duration::MAX_SETTING));
    assert_eq!(parse_retry_after("NaN"), None);
    assert_eq!(parse_retry_after("-1"), None);
}
