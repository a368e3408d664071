//! Hermes' fuzzy find-and-replace (`tools/fuzzy_match.py`): nine strategies tried in order,
//! the first with any match wins; a unique match is required unless `replace_all`. Non-exact
//! matches get new_string repaired (escape drift refused, indentation shifted, the file's
//! Unicode kept). The exact strategy is a plain substring search, so a unique exact match in a
//! large file never splits it into lines.

mod hints;
mod normalize;
mod repair;
mod similarity;
mod strategies;

pub use hints::did_you_mean;

use strategies::{Haystack, Span};

/// The error of a miss; the tool appends "did you mean" snippets to exactly this.
pub const NO_MATCH: &str = "Could not find a match for old_string in the file";

/// A matching strategy, in the order they are tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    Exact,
    LineTrimmed,
    WhitespaceNormalized,
    IndentationFlexible,
    EscapeNormalized,
    TrimmedBoundary,
    UnicodeNormalized,
    BlockAnchor,
    ContextAware,
}

impl Strategy {
    pub const ALL: [Strategy; 9] = [
        Strategy::Exact,
        Strategy::LineTrimmed,
        Strategy::WhitespaceNormalized,
        Strategy::IndentationFlexible,
        Strategy::EscapeNormalized,
        Strategy::TrimmedBoundary,
        Strategy::UnicodeNormalized,
        Strategy::BlockAnchor,
        Strategy::ContextAware,
    ];

    /// Hermes' strategy name.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Exact => "exact",
            Strategy::LineTrimmed => "line_trimmed",
            Strategy::WhitespaceNormalized => "whitespace_normalized",
            Strategy::IndentationFlexible => "indentation_flexible",
            Strategy::EscapeNormalized => "escape_normalized",
            Strategy::TrimmedBoundary => "trimmed_boundary",
            Strategy::UnicodeNormalized => "unicode_normalized",
            Strategy::BlockAnchor => "block_anchor",
            Strategy::ContextAware => "context_aware",
        }
    }

    /// Matches that only resemble old_string (never applied many at once).
    fn is_similarity(self) -> bool {
        matches!(self, Strategy::BlockAnchor | Strategy::ContextAware)
    }

    fn find(self, hay: &Haystack, pattern: &str) -> Vec<Span> {
        match self {
            Strategy::Exact => strategies::exact(hay.content, pattern),
            Strategy::LineTrimmed => strategies::line_trimmed(hay, pattern),
            Strategy::WhitespaceNormalized => strategies::whitespace_normalized(hay, pattern),
            Strategy::IndentationFlexible => strategies::indentation_flexible(hay, pattern),
            Strategy::EscapeNormalized => strategies::escape_normalized(hay, pattern),
            Strategy::TrimmedBoundary => strategies::trimmed_boundary(hay, pattern),
            Strategy::UnicodeNormalized => strategies::unicode_normalized(hay, pattern),
            Strategy::BlockAnchor => strategies::block_anchor(hay, pattern),
            Strategy::ContextAware => strategies::context_aware(hay, pattern),
        }
    }
}

/// A successful replacement.
#[derive(Debug, Clone, PartialEq)]
pub struct Replacement {
    pub content: String,
    pub count: usize,
    pub strategy: Strategy,
}

/// Finds old_string in content with the strategy chain and replaces it (every occurrence with
/// `replace_all`). Errors carry Hermes' messages; a miss is exactly [`NO_MATCH`].
pub fn find_and_replace(content: &str, old: &str, new: &str, replace_all: bool) -> Result<Replacement, String> {
    if old.is_empty() {
        return Err("old_string cannot be empty".to_string());
    }
    if old == new {
        return Err("old_string and new_string are identical".to_string());
    }
    let hay = Haystack::new(content);
    for strategy in Strategy::ALL {
        let mut matches = strategy.find(&hay, old);
        if matches.is_empty() {
            continue;
        }
        if matches.len() > 1 && !replace_all {
            return Err(format!(
                "Found {} matches for old_string. Provide more context to make it unique, or use replace_all=True. \
                 Matches:\n{}",
                matches.len(),
                hints::match_locations(content, &matches)
            ));
        }
        if matches.len() > 1 && strategy.is_similarity() {
            return Err(format!(
                "Found {} approximate matches via the '{}' strategy; replace_all only applies to exact matches. \
                 Provide the precise text (whitespace included) so an exact/line-trimmed match can be made.",
                matches.len(),
                strategy.name()
            ));
        }
        drop_overlaps(&mut matches);
        if strategy != Strategy::Exact
            && let Some(error) = repair::escape_drift(content, &matches, old, new)
        {
            return Err(error);
        }
        let new = repair::unescape_where_file_has(new, content, &matches);
        let content = apply(content, &matches, old, &new, strategy);
        return Ok(Replacement {
            content,
            count: matches.len(),
            strategy,
        });
    }
    Err(NO_MATCH.to_string())
}

/// Line-window strategies can report overlapping windows ("a\na" in "a\na\na"); replacing all
/// of them would splice stale offsets, so keep the first of each overlapping run.
fn drop_overlaps(matches: &mut Vec<Span>) {
    let mut end = 0;
    let mut first = true;
    matches.retain(|&(s, e)| {
        let keep = first || s >= end;
        if keep {
            end = e;
            first = false;
        }
        keep
    });
}

/// Splices the replacements in one pass (matches are sorted and disjoint).
fn apply(content: &str, matches: &[Span], old: &str, new: &str, strategy: Strategy) -> String {
    let mut out = String::with_capacity(content.len() + new.len() * matches.len());
    let mut cursor = 0;
    for &(start, end) in matches {
        out.push_str(&content[cursor..start]);
        let region = &content[start..end];
        let mut replacement = if strategy == Strategy::UnicodeNormalized {
            repair::preserve_unicode(region, old, new)
        } else {
            new.to_string()
        };
        if strategy != Strategy::Exact {
            replacement = repair::reindent(region, old, &replacement);
        }
        out.push_str(&replacement);
        cursor = end;
    }
    out.push_str(&content[cursor..]);
    out
}

#[cfg(test)]
mod tests;
