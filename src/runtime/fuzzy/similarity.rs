//! String similarity for the fuzzy strategies and the "did you mean" hints: Hermes uses
//! difflib's `SequenceMatcher.ratio()` (2·matches / total length). We compute the same ratio
//! with matches from `similar`'s Myers diff (a longest common subsequence), plus difflib-style
//! cheap upper bounds so most comparisons never run the diff.

use std::time::Duration;

use similar::{Algorithm, DiffOp, capture_diff_slices_deadline};

/// Longest a single comparison may take; past it `similar` returns an approximate diff.
const DIFF_BUDGET: Duration = Duration::from_millis(200);

/// `SequenceMatcher(None, a, b).ratio()` equivalent in `0.0..=1.0` (1.0 for two empty strings).
pub fn ratio(a: &str, b: &str) -> f64 {
    if a == b {
        return 1.0;
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    ratio_chars(&a, &b)
}

pub fn ratio_chars(a: &[char], b: &[char]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let deadline = std::time::Instant::now().checked_add(DIFF_BUDGET);
    let ops: Vec<DiffOp> = capture_diff_slices_deadline(Algorithm::Myers, a, b, deadline);
    // `similar::get_diff_ratio` rounds to f32; thresholds like 0.8 need the exact quotient.
    let matches: usize = ops
        .iter()
        .map(|op| if let DiffOp::Equal { len, .. } = op { *len } else { 0 })
        .sum();
    2.0 * matches as f64 / (a.len() + b.len()) as f64
}

/// Upper bound of [`ratio`] from the lengths alone (difflib's `real_quick_ratio`).
pub fn length_bound(len_a: usize, len_b: usize) -> f64 {
    let total = len_a + len_b;
    if total == 0 {
        1.0
    } else {
        2.0 * len_a.min(len_b) as f64 / total as f64
    }
}

/// Upper bound of [`ratio`] from shared character counts (difflib's `quick_ratio`), exact for
/// ASCII and falling back to the length bound otherwise.
pub fn quick_bound(a: &str, b: &str) -> f64 {
    let (len_a, len_b) = (a.chars().count(), b.chars().count());
    if !a.is_ascii() || !b.is_ascii() {
        return length_bound(len_a, len_b);
    }
    let mut counts = [0i32; 128];
    for c in a.bytes() {
        counts[usize::from(c)] += 1;
    }
    let mut shared = 0usize;
    for c in b.bytes() {
        let slot = &mut counts[usize::from(c)];
        if *slot > 0 {
            *slot -= 1;
            shared += 1;
        }
    }
    let total = len_a + len_b;
    if total == 0 {
        1.0
    } else {
        2.0 * shared as f64 / total as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_matches_difflib_on_simple_cases() {
        assert_eq!(ratio("", ""), 1.0);
        assert_eq!(ratio("abcd", "bcde"), 0.75);
        assert_eq!(ratio("abc", "xyz"), 0.0);
        assert!((ratio("hello world", "hello wrld") - 20.0 / 21.0).abs() < 1e-9);
    }

    #[test]
    fn bounds_never_undercut_the_ratio() {
        for (a, b) in [
            ("fn main() {", "fn main () {"),
            ("let x = 1;", "let y = 2;"),
            ("abc", "cba"),
            ("", "x"),
        ] {
            let r = ratio(a, b);
            assert!(quick_bound(a, b) >= r - 1e-9, "{a} / {b}");
            assert!(length_bound(a.len(), b.len()) >= r - 1e-9);
        }
    }
}
