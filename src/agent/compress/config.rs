//! Compression settings from `config.yaml` (`compression.*`, `auxiliary.compression.model`),
//! the context window of a model (a table of well-known families, else Hermes' 256 000), and the
//! token threshold derived from both, computed the way Hermes computes it.

use std::path::Path;

use serde_yaml_ng::Value;

/// Hermes' window for a model it cannot identify (`DEFAULT_FALLBACK_CONTEXT`).
pub const DEFAULT_CONTEXT_WINDOW: u64 = 256_000;
/// Windows below this get their threshold raised to at least `SMALL_WINDOW_MIN_RATIO`: at 50 %
/// a 128K–256K model would compact every turn or two (Hermes' small-context floor).
const SMALL_WINDOW_LIMIT: u64 = 512_000;
const SMALL_WINDOW_MIN_RATIO: f64 = 0.75;
/// The threshold never goes below this many tokens (Hermes' `MINIMUM_CONTEXT_LENGTH`) …
const MIN_THRESHOLD_TOKENS: u64 = 64_000;
/// … unless that would be the whole window, in which case it triggers at 85 % of it.
const TINY_WINDOW_RATIO: f64 = 0.85;

/// How and when the conversation is compacted.
#[derive(Debug, Clone, PartialEq)]
pub struct CompressionConfig {
    /// `compression.enabled` (default true).
    pub enabled: bool,
    /// `compression.threshold`: fraction of the context window that triggers a compaction
    /// (default 0.50; raised to 0.75 for windows under 512K, see `threshold_tokens`).
    pub threshold_ratio: f64,
    /// `compression.target_ratio`: the protected tail is about this fraction of the threshold
    /// in tokens (default 0.20, clamped to 0.10–0.80).
    pub target_ratio: f64,
    /// `compression.protect_last_n`: the protected tail has at least this many messages (20).
    pub protect_last_n: usize,
    /// `compression.threshold_tokens`: an absolute cap on the threshold, if set.
    pub threshold_tokens_cap: Option<u64>,
    /// `auxiliary.compression.model` (or `compression.summary_model`): the model that writes
    /// summaries; the session's model when unset. Same provider either way.
    pub summary_model: Option<String>,
}

impl Default for CompressionConfig {
    fn default() -> CompressionConfig {
        CompressionConfig {
            enabled: true,
            threshold_ratio: 0.50,
            target_ratio: 0.20,
            protect_last_n: 20,
            threshold_tokens_cap: None,
            summary_model: None,
        }
    }
}

impl CompressionConfig {
    /// Reads the compression keys from a parsed `config.yaml`; missing or malformed keys keep
    /// their defaults (the file is shared with Hermes, so it is read tolerantly).
    pub fn parse(root: &Value) -> CompressionConfig {
        let mut cfg = CompressionConfig::default();
        let section = root.get("compression");
        let get = |key: &str| section.and_then(|s| s.get(key));
        if let Some(enabled) = get("enabled").and_then(as_bool) {
            cfg.enabled = enabled;
        }
        if let Some(ratio) = get("threshold").and_then(as_ratio) {
            cfg.threshold_ratio = ratio.clamp(0.10, 0.95);
        }
        if let Some(ratio) = get("target_ratio").and_then(as_ratio) {
            cfg.target_ratio = ratio.clamp(0.10, 0.80);
        }
        if let Some(n) = get("protect_last_n").and_then(as_u64) {
            cfg.protect_last_n = n.min(10_000) as usize;
        }
        cfg.threshold_tokens_cap = get("threshold_tokens").and_then(as_u64).filter(|n| *n > 0);
        cfg.summary_model = root
            .get("auxiliary")
            .and_then(|a| a.get("compression"))
            .and_then(|c| c.get("model"))
            .or_else(|| get("summary_model"))
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty() && *s != "auto")
            .map(str::to_string);
        cfg
    }

    /// Parses `config.yaml` text; an empty or invalid file gives the defaults.
    pub fn from_yaml_text(text: &str) -> CompressionConfig {
        match serde_yaml_ng::from_str::<Value>(text) {
            Ok(root) => CompressionConfig::parse(&root),
            Err(_) => CompressionConfig::default(),
        }
    }

    /// Reads `config.yaml` at `path`; a missing or unreadable file gives the defaults.
    pub fn from_config_file(path: &Path) -> CompressionConfig {
        std::fs::read_to_string(path)
            .map(|text| CompressionConfig::from_yaml_text(&text))
            .unwrap_or_default()
    }

    /// The ratio actually applied for a window: the configured one, raised to 0.75 below 512K.
    pub fn effective_ratio(&self, window: u64) -> f64 {
        if window > 0 && window < SMALL_WINDOW_LIMIT {
            self.threshold_ratio.max(SMALL_WINDOW_MIN_RATIO)
        } else {
            self.threshold_ratio
        }
    }

    /// The prompt size (tokens) above which the conversation is compacted. Hermes' rule:
    /// `window × effective ratio`, at least 64 000, but 85 % of the window when that floor
    /// would reach the window, then capped by `compression.threshold_tokens`.
    pub fn threshold_tokens(&self, window: u64) -> u64 {
        let window = window.max(1);
        let ratio = self.effective_ratio(window);
        let floored = ((window as f64 * ratio) as u64).max(MIN_THRESHOLD_TOKENS);
        let threshold = if floored >= window {
            ((window as f64 * TINY_WINDOW_RATIO) as u64).clamp(1, window.saturating_sub(1).max(1))
        } else {
            floored
        };
        match self.threshold_tokens_cap {
            Some(cap) => threshold.min(cap.min(window)),
            None => threshold,
        }
    }

    /// The token budget of the protected tail (≈ `target_ratio` of the threshold).
    pub fn tail_budget(&self, window: u64) -> u64 {
        (self.threshold_tokens(window) as f64 * self.target_ratio) as u64
    }
}

fn as_bool(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" | "1" => Some(true),
            "false" | "no" | "off" | "0" => Some(false),
            _ => None,
        },
        Value::Number(n) => n.as_i64().map(|n| n != 0),
        _ => None,
    }
}

fn as_f64(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().trim_end_matches('%').trim().parse().ok(),
        _ => None,
    }
}

/// A fraction; `75` or `"75%"` are read as percentages.
fn as_ratio(value: &Value) -> Option<f64> {
    let v = as_f64(value).filter(|v| v.is_finite() && *v > 0.0)?;
    if v > 1.0 {
        (v <= 100.0).then_some(v / 100.0)
    } else {
        Some(v)
    }
}

fn as_u64(value: &Value) -> Option<u64> {
    match value {
        Value::Number(n) => n
            .as_u64()
            .or_else(|| n.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64)),
        Value::String(s) => s.trim().replace(['_', ','], "").parse().ok(),
        _ => None,
    }
}

/// Context windows of well-known model families. The longest key found in the (lower-cased)
/// model id wins, matched at a word start so `o3` does not match inside `pro3`.
const WINDOWS: &[(&str, u64)] = &[
    // Anthropic: 200K, except the 1M-context 4.6+ generation.
    ("claude", 200_000),
    ("claude-opus-4-6", 1_000_000),
    ("claude-opus-4.6", 1_000_000),
    ("claude-sonnet-4-6", 1_000_000),
    ("claude-sonnet-4.6", 1_000_000),
    ("claude-opus-4-7", 1_000_000),
    ("claude-opus-4.7", 1_000_000),
    // OpenAI.
    ("gpt-5", 400_000),
    ("gpt-5.1-chat", 128_000),
    ("gpt-5.4", 1_050_000),
    ("gpt-5.4-mini", 400_000),
    ("gpt-5.4-nano", 400_000),
    ("gpt-5.5", 1_050_000),
    ("gpt-4.1", 1_047_576),
    ("gpt-4o", 128_000),
    ("gpt-4-turbo", 128_000),
    ("gpt-4", 128_000),
    ("gpt-3.5-turbo", 16_385),
    ("gpt-oss", 131_072),
    ("o1", 200_000),
    ("o1-mini", 128_000),
    ("o3", 200_000),
    ("o4-mini", 200_000),
    // Google.
    ("gemini", 1_048_576),
    ("gemma", 8_192),
    ("gemma-3", 131_072),
    ("gemma3", 131_072),
    // Meta, Alibaba, DeepSeek, Mistral.
    ("llama", 131_072),
    ("llama3", 131_072),
    ("llama-3", 131_072),
    ("llama-4", 1_048_576),
    ("qwen", 131_072),
    ("qwen3-coder", 262_144),
    ("qwen3-coder-plus", 1_000_000),
    ("qwen3-max", 262_144),
    ("deepseek", 128_000),
    ("mistral", 131_072),
    ("mixtral", 32_768),
    ("ministral", 131_072),
    ("codestral", 256_000),
    ("devstral", 131_072),
    // Others Hermes users commonly run.
    ("grok", 131_072),
    ("grok-4", 256_000),
    ("grok-code-fast", 256_000),
    ("kimi", 262_144),
    ("glm", 202_752),
    ("minimax", 204_800),
    ("nemotron", 131_072),
    ("hermes", 131_072),
];

/// The context window for `model`: the configured `model.context_length` when set, else the
/// family table, else 256 000 (Hermes' default for unknown models).
pub fn context_window(model: &str, configured: Option<u64>) -> u64 {
    if let Some(n) = configured.filter(|n| *n > 0) {
        return n;
    }
    let id = model.trim().to_ascii_lowercase();
    let mut best: Option<(usize, u64)> = None;
    for (key, window) in WINDOWS {
        if best.is_some_and(|(len, _)| len >= key.len()) {
            continue;
        }
        if matches_at_word_start(&id, key) {
            best = Some((key.len(), *window));
        }
    }
    best.map_or(DEFAULT_CONTEXT_WINDOW, |(_, w)| w)
}

fn matches_at_word_start(id: &str, key: &str) -> bool {
    id.match_indices(key)
        .any(|(at, _)| at == 0 || !id.as_bytes()[at - 1].is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_parse() {
        assert_eq!(CompressionConfig::from_yaml_text(""), CompressionConfig::default());
        let cfg = CompressionConfig::from_yaml_text(
            "compression:\n  enabled: off\n  threshold: 0.6\n  target_ratio: 0.3\n  protect_last_n: 12\n  threshold_tokens: 90000\nauxiliary:\n  compression:\n    model: cheap-model\n",
        );
        assert!(!cfg.enabled);
        assert_eq!(cfg.threshold_ratio, 0.6);
        assert_eq!(cfg.target_ratio, 0.3);
        assert_eq!(cfg.protect_last_n, 12);
        assert_eq!(cfg.threshold_tokens_cap, Some(90_000));
        assert_eq!(cfg.summary_model.as_deref(), Some("cheap-model"));
        let pct = CompressionConfig::from_yaml_text("compression:\n  threshold: \"80%\"\n  enabled: nonsense\n");
        assert_eq!(pct.threshold_ratio, 0.8);
        assert!(pct.enabled);
        let auto = CompressionConfig::from_yaml_text("auxiliary:\n  compression:\n    model: auto\n");
        assert_eq!(auto.summary_model, None);
    }

    #[test]
    fn threshold_follows_hermes() {
        let cfg = CompressionConfig::default();
        // Observed in Hermes: unknown model → 256,000 window, 192,000 threshold (75 %).
        assert_eq!(cfg.threshold_tokens(256_000), 192_000);
        assert_eq!(cfg.threshold_tokens(1_000_000), 500_000);
        // The 64K floor would be the whole window: 85 % instead.
        assert_eq!(cfg.threshold_tokens(64_000), 54_400);
        assert_eq!(cfg.threshold_tokens(80_000), 64_000);
        let capped = CompressionConfig {
            threshold_tokens_cap: Some(100_000),
            ..CompressionConfig::default()
        };
        assert_eq!(capped.threshold_tokens(256_000), 100_000);
        assert_eq!(cfg.tail_budget(256_000), 38_400);
    }

    #[test]
    fn windows_by_family() {
        assert_eq!(context_window("anthropic/claude-sonnet-4", None), 200_000);
        assert_eq!(context_window("claude-opus-4-6", None), 1_000_000);
        assert_eq!(context_window("openai/gpt-4o-mini", None), 128_000);
        assert_eq!(context_window("gpt-4.1", None), 1_047_576);
        assert_eq!(context_window("gpt-5-codex", None), 400_000);
        assert_eq!(context_window("o3-mini", None), 200_000);
        assert_eq!(context_window("google/gemini-2.5-pro", None), 1_048_576);
        assert_eq!(context_window("meta-llama/Llama-3.3-70B-Instruct", None), 131_072);
        assert_eq!(context_window("qwen/qwen3-coder", None), 262_144);
        assert_eq!(context_window("deepseek/deepseek-r1", None), 128_000);
        assert_eq!(context_window("mistral-large-latest", None), 131_072);
        assert_eq!(context_window("mock-model", None), DEFAULT_CONTEXT_WINDOW);
        assert_eq!(context_window("vendor/pro3", None), DEFAULT_CONTEXT_WINDOW);
        assert_eq!(context_window("gpt-4o", Some(50_000)), 50_000);
        assert_eq!(context_window("gpt-4o", Some(0)), 128_000);
    }
}
