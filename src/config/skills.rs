//! Skill settings from `config.yaml` (`skills.*`, Hermes' keys) that the tools need: whether
//! `skill_manage` runs the skills-guard threat scan on what the agent writes.

use serde_yaml_ng::Value;

/// The `skills:` section.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SkillsConfig {
    /// `skills.guard_agent_created` (default false, as in Hermes): scan skills the agent creates
    /// or edits and refuse the write when the scan finds something dangerous. Off by default in
    /// Hermes because the agent can run the same code through `terminal` anyway.
    pub guard_agent_created: bool,
}

impl SkillsConfig {
    /// Reads `skills.*` from a parsed `config.yaml`; a missing or odd value keeps the default.
    pub fn parse(root: &Value) -> SkillsConfig {
        let guard = root
            .get("skills")
            .and_then(|s| s.get("guard_agent_created"))
            .and_then(truthy)
            .unwrap_or(false);
        SkillsConfig {
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

    fn parse(text: &str) -> SkillsConfig {
        SkillsConfig::parse(&serde_yaml_ng::from_str(text).unwrap())
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
