//! Remembered rules as the store keeps them: one key string per rule. An exact rule is the
//! command text (as before), marked `[unsandboxed] ` and/or `[network] ` when the call carried
//! those flags; a prefix rule is a pattern's text ending in ` …` (`cargo test …`), marked
//! `[network] ` when it grants the network. Old exact-command keys read as exact rules.

use crate::safety::command::{CommandAssessment, RulePattern};

const UNSANDBOXED: &str = "[unsandboxed] ";
const NETWORK: &str = "[network] ";

/// "Always allow `cargo test …`", with or without the network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrefixRule {
    pub pattern: RulePattern,
    /// Commands it covers may use the network.
    pub network: bool,
}

impl PrefixRule {
    /// The key the store holds.
    pub fn key(&self) -> String {
        let marker = if self.network { NETWORK } else { "" };
        format!("{marker}{}", self.pattern)
    }
}

/// A remembered rule, read from its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleKey {
    /// Exactly this command text, with these flags.
    Exact {
        command: String,
        unsandboxed: bool,
        network: bool,
    },
    Prefix(PrefixRule),
}

impl RuleKey {
    pub fn parse(key: &str) -> RuleKey {
        let (mut rest, mut unsandboxed, mut network) = (key, false, false);
        loop {
            if let Some(r) = rest.strip_prefix(UNSANDBOXED) {
                (rest, unsandboxed) = (r, true);
            } else if let Some(r) = rest.strip_prefix(NETWORK) {
                (rest, network) = (r, true);
            } else {
                break;
            }
        }
        match RulePattern::parse(rest).filter(|_| !unsandboxed) {
            Some(pattern) => RuleKey::Prefix(PrefixRule { pattern, network }),
            None => RuleKey::Exact {
                command: rest.to_owned(),
                unsandboxed,
                network,
            },
        }
    }
}

/// The key of an exact rule for this command and these flags.
pub fn exact_key(command: &str, unsandboxed: bool, network: bool) -> String {
    let mut key = String::new();
    if unsandboxed {
        key.push_str(UNSANDBOXED);
    }
    if network {
        key.push_str(NETWORK);
    }
    key.push_str(command);
    key
}

/// Whether the rules cover every simple command of the line that is not harmless.
pub(super) fn cover_unvetted(assessment: &CommandAssessment, rules: &[PrefixRule]) -> bool {
    assessment
        .rule_targets
        .iter()
        .filter(|t| !t.harmless)
        .all(|t| rules.iter().any(|r| r.pattern.covers(&t.argv)))
}

/// Whether rules granting the network cover every simple command that needs it; with
/// `requested` (the model asked for the network), every rule target, and there is one.
pub(super) fn cover_network(assessment: &CommandAssessment, rules: &[PrefixRule], requested: bool) -> bool {
    let covered = |argv: &[String]| rules.iter().any(|r| r.network && r.pattern.covers(argv));
    let targets = &assessment.rule_targets;
    if requested {
        return !targets.is_empty() && targets.iter().all(|t| covered(&t.argv));
    }
    targets.iter().filter(|t| t.network.is_some()).all(|t| covered(&t.argv))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_old_keys_stay_exact() {
        assert_eq!(
            RuleKey::parse("rm -rf build"),
            RuleKey::Exact {
                command: "rm -rf build".into(),
                unsandboxed: false,
                network: false
            }
        );
        assert_eq!(
            RuleKey::parse("[unsandboxed] make install"),
            RuleKey::Exact {
                command: "make install".into(),
                unsandboxed: true,
                network: false
            }
        );
        let rule = PrefixRule {
            pattern: RulePattern::new(vec!["cargo".into(), "build".into()]),
            network: true,
        };
        assert_eq!(rule.key(), "[network] cargo build …");
        assert_eq!(RuleKey::parse(&rule.key()), RuleKey::Prefix(rule));
        assert_eq!(exact_key("curl x", true, true), "[unsandboxed] [network] curl x");
        // A pattern is never an unsandboxed rule: that stays exact.
        assert!(matches!(
            RuleKey::parse("[unsandboxed] cargo test …"),
            RuleKey::Exact { .. }
        ));
    }
}
