//! The Markdown output buffer: whitespace collapsed outside `<pre>`, block breaks held back
//! until content follows (so empty elements leave no blank lines), the line prefix of the
//! enclosing blockquotes and list items written at each new line, and inline openers (`**`,
//! `[`) held back until their element has text, so an empty `<b></b>` leaves nothing.

/// HTML's ASCII whitespace, which collapses to one space outside `<pre>`.
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// U+00A0 (`&nbsp;`) in UTF-8: read as a collapsible space, as a reader of the page sees it.
fn is_nbsp(bytes: &[u8], i: usize) -> bool {
    bytes[i] == 0xC2 && bytes.get(i + 1) == Some(&0xA0)
}

#[derive(Debug, Default)]
pub(super) struct Writer {
    pub(super) out: String,
    /// Newlines wanted before the next content: 0, 1 (line break) or 2 (blank line).
    pending_break: u8,
    /// The prefix length the blank line of a pending break uses (the outer one when a quote
    /// opened or closed since the break was asked for).
    break_prefix_len: usize,
    pending_space: bool,
    /// Openers of inline elements that have no content yet.
    pub(super) pending_open: String,
    /// `> ` and list indentation for every new line.
    pub(super) prefix: String,
    need_prefix: bool,
    /// Where the current block's content starts: breaks and spaces asked for here are dropped.
    pub(super) mark: usize,
    /// Inside a table cell, breaks are written without prefix (a grid cell flattens them).
    pub(super) in_cell: bool,
}

impl Writer {
    pub(super) fn new(capacity: usize) -> Self {
        Writer {
            out: String::with_capacity(capacity),
            need_prefix: true,
            ..Writer::default()
        }
    }

    /// Asks for `newlines` (1 or 2) before the next content.
    pub(super) fn request_break(&mut self, newlines: u8) {
        if self.pending_break == 0 {
            self.break_prefix_len = self.prefix.len();
        }
        self.pending_break = self.pending_break.max(newlines);
    }

    /// One more line break (`<br>`), up to a blank line.
    pub(super) fn line_break(&mut self) {
        if self.out.len() != self.mark {
            self.request_break((self.pending_break + 1).min(2));
        }
    }

    /// Shortens the prefix when a quote or list item closes.
    pub(super) fn truncate_prefix(&mut self, len: usize) {
        self.prefix.truncate(len);
        self.break_prefix_len = self.break_prefix_len.min(len);
    }

    /// Writes what must precede content: the pending break and prefix, then a pending space.
    pub(super) fn flush_block(&mut self) {
        if self.pending_break > 0 {
            if self.out.len() != self.mark {
                if self.in_cell {
                    // Kept for a layout table; a grid cell joins its lines.
                    for _ in 0..self.pending_break {
                        self.out.push('\n');
                    }
                } else {
                    self.out.push('\n');
                    if self.pending_break == 2 {
                        self.out.push_str(self.prefix[..self.break_prefix_len].trim_end());
                        self.out.push('\n');
                    }
                    self.need_prefix = true;
                }
            }
            self.pending_break = 0;
            self.pending_space = false;
            self.mark = self.out.len();
        }
        if self.need_prefix && !self.in_cell {
            self.need_prefix = false;
            self.out.push_str(&self.prefix);
            self.mark = self.out.len();
            self.pending_space = false;
        }
    }

    /// Writes everything that must precede content, then leaves the cursor where it goes.
    pub(super) fn flush_content(&mut self) {
        self.flush_block();
        if self.pending_space {
            self.pending_space = false;
            if self.out.len() != self.mark && !self.out.ends_with([' ', '\n']) {
                self.out.push(' ');
            }
        }
        if !self.pending_open.is_empty() {
            self.out.push_str(&self.pending_open);
            self.pending_open.clear();
        }
    }

    /// Text outside `<pre>`: runs of whitespace become one space, written only between words.
    pub(super) fn text(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let spaces = i;
            while i < bytes.len() {
                if is_space(bytes[i]) {
                    i += 1;
                } else if is_nbsp(bytes, i) {
                    i += 2;
                } else {
                    break;
                }
            }
            if i > spaces {
                self.pending_space = true;
            }
            let word = i;
            while i < bytes.len() && !is_space(bytes[i]) && !is_nbsp(bytes, i) {
                i += 1;
            }
            if i > word {
                self.flush_content();
                self.out.push_str(&text[word..i]);
            }
        }
    }

    /// Text written as it is (inside `<pre>`).
    pub(super) fn raw(&mut self, text: &str) {
        if !text.is_empty() {
            self.flush_content();
            self.out.push_str(text);
        }
    }

    /// Content that is not text (an image, a rule): written after what must precede it.
    pub(super) fn content(&mut self, markdown: &str) {
        self.flush_content();
        self.out.push_str(markdown);
    }

    /// Forgets a pending space (the start of a cell or code span).
    pub(super) fn drop_space(&mut self) {
        self.pending_space = false;
    }

    /// The Markdown, without the breaks still pending at the end.
    pub(super) fn finish(self) -> String {
        let mut out = self.out;
        let end = out.trim_end().len();
        out.truncate(end);
        out
    }
}
