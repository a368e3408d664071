//! Bounded output capture. A command can print gigabytes (`yes`, a runaway log); memory stays
//! bounded by keeping only what the model will be shown: both ends of a foreground command's
//! output, or the most recent part of a background process's output.

use std::collections::VecDeque;

/// Keeps the first `head_cap` and the last `tail_cap` bytes of a byte stream.
#[derive(Debug)]
pub struct HeadTail {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    head_cap: usize,
    tail_cap: usize,
    dropped: u64,
}

impl HeadTail {
    pub fn new(head_cap: usize, tail_cap: usize) -> HeadTail {
        HeadTail {
            head: Vec::new(),
            tail: VecDeque::new(),
            head_cap,
            tail_cap,
            dropped: 0,
        }
    }

    pub fn push(&mut self, mut bytes: &[u8]) {
        let room = self.head_cap - self.head.len();
        if room > 0 {
            let take = room.min(bytes.len());
            self.head.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
        }
        if bytes.len() >= self.tail_cap {
            self.dropped += (self.tail.len() + bytes.len() - self.tail_cap) as u64;
            self.tail.clear();
            self.tail.extend(&bytes[bytes.len() - self.tail_cap..]);
            return;
        }
        let overflow = (self.tail.len() + bytes.len()).saturating_sub(self.tail_cap);
        self.tail.drain(..overflow);
        self.dropped += overflow as u64;
        self.tail.extend(bytes);
    }

    /// The captured text (invalid UTF-8 replaced), with a marker where bytes were dropped.
    pub fn into_text(self) -> String {
        let mut text = String::from_utf8_lossy(&self.head).into_owned();
        if self.dropped > 0 {
            text.push_str(&format!("\n\n... [{} bytes of output not kept] ...\n\n", self.dropped));
        }
        let tail: Vec<u8> = self.tail.into();
        text.push_str(&String::from_utf8_lossy(&tail));
        text
    }
}

/// The most recent `max_chars` characters of a stream, decoded incrementally (a UTF-8 sequence
/// split across two reads is joined, not replaced).
#[derive(Debug)]
pub struct OutputRing {
    text: String,
    chars: usize,
    max_chars: usize,
    carry: Vec<u8>,
}

impl OutputRing {
    pub fn new(max_chars: usize) -> OutputRing {
        OutputRing {
            text: String::new(),
            chars: 0,
            max_chars,
            carry: Vec::new(),
        }
    }

    pub fn push(&mut self, bytes: &[u8]) {
        let mut data = std::mem::take(&mut self.carry);
        data.extend_from_slice(bytes);
        let mut rest = &data[..];
        loop {
            match std::str::from_utf8(rest) {
                Ok(valid) => {
                    self.push_str(valid);
                    break;
                }
                Err(error) => {
                    let (valid, after) = rest.split_at(error.valid_up_to());
                    // `valid` was just checked, so this cannot fail.
                    self.push_str(std::str::from_utf8(valid).unwrap_or_default());
                    match error.error_len() {
                        None => {
                            self.carry = after.to_vec();
                            break;
                        }
                        Some(len) => {
                            self.push_str("\u{fffd}");
                            rest = &after[len..];
                        }
                    }
                }
            }
        }
    }

    /// Everything kept so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The last `n` characters kept.
    pub fn tail(&self, n: usize) -> &str {
        tail_chars(&self.text, n)
    }

    fn push_str(&mut self, s: &str) {
        self.text.push_str(s);
        self.chars += s.chars().count();
        if self.chars > self.max_chars {
            let excess = self.chars - self.max_chars;
            let cut = self.text.char_indices().nth(excess).map_or(self.text.len(), |(i, _)| i);
            self.text.drain(..cut);
            self.chars = self.max_chars;
        }
    }
}

/// The last `n` characters of `text`.
pub fn tail_chars(text: &str, n: usize) -> &str {
    let total = text.chars().count();
    if total <= n {
        return text;
    }
    let start = text.char_indices().nth(total - n).map_or(text.len(), |(i, _)| i);
    &text[start..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_tail_keeps_both_ends_and_counts_the_gap() {
        let mut capture = HeadTail::new(4, 4);
        capture.push(b"ab");
        capture.push(b"cdefgh");
        capture.push(b"ijklmnop");
        let text = capture.into_text();
        assert!(text.starts_with("abcd"));
        assert!(text.ends_with("mnop"));
        assert!(text.contains("[8 bytes of output not kept]"));
    }

    #[test]
    fn head_tail_small_output_is_verbatim() {
        let mut capture = HeadTail::new(4, 4);
        capture.push(b"abcdef");
        assert_eq!(capture.into_text(), "abcdef");
    }

    #[test]
    fn ring_joins_split_utf8_and_keeps_the_newest_characters() {
        let mut ring = OutputRing::new(3);
        let bytes = "héllo".as_bytes();
        ring.push(&bytes[..2]);
        ring.push(&bytes[2..]);
        assert_eq!(ring.text(), "llo");
        ring.push(b"\xff!");
        assert_eq!(ring.text(), "o\u{fffd}!");
        assert_eq!(ring.tail(2), "\u{fffd}!");
    }
}
