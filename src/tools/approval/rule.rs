//! One catalogue entry: a description (which is also the approval key) and how it matches.
//! Every regex is case-insensitive and dot-matches-newline, as in Hermes, and is compiled once.

use regex::{Regex, RegexBuilder};

/// How a rule recognises a command variant.
pub enum Check {
    Re(Regex),
    /// For the few rules that need look-around, which the `regex` crate does not offer.
    Custom(fn(&str) -> bool),
}

pub struct Rule {
    pub description: &'static str,
    pub check: Check,
    /// Matched against the quote-masked text: a rule with no command word to anchor on
    /// (`> /dev/sda`, the fork bomb) must not fire on quoted prose such as `echo "… > /dev/sda"`.
    pub quote_masked: bool,
}

impl Rule {
    pub fn matches(&self, text: &str) -> bool {
        match &self.check {
            Check::Re(re) => re.is_match(text),
            Check::Custom(f) => f(text),
        }
    }
}

/// Compiles a catalogue regex. The patterns are static, so a failure is a programming error
/// caught by the catalogue tests.
pub fn compile(pattern: &str) -> Regex {
    RegexBuilder::new(pattern)
        .case_insensitive(true)
        .dot_matches_new_line(true)
        .size_limit(1 << 24)
        .build()
        .unwrap_or_else(|e| panic!("invalid approval pattern {pattern:?}: {e}"))
}

pub fn re(description: &'static str, pattern: &str) -> Rule {
    Rule {
        description,
        check: Check::Re(compile(pattern)),
        quote_masked: false,
    }
}

pub fn masked(description: &'static str, pattern: &str) -> Rule {
    Rule {
        description,
        check: Check::Re(compile(pattern)),
        quote_masked: true,
    }
}

pub fn custom(description: &'static str, f: fn(&str) -> bool) -> Rule {
    Rule {
        description,
        check: Check::Custom(f),
        quote_masked: false,
    }
}
