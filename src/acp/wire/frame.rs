//! Splits a byte stream into `\n`-terminated lines with a size cap. A line longer than the cap
//! is skipped as it streams past (never buffered whole) and reported as `TooLong`, so one
//! hostile frame cannot exhaust memory or end the connection.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One unit read from the input.
#[derive(Debug, PartialEq)]
pub enum Frame {
    /// A line's bytes, without the `\n` (may be invalid UTF-8; judging it is not our job).
    Line(Vec<u8>),
    /// A line over the cap was skipped; `bytes` is how long it was (without the `\n`).
    TooLong { bytes: u64 },
}

/// Reads frames from `reader`, keeping at most `cap` bytes of one line in memory.
pub struct LineReader<R> {
    reader: R,
    cap: usize,
    line: Vec<u8>,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    pub fn new(reader: R, cap: usize) -> Self {
        LineReader {
            reader,
            cap,
            line: Vec::new(),
        }
    }

    /// The next frame, or `None` at end of input. A last line without `\n` still counts.
    pub async fn next(&mut self) -> std::io::Result<Option<Frame>> {
        // Bytes of the current over-long line seen so far, once it has passed the cap.
        let mut skipped: Option<u64> = None;
        loop {
            let available = self.reader.fill_buf().await?;
            if available.is_empty() {
                return Ok(match skipped {
                    Some(bytes) => Some(Frame::TooLong { bytes }),
                    None if self.line.is_empty() => None,
                    None => Some(Frame::Line(std::mem::take(&mut self.line))),
                });
            }
            let (chunk, ends_line) = match memchr::memchr(b'\n', available) {
                Some(pos) => (pos, true),
                None => (available.len(), false),
            };
            match skipped.as_mut() {
                Some(bytes) => *bytes += chunk as u64,
                None if self.line.len() + chunk > self.cap => {
                    skipped = Some((self.line.len() + chunk) as u64);
                    // Give the memory back: this line will never be used.
                    self.line = Vec::new();
                }
                None => self.line.extend_from_slice(&available[..chunk]),
            }
            self.reader.consume(chunk + usize::from(ends_line));
            if ends_line {
                return Ok(Some(match skipped {
                    Some(bytes) => Frame::TooLong { bytes },
                    None => Frame::Line(std::mem::take(&mut self.line)),
                }));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8], cap: usize, buffer: usize) -> Vec<Frame> {
        let reader = tokio::io::BufReader::with_capacity(buffer, input);
        let mut lines = LineReader::new(reader, cap);
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            let mut out = Vec::new();
            while let Some(frame) = lines.next().await.unwrap() {
                out.push(frame);
            }
            out
        })
    }

    fn line(s: &str) -> Frame {
        Frame::Line(s.as_bytes().to_vec())
    }

    #[test]
    fn splits_on_newlines_and_keeps_a_last_unterminated_line() {
        assert_eq!(
            frames(b"a\nbc\n\nd", 100, 3),
            vec![line("a"), line("bc"), line(""), line("d")]
        );
        assert_eq!(frames(b"", 100, 3), vec![]);
        assert_eq!(frames(b"x\n", 100, 1), vec![line("x")]);
    }

    #[test]
    fn an_over_long_line_is_skipped_and_the_next_one_still_arrives() {
        let mut input = vec![b'z'; 50];
        input.extend_from_slice(b"\nok\n");
        input.extend_from_slice(&[b'y'; 11]);
        assert_eq!(
            frames(&input, 10, 4),
            vec![Frame::TooLong { bytes: 50 }, line("ok"), Frame::TooLong { bytes: 11 }]
        );
        // Exactly at the cap is fine.
        assert_eq!(frames(b"0123456789\n", 10, 4), vec![line("0123456789")]);
    }

    #[test]
    fn invalid_utf8_and_nul_bytes_pass_through_as_bytes() {
        assert_eq!(
            frames(b"\xff\xfe\0\n{}\n", 100, 2),
            vec![Frame::Line(vec![0xff, 0xfe, 0]), line("{}")]
        );
    }

    #[test]
    fn framing_matches_a_plain_split_for_random_inputs() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..2000 {
            let len = rng.usize(0..200);
            let input: Vec<u8> = (0..len)
                .map(|_| if rng.u8(0..8) == 0 { b'\n' } else { rng.u8(..) })
                .collect();
            let cap = rng.usize(0..40);
            let mut expected: Vec<Frame> = input
                .split(|b| *b == b'\n')
                .map(|l| {
                    if l.len() > cap {
                        Frame::TooLong { bytes: l.len() as u64 }
                    } else {
                        Frame::Line(l.to_vec())
                    }
                })
                .collect();
            // A trailing newline (or empty input) does not start another line.
            if input.last().is_none_or(|b| *b == b'\n') {
                expected.pop();
            }
            assert_eq!(frames(&input, cap, rng.usize(1..16)), expected, "{input:?} cap {cap}");
        }
    }
}
