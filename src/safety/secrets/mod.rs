//! The secret values the agent knows, and what children may inherit. A leaf: callers pass plain
//! names and values (from `.env`, `config.yaml` and the process environment); nothing here reads
//! files or the environment on its own except [`ChildEnv::from_process`], the fail-closed
//! default.
//!
//! - [`SecretSet`] replaces every occurrence of a known value with `[REDACTED:<NAME>]` in one
//!   Aho-Corasick pass, on raw text (also the JSON-escaped spelling of values that need it).
//! - [`ChildEnv`] is the environment commands run with: ours minus credentials (see
//!   [`names::is_secret_name`]) and minus the provider keys the agent resolved, plus the
//!   `terminal.env_passthrough` names the user allowed (never a provider key, as in Hermes).

pub mod env;
pub mod names;

#[cfg(test)]
mod tests;

use std::borrow::Cow;

use aho_corasick::{AhoCorasick, MatchKind};

pub use env::{ChildEnv, ChildEnvPolicy};
pub use names::{is_placeholder, is_secret_name};

/// The values to redact, each with the name it is reported under.
#[derive(Debug, Default)]
pub struct SecretSet {
    /// One marker per pattern of `matcher`, same order.
    markers: Vec<String>,
    matcher: Option<AhoCorasick>,
    /// Distinct secret values (for the length reported by `len`).
    count: usize,
}

/// Collects `(name, value)` pairs; placeholders and duplicates are dropped.
#[derive(Debug, Default)]
pub struct SecretSetBuilder {
    entries: Vec<(String, String)>,
}

impl SecretSetBuilder {
    /// A value known to be secret (a resolved provider key, a config key named like one).
    pub fn secret(mut self, name: &str, value: &str) -> Self {
        let value = value.trim();
        if !is_placeholder(value) && !self.entries.iter().any(|(_, v)| v == value) {
            self.entries.push((marker_name(name), value.to_string()));
        }
        self
    }

    /// An environment variable: kept only when its name looks like a credential.
    pub fn env_var(self, name: &str, value: &str) -> Self {
        if is_secret_name(name) {
            self.secret(name, value)
        } else {
            self
        }
    }

    /// Every secret-named variable of `vars`.
    pub fn env_vars<K: AsRef<str>, V: AsRef<str>>(self, vars: impl IntoIterator<Item = (K, V)>) -> Self {
        vars.into_iter()
            .fold(self, |set, (k, v)| set.env_var(k.as_ref(), v.as_ref()))
    }

    pub fn build(self) -> SecretSet {
        let count = self.entries.len();
        let mut patterns = Vec::with_capacity(count);
        let mut markers = Vec::with_capacity(count);
        for (name, value) in self.entries {
            let marker = format!("[REDACTED:{name}]");
            // The spelling inside JSON text, for callers that only have the encoded form.
            let escaped = serde_json::to_string(&value).unwrap_or_default();
            let escaped = escaped.trim_matches('"');
            if escaped != value {
                patterns.push(escaped.to_string());
                markers.push(marker.clone());
            }
            patterns.push(value);
            markers.push(marker);
        }
        let matcher = (!patterns.is_empty()).then(|| {
            AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostLongest)
                .build(&patterns)
                .expect("literal patterns always build")
        });
        SecretSet {
            markers,
            matcher,
            count,
        }
    }
}

impl SecretSet {
    pub fn builder() -> SecretSetBuilder {
        SecretSetBuilder::default()
    }

    /// How many distinct secret values are known.
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// `text` with every known value replaced by its marker (borrowed when nothing matched).
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let Some(matcher) = &self.matcher else {
            return Cow::Borrowed(text);
        };
        let mut matches = matcher.find_iter(text).peekable();
        if matches.peek().is_none() {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        let mut cursor = 0;
        for m in matches {
            out.push_str(&text[cursor..m.start()]);
            out.push_str(&self.markers[m.pattern().as_usize()]);
            cursor = m.end();
        }
        out.push_str(&text[cursor..]);
        Cow::Owned(out)
    }

    /// Whether `text` holds any known value.
    pub fn contains_secret(&self, text: &str) -> bool {
        self.matcher.as_ref().is_some_and(|m| m.is_match(text))
    }
}

/// Marker names are upper-case words: `model.api_key` → `MODEL_API_KEY`.
fn marker_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    let trimmed = cleaned.trim_matches('_');
    if trimmed.is_empty() {
        "SECRET".to_string()
    } else {
        trimmed.to_string()
    }
}
