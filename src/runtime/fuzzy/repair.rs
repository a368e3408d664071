//! Fix-ups applied to new_string after a match, as Hermes does: refuse tool-call escape drift
//! (`\'` / `\"` the file does not have), turn `\t` / `\r` into real characters where the file has
//! them, re-indent to the file's indentation after a non-exact match, and keep the file's
//! Unicode characters when the match needed Unicode normalisation.

use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::normalize::{NormText, normalize_unicode};
use super::strategies::Span;

/// `Some(error)` when `\'` or `\"` appears in both strings but not in the matched file text.
pub fn escape_drift(content: &str, matches: &[Span], old: &str, new: &str) -> Option<String> {
    if !new.contains("\\'") && !new.contains("\\\"") {
        return None;
    }
    let in_file = |suspect: &str| matches.iter().any(|&(s, e)| content[s..e].contains(suspect));
    // (sequence, its Python repr, the plain character's repr) as Hermes prints them.
    for (suspect, shown, plain) in [("\\'", "\"\\\\'\"", "\"'\""), ("\\\"", "'\\\\\"'", "'\"'")] {
        if new.contains(suspect) && old.contains(suspect) && !in_file(suspect) {
            return Some(format!(
                "Escape-drift detected: old_string and new_string contain the literal sequence {shown} but the \
                 matched region of the file does not. This is almost always a tool-call serialization artifact \
                 where an apostrophe or quote got prefixed with a spurious backslash. Re-read the file with \
                 read_file and pass old_string/new_string without backslash-escaping {plain} characters."
            ));
        }
    }
    None
}

/// Turns `\t` / `\r` sequences in new_string into real tab / CR, each only when the matched
/// file text contains that real character (`\n` is never touched).
pub fn unescape_where_file_has(new: &str, content: &str, matches: &[Span]) -> String {
    let has = |c: char| matches.iter().any(|&(s, e)| content[s..e].contains(c));
    let mut out = new.to_string();
    if out.contains("\\t") && has('\t') {
        out = out.replace("\\t", "\t");
    }
    if out.contains("\\r") && has('\r') {
        out = out.replace("\\r", "\r");
    }
    out
}

fn leading_whitespace(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

fn first_meaningful_line(text: &str) -> Option<&str> {
    text.split('\n').find(|l| !l.trim().is_empty())
}

/// Shifts new_string from old_string's base indentation to the file region's: each line's
/// old base prefix is swapped for the file's; shallower lines are anchored at the file's base.
pub fn reindent(region: &str, old: &str, new: &str) -> String {
    if new.is_empty() {
        return String::new();
    }
    let (Some(old_first), Some(file_first)) = (first_meaningful_line(old), first_meaningful_line(region)) else {
        return new.to_string();
    };
    let (old_indent, file_indent) = (leading_whitespace(old_first), leading_whitespace(file_first));
    if old_indent == file_indent {
        return new.to_string();
    }
    let lines: Vec<String> = new
        .split('\n')
        .map(|line| {
            if line.trim().is_empty() {
                line.to_string()
            } else if let Some(rest) = line.strip_prefix(old_indent) {
                format!("{file_indent}{rest}")
            } else {
                format!("{file_indent}{}", line.trim_start_matches([' ', '\t']))
            }
        })
        .collect();
    lines.join("\n")
}

/// After a Unicode-normalised match: applies only the edits old_string → new_string to the
/// file's own text, so unchanged spans keep their em dashes and smart quotes.
pub fn preserve_unicode(region: &str, old: &str, new: &str) -> String {
    let norm_old = normalize_unicode(old);
    let norm_region = NormText::new(region);
    if norm_region.text != norm_old {
        return new.to_string();
    }
    // Char-level edit script on the normalised text, then spans mapped back to the region.
    let old_chars: Vec<char> = norm_old.chars().collect();
    let new_chars: Vec<char> = new.chars().collect();
    let old_offsets: Vec<usize> = norm_old
        .char_indices()
        .map(|(i, _)| i)
        .chain([norm_old.len()])
        .collect();
    let mut out = String::with_capacity(region.len());
    for op in capture_diff_slices(Algorithm::Myers, &old_chars, &new_chars) {
        match op {
            DiffOp::Equal { old_index, len, .. } => {
                let start = norm_region.orig_floor(old_offsets[old_index]);
                let end = norm_region.orig_end(old_offsets[old_index + len]);
                if start < end {
                    out.push_str(&region[start..end]);
                }
            }
            DiffOp::Delete { .. } => {}
            DiffOp::Insert { new_index, new_len, .. } | DiffOp::Replace { new_index, new_len, .. } => {
                out.extend(&new_chars[new_index..new_index + new_len]);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reindent_moves_lines_to_the_file_base() {
        let region = "        if x:\n            y()";
        assert_eq!(
            reindent(region, "if x:\n    y()", "if x:\n    z()\nw()"),
            "        if x:\n            z()\n        w()"
        );
        assert_eq!(reindent(region, "        if x:", "        a"), "        a");
        assert_eq!(reindent(region, "  if x:", "\n  a\n"), "\n        a\n");
    }

    #[test]
    fn unescape_only_where_the_file_has_the_character() {
        let content = "a\tb";
        assert_eq!(unescape_where_file_has("x\\ty", content, &[(0, 3)]), "x\ty");
        assert_eq!(unescape_where_file_has("x\\ty", "a b", &[(0, 3)]), "x\\ty");
        assert_eq!(unescape_where_file_has("x\\ny", content, &[(0, 3)]), "x\\ny");
    }

    #[test]
    fn escape_drift_is_reported_with_hermes_wording() {
        let err = escape_drift("say('hi')", &[(0, 9)], "say(\\'hi\\')", "say(\\'ho\\')").unwrap();
        assert!(
            err.starts_with("Escape-drift detected: old_string and new_string contain the literal sequence \"\\\\'\"")
        );
        assert!(escape_drift("x \\' y", &[(0, 6)], "x \\' y", "x \\' z").is_none());
        assert!(escape_drift("abc", &[(0, 3)], "abc", "abd").is_none());
    }

    #[test]
    fn unicode_characters_survive_an_ascii_edit() {
        let region = "say \u{201c}hello\u{201d} \u{2014} now";
        assert_eq!(
            preserve_unicode(region, "say \"hello\" -- now", "say \"goodbye\" -- now"),
            "say \u{201c}goodbye\u{201d} \u{2014} now"
        );
        assert_eq!(preserve_unicode("abc", "xyz", "new"), "new");
    }
}
