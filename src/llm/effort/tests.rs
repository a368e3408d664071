//! The effort table per route and model, fitting and Hermes' spellings.

use super::*;
use Effort::*;

#[test]
fn hermes_spellings_parse() {
    assert_eq!(Effort::parse("HIGH"), Some(High));
    assert_eq!(Effort::parse(" off "), Some(None));
    assert_eq!(Effort::parse("disabled"), Some(None));
    assert_eq!(Effort::parse("ultra"), Some(Max));
    assert_eq!(Effort::parse("xhigh"), Some(XHigh));
    assert_eq!(Effort::parse("extreme"), Option::None);
    for e in Effort::ALL {
        assert_eq!(Effort::parse(e.id()), Some(e));
    }
}

#[test]
fn openai_models_get_their_documented_levels() {
    let cc = Route::ChatCompletions;
    assert_eq!(levels(cc, "o3-mini"), [Low, Medium, High]);
    assert_eq!(levels(cc, "o4-mini"), [Low, Medium, High]);
    assert_eq!(levels(cc, "gpt-5-mini"), [Minimal, Low, Medium, High]);
    assert_eq!(levels(cc, "gpt-5.1"), [None, Low, Medium, High]);
    assert_eq!(levels(cc, "gpt-5.2"), [None, Low, Medium, High, XHigh]);
    assert_eq!(levels(cc, "gpt-5-codex"), [Low, Medium, High]);
    assert_eq!(levels(cc, "gpt-5.1-codex-max"), [Low, Medium, High, XHigh]);
    for hidden in [
        "gpt-5-chat-latest",
        "gpt-4o",
        "o1-mini",
        "deepseek-reasoner",
        "llama3",
        "mock-model",
    ] {
        assert!(levels(cc, hidden).is_empty(), "{hidden}");
    }
}

#[test]
fn responses_models_without_an_entry_get_the_middle_levels_unless_they_do_not_reason() {
    assert_eq!(levels(Route::Responses, "gpt-5.2"), [None, Low, Medium, High, XHigh]);
    assert_eq!(levels(Route::Responses, "grok-4-fast"), [Low, Medium, High]);
    assert!(levels(Route::Responses, "gpt-4.1").is_empty());
    assert_eq!(
        levels(Route::Responses, "gpt-5-mini"),
        [Low, Medium, High],
        "minimal goes as low"
    );
}

#[test]
fn openrouter_offers_its_scale_to_reasoning_families() {
    let or = Route::OpenRouter;
    assert_eq!(
        levels(or, "deepseek/deepseek-r1"),
        [None, Minimal, Low, Medium, High, XHigh]
    );
    assert_eq!(
        levels(or, "anthropic/claude-sonnet-4.5"),
        [None, Minimal, Low, Medium, High, XHigh]
    );
    assert_eq!(levels(or, "anthropic/claude-sonnet-4.6"), [Low, Medium, High]);
    assert!(levels(or, "meta-llama/llama-3.3-70b-instruct").is_empty());
    assert!(openrouter_claude_adaptive("anthropic/claude-opus-4.7"));
    assert!(!openrouter_claude_adaptive("anthropic/claude-3.7-sonnet"));
}

#[test]
fn claude_models_think_manually_adaptively_or_not_at_all() {
    let an = Route::Anthropic;
    assert_eq!(levels(an, "claude-3-7-sonnet-latest"), [None, Low, Medium, High]);
    assert_eq!(levels(an, "claude-sonnet-4-5"), [None, Low, Medium, High]);
    assert_eq!(levels(an, "anthropic/claude-haiku-4.5"), [None, Low, Medium, High]);
    assert_eq!(levels(an, "claude-sonnet-4-6"), [None, Low, Medium, High, Max]);
    assert_eq!(levels(an, "claude-opus-4-7"), [None, Low, Medium, High, XHigh, Max]);
    assert_eq!(levels(an, "claude-fable-5"), [Low, Medium, High, XHigh, Max]);
    assert!(levels(an, "claude-3-5-sonnet-latest").is_empty());
    assert!(levels(an, "MiniMax-M2").is_empty());
    assert_eq!(claude_thinking("claude-opus-4-1"), ClaudeThinking::Manual);
    assert_eq!(claude_thinking("claude-opus-4-8"), ClaudeThinking::Adaptive);
    assert_eq!(thinking_budget(Low), 4_000);
    assert_eq!(thinking_budget(Medium), 8_000);
    assert_eq!(thinking_budget(High), 16_000);
}

#[test]
fn a_wanted_level_fits_the_closest_one_the_model_has() {
    assert_eq!(fit(&[Low, Medium, High], XHigh), Some(High));
    assert_eq!(fit(&[Low, Medium, High], None), Some(Low));
    assert_eq!(fit(&[Low, Medium, High], Minimal), Some(Low));
    assert_eq!(fit(&[None, Low, Medium, High, Max], XHigh), Some(High));
    assert_eq!(
        fit(&[None, Low, Medium, High], Minimal),
        Some(Low),
        "some thinking is not none"
    );
    assert_eq!(fit(&[None, Low, Medium, High], None), Some(None));
    assert_eq!(fit(&[], High), Option::None);
    assert_eq!(resolve(Route::ChatCompletions, "o3", Some(Minimal)), Some(Low));
    assert_eq!(resolve(Route::ChatCompletions, "o3", Option::None), Option::None);
    assert_eq!(resolve(Route::ChatCompletions, "gpt-4o", Some(High)), Option::None);
}

#[test]
fn the_default_shown_is_what_the_provider_does_unasked() {
    assert_eq!(default_level(Route::Anthropic, "claude-sonnet-4-6"), Some(None));
    assert_eq!(default_level(Route::Anthropic, "claude-fable-5"), Some(High));
    assert_eq!(default_level(Route::Responses, "gpt-5"), Some(Medium));
    assert_eq!(default_level(Route::ChatCompletions, "gpt-4o"), Option::None);
    assert_eq!(
        Route::of(ApiMode::ChatCompletions, "custom", "https://openrouter.ai/api/v1"),
        Route::OpenRouter
    );
    assert_eq!(
        Route::of(ApiMode::ChatCompletions, "custom", "http://127.0.0.1:1/v1"),
        Route::ChatCompletions
    );
}
