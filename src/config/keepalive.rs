//! `acp.keepalive_interval_s` (Hermes' key): how long a running turn may leave stdout silent
//! before the agent sends an empty `agent_message_chunk`, so clients that end an agent after a
//! period without traffic (VS Code's ACP client) do not kill it during a quiet build. Default
//! 45 s as in Hermes; `0` or a negative number turns it off; anything else that is not a
//! finite number (a boolean, text, `.nan`, `.inf`) is ignored with a warning.

use std::time::Duration;

use serde_yaml_ng::Value;

/// Hermes' default interval.
pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(45);

/// The keepalive setting: `None` when turned off.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Keepalive {
    pub interval: Option<Duration>,
}

impl Default for Keepalive {
    fn default() -> Self {
        Keepalive {
            interval: Some(DEFAULT_INTERVAL),
        }
    }
}

impl Keepalive {
    pub(super) fn parse(root: &Value) -> Keepalive {
        let Some(value) = root.get("acp").and_then(|a| a.get("keepalive_interval_s")) else {
            return Keepalive::default();
        };
        // A YAML boolean is not a number of seconds (Hermes refuses it too).
        let seconds = match value {
            Value::Number(n) => n.as_f64(),
            _ => None,
        };
        match seconds {
            Some(s) if s.is_finite() && s <= 0.0 => Keepalive { interval: None },
            Some(s) => match crate::duration::positive_seconds(s, crate::duration::MAX_SETTING) {
                Ok(interval) => Keepalive {
                    interval: Some(interval),
                },
                Err(e) => {
                    tracing::warn!(error = %e, "acp.keepalive_interval_s in config.yaml ignored");
                    Keepalive::default()
                }
            },
            None => {
                tracing::warn!(value = ?value, "acp.keepalive_interval_s in config.yaml is not a number; ignored");
                Keepalive::default()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(yaml: &str) -> Option<Duration> {
        Keepalive::parse(&serde_yaml_ng::from_str(yaml).unwrap()).interval
    }

    #[test]
    fn default_off_short_and_hostile_values() {
        assert_eq!(parse("model: x"), Some(DEFAULT_INTERVAL));
        assert_eq!(parse("acp: {keepalive_interval_s: 0}"), None);
        assert_eq!(parse("acp: {keepalive_interval_s: -3}"), None);
        assert_eq!(
            parse("acp: {keepalive_interval_s: 0.25}"),
            Some(Duration::from_millis(250))
        );
        assert_eq!(parse("acp: {keepalive_interval_s: true}"), Some(DEFAULT_INTERVAL));
        assert_eq!(parse("acp: {keepalive_interval_s: .nan}"), Some(DEFAULT_INTERVAL));
        assert_eq!(parse("acp: {keepalive_interval_s: .inf}"), Some(DEFAULT_INTERVAL));
        assert_eq!(parse("acp: {keepalive_interval_s: 1e12}"), Some(DEFAULT_INTERVAL));
    }
}
