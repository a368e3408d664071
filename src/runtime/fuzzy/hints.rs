//! Feedback for failed matches: where the ambiguous matches are, and on a miss up to three
//! "did you mean" snippets around the file lines most similar to old_string's first line,
//! plus a whitespace diagnosis when the best line differs only in whitespace.

use super::normalize::Lines;
use super::similarity::{length_bound, quick_bound, ratio};
use super::strategies::Span;

/// Lines of context around each snippet.
const CONTEXT_LINES: usize = 2;
/// Snippets offered at most.
const MAX_SNIPPETS: usize = 3;
/// Match locations listed at most.
const MAX_LOCATIONS: usize = 5;

/// `  L<line>: <snippet>` rows for up to five matches, then `  ... and N more`.
pub fn match_locations(content: &str, matches: &[Span]) -> String {
    let lines = Lines::new(content);
    let mut rows: Vec<String> = matches
        .iter()
        .take(MAX_LOCATIONS)
        .map(|&(start, _)| {
            let line_no = lines.line_of(start);
            let text = lines.get(line_no).trim();
            let snippet = if text.chars().count() > 80 {
                format!("{}...", text.chars().take(77).collect::<String>())
            } else {
                text.to_string()
            };
            format!("  L{}: {snippet}", line_no + 1)
        })
        .collect();
    if matches.len() > MAX_LOCATIONS {
        rows.push(format!("  ... and {} more", matches.len() - MAX_LOCATIONS));
    }
    rows.join("\n")
}

/// `"\n\nDid you mean one of these sections?\n" + snippets`, or empty when nothing is close.
pub fn did_you_mean(old: &str, content: &str) -> String {
    let hint = closest_lines(old, content);
    if hint.is_empty() {
        hint
    } else {
        format!("\n\nDid you mean one of these sections?\n{hint}")
    }
}

/// Hermes' `find_closest_lines`: anchor on old_string's first non-blank line, score every
/// non-blank file line (ratio > 0.3), keep the best three (earlier lines win ties), and show
/// each with two lines of context as `%4d| line`, snippets separated by `---`.
fn closest_lines(old: &str, content: &str) -> String {
    let old_lines: Vec<&str> = old.lines().collect();
    let content_lines: Vec<&str> = content.lines().collect();
    if old_lines.is_empty() || content_lines.is_empty() {
        return String::new();
    }
    let Some(anchor) = old_lines.iter().map(|l| l.trim()).find(|l| !l.is_empty()) else {
        return String::new();
    };
    let anchor_len = anchor.chars().count();

    // Best three as (ratio, line index), sorted by ratio descending then index ascending.
    let mut top: Vec<(f64, usize)> = Vec::with_capacity(MAX_SNIPPETS + 1);
    for (i, line) in content_lines.iter().enumerate() {
        let stripped = line.trim();
        if stripped.is_empty() {
            continue;
        }
        // A line can only enter the top three by beating the current third (ties keep the
        // earlier line), so cheap upper bounds skip most of the file.
        let floor = if top.len() == MAX_SNIPPETS {
            top[MAX_SNIPPETS - 1].0.max(0.3)
        } else {
            0.3
        };
        if length_bound(anchor_len, stripped.chars().count()) <= floor || quick_bound(anchor, stripped) <= floor {
            continue;
        }
        let score = ratio(anchor, stripped);
        if score <= floor {
            continue;
        }
        let at = top.iter().position(|&(s, _)| score > s).unwrap_or(top.len());
        top.insert(at, (score, i));
        top.truncate(MAX_SNIPPETS);
    }
    if top.is_empty() {
        return String::new();
    }

    let mut seen = Vec::new();
    let mut parts = Vec::new();
    for &(_, idx) in &top {
        let start = idx.saturating_sub(CONTEXT_LINES);
        let end = (idx + old_lines.len() + CONTEXT_LINES).min(content_lines.len());
        if seen.contains(&(start, end)) {
            continue;
        }
        seen.push((start, end));
        let snippet: Vec<String> = (start..end)
            .map(|j| format!("{:4}| {}", j + 1, content_lines[j]))
            .collect();
        parts.push(snippet.join("\n"));
    }
    let mut result = parts.join("\n---\n");

    let best = content_lines[top[0].1];
    if best.trim() == anchor && best != old_lines[0] {
        result.push_str(&format!(
            "\n\nWhitespace difference detected (→ = tab, · = space):\n  file has: {}\n  you sent: {}\nUse the exact \
             whitespace shown in 'file has'.",
            visualize_whitespace(best),
            visualize_whitespace(old_lines[0])
        ));
    }
    result
}

/// Leading whitespace made visible: `→` for a tab, `·` for a space.
fn visualize_whitespace(line: &str) -> String {
    let rest = line.trim_start_matches([' ', '\t']);
    let prefix = &line[..line.len() - rest.len()];
    prefix
        .chars()
        .map(|c| if c == '\t' { '→' } else { '·' })
        .chain(rest.chars())
        .collect()
}
