//! Compaction settings from `config.yaml` (`compression.*`, `auxiliary.compaction.model`),
//! parsed with the rest of the file, and the token threshold derived from them and a context
//! window, computed the way Hermes computes it.

use serde_yaml_ng::Value;

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
pub struct CompactionConfig {
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
    /// `auxiliary.compaction.model` (or `compression.summary_model`): the model that writes
    /// summaries; the session's model when unset. Same provider either way.
    pub summary_model: Option<String>,
}

impl Default for CompactionConfig {
    fn default() -> CompactionConfig {
        CompactionConfig {
            enabled: true,
            threshold_ratio: 0.50,
            target_ratio: 0.20,
            protect_last_n: 20,
            threshold_tokens_cap: None,
            summary_model: None,
        }
    }
}

impl CompactionConfig {
    /// Reads the compaction keys (`compression.*`, Hermes' name) from a parsed `config.yaml`; missing or malformed keys keep
    /// their defaults (the file is shared with Hermes, so it is read tolerantly).
    pub fn parse(root: &Value) -> CompactionConfig {
        let mut cfg = CompactionConfig::default();
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
    pub fn from_yaml_text(text: &str) -> CompactionConfig {
        match serde_yaml_ng::from_str::<Value>(text) {
            Ok(root) => CompactionConfig::parse(&root),
            Err(_) => CompactionConfig::default(),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_parse() {
        assert_eq!(CompactionConfig::from_yaml_text(""), CompactionConfig::default());
        let cfg = CompactionConfig::from_yaml_text(
            "compression:\n  enabled: off\n  threshold: 0.6\n  target_ratio: 0.3\n  protect_last_n: 12\n  threshold_tokens: 90000\nauxiliary:\n  compression:\n    model: cheap-model\n",
        );
        assert!(!cfg.enabled);
        assert_eq!(cfg.threshold_ratio, 0.6);
        assert_eq!(cfg.target_ratio, 0.3);
        assert_eq!(cfg.protect_last_n, 12);
        assert_eq!(cfg.threshold_tokens_cap, Some(90_000));
        assert_eq!(cfg.summary_model.as_deref(), Some("cheap-model"));
        let pct = CompactionConfig::from_yaml_text("compression:\n  threshold: \"80%\"\n  enabled: nonsense\n");
        assert_eq!(pct.threshold_ratio, 0.8);
        assert!(pct.enabled);
        let auto = CompactionConfig::from_yaml_text("auxiliary:\n  compression:\n    model: auto\n");
        assert_eq!(auto.summary_model, None);
    }

    #[test]
    fn threshold_follows_hermes() {
        let cfg = CompactionConfig::default();
        // Observed in Hermes: unknown model → 256,000 window, 192,000 threshold (75 %).
        assert_eq!(cfg.threshold_tokens(256_000), 192_000);
        assert_eq!(cfg.threshold_tokens(1_000_000), 500_000);
        // The 64K floor would be the whole window: 85 % instead.
        assert_eq!(cfg.threshold_tokens(64_000), 54_400);
        assert_eq!(cfg.threshold_tokens(80_000), 64_000);
        let capped = CompactionConfig {
            threshold_tokens_cap: Some(100_000),
            ..CompactionConfig::default()
        };
        assert_eq!(capped.threshold_tokens(256_000), 100_000);
        assert_eq!(cfg.tail_budget(256_000), 38_400);
    }
}
