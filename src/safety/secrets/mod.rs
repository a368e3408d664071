//! The secret values the agent knows, and what children may inherit. A leaf: callers pass plain
//! names and values (from `.env`, `config.yaml` and the process environment); nothing here reads
//! files or the environment on its own except [`ChildEnv::from_process`], the fail-closed
//! default.
//!
//! - [`SecretSet`] replaces every occurrence of a known value with `[REDACTED:<NAME>]` — the
//!   value itself and the forms a command can print it in (reversed, rot13, case-folded, hex
//!   and the dump formats, base64/base64url/base32 in every alignment; `forms.rs`), split by
//!   any whitespace (`view.rs`), and fragments of at least 12 bytes' worth (a key split across
//!   two outputs, a line of a dump), in one pass over the text (`matcher.rs`).
//! - [`ChildEnv`] is the environment commands run with: ours minus credentials (see
//!   [`names::is_secret_name`]) and minus the provider keys the agent resolved, plus the
//!   `terminal.env_passthrough` names the user allowed (never a provider key, as in Hermes).

mod encode;
pub mod env;
#[cfg(test)]
pub mod fixtures;
mod forms;
mod matcher;
pub mod names;
pub mod redact;
mod view;

#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::sync::OnceLock;

pub use env::{ChildEnv, ChildEnvPolicy};
pub use forms::FRAGMENT_BYTES;
use matcher::{Matcher, Piece};
pub use names::{is_placeholder, is_secret_name};

/// The values to redact, each with the name it is reported under.
#[derive(Debug, Default)]
pub struct SecretSet {
    /// One marker per secret, in the order the matcher numbers them.
    markers: Vec<String>,
    values: Vec<String>,
    /// Built on first use, not at start: the agent answers `initialize` before any text needs
    /// redacting, and building the forms' automaton costs more than the rest of start-up.
    matcher: OnceLock<Option<Matcher>>,
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
        let (markers, values) = self
            .entries
            .into_iter()
            .map(|(name, value)| (format!("[REDACTED:{name}]"), value))
            .unzip();
        SecretSet {
            markers,
            values,
            matcher: OnceLock::new(),
        }
    }
}

impl SecretSet {
    pub fn builder() -> SecretSetBuilder {
        SecretSetBuilder::default()
    }

    /// How many distinct secret values are known.
    pub fn len(&self) -> usize {
        self.markers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.markers.is_empty()
    }

    fn matcher(&self) -> Option<&Matcher> {
        self.matcher
            .get_or_init(|| {
                let forms = (self.values.iter().enumerate())
                    .flat_map(|(index, value)| forms::forms_of(index, value))
                    .collect();
                Matcher::new(forms)
            })
            .as_ref()
    }

    /// `text` with every known value, encoded form and fragment replaced by its marker
    /// (borrowed when nothing matched). Whitespace inside a masked run goes with it.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let Some(matcher) = self.matcher() else {
            return Cow::Borrowed(text);
        };
        let pieces = matcher.find(&view::strip(text.as_bytes()));
        if pieces.is_empty() {
            return Cow::Borrowed(text);
        }
        let spans = merge(pieces);
        let mut ends: Vec<usize> = spans.iter().flat_map(|s| [s.start, s.end - 1]).collect();
        ends.sort_unstable();
        let located = view::locate(text.as_bytes(), &ends);
        let original = |view_index: usize| located[ends.binary_search(&view_index).expect("every end is located")];
        let mut out = String::with_capacity(text.len());
        let mut cursor = 0;
        for span in spans {
            // A piece may end inside a multi-byte character: the whole character goes.
            let mut start = original(span.start);
            let mut end = original(span.end - 1) + 1;
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            while !text.is_char_boundary(end) {
                end += 1;
            }
            let start = start.max(cursor);
            out.push_str(&text[cursor..start]);
            out.push_str(&self.markers[span.secret]);
            cursor = end.max(cursor);
        }
        out.push_str(&text[cursor..]);
        Cow::Owned(out)
    }

    /// Whether `text` holds any known value, encoded form or fragment.
    pub fn contains_secret(&self, text: &str) -> bool {
        self.matcher()
            .is_some_and(|m| !m.find(&view::strip(text.as_bytes())).is_empty())
    }
}

/// Overlapping pieces as one span each (touching ones stay apart: two values side by side keep
/// their own markers), named after the longest piece in it; sorted by start.
fn merge(mut pieces: Vec<Piece>) -> Vec<Piece> {
    pieces.sort_unstable_by_key(|p| (p.start, std::cmp::Reverse(p.end)));
    let mut spans: Vec<(Piece, usize)> = Vec::new();
    for piece in pieces {
        match spans.last_mut() {
            Some((span, longest)) if piece.start < span.end => {
                if piece.end - piece.start > *longest {
                    *longest = piece.end - piece.start;
                    span.secret = piece.secret;
                }
                span.end = span.end.max(piece.end);
            }
            _ => spans.push((piece, piece.end - piece.start)),
        }
    }
    spans.into_iter().map(|(span, _)| span).collect()
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
