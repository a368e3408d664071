//! Built-in list prices of well-known models, USD per million tokens: (model id, input, output,
//! cache read, cache write). Ids are bare (no `vendor/` prefix, no date suffix: `llm::pricing`
//! strips those before looking up). A model missing here and from `model.pricing` gets no cost.
//!
//! Where the figures come from (each group says its page and the date it was read): the
//! vendors' public price pages, as snapshotted in Hermes Agent 0.19.0's
//! `agent/usage_pricing.py` (whose entries name the page and the snapshot month). Prices change;
//! `model.pricing` in config.yaml overrides any of these.

/// `(id, input, output, cache_read, cache_write)`; `None` cache rates fall back to the input rate.
pub type Row = (&'static str, f64, f64, Option<f64>, Option<f64>);

pub const TABLE: &[Row] = &[
    // Anthropic — https://platform.claude.com/docs/en/about-claude/pricing (2026-05; Sonnet 5
    // at its introductory rate, 2026-06). Cache writes are the 5-minute rate (1.25 × input).
    ("claude-opus-4-8", 5.0, 25.0, Some(0.5), Some(6.25)),
    ("claude-opus-4-8-fast", 10.0, 50.0, Some(1.0), Some(12.5)),
    ("claude-sonnet-5", 2.0, 10.0, Some(0.2), Some(2.5)),
    ("claude-opus-4-7", 5.0, 25.0, Some(0.5), Some(6.25)),
    ("claude-opus-4-6", 5.0, 25.0, Some(0.5), Some(6.25)),
    ("claude-opus-4-5", 5.0, 25.0, Some(0.5), Some(6.25)),
    ("claude-sonnet-4-6", 3.0, 15.0, Some(0.3), Some(3.75)),
    ("claude-sonnet-4-5", 3.0, 15.0, Some(0.3), Some(3.75)),
    ("claude-haiku-4-5", 1.0, 5.0, Some(0.1), Some(1.25)),
    ("claude-opus-4", 15.0, 75.0, Some(1.5), Some(18.75)),
    ("claude-sonnet-4", 3.0, 15.0, Some(0.3), Some(3.75)),
    ("claude-3-5-sonnet", 3.0, 15.0, Some(0.3), Some(3.75)),
    ("claude-3-5-haiku", 0.8, 4.0, Some(0.08), Some(1.0)),
    ("claude-3-opus", 15.0, 75.0, Some(1.5), Some(18.75)),
    ("claude-3-haiku", 0.25, 1.25, Some(0.03), Some(0.3)),
    // OpenAI — https://openai.com/index/previewing-gpt-5-6-sol/ (GA rates, 2026-07).
    ("gpt-5.6-sol", 5.0, 30.0, Some(0.5), Some(6.25)),
    ("gpt-5.6-terra", 2.5, 15.0, Some(0.25), Some(3.125)),
    ("gpt-5.6-luna", 1.0, 6.0, Some(0.1), Some(1.25)),
    // OpenAI — https://openai.com/api/pricing/ (2026-03-16). OpenAI bills no cache writes.
    ("gpt-4o", 2.5, 10.0, Some(1.25), Some(0.0)),
    ("gpt-4o-mini", 0.15, 0.6, Some(0.075), Some(0.0)),
    ("gpt-4.1", 2.0, 8.0, Some(0.5), Some(0.0)),
    ("gpt-4.1-mini", 0.4, 1.6, Some(0.1), Some(0.0)),
    ("gpt-4.1-nano", 0.1, 0.4, Some(0.025), Some(0.0)),
    ("o3", 10.0, 40.0, Some(2.5), Some(0.0)),
    ("o3-mini", 1.1, 4.4, Some(0.55), Some(0.0)),
    // DeepSeek — https://api-docs.deepseek.com/quick_start/pricing (2026-07).
    ("deepseek-chat", 0.14, 0.28, Some(0.0028), None),
    ("deepseek-reasoner", 0.14, 0.28, Some(0.0028), None),
    ("deepseek-v4-pro", 0.435, 0.87, Some(0.003625), None),
    ("deepseek-v4-flash", 0.14, 0.28, Some(0.0028), None),
    // Google — https://ai.google.dev/pricing (2026-03-16; prompts up to 200K tokens).
    ("gemini-2.5-pro", 1.25, 10.0, None, None),
    ("gemini-2.5-flash", 0.15, 0.6, None, None),
    ("gemini-2.0-flash", 0.1, 0.4, None, None),
];
