//! The stack of open elements whose end writes Markdown (emphasis, links, code, headings,
//! lists, quotes, tables). An end tag with no open element of its kind is ignored in constant
//! time (per-kind counters), and an end tag that matches closes everything opened inside it,
//! so each element is pushed and popped once: misnested or unclosed markup stays linear. The
//! stack is bounded; elements past the bound keep their text and lose their Markdown.

use super::Converter;
use super::tags::{self, Open};

/// Open elements tracked at once; real pages stay in the tens.
const MAX_STACK: usize = 256;
/// Bytes of `> ` and list indentation written on each line (about 30 levels): deeper quotes
/// and lists keep the prefix they had, so a hostile page cannot multiply its lines' length.
const MAX_PREFIX: usize = 64;

#[derive(Debug, Clone, Copy)]
pub(super) struct Entry {
    pub(super) open: Open,
    /// A position saved at the start (in the output, the pending openers or the prefix).
    a: usize,
    /// A second one (link target, heading text start, list counter, list kind).
    b: usize,
}

impl Converter {
    pub(super) fn push(&mut self, open: Open, a: usize, b: usize) {
        self.counts[open as usize] += 1;
        self.stack.push(Entry { open, a, b });
    }

    pub(super) fn is_open(&self, open: Open) -> bool {
        self.counts[open as usize] > 0
    }

    /// Starts an element kept on the stack.
    pub(super) fn open(&mut self, open: Open) {
        if self.stack.len() >= MAX_STACK {
            return;
        }
        let in_pre = self.is_open(Open::Pre);
        match open {
            Open::Strong | Open::Emphasis | Open::Strike if !in_pre => {
                self.push(open, self.w.pending_open.len(), 0);
                self.w.pending_open.push_str(marker(open));
            }
            Open::Link => {
                // A link inside a link closes the first one, as browsers do.
                if self.is_open(Open::Link) {
                    self.close_to(Open::Link);
                }
                let href = self.attrs.href.trim();
                let usable = !(href.is_empty()
                    || href.starts_with('#')
                    || href.get(..11).is_some_and(|s| s.eq_ignore_ascii_case("javascript:")));
                if usable && !in_pre {
                    let start = self.hrefs.len();
                    for (i, part) in href.split(|c: char| c.is_ascii_whitespace()).enumerate() {
                        if i > 0 {
                            self.hrefs.push_str("%20");
                        }
                        self.hrefs.push_str(part);
                    }
                    self.push(open, self.w.pending_open.len(), start);
                    self.w.pending_open.push('[');
                }
            }
            // A code block's language is often on its `<code>`.
            Open::Code if in_pre && self.lang.is_empty() => {
                self.lang.push_str(tags::language(&self.attrs.class));
            }
            Open::Code if in_pre => {}
            Open::Code if !self.is_open(Open::Code) => {
                self.w.flush_content();
                self.w.mark = self.w.out.len();
                self.w.drop_space();
                self.push(open, self.w.out.len(), 0);
            }
            Open::Pre if !in_pre => {
                self.w.request_break(2);
                self.w.flush_block();
                self.w.drop_space();
                self.w.mark = self.w.out.len();
                self.lang.clear();
                self.lang.push_str(tags::language(&self.attrs.class));
                self.pre_fresh = true;
                self.push(open, self.w.out.len(), 0);
            }
            Open::Quote if !in_pre => {
                self.w.request_break(2);
                let before = self.w.prefix.len();
                if before < MAX_PREFIX {
                    self.w.prefix.push_str("> ");
                }
                self.push(open, before, 0);
            }
            Open::Item if !in_pre => self.open_item(),
            Open::Table | Open::Row | Open::Cell if in_pre => {}
            Open::Table if self.is_open(Open::Table) => {
                self.nested_tables += 1;
                self.w.request_break(1);
            }
            Open::Table => {
                self.table.begin(&mut self.w);
                self.push(open, 0, 0);
            }
            Open::Row | Open::Cell if self.nested_tables > 0 || !self.is_open(Open::Table) => {
                if open == Open::Row {
                    self.w.request_break(1);
                } else {
                    self.w.text(" ");
                }
            }
            Open::Row => {
                if self.is_open(Open::Row) {
                    self.close_to(Open::Row);
                }
                self.table.start_row();
                self.push(open, 0, 0);
            }
            Open::Cell => {
                if self.is_open(Open::Cell) {
                    self.close_to(Open::Cell);
                }
                if !self.is_open(Open::Row) {
                    self.table.start_row();
                    self.push(Open::Row, 0, 0);
                }
                self.table.start_cell(&mut self.w);
                self.push(open, 0, 0);
            }
            _ => {}
        }
    }

    pub(super) fn open_heading(&mut self, level: u8) {
        if self.is_open(Open::Heading) {
            self.close_to(Open::Heading);
        }
        if self.stack.len() >= MAX_STACK || self.is_open(Open::Pre) {
            return;
        }
        self.w.request_break(2);
        self.w.flush_block();
        let before = self.w.out.len();
        for _ in 0..level {
            self.w.out.push('#');
        }
        self.w.out.push(' ');
        self.w.mark = self.w.out.len();
        self.push(Open::Heading, before, self.w.out.len());
    }

    pub(super) fn open_list(&mut self, ordered: bool) {
        self.w.request_break(if self.is_open(Open::Item) { 1 } else { 2 });
        if self.stack.len() < MAX_STACK {
            let start = self.attrs.start.trim().parse::<usize>().unwrap_or(1).min(1_000_000_000);
            self.push(Open::List, usize::from(ordered), start);
        }
    }

    /// `<li>`: closes the previous item of the same list, then writes its marker (`- ` or the
    /// next number) and indents the item's further lines under it.
    fn open_item(&mut self) {
        let mut list = None;
        let mut item = None;
        for (i, entry) in self.stack.iter().enumerate().rev() {
            match entry.open {
                Open::List => {
                    list = Some(i);
                    break;
                }
                Open::Item if item.is_none() => item = Some(i),
                Open::Quote | Open::Cell | Open::Table => break,
                _ => {}
            }
        }
        if let Some(i) = item {
            self.close_from(i);
        }
        self.w.request_break(1);
        self.w.flush_block();
        let before = self.w.prefix.len();
        let marker = match list {
            Some(i) if self.stack[i].a == 1 => {
                let n = self.stack[i].b;
                self.stack[i].b = n + 1;
                format!("{n}. ")
            }
            _ => "- ".to_string(),
        };
        self.w.out.push_str(&marker);
        self.w.mark = self.w.out.len();
        if before + marker.len() <= MAX_PREFIX {
            self.w.prefix.extend(std::iter::repeat_n(' ', marker.len()));
        }
        self.push(Open::Item, before, 0);
    }

    /// Closes the innermost open `open` and everything opened inside it.
    pub(super) fn close_to(&mut self, open: Open) {
        if let Some(i) = self.stack.iter().rposition(|e| e.open == open) {
            self.close_from(i);
        }
    }

    /// Closes the entries from the top of the stack down to index `i` included.
    pub(super) fn close_from(&mut self, i: usize) {
        while self.stack.len() > i {
            let Some(entry) = self.stack.pop() else { break };
            self.counts[entry.open as usize] -= 1;
            self.close(entry);
        }
    }

    fn close(&mut self, Entry { open, a, b }: Entry) {
        let w = &mut self.w;
        match open {
            Open::Strong | Open::Emphasis | Open::Strike | Open::Link => {
                if w.pending_open.len() > a {
                    // Never written: the element had no content.
                    w.pending_open.truncate(a);
                } else if open == Open::Link {
                    w.out.push_str("](");
                    w.out.push_str(&self.hrefs[b..]);
                    w.out.push(')');
                } else {
                    w.out.push_str(marker(open));
                }
                if open == Open::Link {
                    self.hrefs.truncate(b);
                }
            }
            Open::Code => close_code(&mut w.out, a),
            Open::Pre => {
                let content = w.out.split_off(a);
                if !content.trim().is_empty() {
                    let fence = fence_for(&content, 3);
                    w.out.push_str(&fence);
                    w.out.push_str(&self.lang);
                    for line in content.strip_suffix('\n').unwrap_or(&content).split('\n') {
                        w.out.push('\n');
                        w.out.push_str(&w.prefix);
                        w.out.push_str(line);
                    }
                    w.out.push('\n');
                    w.out.push_str(&w.prefix);
                    w.out.push_str(&fence);
                }
                w.request_break(2);
            }
            Open::Heading => {
                if w.out.len() == b {
                    w.out.truncate(a);
                } else if w.out[b..].contains('\n') {
                    let text = w.out.split_off(b).replace('\n', " ");
                    w.out.push_str(&text);
                }
                w.mark = w.out.len().min(w.mark);
                w.request_break(2);
            }
            Open::List => {
                let nested = self.counts[Open::Item as usize] > 0;
                w.request_break(if nested { 1 } else { 2 });
            }
            Open::Item => {
                w.truncate_prefix(a);
                w.request_break(1);
            }
            Open::Quote => {
                w.truncate_prefix(a);
                w.request_break(2);
            }
            Open::Table => self.table.end(w),
            Open::Cell => self.table.end_cell(w),
            Open::Row | Open::Title => {}
        }
    }
}

fn marker(open: Open) -> &'static str {
    match open {
        Open::Strong => "**",
        Open::Emphasis => "*",
        _ => "~~",
    }
}

/// A run of backticks longer than any inside `content` (at least `min`).
fn fence_for(content: &str, min: usize) -> String {
    let (mut longest, mut run) = (0, 0);
    for byte in content.bytes() {
        run = if byte == b'`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    "`".repeat(min.max(longest + 1))
}

/// Wraps the inline code written since `start` in backticks (none when it is empty).
fn close_code(out: &mut String, start: usize) {
    if out.len() == start {
        return;
    }
    let fence = fence_for(&out[start..], 1);
    let pad = if out[start..].starts_with('`') || out.ends_with('`') {
        " "
    } else {
        ""
    };
    out.insert_str(start, &format!("{fence}{pad}"));
    out.push_str(pad);
    out.push_str(&fence);
}
