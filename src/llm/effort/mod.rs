//! Reasoning effort: the levels a user can pick (`agent.reasoning_effort`, the session's
//! `thought_level` option), which of them a model takes on each wire format, and how a wanted
//! level is fitted to a model that lacks it. Providers turn the fitted level into their own
//! field (`reasoning_effort`, `reasoning: {effort}`, `reasoning.effort`, Anthropic thinking).
//!
//! Where the figures come from: OpenAI's reasoning guide and model pages (o-series:
//! low/medium/high; gpt-5: minimal…high; gpt-5.1 adds `none` and drops `minimal`; gpt-5.2 and
//! the codex-max models add `xhigh`), OpenRouter's reasoning-tokens page (one `effort` scale
//! for every reasoning model: none…xhigh) and the model prefixes Hermes treats as reasoning
//! there (`run_agent._supports_reasoning_extra_body`), and Anthropic's extended/adaptive
//! thinking pages with Hermes' `anthropic_adapter` (manual thinking budgets 4 000 / 8 000 /
//! 16 000 tokens for Claude 3.7–4.5; adaptive `output_config.effort` low…max from 4.6, `xhigh`
//! from 4.7). Models not listed get no knob, so the option is hidden for them.

use crate::llm::ApiMode;

/// A reasoning level, in increasing order of effort.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Effort {
    None,
    Minimal,
    Low,
    Medium,
    High,
    XHigh,
    Max,
}

impl Effort {
    pub const ALL: [Effort; 7] = [
        Effort::None,
        Effort::Minimal,
        Effort::Low,
        Effort::Medium,
        Effort::High,
        Effort::XHigh,
        Effort::Max,
    ];

    /// The id on the wire and in the option (`none`, `minimal`, …, `xhigh`, `max`).
    pub fn id(self) -> &'static str {
        match self {
            Effort::None => "none",
            Effort::Minimal => "minimal",
            Effort::Low => "low",
            Effort::Medium => "medium",
            Effort::High => "high",
            Effort::XHigh => "xhigh",
            Effort::Max => "max",
        }
    }

    /// The name shown in the editor's picker.
    pub fn label(self) -> &'static str {
        match self {
            Effort::None => "None",
            Effort::Minimal => "Minimal",
            Effort::Low => "Low",
            Effort::Medium => "Medium",
            Effort::High => "High",
            Effort::XHigh => "Extra high",
            Effort::Max => "Max",
        }
    }

    /// Reads a level as Hermes does (`parse_reasoning_effort`): case-insensitive, `false`,
    /// `off`, `disabled` mean none, and Hermes' `ultra` is the top level. Anything else is
    /// unknown (`None`).
    pub fn parse(text: &str) -> Option<Effort> {
        let text = text.trim().to_ascii_lowercase();
        if matches!(text.as_str(), "false" | "off" | "disabled" | "no") {
            return Some(Effort::None);
        }
        if text == "ultra" {
            return Some(Effort::Max);
        }
        Effort::ALL.into_iter().find(|e| e.id() == text)
    }
}

/// How a provider carries the effort: decided by the wire format and, for chat completions,
/// whether the endpoint is OpenRouter (which has its own `reasoning` object).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// OpenAI-compatible chat completions: top-level `reasoning_effort`.
    ChatCompletions,
    /// OpenRouter's chat completions: `reasoning: {enabled, effort}`.
    OpenRouter,
    /// The Responses API: `reasoning.effort`.
    Responses,
    /// Anthropic Messages: extended thinking (a token budget) or adaptive thinking.
    Anthropic,
}

impl Route {
    /// The route of a provider: its wire format, and OpenRouter by id or host.
    pub fn of(api_mode: ApiMode, provider_id: &str, base_url: &str) -> Route {
        match api_mode {
            ApiMode::AnthropicMessages => Route::Anthropic,
            ApiMode::CodexResponses => Route::Responses,
            ApiMode::ChatCompletions if is_openrouter(provider_id, base_url) => Route::OpenRouter,
            ApiMode::ChatCompletions => Route::ChatCompletions,
        }
    }
}

/// Whether a chat-completions endpoint is OpenRouter.
pub fn is_openrouter(provider_id: &str, base_url: &str) -> bool {
    provider_id.eq_ignore_ascii_case("openrouter") || base_url.to_ascii_lowercase().contains("openrouter.ai")
}

/// How a Claude model thinks, which decides the Anthropic request shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaudeThinking {
    /// No extended thinking (Claude 3.5 and older, or not a Claude model).
    Unsupported,
    /// `thinking: {type: enabled, budget_tokens}` (Claude 3.7 to 4.5).
    Manual,
    /// `thinking: {type: adaptive}` + `output_config.effort` (Claude 4.6 and newer).
    Adaptive,
}

/// Older Claude families that still take manual thinking budgets (Hermes'
/// `_LEGACY_MANUAL_THINKING_CLAUDE_SUBSTRINGS`, minus the 3.x models that cannot think).
const CLAUDE_MANUAL: [&str; 9] = [
    "claude-3-7",
    "claude-opus-4-0",
    "claude-opus-4-1",
    "claude-opus-4-2025",
    "claude-sonnet-4-0",
    "claude-sonnet-4-2025",
    "claude-opus-4-5",
    "claude-sonnet-4-5",
    "claude-haiku-4-5",
];
const CLAUDE_NO_THINKING: [&str; 3] = ["claude-3", "claude-2", "claude-instant"];

/// How an Anthropic model id (already normalised: `claude-sonnet-4-5`) thinks. Claude models
/// newer than the listed families default to adaptive, as Hermes does, so a new release works.
pub fn claude_thinking(model: &str) -> ClaudeThinking {
    let model = model.to_ascii_lowercase();
    if !model.starts_with("claude-") {
        ClaudeThinking::Unsupported
    } else if CLAUDE_MANUAL.iter().any(|m| model.contains(m)) {
        ClaudeThinking::Manual
    } else if CLAUDE_NO_THINKING.iter().any(|m| model.starts_with(m)) {
        ClaudeThinking::Unsupported
    } else {
        ClaudeThinking::Adaptive
    }
}

/// Claude models that refuse `thinking: {type: disabled}` (they always think).
pub fn claude_always_thinks(model: &str) -> bool {
    model.to_ascii_lowercase().contains("fable")
}

/// Anthropic's manual thinking budget for a level (Hermes' `THINKING_BUDGET`).
pub fn thinking_budget(effort: Effort) -> u32 {
    match effort {
        Effort::None | Effort::Minimal | Effort::Low => 4_000,
        Effort::Medium => 8_000,
        Effort::High | Effort::XHigh | Effort::Max => 16_000,
    }
}

/// The levels `model` takes on `route`, lowest first; empty when it has no effort knob.
pub fn levels(route: Route, model: &str) -> Vec<Effort> {
    use Effort::*;
    match route {
        Route::ChatCompletions => openai_levels(model).unwrap_or_default(),
        // Hermes sends `minimal` to the Responses API as `low` (`_effort_clamp`).
        Route::Responses => match openai_levels(model) {
            Some(mut known) => {
                known.retain(|e| *e != Minimal);
                known
            }
            Option::None => {
                // Hermes sends an effort to every Responses model but GPT-4/3.5; the three middle
                // levels are the ones every reasoning model there accepts.
                if crate::llm::model_names::reasons(model) {
                    vec![Low, Medium, High]
                } else {
                    Vec::new()
                }
            }
        },
        Route::OpenRouter => openrouter_levels(model),
        Route::Anthropic => {
            let normalized = crate::llm::model_names::normalize_model(model);
            let mut out = match claude_thinking(&normalized) {
                ClaudeThinking::Unsupported => return Vec::new(),
                ClaudeThinking::Manual => vec![None, Low, Medium, High],
                ClaudeThinking::Adaptive if normalized.contains("-4-6") => vec![None, Low, Medium, High, Max],
                ClaudeThinking::Adaptive => vec![None, Low, Medium, High, XHigh, Max],
            };
            if claude_always_thinks(&normalized) {
                out.retain(|e| *e != None);
            }
            out
        }
    }
}

/// OpenAI's reasoning models by name (with or without an `openai/` prefix); `None` for a model
/// this table does not know.
fn openai_levels(model: &str) -> Option<Vec<Effort>> {
    use Effort::*;
    let name = model.rsplit('/').next().unwrap_or(model).to_ascii_lowercase();
    if ["o1-mini", "o1-preview"].iter().any(|p| name.starts_with(p)) {
        return Some(Vec::new());
    }
    if ["o1", "o3", "o4"].iter().any(|p| name.starts_with(p)) {
        return Some(vec![Low, Medium, High]);
    }
    let rest = name.strip_prefix("gpt-5")?;
    if rest.contains("chat") {
        return Some(Vec::new());
    }
    // `gpt-5`, `gpt-5-mini` → minor 0; `gpt-5.1-codex` → 1; `gpt-5.2` → 2.
    let minor: u32 = rest
        .strip_prefix('.')
        .map(|r| r.chars().take_while(char::is_ascii_digit).collect::<String>())
        .and_then(|d| d.parse().ok())
        .unwrap_or(0);
    let xhigh = minor >= 2 || rest.contains("codex-max");
    let mut out = if rest.contains("codex") {
        vec![Low, Medium, High]
    } else if minor == 0 {
        vec![Minimal, Low, Medium, High]
    } else {
        vec![None, Low, Medium, High]
    };
    if xhigh {
        out.push(XHigh);
    }
    Some(out)
}

/// OpenRouter: its one effort scale for the model families Hermes sends reasoning to; Claude
/// 4.6+ there takes the effort as `verbosity` and cannot switch thinking off.
fn openrouter_levels(model: &str) -> Vec<Effort> {
    use Effort::*;
    const REASONING_PREFIXES: [&str; 9] = [
        "deepseek/",
        "anthropic/",
        "openai/",
        "x-ai/",
        "google/gemini-2",
        "google/gemma-4",
        "qwen/qwen3",
        "tencent/hy3",
        "xiaomi/",
    ];
    let model = model.to_ascii_lowercase();
    if !REASONING_PREFIXES.iter().any(|p| model.starts_with(p)) {
        return Vec::new();
    }
    if openrouter_claude_adaptive(&model) {
        return vec![Low, Medium, High];
    }
    vec![None, Minimal, Low, Medium, High, XHigh]
}

/// A Claude model on OpenRouter that thinks adaptively: OpenRouter ignores `reasoning.effort`
/// for it and turns any `reasoning` object into a disable switch it refuses (Hermes' OpenRouter
/// profile), so its effort goes as `verbosity`.
pub fn openrouter_claude_adaptive(model: &str) -> bool {
    let model = model.to_ascii_lowercase();
    model.starts_with("anthropic/")
        && claude_thinking(&crate::llm::model_names::normalize_model(&model)) == ClaudeThinking::Adaptive
}

/// The level closest to `wanted` among `levels`: the highest one not above it, else the lowest
/// one (a model without `none` thinks as little as it can). Asking for some thinking never
/// lands on `none` (`minimal` on a model with none/low/… is low). `None` without levels.
pub fn fit(levels: &[Effort], wanted: Effort) -> Option<Effort> {
    let thinking = || levels.iter().copied().filter(|e| *e != Effort::None);
    if wanted == Effort::None {
        return levels.iter().copied().min();
    }
    thinking().filter(|e| *e <= wanted).max().or_else(|| thinking().min())
}

/// What `model` on `route` is sent for `wanted`: the fitted level, or `None` when there is no
/// knob or no choice was made (the provider keeps its default).
pub fn resolve(route: Route, model: &str, wanted: Option<Effort>) -> Option<Effort> {
    fit(&levels(route, model), wanted?)
}

/// The level a provider behaves as when nothing was chosen, for showing the option: Anthropic
/// requests switch thinking off (where the model allows it); the others reason at medium.
pub fn default_level(route: Route, model: &str) -> Option<Effort> {
    let levels = levels(route, model);
    let always_thinks = claude_always_thinks(model);
    let wanted = match route {
        Route::Anthropic if !always_thinks => Effort::None,
        // Adaptive thinking's own default (Hermes' OpenRouter profile notes it).
        Route::Anthropic => Effort::High,
        _ => Effort::Medium,
    };
    fit(&levels, wanted)
}

#[cfg(test)]
mod tests;
