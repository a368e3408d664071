//! Rule patterns: the program and subcommand words a remembered "always allow" names
//! (`cargo test`, `npm run build`, `python3 x.py`). A pattern covers a simple command whose
//! decoded argv starts with exactly those words; it is shown (and stored) as the words,
//! shell-quoted where needed, followed by ` …`.

use std::fmt;

/// The words a rule names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RulePattern(Vec<String>);

/// What ends a pattern's text: the pattern covers any arguments after its words.
pub const ELLIPSIS: &str = " …";

impl RulePattern {
    pub fn new(words: Vec<String>) -> Self {
        RulePattern(words)
    }

    pub fn words(&self) -> &[String] {
        &self.0
    }

    /// Whether a simple command's argv starts with this pattern's words.
    pub fn covers(&self, argv: &[String]) -> bool {
        !self.0.is_empty() && argv.starts_with(&self.0)
    }

    /// Reads a pattern from its text (`cargo test …`); `None` when the text is not one.
    pub fn parse(text: &str) -> Option<RulePattern> {
        let words = super::split::words(text.strip_suffix(ELLIPSIS)?)?;
        (!words.is_empty()).then_some(RulePattern(words))
    }
}

/// A word as the shell would need it: bare when plain, else single-quoted.
fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=+,@%^".contains(c));
    match plain {
        true => word.to_owned(),
        false => format!("'{}'", word.replace('\'', "'\\''")),
    }
}

impl fmt::Display for RulePattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self.0.iter().map(|w| quote(w)).collect();
        write!(f, "{}{ELLIPSIS}", words.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(words: &[&str]) -> RulePattern {
        RulePattern::new(words.iter().map(|w| (*w).to_owned()).collect())
    }

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn patterns_cover_what_they_name_and_round_trip() {
        let pattern = p(&["cargo", "test"]);
        assert!(pattern.covers(&argv(&["cargo", "test", "--lib"])));
        assert!(pattern.covers(&argv(&["cargo", "test"])));
        assert!(!pattern.covers(&argv(&["cargo", "testx"])));
        assert!(!pattern.covers(&argv(&["cargo"])));
        assert!(!pattern.covers(&argv(&["/tmp/cargo", "test"])));
        assert_eq!(pattern.to_string(), "cargo test …");
        let odd = p(&["python3", "my script.py"]);
        assert_eq!(odd.to_string(), "python3 'my script.py' …");
        assert_eq!(RulePattern::parse(&odd.to_string()), Some(odd));
        assert_eq!(RulePattern::parse("cargo test"), None);
        assert_eq!(RulePattern::parse("a; b …"), None);
    }
}
