//! A linear look at the markup before the HTML parser sees it. html5ever is spec-compliant,
//! which makes deeply nested or never-closed elements quadratic: every new tag searches the
//! stack of open elements, so a hostile page of 200,000 unclosed `<div>`s (1 MB) parses for
//! minutes while a turn waits. Pages whose open elements pile up past `MAX_OPEN` (real pages
//! stay in the tens; 10,000 still parses in well under a second) are not parsed; their text is taken out by a single pass instead, so the
//! words still reach the model.

/// Open elements a page may pile up before it is read as text only.
pub(super) const MAX_OPEN: usize = 10_000;

/// Elements that never have a closing tag.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
];
/// Elements whose content is raw text up to their closing tag (skipped, never content).
const RAW: &[&str] = &["script", "style", "textarea", "title", "xmp", "noscript"];

/// The most elements open at once, counting opening tags against closing ones.
pub(super) fn max_open(html: &str) -> usize {
    let (mut open, mut max) = (0usize, 0usize);
    scan(html, |tag| match tag {
        Tag::Open { void: false, .. } => {
            open += 1;
            max = max.max(open);
        }
        Tag::Close => open = open.saturating_sub(1),
        Tag::Open { void: true, .. } => {}
    });
    max
}

/// The text of `html` without tags, scripts or styles, whitespace collapsed, the common
/// entities decoded: the fallback for pages the parser must not see.
pub(super) fn text_only(html: &str) -> String {
    let mut text = String::with_capacity(html.len() / 2);
    let mut last = 0;
    let bytes = html.as_bytes();
    let mut i = 0;
    while let Some(offset) = memchr::memchr(b'<', &bytes[i..]) {
        let start = i + offset;
        text.push_str(&html[last..start]);
        text.push(' ');
        let end = skip_markup(html, start);
        last = end;
        i = end;
        if i >= bytes.len() {
            break;
        }
    }
    if last < html.len() {
        text.push_str(&html[last..]);
    }
    decode_entities(&text.split_whitespace().collect::<Vec<_>>().join(" "))
}

enum Tag {
    Open { void: bool },
    Close,
}

/// Calls `on_tag` for every tag, skipping comments, doctypes and raw-text content.
fn scan(html: &str, mut on_tag: impl FnMut(Tag)) {
    let bytes = html.as_bytes();
    let mut i = 0;
    while let Some(offset) = memchr::memchr(b'<', &bytes[i..]) {
        let start = i + offset;
        let next = bytes.get(start + 1).copied().unwrap_or(0);
        if next == b'/' {
            on_tag(Tag::Close);
        } else if next.is_ascii_alphabetic() {
            let name = tag_name(html, start + 1);
            let end = tag_end(html, start);
            let self_closing = end >= 2 && bytes.get(end - 2) == Some(&b'/');
            // A raw-text element's closing tag is skipped with its content, so it never opens.
            on_tag(Tag::Open {
                void: self_closing || VOID.contains(&name.as_str()) || RAW.contains(&name.as_str()),
            });
        }
        i = skip_markup(html, start);
        if i >= bytes.len() {
            break;
        }
    }
}

/// The lower-cased name of the tag starting at `at`.
fn tag_name(html: &str, at: usize) -> String {
    let rest = &html[at..];
    let len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .unwrap_or(rest.len());
    rest[..len].to_ascii_lowercase()
}

/// The index just past the `>` of the tag starting at `start` (or the end of the text).
fn tag_end(html: &str, start: usize) -> usize {
    memchr::memchr(b'>', &html.as_bytes()[start..]).map_or(html.len(), |o| start + o + 1)
}

/// The index just past the markup starting at `start`: a comment, a tag, and for a raw-text
/// element everything up to its closing tag.
fn skip_markup(html: &str, start: usize) -> usize {
    let rest = &html[start..];
    if rest.starts_with("<!--") {
        return rest.find("-->").map_or(html.len(), |o| start + o + 3);
    }
    let end = tag_end(html, start);
    let next = rest.as_bytes().get(1).copied().unwrap_or(0);
    if next.is_ascii_alphabetic() {
        let name = tag_name(html, start + 1);
        if RAW.contains(&name.as_str()) {
            let closing = format!("</{name}");
            let lower_rest = &html[end..];
            return find_ascii_case_insensitive(lower_rest, &closing).map_or(html.len(), |o| tag_end(html, end + o));
        }
    }
    end
}

fn find_ascii_case_insensitive(haystack: &str, needle: &str) -> Option<usize> {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    (0..h.len().saturating_sub(n.len() - 1)).find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

fn decode_entities(text: &str) -> String {
    text.replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_open_elements_and_ignores_void_raw_and_comments() {
        assert_eq!(max_open("<div><p>a<br><img src=x/></p><p>b</p></div>"), 2);
        assert_eq!(max_open("<script>if (a<b) { '<div>' }</script><div></div>"), 1);
        assert_eq!(max_open("<!-- <div><div> --><span/>"), 0);
        assert_eq!(max_open(&"<div>".repeat(10_001)), 10_001);
    }

    #[test]
    fn text_only_keeps_the_words_and_drops_code() {
        let html =
            "<h1>Title</h1><SCRIPT>var x = '<b>';</SCRIPT><p>fish &amp; chips</p><style>p{}</style>\n<div>more</div>";
        assert_eq!(text_only(html), "Title fish & chips more");
        assert_eq!(text_only(&("<div>".repeat(200_000) + "deep")), "deep");
    }
}
