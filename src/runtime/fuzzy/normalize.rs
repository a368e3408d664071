//! Text views the fuzzy strategies match on, each able to map a match back to byte offsets in
//! the original file: the file split into lines (with offsets), the whitespace-collapsed text,
//! and the Unicode-normalised text. Nothing here copies the file per line.

use unicode_normalization::char::decompose_compatible;

/// The text split on `\n` like Python's `str.split('\n')` ("a\n" has two lines, the last empty).
pub struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str) -> Lines<'a> {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, c)| c == b'\n')
                .map(|(i, _)| i + 1),
        );
        Lines { text, starts }
    }

    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Line `i` without its newline.
    pub fn get(&self, i: usize) -> &'a str {
        let start = self.starts[i];
        let end = self.starts.get(i + 1).map_or(self.text.len(), |next| next - 1);
        &self.text[start..end]
    }

    pub fn iter(&self) -> impl Iterator<Item = &'a str> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Byte span of lines `first..end`: from the start of `first` to the end of line `end - 1`,
    /// its newline excluded (Hermes' `_calculate_line_positions`).
    pub fn span(&self, first: usize, end: usize) -> (usize, usize) {
        let last = end - 1;
        (self.starts[first], self.starts[last] + self.get(last).len())
    }

    /// Zero-based line number holding byte `pos`.
    pub fn line_of(&self, pos: usize) -> usize {
        self.starts.partition_point(|&s| s <= pos) - 1
    }
}

/// `re.sub(r'[ \t]+', ' ', text)`.
pub fn collapse_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_run = false;
    for c in text.chars() {
        if c == ' ' || c == '\t' {
            if !in_run {
                out.push(' ');
            }
            in_run = true;
        } else {
            out.push(c);
            in_run = false;
        }
    }
    out
}

/// Maps sorted, non-overlapping matches found in `collapse_whitespace(original)` back to the
/// original. A match starting on a collapsed run starts at the run; one ending on a run
/// covers the whole run (Hermes expands the end over the trailing whitespace too).
pub fn map_collapsed(original: &str, matches: &[(usize, usize)]) -> Vec<(usize, usize)> {
    // Walk both texts once; `norm` counts collapsed bytes, `orig` original bytes.
    let bytes = original.as_bytes();
    let mut out = Vec::with_capacity(matches.len());
    let (mut orig, mut norm) = (0usize, 0usize);
    // For each normalized byte position we need (orig start, orig end) of the unit producing it.
    let unit = |orig: &mut usize, norm: &mut usize| -> (usize, usize) {
        let start = *orig;
        if bytes[start] == b' ' || bytes[start] == b'\t' {
            while *orig < bytes.len() && (bytes[*orig] == b' ' || bytes[*orig] == b'\t') {
                *orig += 1;
            }
        } else {
            *orig += 1;
        }
        *norm += 1;
        (start, *orig)
    };
    for &(ns, ne) in matches {
        while norm < ns && orig < bytes.len() {
            unit(&mut orig, &mut norm);
        }
        let start = orig;
        let mut end = orig;
        while norm < ne && orig < bytes.len() {
            end = unit(&mut orig, &mut norm).1;
        }
        out.push((start, end));
    }
    out
}

/// One original character whose normalised form differs from it.
#[derive(Debug, Clone, Copy)]
struct Seg {
    orig: usize,
    orig_len: usize,
    norm: usize,
    norm_len: usize,
}

/// Text with typographic characters folded to ASCII (smart quotes, dashes, ellipsis, exotic
/// spaces, minus) and other characters compatibility-decomposed (NFKD per character, which
/// equates texts exactly when their NFKC forms are equal), with a map back to the original.
pub struct NormText {
    pub text: String,
    segs: Vec<Seg>,
}

impl NormText {
    pub fn new(original: &str) -> NormText {
        if original.is_ascii() {
            return NormText {
                text: original.to_string(),
                segs: Vec::new(),
            };
        }
        let mut text = String::with_capacity(original.len());
        let mut segs = Vec::new();
        for (pos, c) in original.char_indices() {
            let before = text.len();
            push_normalized(c, &mut text);
            let (orig_len, norm_len) = (c.len_utf8(), text.len() - before);
            if norm_len != orig_len || text[before..] != original[pos..pos + orig_len] {
                segs.push(Seg {
                    orig: pos,
                    orig_len,
                    norm: before,
                    norm_len,
                });
            }
        }
        NormText { text, segs }
    }

    /// Whether normalisation changed anything.
    pub fn changed(&self) -> bool {
        !self.segs.is_empty()
    }

    /// Original offset where normalised offset `norm` starts; `None` inside an expansion.
    pub fn orig_start(&self, norm: usize) -> Option<usize> {
        let i = self.segs.partition_point(|s| s.norm <= norm);
        let Some(seg) = i.checked_sub(1).map(|i| self.segs[i]) else {
            return Some(norm);
        };
        if norm < seg.norm + seg.norm_len {
            return (norm == seg.norm).then_some(seg.orig);
        }
        Some(norm - (seg.norm + seg.norm_len) + seg.orig + seg.orig_len)
    }

    /// Original offset of a normalised end offset; an end inside an expansion takes the whole
    /// original character.
    pub fn orig_end(&self, norm_end: usize) -> usize {
        let i = self.segs.partition_point(|s| s.norm < norm_end);
        let Some(seg) = i.checked_sub(1).map(|i| self.segs[i]) else {
            return norm_end;
        };
        if norm_end < seg.norm + seg.norm_len {
            return seg.orig + seg.orig_len;
        }
        norm_end - (seg.norm + seg.norm_len) + seg.orig + seg.orig_len
    }

    /// Largest original offset whose normalised start is at or before `norm` (for diff spans
    /// that begin inside an expanded character).
    pub fn orig_floor(&self, norm: usize) -> usize {
        self.orig_start(norm).unwrap_or_else(|| {
            let i = self.segs.partition_point(|s| s.norm <= norm);
            self.segs[i - 1].orig
        })
    }
}

/// Hermes' `UNICODE_MAP` (plus the minus sign), then NFKD for everything else non-ASCII.
fn push_normalized(c: char, out: &mut String) {
    match c {
        '\u{201c}' | '\u{201d}' => out.push('"'),
        '\u{2018}' | '\u{2019}' => out.push('\''),
        '\u{2014}' => out.push_str("--"),
        '\u{2013}' | '\u{2212}' => out.push('-'),
        '\u{2026}' => out.push_str("..."),
        '\u{a0}' => out.push(' '),
        c if c.is_ascii() => out.push(c),
        c => decompose_compatible(c, |d| out.push(d)),
    }
}

/// Normalises a short string (old_string) without keeping the map.
pub fn normalize_unicode(text: &str) -> String {
    NormText::new(text).text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_spans_follow_python_split() {
        let lines = Lines::new("a\nbb\n\nc");
        assert_eq!(lines.iter().collect::<Vec<_>>(), ["a", "bb", "", "c"]);
        assert_eq!(lines.span(1, 3), (2, 5));
        assert_eq!(lines.span(3, 4), (6, 7));
        assert_eq!(Lines::new("x\n").len(), 2);
        assert_eq!(lines.line_of(0), 0);
        assert_eq!(lines.line_of(3), 1);
        assert_eq!(lines.line_of(6), 3);
    }

    #[test]
    fn collapsed_matches_map_back_over_whole_runs() {
        let original = "a  \tb c\t\td";
        let collapsed = collapse_whitespace(original);
        assert_eq!(collapsed, "a b c d");
        assert_eq!(map_collapsed(original, &[(0, 3)]), [(0, 5)]);
        assert_eq!(map_collapsed(original, &[(1, 3), (4, 7)]), [(1, 5), (6, 10)]);
        assert_eq!(map_collapsed(original, &[(2, 4)]), [(4, 6)]);
    }

    #[test]
    fn unicode_map_expands_and_maps_back() {
        let norm = NormText::new("a\u{2014}b \u{201c}q\u{201d}\u{a0}é");
        assert_eq!(norm.text, "a--b \"q\" e\u{301}");
        assert_eq!(norm.orig_start(0), Some(0));
        assert_eq!(norm.orig_start(1), Some(1));
        assert_eq!(norm.orig_start(2), None);
        assert_eq!(norm.orig_start(3), Some(4));
        assert_eq!(norm.orig_end(2), 4);
        assert_eq!(norm.orig_end(3), 4);
        assert_eq!(
            norm.orig_end(norm.text.len()),
            "a\u{2014}b \u{201c}q\u{201d}\u{a0}é".len()
        );
        assert!(!NormText::new("plain").changed());
        assert_eq!(normalize_unicode("x\u{2026}"), "x...");
        assert_eq!(normalize_unicode("\u{fb01}"), "fi");
    }
}
