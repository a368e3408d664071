//! The nine matching strategies of Hermes' `fuzzy_match.py`, tried in order by the caller.
//! Each returns byte spans in the original file. Line-based strategies compare line windows
//! with an early exit on the first line, so a miss costs one pass over the file; the
//! similarity-based ones bound every comparison before running a diff.

use std::cell::OnceCell;
use std::collections::HashMap;

use super::normalize::{Lines, NormText, collapse_whitespace, map_collapsed, normalize_unicode};
use super::similarity::{length_bound, quick_bound, ratio};

/// A match: byte range in the file.
pub type Span = (usize, usize);

/// The file plus lazily built views shared by the strategies of one search.
pub struct Haystack<'a> {
    pub content: &'a str,
    lines: OnceCell<Lines<'a>>,
    norm: OnceCell<NormText>,
}

impl<'a> Haystack<'a> {
    pub fn new(content: &'a str) -> Haystack<'a> {
        Haystack {
            content,
            lines: OnceCell::new(),
            norm: OnceCell::new(),
        }
    }

    pub fn lines(&self) -> &Lines<'a> {
        self.lines.get_or_init(|| Lines::new(self.content))
    }

    fn norm(&self) -> &NormText {
        self.norm.get_or_init(|| NormText::new(self.content))
    }
}

/// Strategy 1: Exact, non-overlapping occurrences (`str.replace` semantics).
pub fn exact(content: &str, pattern: &str) -> Vec<Span> {
    content.match_indices(pattern).map(|(i, m)| (i, i + m.len())).collect()
}

/// Strategy 2: Every line compared with surrounding whitespace stripped.
pub fn line_trimmed(hay: &Haystack, pattern: &str) -> Vec<Span> {
    trimmed_lines(hay.lines(), pattern)
}

fn trimmed_lines(lines: &Lines, pattern: &str) -> Vec<Span> {
    let wanted: Vec<&str> = pattern.split('\n').map(str::trim).collect();
    windows(lines, wanted.len(), |line, j| line.trim() == wanted[j])
}

/// Strategy 3: Runs of spaces/tabs collapsed to one space on both sides.
pub fn whitespace_normalized(hay: &Haystack, pattern: &str) -> Vec<Span> {
    let (content, pattern) = (collapse_whitespace(hay.content), collapse_whitespace(pattern));
    let found = exact(&content, &pattern);
    if found.is_empty() {
        found
    } else {
        map_collapsed(hay.content, &found)
    }
}

/// Strategy 4: Leading indentation ignored on every line.
pub fn indentation_flexible(hay: &Haystack, pattern: &str) -> Vec<Span> {
    let wanted: Vec<&str> = pattern.split('\n').map(str::trim_start).collect();
    windows(hay.lines(), wanted.len(), |line, j| line.trim_start() == wanted[j])
}

/// Strategy 5: Literal `\n`, `\t`, `\r` in the pattern turned into the real characters (only when the
/// pattern has any).
pub fn escape_normalized(hay: &Haystack, pattern: &str) -> Vec<Span> {
    let unescaped = pattern.replace("\\n", "\n").replace("\\t", "\t").replace("\\r", "\r");
    if unescaped == pattern {
        Vec::new()
    } else {
        exact(hay.content, &unescaped)
    }
}

/// Strategy 6: Only the first and last lines trimmed; the middle must match exactly.
pub fn trimmed_boundary(hay: &Haystack, pattern: &str) -> Vec<Span> {
    let mut wanted: Vec<&str> = pattern.split('\n').collect();
    let last = wanted.len() - 1;
    wanted[0] = wanted[0].trim();
    wanted[last] = wanted[last].trim();
    windows(hay.lines(), wanted.len(), |line, j| {
        if j == 0 || j == last {
            line.trim() == wanted[j]
        } else {
            line == wanted[j]
        }
    })
}

/// Strategy 7: Unicode-normalised text (smart quotes, dashes, ellipsis, odd spaces, compatibility
/// forms), exact first and then line-trimmed.
pub fn unicode_normalized(hay: &Haystack, pattern: &str) -> Vec<Span> {
    let norm_pattern = normalize_unicode(pattern);
    let norm = hay.norm();
    if !norm.changed() && norm_pattern == pattern {
        return Vec::new();
    }
    let mut found = exact(&norm.text, &norm_pattern);
    if found.is_empty() {
        found = trimmed_lines(&Lines::new(&norm.text), &norm_pattern);
    }
    found
        .into_iter()
        .filter_map(|(s, e)| Some((norm.orig_start(s)?, norm.orig_end(e))))
        .collect()
}

/// Strategy 8: First and last lines equal (trimmed, normalised), middle similar: ratio ≥ 0.50 when
/// there is one candidate block, ≥ 0.70 when there are several. Needs ≥ 2 lines.
pub fn block_anchor(hay: &Haystack, pattern: &str) -> Vec<Span> {
    let norm_pattern = normalize_unicode(pattern);
    let pattern_lines = Lines::new(&norm_pattern);
    let m = pattern_lines.len();
    if m < 2 {
        return Vec::new();
    }
    let (first, last) = (pattern_lines.get(0).trim(), pattern_lines.get(m - 1).trim());
    let content_lines = Lines::new(&hay.norm().text);
    let n = content_lines.len();
    if m > n {
        return Vec::new();
    }
    let candidates: Vec<usize> = (0..=n - m)
        .filter(|&i| content_lines.get(i).trim() == first && content_lines.get(i + m - 1).trim() == last)
        .collect();
    let threshold = if candidates.len() == 1 { 0.50 } else { 0.70 };
    let pattern_middle = middle(&norm_pattern, &pattern_lines, 0, m);
    candidates
        .into_iter()
        .filter(|&i| {
            if m <= 2 {
                return true;
            }
            let content_middle = middle(&hay.norm().text, &content_lines, i, m);
            quick_bound(content_middle, pattern_middle) >= threshold
                && ratio(content_middle, pattern_middle) >= threshold
        })
        .map(|i| hay.lines().span(i, i + m))
        .collect()
}

/// The text of lines `i+1 .. i+m-1` (the block without its anchor lines).
fn middle<'t>(text: &'t str, lines: &Lines, i: usize, m: usize) -> &'t str {
    if m <= 2 {
        return "";
    }
    let (s, e) = lines.span(i + 1, i + m - 1);
    &text[s..e]
}

/// Strategy 9: Context-aware: blocks where at least half of the lines have similarity ≥ 0.80 with the
/// aligned pattern line (both trimmed). Similarities are computed once per distinct file line
/// and pattern line, so repeated lines (blank, `}`) cost nothing extra.
pub fn context_aware(hay: &Haystack, pattern: &str) -> Vec<Span> {
    let wanted: Vec<(&str, usize)> = pattern
        .split('\n')
        .map(|l| (l.trim(), l.trim().chars().count()))
        .collect();
    let lines = hay.lines();
    let (n, m) = (lines.len(), wanted.len());
    if m > n {
        return Vec::new();
    }
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut hits: Vec<Vec<usize>> = Vec::new();
    let mut line_ids = Vec::with_capacity(n);
    for line in lines.iter() {
        let line = line.trim();
        let id = *ids.entry(line).or_insert_with(|| {
            let len = line.chars().count();
            let similar = wanted.iter().enumerate().filter(|(_, (p, plen))| {
                *p == line
                    || (length_bound(*plen, len) >= 0.80 && quick_bound(p, line) >= 0.80 && ratio(p, line) >= 0.80)
            });
            hits.push(similar.map(|(j, _)| j).collect());
            hits.len() - 1
        });
        line_ids.push(id);
    }
    let window_count = n - m + 1;
    let mut counts = vec![0usize; window_count];
    for (k, &id) in line_ids.iter().enumerate() {
        for &j in &hits[id] {
            if k >= j && k - j < window_count {
                counts[k - j] += 1;
            }
        }
    }
    counts
        .iter()
        .enumerate()
        .filter(|&(_, &count)| 2 * count >= m)
        .map(|(i, _)| lines.span(i, i + m))
        .collect()
}

/// Every window of `m` lines whose lines all satisfy `eq(line, index in pattern)`. Windows
/// may overlap; the caller decides what overlapping matches mean.
fn windows(lines: &Lines, m: usize, eq: impl Fn(&str, usize) -> bool) -> Vec<Span> {
    let n = lines.len();
    if m == 0 || m > n {
        return Vec::new();
    }
    (0..=n - m)
        .filter(|&i| (0..m).all(|j| eq(lines.get(i + j), j)))
        .map(|i| lines.span(i, i + m))
        .collect()
}
