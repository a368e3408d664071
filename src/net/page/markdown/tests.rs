//! The conversion rules one by one, and hostile markup: unclosed and misnested tags, stray
//! table parts, deep nesting, huge attributes, binary junk, `<plaintext>`.

use super::*;

fn md(html: &str) -> String {
    html_to_markdown(html)
}

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
fn a_page_without_title_has_none() {
    assert_eq!(convert("<p>hi</p>"), (None, "hi".to_string()));
    assert_eq!(convert("<title> </title><p>hi</p>").0, None);
    assert_eq!(
        convert("<title>A</title><svg><title>B</title></svg><title>C</title>")
            .0
            .as_deref(),
        Some("A")
    );
}

#[test]
fn headings_paragraphs_and_line_breaks() {
    assert_eq!(
        md("<h1>One</h1><p>a</p><h3>Three\n<br>more</h3><p>b<br>c<br><br><br>d</p>"),
        "# One\n\na\n\n### Three more\n\nb\nc\n\nd"
    );
    assert_eq!(md("<h2></h2><p>x</p><div><div></div></div><p></p><p>y</p>"), "x\n\ny");
}

#[test]
fn whitespace_collapses_outside_pre_and_entities_are_decoded() {
    assert_eq!(
        md("<p>  a \n\t b&nbsp;&nbsp;c &amp; &lt;d&gt; &eacute; </p>"),
        "a b c & <d> é"
    );
    assert_eq!(md("a<b> bold </b>b <i>it</i>."), "a **bold** b *it*.");
    assert_eq!(md("<b></b><i> </i>x<s>gone</s>"), "x~~gone~~");
}

#[test]
fn inline_code_and_fenced_blocks() {
    assert_eq!(md("<p>call <code>f(x)</code> now</p>"), "call `f(x)` now");
    assert_eq!(md("<code>a`b</code>"), "``a`b``");
    assert_eq!(
        md("<pre>\n  indented\n\n<b>bold</b> kept</pre>"),
        "```\n  indented\n\nbold kept\n```"
    );
    assert_eq!(md("<pre class=\"lang-py\">```\nx</pre>"), "````py\n```\nx\n````");
    assert_eq!(
        md("<pre><code class=\"hljs language-go\">go()</code></pre>"),
        "```go\ngo()\n```"
    );
    // Markup inside a code block is text, not Markdown.
    assert_eq!(
        md("<pre><ul><li>x</li></ul><blockquote>y</blockquote><h1>z</h1><table><td>t</pre>"),
        "```\nxyzt\n```"
    );
}

#[test]
fn links_and_images() {
    assert_eq!(
        md("<a href=\"/a b\">x</a> <a href=\"javascript:void(0)\">js</a> <a href=\"#top\">top</a>"),
        "[x](/a%20b) js top"
    );
    assert_eq!(
        md("<a href=\"/e\"></a><a href=\"/i\"><img src=\"/i.png\" alt=\"i\"></a>"),
        "[![i](/i.png)](/i)"
    );
    assert_eq!(md("<a href=\"/1\">one<a href=\"/2\">two</a>"), "[one](/1)[two](/2)");
    assert_eq!(
        md("<img src=\"data:image/gif;base64,R0lG\"><img alt=\"no src\">"),
        "[IMAGE]"
    );
}

#[test]
fn nested_and_ordered_lists() {
    assert_eq!(
        md("<ul><li>one<ul><li>sub</li></ul></li><li>two</li></ul><p>after</p>"),
        "- one\n  - sub\n- two\n\nafter"
    );
    assert_eq!(md("<ol start=\"3\"><li>c<li>d</ol>"), "3. c\n4. d");
    assert_eq!(md("<ol><li>a<br>b</li></ol>"), "1. a\n   b");
}

#[test]
fn blockquotes_and_rules() {
    assert_eq!(
        md("<p>a</p><blockquote><p>q1</p><p>q2</p></blockquote><hr><p>b</p>"),
        "a\n\n> q1\n>\n> q2\n\n---\n\nb"
    );
    assert_eq!(md("<blockquote><pre>x\ny</pre></blockquote>"), "> ```\n> x\n> y\n> ```");
}

#[test]
fn tables_are_padded_pipe_tables() {
    let html = "<table><caption>Cap</caption><thead><tr><th>Name</th><th>Notes</th></tr></thead>\
        <tbody><tr><td>a|b</td><td><p>one</p><p>two</p></td></tr><tr><td>c</td></tr></tbody></table><p>after</p>";
    assert_eq!(
        md(html),
        "Cap\n\n| Name | Notes   |\n| ---- | ------- |\n| a\\|b | one two |\n| c    |         |\n\nafter"
    );
    let long = "long ".repeat(20);
    assert_eq!(
        md(&format!(
            "<table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>{long}</td></tr></table>"
        )),
        format!("| k   | v |\n| --- | --- |\n| a   | {} |", long.trim())
    );
    // A layout table (one column) reads as paragraphs.
    assert_eq!(
        md("<table><tr><td><p>x</p><p>y</p></td></tr><tr><td>z</td></tr></table>"),
        "x\n\ny\n\nz"
    );
    // A table inside a cell is flattened into it.
    assert_eq!(
        md("<table><tr><td>a<table><tr><td>in</td><td>ner</td></tr></table></td><td>b</td></tr></table>"),
        "| a in ner | b   |\n| -------- | --- |"
    );
}

#[test]
fn unclosed_and_misnested_tags_do_not_lose_text() {
    assert_eq!(
        md("<p><b>bold <i>both</b> after</i></p><li>stray"),
        "**bold *both*** after\n\n- stray"
    );
    assert_eq!(md("</td></tr></table></li></ul></a></b>text<td>cell"), "text cell");
    assert_eq!(
        md("<table><tr><td>a<td>b<tr><td>c</table>"),
        "| a   | b   |\n| --- | --- |\n| c   |     |"
    );
    assert_eq!(md("<ul><li>a<li>b"), "- a\n- b");
    assert_eq!(md("<div><h1>open"), "# open");
}

#[test]
fn hostile_inputs_stay_linear_and_keep_their_words() {
    let deep = format!("<h1>Top</h1>{}<p>deep &amp; down</p>", "<div>".repeat(100_000));
    assert_eq!(md(&deep), "# Top\n\ndeep & down");
    let quotes = "<blockquote>".repeat(10_000) + "q";
    assert!(
        md(&quotes).ends_with("> q") && md(&quotes).len() < 100,
        "{}",
        md(&quotes)
    );
    let lists = "<ul><li>".repeat(10_000) + "x";
    assert!(md(&lists).len() < 10_000 * 100, "list markers are bounded");
    let bolds = "<b>".repeat(100_000) + "x" + &"</span>".repeat(100_000);
    assert!(md(&bolds).contains('x'));
    let attr = format!(
        "<a href=\"/{}\" class=\"{}\">big</a>",
        "h".repeat(1 << 20),
        "c".repeat(1 << 20)
    );
    assert!(md(&attr).starts_with("[big](/hhh"));
    let cells = format!(
        "<table><tr>{}</tr>{}</table>",
        "<td>x".repeat(20_000),
        "<tr><td>y".repeat(20_000)
    );
    assert!(md(&cells).len() < 2_000_000, "padding is bounded");
}

#[test]
fn junk_and_plaintext_do_not_panic() {
    let junk: String = (0u32..5000)
        .filter_map(|i| char::from_u32(i * 7919 % 0x11000))
        .collect();
    let _ = md(&junk);
    let _ = md("<\0<a\u{feff} href='\u{0}'>\u{fffd}</<!--<![CDATA[<x y=\"");
    assert_eq!(
        md("<p>a</p><plaintext><b>not bold</b>"),
        "a\n\n```\n<b>not bold</b>\n```"
    );
    assert_eq!(md("<script>unclosed <p>never shown"), "");
    assert_eq!(md("<nav><nav></nav>still nav</nav>shown"), "shown");
}
