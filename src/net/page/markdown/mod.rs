//! HTML to Markdown in one streaming pass over `html5gum`'s WHATWG tokenizer, with no DOM:
//! each tag and text run is turned into Markdown as it comes (`writer.rs` for whitespace and
//! block breaks, `blocks.rs` for the elements whose end matters, `table.rs` for pipe tables).
//! Scripts, styles, SVG, frames, navigation and footers are skipped; the `<title>` is returned
//! beside the text; inline `data:` images become `[IMAGE: alt]` (a base64 blob is thousands of
//! useless tokens, as in Hermes' `convert_base64_images_to_links`). Time and output are linear
//! in the input whatever the nesting: a hostile page cannot stall a turn.

mod blocks;
mod table;
mod tags;
mod writer;

use std::borrow::Cow;
use std::convert::Infallible;

use html5gum::emitters::callback::{Callback, CallbackEmitter, CallbackEvent};
use html5gum::{Emitter, ForwardingEmitter, Span, Tokenizer};

use tags::{Kind, OPEN_KINDS, Open};

/// The Markdown of `html` (the title left out).
pub fn html_to_markdown(html: &str) -> String {
    convert(html).1
}

/// The page's title (whitespace collapsed, `None` when absent or blank) and its Markdown.
pub(super) fn convert(html: &str) -> (Option<String>, String) {
    let mut converter = Converter::new(html.len() / 2);
    let mut emitter = CallbackEmitter::new(&mut converter);
    // Switches to raw text after `<script>`, `<style>`, `<title>`, `<plaintext>`... by tag
    // name, as a tree builder would in HTML content.
    emitter.naively_switch_states(true);
    // The callback yields no tokens and reading a `&str` cannot fail: this only drives it.
    Tokenizer::new_with_emitter(html, Quiet(emitter)).for_each(drop);
    converter.finish()
}

/// The callback emitter without parse errors: a page's errors change nothing here, and
/// checking every byte for them took a fifth of the time.
struct Quiet<'c>(CallbackEmitter<&'c mut Converter>);

impl ForwardingEmitter for Quiet<'_> {
    type Token = Infallible;

    fn inner(&mut self) -> &mut impl Emitter<Token = Infallible> {
        &mut self.0
    }

    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn emit_error(&mut self, _error: html5gum::Error) {}
}

/// The attributes the rules read, taken from the start tag being read.
#[derive(Debug, Default)]
struct Attrs {
    href: String,
    src: String,
    alt: String,
    class: String,
    start: String,
    /// Which of the above the attribute being read fills.
    slot: Option<usize>,
    /// The attributes already seen in this tag (the first of a duplicate wins).
    seen: u8,
}

impl Attrs {
    fn clear(&mut self) {
        for value in [
            &mut self.href,
            &mut self.src,
            &mut self.alt,
            &mut self.class,
            &mut self.start,
        ] {
            value.clear();
        }
        self.slot = None;
        self.seen = 0;
    }

    fn name(&mut self, name: &[u8]) {
        let slot = match name {
            b"href" => 0,
            b"src" => 1,
            b"alt" => 2,
            b"class" => 3,
            b"start" => 4,
            _ => {
                self.slot = None;
                return;
            }
        };
        let first = self.seen & (1 << slot) == 0;
        self.seen |= 1 << slot;
        self.slot = first.then_some(slot);
    }

    fn value(&mut self, value: &[u8]) {
        let target = match self.slot {
            Some(0) => &mut self.href,
            Some(1) => &mut self.src,
            Some(2) => &mut self.alt,
            Some(3) => &mut self.class,
            Some(4) => &mut self.start,
            _ => return,
        };
        target.push_str(&utf8(value));
    }
}

pub(super) struct Converter {
    w: writer::Writer,
    stack: Vec<blocks::Entry>,
    counts: [u32; OPEN_KINDS],
    table: table::Table,
    /// Tables opened inside the tracked table: their parts are flattened into its cell.
    nested_tables: usize,
    /// The element being skipped and how many of its kind are open inside it.
    dropping: Option<(Vec<u8>, usize)>,
    /// The targets of the open links, one after the other.
    hrefs: String,
    /// The language of the open code block.
    lang: String,
    /// No text yet in the open `<pre>` (its first newline is not content).
    pre_fresh: bool,
    in_title: bool,
    title: Option<String>,
    tag: Vec<u8>,
    /// Reading the attributes of a start tag whose rule reads them.
    in_start_tag: bool,
    attrs: Attrs,
}

impl Callback<Infallible, ()> for &mut Converter {
    fn handle_event(&mut self, event: CallbackEvent<'_>, _span: Span<()>) -> Option<Infallible> {
        match event {
            CallbackEvent::OpenStartTag { name } => {
                self.tag.clear();
                self.tag.extend_from_slice(name);
                self.attrs.clear();
                // Only these read attributes; the `class` of every `div` is not copied.
                self.in_start_tag = matches!(name, b"a" | b"img" | b"pre" | b"code" | b"ol");
            }
            CallbackEvent::AttributeName { name } if self.in_start_tag => self.attrs.name(name),
            CallbackEvent::AttributeValue { value } if self.in_start_tag => self.attrs.value(value),
            CallbackEvent::CloseStartTag { self_closing } => {
                self.in_start_tag = false;
                let tag = std::mem::take(&mut self.tag);
                self.start_tag(&tag, self_closing);
                self.tag = tag;
            }
            CallbackEvent::EndTag { name } => {
                self.in_start_tag = false;
                self.end_tag(name);
            }
            CallbackEvent::String { value } => self.text(&utf8(value)),
            _ => {}
        }
        None
    }
}

/// The tokenizer hands out bytes of the `&str` it reads, so they are UTF-8 but for a cut
/// that cannot happen; lossy rather than a panic all the same.
fn utf8(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

impl Converter {
    fn new(capacity: usize) -> Self {
        Converter {
            w: writer::Writer::new(capacity),
            stack: Vec::new(),
            counts: [0; OPEN_KINDS],
            table: table::Table::default(),
            nested_tables: 0,
            dropping: None,
            hrefs: String::new(),
            lang: String::new(),
            pre_fresh: false,
            in_title: false,
            title: None,
            tag: Vec::new(),
            in_start_tag: false,
            attrs: Attrs::default(),
        }
    }

    fn start_tag(&mut self, name: &[u8], self_closing: bool) {
        if let Some((dropped, depth)) = &mut self.dropping {
            if name == dropped.as_slice() && !self_closing {
                *depth += 1;
            }
            return;
        }
        let in_pre = self.is_open(Open::Pre);
        match tags::kind_of(name) {
            Kind::Dropped if !self_closing => self.dropping = Some((name.to_vec(), 1)),
            Kind::Block if !in_pre => self.w.request_break(2),
            Kind::Line if !in_pre => self.w.request_break(1),
            Kind::Break => self.line_break(),
            Kind::Rule if !in_pre => {
                self.w.request_break(2);
                self.w.content("---");
                self.w.request_break(2);
            }
            Kind::Image => self.image(),
            Kind::Heading(level) => self.open_heading(level),
            Kind::List(ordered) if !in_pre => self.open_list(ordered),
            Kind::Tracked(Open::Title) => self.in_title = true,
            Kind::Tracked(open) => self.open(open),
            _ => {}
        }
    }

    fn end_tag(&mut self, name: &[u8]) {
        if let Some((dropped, depth)) = &mut self.dropping {
            if name == dropped.as_slice() {
                *depth -= 1;
                if *depth == 0 {
                    self.dropping = None;
                }
            }
            return;
        }
        let in_pre = self.is_open(Open::Pre);
        match tags::kind_of(name) {
            Kind::Block if !in_pre => self.w.request_break(2),
            Kind::Line if !in_pre => self.w.request_break(1),
            // `</br>` is read as `<br>`, as browsers do.
            Kind::Break => self.line_break(),
            Kind::Heading(_) => self.close_to(Open::Heading),
            Kind::List(_) => self.close_to(Open::List),
            Kind::Tracked(Open::Title) => self.in_title = false,
            Kind::Tracked(Open::Table) if self.nested_tables > 0 => self.nested_tables -= 1,
            Kind::Tracked(Open::Row | Open::Cell) if self.nested_tables > 0 => {}
            Kind::Tracked(open) => self.close_to(open),
            _ => {}
        }
    }

    fn line_break(&mut self) {
        if self.is_open(Open::Pre) {
            self.w.raw("\n");
        } else {
            self.w.line_break();
        }
    }

    fn text(&mut self, text: &str) {
        if self.dropping.is_some() {
            return;
        }
        if self.in_title {
            let title = text.split_whitespace().collect::<Vec<_>>().join(" ");
            if self.title.is_none() && !title.is_empty() {
                self.title = Some(title);
            }
        } else if self.is_open(Open::Pre) {
            let text = if self.pre_fresh {
                text.strip_prefix('\n').unwrap_or(text)
            } else {
                text
            };
            self.pre_fresh = false;
            self.w.raw(text);
        } else if self.is_open(Open::Table) && !self.is_open(Open::Cell) && text.trim().is_empty() {
            // Whitespace between rows and cells.
        } else {
            self.w.text(text);
        }
    }

    /// `![alt](src)`, or `[IMAGE: alt]` for an inline `data:` image.
    fn image(&mut self) {
        let src = self.attrs.src.trim();
        if src.is_empty() {
            return;
        }
        let mut alt = String::new();
        for word in self.attrs.alt.split_whitespace() {
            if !alt.is_empty() {
                alt.push(' ');
            }
            alt.push_str(word);
        }
        let markdown = if src.get(..5).is_some_and(|s| s.eq_ignore_ascii_case("data:")) {
            if alt.is_empty() {
                "[IMAGE]".to_string()
            } else {
                format!("[IMAGE: {alt}]")
            }
        } else {
            format!("![{alt}]({})", src.replace(|c: char| c.is_ascii_whitespace(), "%20"))
        };
        self.w.content(&markdown);
    }

    fn finish(mut self) -> (Option<String>, String) {
        self.close_from(0);
        (self.title, self.w.finish())
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod soup_tests;
