//! Skill settings from `config.yaml` (`skills.*`, Hermes' keys) that the tools need: whether
//! `skill_manage` runs the skills-guard threat scan on what the agent writes.

use crate::tools::skills::manage::SkillsSettings;
use serde_yaml_ng::Value;

impl SkillsSettings {
    /// Reads `skills.*` from a parsed `config.yaml`; a missing or odd value keeps the default.
    pub fn parse(root: &Value) -> SkillsSettings {
        let guard = root
            .get("skills")
            .and_then(|s| s.get("guard_agent_created"))
            .and_then(truthy)
            .unwrap_or(false);
        SkillsSettings {
            guard_agent_created: guard,
        }
    }
}

/// Hermes' `is_truthy_value`: a boolean, a non-zero number, or one of its truthy words (any
/// other string is false).
fn truthy(value: &Value) -> Option<bool> {
    match value {
        Value::Null => None,
        Value::Bool(b) => Some(*b),
        Value::Number(n) => Some(n.as_f64().is_some_and(|n| n != 0.0)),
        Value::String(s) => Some(matches!(
            s.trim().to_ascii_lowercase().as_str(),
            "1" | "true" | "yes" | "on"
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> SkillsSettings {
        SkillsSettings::parse(&serde_yaml_ng::from_str(text).unwrap())
    }

    #[test]
    fn the_guard_is_off_unless_turned_on() {
        assert!(!parse("model: x").guard_agent_created);
        assert!(!parse("skills:\n  guard_agent_created: false").guard_agent_created);
        assert!(parse("skills:\n  guard_agent_created: true").guard_agent_created);
        assert!(parse("skills:\n  guard_agent_created: 'yes'").guard_agent_created);
        assert!(!parse("skills:\n  guard_agent_created: maybe").guard_agent_created);
    }
}
