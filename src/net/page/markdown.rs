//! HTML to Markdown with `htmd` (turndown's rules on html5ever's spec-compliant parse): tables,
//! fenced code, links and headings kept; scripts, styles, embedded frames and navigation chrome
//! dropped; the `<title>` taken out of the text and returned beside it; inline `data:` images
//! replaced by `[IMAGE: alt]` (a base64 blob is thousands of useless tokens to the model, as in
//! Hermes' `convert_base64_images_to_links`).

use std::sync::{Arc, Mutex};

use htmd::element_handler::{HandlerResult, Handlers};
use htmd::{Element, HtmlToMarkdown};

/// Elements whose text is never page content: code, styling, embedded documents, and the site
/// chrome (navigation, footers) that repeats on every page and crowds the window.
const DROPPED: &[&str] = &[
    "script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "embed", "nav", "footer",
];

/// The Markdown of `html` (the title left out).
pub fn html_to_markdown(html: &str) -> String {
    convert(html).1
}

/// The page's title (whitespace collapsed, `None` when absent or blank) and its Markdown.
pub(super) fn convert(html: &str) -> (Option<String>, String) {
    if super::prescan::max_open(html) > super::prescan::MAX_OPEN {
        tracing::warn!("page nests elements too deeply to parse; taking its text only");
        return (None, super::prescan::text_only(html));
    }
    let title: Arc<Mutex<Option<String>>> = Arc::default();
    let seen = Arc::clone(&title);
    // Built per call because the title handler writes into this call's slot; building costs
    // microseconds against milliseconds of parsing.
    let converter = HtmlToMarkdown::builder()
        .skip_tags(DROPPED.to_vec())
        .add_handler(vec!["title"], move |handlers: &dyn Handlers, element: Element| {
            let text = handlers.walk_children(element.node).content;
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            let mut slot = seen.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            if slot.is_none() && !text.is_empty() {
                *slot = Some(text);
            }
            None
        })
        .add_handler(vec!["img"], |handlers: &dyn Handlers, element: Element| {
            let attr = |name: &str| {
                (element.attrs.iter())
                    .find(|a| &*a.name.local == name)
                    .map(|a| a.value.to_string())
            };
            match attr("src") {
                Some(src) if src.trim_start().starts_with("data:") => {
                    let alt = attr("alt").unwrap_or_default();
                    let alt = alt.trim();
                    let placeholder = if alt.is_empty() {
                        "[IMAGE]".to_string()
                    } else {
                        format!("[IMAGE: {alt}]")
                    };
                    Some(HandlerResult::from(placeholder))
                }
                _ => handlers.fallback(element),
            }
        })
        .build();
    // Parsing only fails on an I/O error from its in-memory sink, which cannot happen.
    let markdown = match converter.html_to_tree(html) {
        Ok(tree) => {
            super::depth::flatten_deep(&tree, DROPPED);
            converter.tree_to_markdown(&tree)
        }
        Err(_) => String::new(),
    };
    let title = title.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
    (title, markdown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_structure_and_drops_code_and_chrome() {
        let html = r#"<!doctype html><html><head><title>  The
            Title </title><style>.x{color:red}</style><script>var leaked = 1;</script></head>
            <body><nav><a href="/">Home</a></nav><h1>Heading</h1>
            <p>Text with <a href="https://example.com/a">a link</a>.</p>
            <table><tr><th>Name</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table>
            <pre><code class="language-rust">fn main() {}
</code></pre><noscript>enable js</noscript><svg><text>drawn</text></svg>
            <img src="data:image/png;base64,AAAA" alt="chart"><img src="https://example.com/i.png" alt="real">
            <footer>Copyright</footer></body></html>"#;
        let (title, markdown) = convert(html);
        assert_eq!(title.as_deref(), Some("The Title"));
        for gone in [
            "leaked",
            "color:red",
            "Home",
            "enable js",
            "drawn",
            "Copyright",
            "base64",
            "The Title",
        ] {
            assert!(!markdown.contains(gone), "{gone} in:\n{markdown}");
        }
        for kept in [
            "# Heading",
            "[a link](https://example.com/a)",
            "| Name | Value |",
            "| a    | 1     |",
            "```rust\nfn main() {}\n```",
            "[IMAGE: chart]",
            "![real](https://example.com/i.png)",
        ] {
            assert!(markdown.contains(kept), "{kept} missing from:\n{markdown}");
        }
    }

    #[test]
    fn a_page_nested_past_the_parser_bound_is_read_as_text() {
        let deep = format!(
            "<h1>Top</h1>{}<p>deep &amp; down</p>",
            "<div>".repeat(super::super::prescan::MAX_OPEN + 1)
        );
        assert_eq!(convert(&deep), (None, "Top deep & down".to_string()));
    }

    #[test]
    fn a_page_without_title_has_none() {
        assert_eq!(convert("<p>hi</p>"), (None, "hi".to_string()));
        assert_eq!(convert("<title> </title><p>hi</p>").0, None);
    }
}
