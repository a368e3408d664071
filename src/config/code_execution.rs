//! `execute_code` limits from `config.yaml` (`code_execution.timeout`,
//! `code_execution.max_tool_calls`, Hermes' keys), read tolerantly: a missing or malformed
//! value keeps Hermes' default (5 minutes, 50 tool calls).

use crate::tools::execute_code::CodeExecutionSettings;
use serde_yaml_ng::Value;

impl CodeExecutionSettings {
    /// Reads the `code_execution` section of a parsed `config.yaml`.
    pub fn parse(root: &Value) -> CodeExecutionSettings {
        let mut cfg = CodeExecutionSettings::default();
        let section = root.get("code_execution");
        let get = |key: &str| section.and_then(|s| s.get(key));
        let seconds = get("timeout").and_then(|v| v.as_f64().or_else(|| v.as_str()?.trim().parse().ok()));
        if let Some(timeout) =
            seconds.and_then(|s| crate::duration::positive_seconds(s, crate::duration::MAX_SETTING).ok())
        {
            cfg.timeout = timeout;
        }
        let calls = get("max_tool_calls").and_then(|v| v.as_u64().or_else(|| v.as_str()?.trim().parse().ok()));
        if let Some(calls) = calls {
            // Zero would make the tool useless; a huge number is no limit at all.
            cfg.max_tool_calls = calls.clamp(1, 10_000) as usize;
        }
        cfg
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn parse(text: &str) -> CodeExecutionSettings {
        CodeExecutionSettings::parse(&serde_yaml_ng::from_str(text).unwrap())
    }

    #[test]
    fn hermes_keys_with_defaults_for_anything_unusable() {
        assert_eq!(parse("model: {}"), CodeExecutionSettings::default());
        let cfg = parse("code_execution:\n  timeout: 2\n  max_tool_calls: 3\n");
        assert_eq!((cfg.timeout, cfg.max_tool_calls), (Duration::from_secs(2), 3));
        let cfg = parse("code_execution:\n  timeout: -1\n  max_tool_calls: nope\n");
        assert_eq!(cfg, CodeExecutionSettings::default());
        assert_eq!(parse("code_execution:\n  max_tool_calls: 0\n").max_tool_calls, 1);
        assert_eq!(
            parse("code_execution:\n  timeout: '1.5'\n").timeout,
            Duration::from_millis(1500)
        );
    }
}
