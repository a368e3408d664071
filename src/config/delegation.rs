//! Subagent settings from `config.yaml` (`delegation.*`, Hermes' keys): how many children run
//! at once, how deep delegation may nest, each child's iteration budget and the orchestrator
//! kill switch. Read tolerantly (the file is shared with Hermes): a bad value keeps the default.

use crate::tools::delegate::DelegationSettings;
use serde_yaml_ng::Value;

impl DelegationSettings {
    /// Reads `delegation.*` from a parsed `config.yaml`; missing or malformed keys keep their
    /// defaults, values below the floor of 1 are raised to it.
    pub fn parse(root: &Value) -> DelegationSettings {
        let mut cfg = DelegationSettings::default();
        let section = root.get("delegation");
        let get = |key: &str| section.and_then(|s| s.get(key));
        if let Some(n) = get("max_concurrent_children").and_then(as_u64) {
            cfg.max_concurrent_children = n.clamp(1, 1_000) as usize;
        }
        if let Some(n) = get("max_spawn_depth").and_then(as_u64) {
            cfg.max_spawn_depth = n.clamp(1, 100) as u32;
        }
        if let Some(n) = get("max_iterations").and_then(as_u64) {
            cfg.max_iterations = n.clamp(1, 10_000) as u32;
        }
        if let Some(enabled) = get("orchestrator_enabled").and_then(super::compaction::as_bool) {
            cfg.orchestrator_enabled = enabled;
        }
        cfg.reasoning_effort = super::file::reasoning_effort(get("reasoning_effort"));
        cfg
    }
}

fn as_u64(value: &Value) -> Option<u64> {
    match value {
        Value::Number(n) => n.as_i64().map(|n| n.max(0) as u64),
        Value::String(s) => s.trim().parse::<i64>().ok().map(|n| n.max(0) as u64),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::delegate::DEFAULT_MAX_ITERATIONS;

    fn parse(text: &str) -> DelegationSettings {
        DelegationSettings::parse(&serde_yaml_ng::from_str::<Value>(text).unwrap())
    }

    #[test]
    fn defaults_and_overrides() {
        assert_eq!(parse("model: x"), DelegationSettings::default());
        let cfg = parse(
            "delegation:\n  max_concurrent_children: 5\n  max_spawn_depth: 2\n  max_iterations: 7\n  orchestrator_enabled: false\n",
        );
        assert_eq!(cfg.max_concurrent_children, 5);
        assert_eq!(cfg.max_spawn_depth, 2);
        assert_eq!(cfg.max_iterations, 7);
        assert!(!cfg.orchestrator_enabled);
        assert_eq!(cfg.reasoning_effort, None, "children inherit the parent's level");
        let cfg = parse("delegation:\n  reasoning_effort: low\n");
        assert_eq!(cfg.reasoning_effort, Some(crate::llm::effort::Effort::Low));
    }

    #[test]
    fn floors_and_bad_values() {
        let cfg = parse("delegation:\n  max_concurrent_children: 0\n  max_spawn_depth: -3\n  max_iterations: many\n");
        assert_eq!(cfg.max_concurrent_children, 1);
        assert_eq!(cfg.max_spawn_depth, 1);
        assert_eq!(cfg.max_iterations, DEFAULT_MAX_ITERATIONS);
    }
}
