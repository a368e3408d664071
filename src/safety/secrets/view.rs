//! The text as the matcher reads it: every whitespace byte left out, and the escapes `\n`,
//! `\r`, `\t` of JSON and log text with it, so `fold -w 5`, `base64 -w 10`, `xxd` groups and
//! `od -c` columns read as one run of characters. Positions found in the view are mapped
//! back to the original text by walking it again with the same rule.

/// Whether the byte is whitespace the view leaves out.
fn is_gap(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// The original index of every byte the view keeps, in order.
fn kept(text: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let mut i = 0;
    // The second byte of an escaped backslash, yielded after the first.
    let mut pending = None;
    std::iter::from_fn(move || {
        if let Some(at) = pending.take() {
            return Some(at);
        }
        while i < text.len() {
            let at = i;
            match (text[at], text.get(at + 1)) {
                (b, _) if is_gap(b) => i += 1,
                (b'\\', Some(b'n' | b'r' | b't')) => i += 2,
                // An escaped backslash is two kept bytes: in `\\n` the `n` is a letter.
                (b'\\', Some(b'\\')) => {
                    i += 2;
                    pending = Some(at + 1);
                    return Some(at);
                }
                _ => {
                    i += 1;
                    return Some(at);
                }
            }
        }
        None
    })
}

/// The view of `text`. A view of valid UTF-8 is valid UTF-8 (only ASCII bytes are dropped).
pub fn strip(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut runs = text;
    // Most output is long runs without gaps or backslashes: copy those whole.
    while !runs.is_empty() {
        let plain = runs.iter().position(|&b| is_gap(b) || b == b'\\').unwrap_or(runs.len());
        out.extend_from_slice(&runs[..plain]);
        runs = &runs[plain..];
        if runs.is_empty() {
            break;
        }
        // The escape or gap and whatever belongs to it, by the one rule of `kept`.
        let tail = if runs[0] == b'\\' && runs.len() > 1 { 2 } else { 1 };
        out.extend(kept(&runs[..tail]).map(|i| runs[i]));
        runs = &runs[tail..];
    }
    out
}

/// The original offsets of the view positions `sorted` (ascending, each < the view's length).
pub fn locate(text: &[u8], sorted: &[usize]) -> Vec<usize> {
    let mut out = Vec::with_capacity(sorted.len());
    let mut wanted = sorted.iter().peekable();
    for (view_index, original) in kept(text).enumerate() {
        while wanted.next_if(|&&w| w == view_index).is_some() {
            out.push(original);
        }
        if wanted.peek().is_none() {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_and_escaped_whitespace_leave_the_view() {
        let text = b"ab cd\nef\tg\\nh\\\\n i\\x";
        let view = strip(text);
        assert_eq!(view, b"abcdefgh\\\\ni\\x");
        let kept: Vec<usize> = kept(text).collect();
        assert_eq!(kept.len(), view.len());
        assert!(kept.iter().zip(&view).all(|(&i, &b)| text[i] == b));
        assert_eq!(locate(text, &[0, 2, 7, 8, 9]), vec![0, 3, 12, 13, 14]);
    }

    #[test]
    fn a_trailing_backslash_is_kept() {
        assert_eq!(strip(b"a\\"), b"a\\");
        assert_eq!(strip(b" \\n"), b"");
    }
}
