//! Small text helpers shared across layers: digit grouping, one-line clipping and cutting long
//! text at a character boundary. Each caller keeps its own truncation note (the model and the
//! editor see different wording), so the cut is shared and the note is the caller's.

/// `1234567` → `1,234,567` (Python's `{:,}`).
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `s` if it has at most `max` characters, else its first `max - 1` and an ellipsis (`…`), so
/// the result never exceeds `max` characters.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(max.saturating_sub(1)).collect::<String>())
    }
}

/// `text` whole if it has at most `max` characters; else its first `keep` characters followed
/// by `note(total)` (`total` = the original character count).
pub fn cap_with(text: &str, max: usize, keep: usize, note: impl FnOnce(usize) -> String) -> String {
    let total = text.chars().count();
    if total <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(keep).collect();
    out.push_str(&note(total));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits_by_three() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn clip_keeps_short_text_and_ends_long_text_with_an_ellipsis() {
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip("abcd", 3), "ab…");
        assert_eq!(clip("ééééé", 2), "é…");
        assert_eq!(clip("ab", 0), "…");
    }

    #[test]
    fn cap_with_cuts_on_characters_and_appends_the_note() {
        assert_eq!(cap_with("abc", 3, 1, |_| unreachable!()), "abc");
        assert_eq!(cap_with("ééééé", 4, 2, |t| format!("[{t}]")), "éé[5]");
    }
}
