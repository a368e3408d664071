//! Compaction settings from `config.yaml` (`compression.*`, `auxiliary.compaction.model`),
//! parsed with the rest of the file, and the token threshold derived from them and a context
//! window, computed the way Hermes computes it.

use serde_yaml_ng::Value;

use crate::agent::compaction::CompactionPolicy;

impl CompactionPolicy {
    /// Reads the compaction keys (`compression.*`, Hermes' name) from a parsed `config.yaml`; missing or malformed keys keep
    /// their defaults (the file is shared with Hermes, so it is read tolerantly).
    pub fn parse(root: &Value) -> CompactionPolicy {
        let mut cfg = CompactionPolicy::default();
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
    pub fn from_yaml_text(text: &str) -> CompactionPolicy {
        match serde_yaml_ng::from_str::<Value>(text) {
            Ok(root) => CompactionPolicy::parse(&root),
            Err(_) => CompactionPolicy::default(),
        }
    }
}

/// A YAML flag as Hermes reads one: a boolean, `yes`/`no`/`on`/`off`/`1`/`0`, or a number.
pub(super) fn as_bool(value: &Value) -> Option<bool> {
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
        assert_eq!(CompactionPolicy::from_yaml_text(""), CompactionPolicy::default());
        let cfg = CompactionPolicy::from_yaml_text(
            "compression:\n  enabled: off\n  threshold: 0.6\n  target_ratio: 0.3\n  protect_last_n: 12\n  threshold_tokens: 90000\nauxiliary:\n  compression:\n    model: cheap-model\n",
        );
        assert!(!cfg.enabled);
        assert_eq!(cfg.threshold_ratio, 0.6);
        assert_eq!(cfg.target_ratio, 0.3);
        assert_eq!(cfg.protect_last_n, 12);
        assert_eq!(cfg.threshold_tokens_cap, Some(90_000));
        assert_eq!(cfg.summary_model.as_deref(), Some("cheap-model"));
        let pct = CompactionPolicy::from_yaml_text("compression:\n  threshold: \"80%\"\n  enabled: nonsense\n");
        assert_eq!(pct.threshold_ratio, 0.8);
        assert!(pct.enabled);
        let auto = CompactionPolicy::from_yaml_text("auxiliary:\n  compression:\n    model: auto\n");
        assert_eq!(auto.summary_model, None);
    }

    #[test]
    fn threshold_follows_hermes() {
        let cfg = CompactionPolicy::default();
        // Observed in Hermes: unknown model → 256,000 window, 192,000 threshold (75 %).
        assert_eq!(cfg.threshold_tokens(256_000), 192_000);
        assert_eq!(cfg.threshold_tokens(1_000_000), 500_000);
        // The 64K floor would be the whole window: 85 % instead.
        assert_eq!(cfg.threshold_tokens(64_000), 54_400);
        assert_eq!(cfg.threshold_tokens(80_000), 64_000);
        let capped = CompactionPolicy {
            threshold_tokens_cap: Some(100_000),
            ..CompactionPolicy::default()
        };
        assert_eq!(capped.threshold_tokens(256_000), 100_000);
        assert_eq!(cfg.tail_budget(256_000), 38_400);
    }
}
