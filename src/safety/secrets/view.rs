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
/// The same rule as [`kept`], as one tight loop: it runs over every tool result.
pub fn strip(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let byte = text[i];
        if is_gap(byte) {
            i += 1;
            continue;
        }
        if byte == b'\\' {
            match text.get(i + 1) {
                Some(b'n' | b'r' | b't') => {
                    i += 2;
                    continue;
                }
                Some(b'\\') => {
                    out.extend_from_slice(b"\\\\");
                    i += 2;
                    continue;
                }
                _ => {}
            }
        }
        out.push(byte);
        i += 1;
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
    fn strip_and_kept_agree_on_every_escape_and_gap() {
        let samples: [&[u8]; 5] = [b"\\\\\\n x", b"\\\\\\\\n", b"a\\\n\\\tb", b"\\ \\\r\n", b"\\x\\"];
        for text in samples {
            let by_index: Vec<u8> = kept(text).map(|i| text[i]).collect();
            assert_eq!(strip(text), by_index, "{:?}", String::from_utf8_lossy(text));
        }
    }

    #[test]
    fn a_trailing_backslash_is_kept() {
        assert_eq!(strip(b"a\\"), b"a\\");
        assert_eq!(strip(b" \\n"), b"");
    }
}
