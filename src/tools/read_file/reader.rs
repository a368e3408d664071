//! Streams one page of a text file: skips to `offset`, numbers up to `limit` lines as `N|text`,
//! clamps over-long lines and stops at the character budget — holding only the page in memory,
//! so the first page of a multi-gigabyte file costs milliseconds. A trailing newline ends the
//! last line; it never creates a phantom empty numbered line (Hermes bug B14).

use std::io::{self, BufRead};

/// Lines longer than this many characters are cut (`tool_output.max_line_length`).
pub(crate) const MAX_LINE_CHARS: usize = 2000;
/// Character budget of the numbered content (`file_read_max_chars`).
pub(crate) const MAX_READ_CHARS: usize = 100_000;
/// Beyond the page, at most this many remaining bytes are scanned for an exact line count;
/// past it the total is estimated from the average line length seen so far.
pub(crate) const EXACT_COUNT_MAX_BYTES: u64 = 16 * 1024 * 1024;
/// Bytes of one line kept before decoding: enough for `MAX_LINE_CHARS` 4-byte characters plus
/// one, so a clamped line always trips the character cut.
const LINE_BYTE_CAP: usize = 4 * MAX_LINE_CHARS + 1;
const TRUNCATED_SUFFIX: &str = "... [truncated]";
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Which lines to show. `offset` is 1-based; both are already clamped.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PageRequest {
    pub offset: usize,
    pub limit: usize,
    pub max_chars: usize,
}

/// The file's line count: exact, or estimated when counting would mean scanning a huge tail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineTotal {
    Exact(usize),
    Estimated(usize),
}

impl LineTotal {
    pub(crate) fn value(self) -> usize {
        match self {
            LineTotal::Exact(n) | LineTotal::Estimated(n) => n,
        }
    }
}

/// One numbered page.
#[derive(Debug)]
pub(crate) struct Page {
    /// `N|text` lines joined with `\n` (no trailing newline).
    pub content: String,
    pub lines_shown: usize,
    /// The character budget stopped the page before `limit` lines.
    pub budget_cut: bool,
    /// The first line alone exceeded the budget and was cut mid-line.
    pub first_line_clamped: bool,
    pub total: LineTotal,
}

/// Reads the page described by `req` from `reader` (positioned at byte 0 of a file of
/// `file_size` bytes). `count_limit` bounds the bytes scanned after the page for the total.
pub(crate) fn read_page<R: BufRead>(
    mut reader: R,
    file_size: u64,
    req: PageRequest,
    count_limit: u64,
) -> io::Result<Page> {
    let mut pos = Position::default();
    let mut page = Page {
        content: String::new(),
        lines_shown: 0,
        budget_cut: false,
        first_line_clamped: false,
        total: LineTotal::Exact(0),
    };

    if !skip_lines(&mut reader, &mut pos, req.offset - 1)? {
        page.total = LineTotal::Exact(pos.lines_at_eof());
        return Ok(page);
    }

    let mut line = Vec::with_capacity(256);
    let mut chars = 0usize;
    let mut hit_eof = false;
    for index in 0..req.limit {
        line.clear();
        if !read_line_capped(&mut reader, &mut pos, &mut line)? {
            hit_eof = true;
            break;
        }
        let number = req.offset + index;
        let entry = format!("{number}|{}", display_line(&line, number == 1));
        let entry_chars = entry.chars().count();
        let added = entry_chars + usize::from(page.lines_shown > 0);
        if chars + added > req.max_chars {
            if page.lines_shown == 0 {
                page.content = entry.chars().take(req.max_chars).collect();
                page.lines_shown = 1;
                page.first_line_clamped = true;
            }
            page.budget_cut = true;
            break;
        }
        if page.lines_shown > 0 {
            page.content.push('\n');
        }
        page.content.push_str(&entry);
        chars += added;
        page.lines_shown += 1;
    }

    page.total = if hit_eof || reader.fill_buf()?.is_empty() {
        LineTotal::Exact(pos.lines_at_eof())
    } else if file_size.saturating_sub(pos.consumed) <= count_limit {
        count_rest(&mut reader, &mut pos)?;
        LineTotal::Exact(pos.lines_at_eof())
    } else {
        // Average bytes per line so far extrapolated over the unread tail; at least one more
        // line exists because the reader is not at EOF.
        let remaining = file_size.saturating_sub(pos.consumed);
        let per_line = (pos.consumed / pos.lines.max(1) as u64).max(1);
        let more = remaining.div_ceil(per_line).max(1) as usize;
        LineTotal::Estimated(pos.lines + more)
    };
    Ok(page)
}

/// Where the reader is: bytes consumed, complete lines passed, last byte seen.
#[derive(Debug, Default)]
struct Position {
    consumed: u64,
    lines: usize,
    last_byte: Option<u8>,
}

impl Position {
    /// Lines in the file once EOF is reached: a final line without a newline still counts.
    fn lines_at_eof(&self) -> usize {
        match self.last_byte {
            Some(b'\n') | None => self.lines,
            Some(_) => self.lines + 1,
        }
    }

    fn advance(&mut self, chunk: &[u8]) {
        self.consumed += chunk.len() as u64;
        if let Some(&last) = chunk.last() {
            self.last_byte = Some(last);
        }
    }
}

/// Skips `count` lines; false when EOF came first (the offset is past the end).
fn skip_lines<R: BufRead>(reader: &mut R, pos: &mut Position, mut count: usize) -> io::Result<bool> {
    while count > 0 {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(false);
        }
        // Whole-buffer newline counts are vectorised; only the final buffer is walked.
        let newlines = memchr::memchr_iter(b'\n', buf).count();
        let take = if newlines < count {
            count -= newlines;
            pos.lines += newlines;
            buf.len()
        } else {
            let end = memchr::memchr_iter(b'\n', buf)
                .nth(count - 1)
                .map_or(buf.len(), |i| i + 1);
            pos.lines += count;
            count = 0;
            end
        };
        pos.advance(&buf[..take]);
        reader.consume(take);
    }
    Ok(true)
}

/// Reads one line into `out` (at most `LINE_BYTE_CAP` bytes kept, the rest skipped, the
/// terminator dropped). False at EOF with nothing read.
fn read_line_capped<R: BufRead>(reader: &mut R, pos: &mut Position, out: &mut Vec<u8>) -> io::Result<bool> {
    let mut any = false;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            if any {
                pos.lines += 1;
            }
            // An unterminated final line was counted here; do not count it again at EOF.
            if any {
                pos.last_byte = Some(b'\n');
            }
            return Ok(any);
        }
        any = true;
        let (piece, take, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        let room = LINE_BYTE_CAP.saturating_sub(out.len());
        out.extend_from_slice(&piece[..piece.len().min(room)]);
        pos.advance(&buf[..take]);
        reader.consume(take);
        if done {
            pos.lines += 1;
            return Ok(true);
        }
    }
}

/// Counts the lines left after the page.
fn count_rest<R: BufRead>(reader: &mut R, pos: &mut Position) -> io::Result<()> {
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        pos.lines += memchr::memchr_iter(b'\n', buf).count();
        let len = buf.len();
        pos.advance(buf);
        reader.consume(len);
    }
}

/// The text shown for one line: `\r` of a CRLF ending dropped, a UTF-8 BOM on line 1 dropped,
/// invalid UTF-8 replaced, and anything past `MAX_LINE_CHARS` cut with a marker.
fn display_line(bytes: &[u8], first_line: bool) -> String {
    let mut bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    if first_line {
        bytes = bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes);
    }
    let text = String::from_utf8_lossy(bytes);
    match text.char_indices().nth(MAX_LINE_CHARS) {
        Some((cut, _)) => format!("{}{TRUNCATED_SUFFIX}", &text[..cut]),
        None => text.into_owned(),
    }
}
