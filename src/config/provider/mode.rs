//! Which wire format a resolved provider speaks (reference §7.3 step 7, Hermes'
//! `_detect_api_mode_for_url` and `_resolve_plain_custom_api_mode`): an explicit
//! `api_mode` wins, else the URL decides — api.openai.com and api.x.ai speak the Responses API
//! (`codex_responses`), api.anthropic.com, paths ending `/anthropic` or `/anthropic/v1` and
//! api.kimi.com/coding speak Anthropic Messages — else chat completions.

use super::{ApiMode, host_of};

/// An `api_mode` value we speak; Hermes' other modes (`bedrock_converse`, `codex_app_server`)
/// and misspellings count as unset, as Hermes' `_parse_api_mode` drops invalid values.
pub fn parse_api_mode(raw: Option<&str>) -> Option<ApiMode> {
    match raw?.trim().to_ascii_lowercase().as_str() {
        "chat_completions" => Some(ApiMode::ChatCompletions),
        "codex_responses" => Some(ApiMode::CodexResponses),
        "anthropic_messages" => Some(ApiMode::AnthropicMessages),
        _ => None,
    }
}

/// The mode a base URL implies, if any. Hosts match exactly, so look-alikes
/// (`api.openai.com.example`, `proxy/api.anthropic.com`) imply nothing.
pub fn mode_for_url(url: &str) -> Option<ApiMode> {
    let host = host_of(url);
    if host == "api.openai.com" || host == "api.x.ai" {
        return Some(ApiMode::CodexResponses);
    }
    if host == "api.anthropic.com" {
        return Some(ApiMode::AnthropicMessages);
    }
    let lower = url.trim().to_ascii_lowercase();
    let path = lower
        .split("://")
        .nth(1)
        .unwrap_or(&lower)
        .split(['?', '#'])
        .next()
        .unwrap_or("")
        .trim_end_matches('/');
    if path.ends_with("/anthropic") || path.ends_with("/anthropic/v1") {
        return Some(ApiMode::AnthropicMessages);
    }
    if host == "api.kimi.com" && lower.contains("/coding") {
        return Some(ApiMode::AnthropicMessages);
    }
    None
}

/// Explicit `api_mode`, else detected from the URL, else chat completions (named custom
/// providers, `model.base_url` found by auto-detection, the `openai` provider).
pub fn detect_api_mode(explicit: Option<&str>, url: &str) -> ApiMode {
    parse_api_mode(explicit)
        .or_else(|| mode_for_url(url))
        .unwrap_or(ApiMode::ChatCompletions)
}

/// A bare `provider: custom` endpoint: as `detect_api_mode`, except that a persisted
/// `codex_responses` is ignored unless the URL itself is a Responses host — Hermes keeps a
/// stale mode from an earlier OpenAI setup from forcing generic relays onto `/responses`.
pub fn plain_custom_api_mode(explicit: Option<&str>, url: &str) -> ApiMode {
    let detected = mode_for_url(url);
    match parse_api_mode(explicit) {
        Some(ApiMode::CodexResponses) if detected != Some(ApiMode::CodexResponses) => {
            tracing::info!(
                url,
                "ignoring model.api_mode codex_responses for a custom endpoint that is not OpenAI or xAI"
            );
            detected.unwrap_or(ApiMode::ChatCompletions)
        }
        Some(mode) => mode,
        None => detected.unwrap_or(ApiMode::ChatCompletions),
    }
}
