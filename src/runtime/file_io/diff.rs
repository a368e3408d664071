//! Unified diffs of whole-file edits with `similar`. Only the changed window (plus three lines
//! of context each side) is handed to the diff algorithm, then the hunk headers are shifted
//! back to file line numbers: a one-line patch of a 10 MB file diffs a few lines, not 200k.

use similar::TextDiff;

/// Lines of context around each change, as Hermes (difflib's default) shows.
const CONTEXT: usize = 3;

/// `--- a` / `+++ b` unified diff of `old` → `new`; empty when they are equal.
pub fn unified_diff(old: &str, new: &str, a: &str, b: &str) -> String {
    if old == new {
        return String::new();
    }
    let (start, old_end, new_end) = changed_window(old, new);
    let skipped_lines = count_lines(&old[..start]);
    let diff = TextDiff::from_lines(&old[start..old_end], &new[start..new_end]);
    let text = diff.unified_diff().context_radius(CONTEXT).header(a, b).to_string();
    if skipped_lines == 0 {
        return text;
    }
    text.split_inclusive('\n')
        .map(|line| shift_hunk_header(line, skipped_lines))
        .collect()
}

/// Byte range `[start, old_end)` / `[start, new_end)` covering every change plus `CONTEXT`
/// lines each side, cut on line boundaries (the start is the same in both texts).
fn changed_window(old: &str, new: &str) -> (usize, usize, usize) {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let prefix = common_prefix(a, b);
    let max_suffix = a.len().min(b.len()) - prefix;
    let suffix = common_suffix(&a[a.len() - max_suffix..], &b[b.len() - max_suffix..]);

    // Start: the beginning of the line holding the first difference, then CONTEXT lines up.
    let mut start = a[..prefix].iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
    for _ in 0..CONTEXT {
        if start == 0 {
            break;
        }
        start = a[..start - 1].iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
    }

    // End: just past the first newline at or after the last difference. That newline lies in
    // the shared suffix, so the cut is a line boundary in both texts. Then CONTEXT more lines.
    let old_diff_end = a.len() - suffix;
    let next_line = |from: usize| {
        a[from..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(a.len(), |i| from + i + 1)
    };
    let mut old_end = next_line(old_diff_end);
    for _ in 0..CONTEXT {
        if old_end == a.len() {
            break;
        }
        old_end = next_line(old_end);
    }
    let new_end = b.len() - (a.len() - old_end);
    debug_assert!(old.is_char_boundary(start) && old.is_char_boundary(old_end) && new.is_char_boundary(new_end));
    (start, old_end, new_end)
}

/// Compared in blocks first: slice equality is a `memcmp`, far faster than a byte loop.
const BLOCK: usize = 4096;

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + BLOCK <= n && a[i..i + BLOCK] == b[i..i + BLOCK] {
        i += BLOCK;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// Length of the common suffix of two equally long slices.
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len();
    let mut i = 0;
    while i + BLOCK <= n && a[n - i - BLOCK..n - i] == b[n - i - BLOCK..n - i] {
        i += BLOCK;
    }
    while i < n && a[n - i - 1] == b[n - i - 1] {
        i += 1;
    }
    i
}

fn count_lines(text: &str) -> usize {
    // Byte counters over 255-byte chunks vectorise well; a plain filter-count does not.
    text.as_bytes()
        .chunks(255)
        .map(|chunk| usize::from(chunk.iter().fold(0u8, |n, &c| n + u8::from(c == b'\n'))))
        .sum()
}

/// Adds `offset` to both line numbers of an `@@ -a[,b] +c[,d] @@` header; other lines pass.
fn shift_hunk_header(line: &str, offset: usize) -> String {
    let Some(rest) = line.strip_prefix("@@ -") else {
        return line.to_string();
    };
    let Some((ranges, tail)) = rest.split_once(" @@") else {
        return line.to_string();
    };
    let Some((old_range, new_range)) = ranges.split_once(" +") else {
        return line.to_string();
    };
    format!(
        "@@ -{} +{} @@{tail}",
        shift_range(old_range, offset),
        shift_range(new_range, offset)
    )
}

fn shift_range(range: &str, offset: usize) -> String {
    let (first, len) = match range.split_once(',') {
        Some((first, len)) => (first, Some(len)),
        None => (range, None),
    };
    let first = first.parse::<usize>().map(|n| n + offset).unwrap_or(0);
    match len {
        Some(len) => format!("{first},{len}"),
        None => first.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(old: &str, new: &str) -> String {
        TextDiff::from_lines(old, new)
            .unified_diff()
            .context_radius(CONTEXT)
            .header("a/x", "b/x")
            .to_string()
    }

    #[test]
    fn windowed_diff_equals_the_full_diff() {
        let base: String = (1..=40).map(|i| format!("line {i}\n")).collect();
        let cases = [
            base.replace("line 20\n", "line twenty\n"),
            base.replace("line 1\n", "first\n"),
            base.replace("line 40\n", "last\n"),
            base.replace("line 10\n", "line 10\ninserted\n"),
            base.replace("line 5\n", "").replace("line 35\n", "x\n"),
            format!("{base}tail without newline"),
            base.trim_end().to_string(),
            base.replace("line 3", "line 3 changed"),
            String::new(),
        ];
        for new in cases {
            assert_eq!(
                unified_diff(&base, &new, "a/x", "b/x"),
                full(&base, &new),
                "new = {new:?}"
            );
            assert_eq!(
                unified_diff(&new, &base, "a/x", "b/x"),
                full(&new, &base),
                "old = {new:?}"
            );
        }
    }

    #[test]
    fn equal_texts_give_an_empty_diff() {
        assert_eq!(unified_diff("a\n", "a\n", "a/x", "b/x"), "");
    }

    #[test]
    fn headers_use_the_given_labels() {
        let d = unified_diff("hi\n", "ho\n", "a//ws/hello.txt", "b//ws/hello.txt");
        assert_eq!(d, "--- a//ws/hello.txt\n+++ b//ws/hello.txt\n@@ -1 +1 @@\n-hi\n+ho\n");
    }
}
