//! A small, non-executing shell scanner for command detection: substitution extents, shell
//! words, where commands start (after `;`, `&&`, `||`, `|`, `&`, newlines, `(`, `{`, `$(` and
//! backticks) and top-level segments. Word-level helpers live in `words.rs`.
//!
//! Everything works on byte offsets; every offset it records sits next to an ASCII syntax
//! character, so slicing the `&str` there is always on a character boundary.

pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Index just after the character that starts at `i`.
pub fn next_boundary(s: &str, i: usize) -> usize {
    (i + 1..=s.len()).find(|&j| s.is_char_boundary(j)).unwrap_or(s.len())
}

/// Index after a backslash at `i` and the (possibly multi-byte) character it escapes.
pub fn skip_escaped(s: &str, i: usize) -> usize {
    let mut j = (i + 2).min(s.len());
    while j < s.len() && !s.is_char_boundary(j) {
        j += 1;
    }
    j
}

pub fn skip_space(s: &str, mut i: usize) -> usize {
    let b = s.as_bytes();
    while i < b.len() && is_space(b[i]) {
        i += 1;
    }
    i
}

/// End (exclusive) of a balanced `$(...)` whose `$` is at `start`.
pub fn dollar_paren_end(s: &str, start: usize) -> Option<usize> {
    let b = s.as_bytes();
    let (mut depth, mut quote, mut i) = (1usize, None::<u8>, start + 2);
    while i < b.len() {
        let c = b[i];
        if let Some(q) = quote {
            if c == b'\\' && q == b'"' {
                i = skip_escaped(s, i);
                continue;
            }
            if c == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        match c {
            b'\'' | b'"' => quote = Some(c),
            b'\\' => {
                i = skip_escaped(s, i);
                continue;
            }
            b'$' if b.get(i + 1) == Some(&b'(') => {
                depth += 1;
                i += 1;
            }
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// End (exclusive) of a backtick substitution whose opening backtick is at `start`.
pub fn backtick_end(s: &str, start: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = start + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i = skip_escaped(s, i),
            b'`' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// Reads one shell word at or after `pos` without expanding anything: `(start, end)`.
pub fn read_word(s: &str, pos: usize) -> (usize, usize) {
    let b = s.as_bytes();
    let start = skip_space(s, pos);
    let (mut i, mut quote) = (start, None::<u8>);
    while i < b.len() {
        let c = b[i];
        if let Some(q) = quote {
            if c == b'\\' && q == b'"' {
                i = skip_escaped(s, i);
                continue;
            }
            if c == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        match c {
            b'\'' | b'"' => {
                quote = Some(c);
                i += 1;
            }
            b'\\' => i = skip_escaped(s, i),
            b'$' if b.get(i + 1) == Some(&b'(') => i = dollar_paren_end(s, i).unwrap_or(i + 2),
            b'$' if b.get(i + 1) == Some(&b'{') => {
                i = s[i + 2..].find('}').map_or(i + 2, |p| i + 2 + p + 1);
            }
            b'`' => i = backtick_end(s, i).unwrap_or(i + 1),
            c if is_space(c) || matches!(c, b';' | b'&' | b'|') => break,
            _ => i += 1,
        }
    }
    (start, i.min(b.len()))
}

/// Offsets where a command may start, quote-aware, deduplicated, in order.
pub fn command_starts(s: &str) -> Vec<usize> {
    let b = s.as_bytes();
    let mut starts = vec![0];
    let (mut quote, mut in_backtick, mut i) = (None::<u8>, false, 0usize);
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        match quote {
            Some(b'\'') => {
                if c == b'\'' {
                    quote = None;
                }
                i += 1;
                continue;
            }
            Some(_) => {
                match c {
                    b'\\' => {
                        i = skip_escaped(s, i);
                        continue;
                    }
                    b'"' => quote = None,
                    b'$' if next == Some(b'(') => {
                        starts.push(i + 2);
                        i += 1;
                    }
                    // Backticks run their content even inside double quotes.
                    b'`' => {
                        if !in_backtick {
                            starts.push(i + 1);
                        }
                        in_backtick = !in_backtick;
                    }
                    _ => {}
                }
                i += 1;
                continue;
            }
            None => {}
        }
        match c {
            b'\'' | b'"' => quote = Some(c),
            b'\\' => {
                i = skip_escaped(s, i);
                continue;
            }
            b'$' if next == Some(b'(') => {
                starts.push(i + 2);
                i += 1;
            }
            b'`' => {
                // Only an opening backtick starts a command; text after the closing one does not.
                if !in_backtick {
                    starts.push(i + 1);
                }
                in_backtick = !in_backtick;
            }
            // `${VAR}` is an expansion, not a group.
            b'{' if i > 0 && b[i - 1] == b'$' => {}
            b'(' | b'{' | b';' | b'\n' => starts.push(i + 1),
            b'&' | b'|' => {
                if next == Some(c) {
                    i += 1;
                }
                starts.push(i + 1);
            }
            _ => {}
        }
        i += 1;
    }
    let mut out: Vec<usize> = starts
        .into_iter()
        .map(|p| skip_space(s, p))
        .filter(|&p| p < b.len())
        .collect();
    out.dedup();
    out
}

/// Inserts a newline before every real (quote-aware) command start, so `^`/`\n`-anchored
/// command-position rules also see `a; rm -rf /` and `x | sh`.
pub fn mark_command_starts(s: &str) -> String {
    let starts = command_starts(s);
    let mut out = String::with_capacity(s.len() + starts.len());
    let mut previous = 0;
    for start in starts.into_iter().filter(|&p| p > 0) {
        out.push_str(&s[previous..start]);
        out.push('\n');
        previous = start;
    }
    out.push_str(&s[previous..]);
    out
}

/// Top-level segments split on unquoted `;`, `&`, `|`, `&&`, `||` and newlines: `(offset, text)`.
pub fn top_level_segments(s: &str) -> Vec<(usize, &str)> {
    let b = s.as_bytes();
    let mut segments = Vec::new();
    let (mut start, mut quote, mut escaped, mut i) = (0usize, None::<u8>, false, 0usize);
    while i < b.len() {
        let c = b[i];
        if escaped {
            escaped = false;
        } else if c == b'\\' && quote != Some(b'\'') {
            escaped = true;
        } else if let Some(q) = quote {
            if c == q {
                quote = None;
            }
        } else if c == b'\'' || c == b'"' {
            quote = Some(c);
        } else if matches!(c, b';' | b'&' | b'|' | b'\n') {
            if start < i {
                segments.push((start, &s[start..i]));
            }
            if matches!(c, b'&' | b'|') && b.get(i + 1) == Some(&c) {
                i += 1;
            }
            start = i + 1;
        }
        i += 1;
    }
    if start < b.len() {
        segments.push((start, &s[start..]));
    }
    segments
}
