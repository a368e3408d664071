//! What each HTML element means to the converter, by its (lower-cased) tag name. Elements not
//! named here are inline wrappers whose text passes through (`span`, custom elements).

/// Elements kept on the converter's stack of open elements (their end matters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Open {
    Strong,
    Emphasis,
    Strike,
    Link,
    Code,
    Pre,
    Heading,
    List,
    Item,
    Quote,
    Table,
    Row,
    Cell,
    Title,
}

/// How many `Open` kinds there are (the size of the per-kind counters).
pub(super) const OPEN_KINDS: usize = Open::Title as usize + 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Never page content: its whole subtree is skipped.
    Dropped,
    /// A block with no Markdown of its own: a blank line before and after.
    Block,
    /// A block on its own line (definition terms and descriptions).
    Line,
    Break,
    Rule,
    Image,
    Heading(u8),
    /// `ul` (false) or `ol` (true).
    List(bool),
    /// An element whose start and end build Markdown, tracked on the stack.
    Tracked(Open),
    /// Anything else (`span`, custom elements): its text passes through.
    Inline,
}

pub(super) fn kind_of(name: &[u8]) -> Kind {
    match name {
        b"script" | b"style" | b"noscript" | b"template" | b"svg" | b"canvas" | b"iframe" | b"object" | b"nav"
        | b"footer" | b"math" | b"select" => Kind::Dropped,
        b"p" | b"div" | b"section" | b"article" | b"main" | b"header" | b"aside" | b"address" | b"figure"
        | b"figcaption" | b"details" | b"summary" | b"dl" | b"form" | b"fieldset" | b"center" | b"hgroup"
        | b"caption" | b"body" | b"menu" => Kind::Block,
        b"dt" | b"dd" => Kind::Line,
        b"tr" => Kind::Tracked(Open::Row),
        b"br" => Kind::Break,
        b"hr" => Kind::Rule,
        b"img" => Kind::Image,
        b"h1" => Kind::Heading(1),
        b"h2" => Kind::Heading(2),
        b"h3" => Kind::Heading(3),
        b"h4" => Kind::Heading(4),
        b"h5" => Kind::Heading(5),
        b"h6" => Kind::Heading(6),
        b"ul" => Kind::List(false),
        b"ol" => Kind::List(true),
        b"li" => Kind::Tracked(Open::Item),
        b"b" | b"strong" => Kind::Tracked(Open::Strong),
        b"i" | b"em" => Kind::Tracked(Open::Emphasis),
        b"s" | b"del" | b"strike" => Kind::Tracked(Open::Strike),
        b"a" => Kind::Tracked(Open::Link),
        b"code" | b"kbd" | b"samp" | b"tt" => Kind::Tracked(Open::Code),
        b"pre" | b"xmp" | b"listing" | b"plaintext" => Kind::Tracked(Open::Pre),
        b"blockquote" => Kind::Tracked(Open::Quote),
        b"table" => Kind::Tracked(Open::Table),
        b"td" | b"th" => Kind::Tracked(Open::Cell),
        b"title" => Kind::Tracked(Open::Title),
        _ => Kind::Inline,
    }
}

/// The language of a code block from a `class` like `language-rust`, `lang-rust` or
/// `highlight-source-rust` (GitHub), empty when none.
pub(super) fn language(class: &str) -> &str {
    for word in class.split_ascii_whitespace() {
        for prefix in ["language-", "lang-", "highlight-source-"] {
            if let Some(lang) = word.strip_prefix(prefix)
                && !lang.is_empty()
                && lang.bytes().all(|b| b.is_ascii_alphanumeric() || b"+-_#.".contains(&b))
            {
                return lang;
            }
        }
    }
    ""
}
