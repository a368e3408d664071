//! Rate limits and cost, visible: providers' rate-limit headers in `usage_update._meta`, one
//! notice when a bucket runs low, a 429's reset time announced (and not waited for when it is
//! too far away), and the turn's cost from configured or built-in prices in `usage_update` and
//! `/context`. The headers are read from the OpenAI-style, Anthropic and Responses API mocks.

use serde_json::{Value, json};

use crate::support::mock_anthropic::{self, MockAnthropic};
use crate::support::mock_llm::{self, MockLlm, with_headers};
use crate::support::mock_responses::{self, MockResponses};
use crate::support::{AgentProcess, TestHome, agent_text, chunk_text, normalize};

/// OpenAI's rate-limit headers with `remaining` requests left of 100.
fn openai_headers(remaining: &'static str) -> Vec<(&'static str, &'static str)> {
    vec![
        ("x-ratelimit-limit-requests", "100"),
        ("x-ratelimit-remaining-requests", remaining),
        ("x-ratelimit-reset-requests", "1s"),
        ("x-ratelimit-limit-tokens", "40000"),
        ("x-ratelimit-remaining-tokens", "39000"),
        ("x-ratelimit-reset-tokens", "6m0s"),
    ]
}

async fn started(home: &TestHome, notices: bool) -> (AgentProcess, String) {
    let mut agent = AgentProcess::spawn(home.path(), &[]).await;
    let mut caps = json!({"fs": {"readTextFile": false, "writeTextFile": false}, "terminal": false});
    if notices {
        caps["session"] = json!({"notices": {}});
    }
    agent.initialize_with(caps).await;
    let session = agent.new_session(&home.cwd()).await;
    (agent, session)
}

fn usage_update(updates: &[Value]) -> Value {
    updates
        .iter()
        .find(|u| u["sessionUpdate"] == "usage_update")
        .cloned()
        .unwrap_or_else(|| panic!("no usage_update in {updates:#?}"))
}

fn notices(updates: &[Value]) -> Vec<String> {
    updates
        .iter()
        .filter(|u| u["sessionUpdate"] == "notice")
        .map(|u| clockless(u["title"].as_str().unwrap_or_default()))
        .collect()
}

/// Times that depend on the wall clock (`14:32 UTC`, RFC 3339 resets) as placeholders.
fn clockless(text: &str) -> String {
    let rfc3339 = regex::Regex::new(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ").unwrap();
    let clock = regex::Regex::new(r"(\d{4}-\d\d-\d\d )?\d\d:\d\d UTC").unwrap();
    clock
        .replace_all(&rfc3339.replace_all(text, "<time>"), "<hh:mm> UTC")
        .to_string()
}

#[tokio::test]
async fn rate_limit_headers_reach_usage_update_and_a_low_bucket_is_announced_once() {
    let mock = MockLlm::start().await;
    mock.push(with_headers(mock_llm::text(&["one"]), &openai_headers("50")));
    mock.push(with_headers(mock_llm::text(&["two"]), &openai_headers("9")));
    mock.push(with_headers(mock_llm::text(&["three"]), &openai_headers("4")));
    let home = TestHome::new(&mock.url());
    let (mut agent, session) = started(&home, true).await;

    let (response, updates) = agent.prompt(&session, "first").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(notices(&updates), Vec::<String>::new(), "half left is not low");
    let update = clockless(&normalize(&usage_update(&updates), &session).to_string());
    expect_test::expect![[r#"{"sessionUpdate":"usage_update","used":120,"size":256000,"_meta":{"rateLimits":{"requests":{"limit":100,"remaining":50,"reset":"<time>"},"tokens":{"limit":40000,"remaining":39000,"reset":"<time>"}}}}"#]]
    .assert_eq(&update);

    let (_, updates) = agent.prompt(&session, "second").await;
    assert_eq!(
        notices(&updates),
        vec!["rate limit nearly used up: 9 of 100 requests left, resets at <hh:mm> UTC"]
    );
    assert_eq!(
        usage_update(&updates)["_meta"]["rateLimits"]["requests"]["remaining"],
        9
    );

    let (_, updates) = agent.prompt(&session, "third").await;
    assert_eq!(
        notices(&updates),
        Vec::<String>::new(),
        "still low: told once per crossing"
    );
    assert_eq!(
        usage_update(&updates)["_meta"]["rateLimits"]["requests"]["remaining"],
        4
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

/// Runs one prompt with `home`'s config and `env` and returns its `usage_update`.
async fn one_turn_usage(home: &TestHome, env: &[(&str, &str)]) -> String {
    let mut agent = AgentProcess::spawn(home.path(), env).await;
    agent.initialize().await;
    let session = agent.new_session(&home.cwd()).await;
    let (response, updates) = agent.prompt(&session, "hi").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent.shutdown().await, Some(0));
    normalize(&usage_update(&updates), &session).to_string()
}

#[tokio::test]
async fn anthropic_rate_limit_headers_reach_usage_update() {
    let mock = MockAnthropic::start().await;
    let headers = [
        ("anthropic-ratelimit-requests-limit", "50"),
        ("anthropic-ratelimit-requests-remaining", "49"),
        ("anthropic-ratelimit-requests-reset", "2026-11-24T07:01:00Z"),
        ("anthropic-ratelimit-input-tokens-limit", "40000"),
        ("anthropic-ratelimit-input-tokens-remaining", "39000"),
        ("anthropic-ratelimit-input-tokens-reset", "2026-11-24T07:02:00Z"),
    ];
    mock.push(mock_anthropic::with_headers(mock_anthropic::text(&["hello"]), &headers));
    let home = TestHome::with_config("model:\n  provider: anthropic\n  default: claude-test\n");
    let url = mock.url();
    let env = [
        ("ANTHROPIC_API_KEY", mock_anthropic::TEST_KEY),
        ("ANTHROPIC_BASE_URL", url.as_str()),
    ];
    // Anthropic's resets are absolute times: they arrive unchanged, no clock to normalise.
    let update = one_turn_usage(&home, &env).await;
    expect_test::expect![[r#"{"sessionUpdate":"usage_update","used":120,"size":200000,"_meta":{"rateLimits":{"requests":{"limit":50,"remaining":49,"reset":"2026-11-24T07:01:00Z"},"inputTokens":{"limit":40000,"remaining":39000,"reset":"2026-11-24T07:02:00Z"}}}}"#]].assert_eq(&update);
}

#[tokio::test]
async fn responses_api_rate_limit_headers_reach_usage_update() {
    let mock = MockResponses::start().await;
    mock.push(mock_responses::with_headers(
        mock_responses::text(&["hello"]),
        &openai_headers("42"),
    ));
    let home = TestHome::with_config(&format!(
        "model:\n  base_url: {}\n  api_mode: codex_responses\n  default: gpt-5-mock\n",
        mock.url()
    ));
    // OpenAI's resets are durations from now: times as placeholders.
    let update = clockless(&one_turn_usage(&home, &[("CUSTOM_API_KEY", "sk-test-responses-1234")]).await);
    expect_test::expect![[r#"{"sessionUpdate":"usage_update","used":120,"size":400000,"_meta":{"rateLimits":{"requests":{"limit":100,"remaining":42,"reset":"<time>"},"tokens":{"limit":40000,"remaining":39000,"reset":"<time>"}}}}"#]].assert_eq(&update);
}

#[tokio::test]
async fn a_429_with_a_reset_time_is_announced_then_retried() {
    let mock = MockLlm::start().await;
    let exhausted = [
        ("x-ratelimit-limit-requests", "100"),
        ("x-ratelimit-remaining-requests", "0"),
        ("x-ratelimit-reset-requests", "20ms"),
    ];
    mock.push(with_headers(mock_llm::status(429, None), &exhausted));
    mock.push(mock_llm::text(&["made it"]));
    let home = TestHome::new(&mock.url());
    let (mut agent, session) = started(&home, false).await;
    let (response, updates) = agent.prompt(&session, "hi").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(agent_text(&updates), "made it");
    assert_eq!(
        clockless(&chunk_text(&updates, "agent_thought_chunk")),
        "provider busy (429), retrying in 1 s (attempt 2 of 4): rate limited until <hh:mm> UTC\n"
    );
    assert_eq!(mock.requests().len(), 2);
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_429_resetting_past_the_retry_budget_fails_at_once_naming_the_time() {
    let mock = MockLlm::start().await;
    let exhausted = [
        ("x-ratelimit-limit-tokens", "40000"),
        ("x-ratelimit-remaining-tokens", "0"),
        ("x-ratelimit-reset-tokens", "2h0m0s"),
    ];
    mock.push(with_headers(mock_llm::status(429, None), &exhausted));
    let home = TestHome::new(&mock.url());
    let (mut agent, session) = started(&home, false).await;
    let (response, _) = agent.prompt(&session, "hi").await;
    let message = clockless(response["error"]["message"].as_str().unwrap_or_default());
    expect_test::expect![[r#"provider 'custom' returned HTTP 429: mock error 429; rate limited until <hh:mm> UTC, later than the 30 s hermes-acp waits before a retry. The provider is rate-limiting requests; wait a moment and try again, or pick another model."#]]
    .assert_eq(&message);
    assert_eq!(mock.requests().len(), 1, "no retry that could not succeed");
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn configured_pricing_costs_each_turn_and_the_session() {
    let mock = MockLlm::start().await;
    mock.push(mock_llm::text(&["one"]));
    mock.push(mock_llm::text_with_usage(&["two"], 3000, 500));
    let home = TestHome::new(&mock.url());
    home.add_config("  pricing: {input: 2, output: 10, cache_read: 0.2}\n");
    let (mut agent, session) = started(&home, false).await;

    // 100 input × 2 + 20 output × 10 per million.
    let (_, updates) = agent.prompt(&session, "first").await;
    expect_test::expect![[
        r#"{"sessionUpdate":"usage_update","used":120,"size":256000,"cost":{"amount":0.0004,"currency":"USD"}}"#
    ]]
    .assert_eq(&normalize(&usage_update(&updates), &session).to_string());

    // 3000 × 2 + 500 × 10 = 0.011, cumulative 0.0114.
    let (_, updates) = agent.prompt(&session, "second").await;
    let amount = usage_update(&updates)["cost"]["amount"].as_f64().unwrap();
    assert!((amount - 0.0114).abs() < 1e-12, "{amount}");

    let (_, updates) = agent.prompt(&session, "/context").await;
    let context = agent_text(&updates);
    assert!(
        context.contains("\nCost: last turn 0.0110 USD, session 0.0114 USD\n"),
        "{context}"
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn a_well_known_model_is_priced_from_the_built_in_table() {
    let mock = MockLlm::start().await;
    mock.set_models(&["openai/gpt-4o-mini"]);
    mock.push(mock_llm::text(&["priced"]));
    let home = TestHome::new(&mock.url());
    std::fs::write(
        home.path().join("config.yaml"),
        format!(
            "model:\n  provider: custom\n  base_url: {}\n  default: openai/gpt-4o-mini\n",
            mock.url()
        ),
    )
    .unwrap();
    let (mut agent, session) = started(&home, false).await;
    let (response, updates) = agent.prompt(&session, "hi").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    // gpt-4o-mini: 0.15 in / 0.60 out per million; 100 × 0.15 + 20 × 0.6 = 27 per million.
    let cost = &usage_update(&updates)["cost"];
    assert_eq!(cost["currency"], "USD");
    let amount = cost["amount"].as_f64().unwrap();
    assert!((amount - 0.000027).abs() < 1e-12, "{amount}");
    let (_, updates) = agent.prompt(&session, "/context").await;
    assert!(
        agent_text(&updates).contains("\nCost: last turn 0.000027 USD, session 0.000027 USD\n"),
        "{}",
        agent_text(&updates)
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

#[tokio::test]
async fn an_unknown_model_without_pricing_has_no_cost() {
    let mock = MockLlm::start().await;
    mock.push(mock_llm::text(&["free?"]));
    let home = TestHome::new(&mock.url());
    let (mut agent, session) = started(&home, false).await;
    let (_, updates) = agent.prompt(&session, "hi").await;
    assert_eq!(usage_update(&updates).get("cost"), None, "never a made-up number");
    let (_, updates) = agent.prompt(&session, "/context").await;
    assert!(
        agent_text(&updates)
            .contains("Cost: last turn unknown (no price for mock-model: set model.pricing in config.yaml)"),
        "{}",
        agent_text(&updates)
    );
    assert_eq!(agent.shutdown().await, Some(0));
}

/// A typo'd rate (1e300) and a provider claiming 2^64 tokens: no infinite or NaN cost ever
/// reaches `usage_update` (serde_json would write `"amount": null`), and the agent lives on.
#[tokio::test]
async fn absurd_prices_and_token_counts_never_make_a_cost_json_cannot_carry() {
    let mock = MockLlm::start().await;
    mock.push(mock_llm::text_with_usage(&["one"], u64::MAX, u64::MAX));
    mock.push(mock_llm::text_with_usage(&["two"], u64::MAX, u64::MAX));
    let home = TestHome::new(&mock.url());
    home.add_config("  pricing:\n    mock-model: {input: 1e300, output: 1e300}\n");
    let (mut agent, session) = started(&home, false).await;
    for prompt in ["first", "second"] {
        let (response, updates) = agent.prompt(&session, prompt).await;
        assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
        assert_eq!(usage_update(&updates).get("cost"), None, "{updates:#?}");
    }
    assert_eq!(agent.shutdown().await, Some(0));

    // The highest rate accepted, at the most tokens a provider can claim: still a number.
    let mock = MockLlm::start().await;
    mock.push(mock_llm::text_with_usage(&["one"], u64::MAX / 2, u64::MAX / 2));
    mock.push(mock_llm::text_with_usage(&["two"], u64::MAX / 2, u64::MAX / 2));
    let home = TestHome::new(&mock.url());
    home.add_config("  pricing: {input: 1000000, output: 1000000}\n");
    let (mut agent, session) = started(&home, false).await;
    for prompt in ["first", "second"] {
        let (response, updates) = agent.prompt(&session, prompt).await;
        assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
        let amount = &usage_update(&updates)["cost"]["amount"];
        assert!(amount.as_f64().is_some_and(|a| a.is_finite() && a > 0.0), "{amount}");
    }
    assert_eq!(agent.shutdown().await, Some(0));
}

/// Malformed rate-limit headers on a success: the turn ends normally and no notice names a
/// past reset or a nonsense count.
#[tokio::test]
async fn malformed_rate_limit_headers_change_nothing_visible() {
    let mock = MockLlm::start().await;
    let headers = [
        ("x-ratelimit-limit-requests", "0"),
        ("x-ratelimit-remaining-requests", "18446744073709551616"),
        ("x-ratelimit-reset-requests", "-5s"),
        ("x-ratelimit-limit-tokens", "100"),
        ("x-ratelimit-remaining-tokens", "1"),
        ("x-ratelimit-reset-tokens", "1000000000"),
        ("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT"),
    ];
    mock.push(with_headers(mock_llm::text(&["fine"]), &headers));
    let home = TestHome::new(&mock.url());
    let (mut agent, session) = started(&home, true).await;
    let (response, updates) = agent.prompt(&session, "hi").await;
    assert_eq!(response["result"]["stopReason"], "end_turn", "{response}");
    assert_eq!(
        notices(&updates),
        vec!["rate limit nearly used up: 1 of 100 tokens left".to_string()]
    );
    let limits = &usage_update(&updates)["_meta"]["rateLimits"];
    assert_eq!(limits["requests"], json!({"limit": 0}), "{limits}");
    assert_eq!(agent.shutdown().await, Some(0));
}
