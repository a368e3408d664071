//! Random tag soup, seeded and reproducible: every tag the converter knows, nested at random,
//! misnested, left unclosed, with quoted and unquoted attributes (newlines, `>`, entities),
//! entities and comments in the text and `<pre>` in tables in lists. Each document must
//! convert without a panic, without a U+FFFD the input did not have, and with every word of
//! text that sits outside a dropped element (and outside `<title>`) somewhere in the output.

use super::html_to_markdown;

/// xorshift64*: enough randomness for a generator, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Every element the converter gives a meaning to, and a few it passes through.
const TAGS: &[&str] = &[
    "p",
    "div",
    "section",
    "article",
    "main",
    "header",
    "aside",
    "address",
    "figure",
    "figcaption",
    "details",
    "summary",
    "dl",
    "dt",
    "dd",
    "form",
    "fieldset",
    "center",
    "hgroup",
    "caption",
    "body",
    "menu",
    "tr",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "li",
    "b",
    "strong",
    "i",
    "em",
    "s",
    "del",
    "strike",
    "a",
    "code",
    "kbd",
    "samp",
    "tt",
    "pre",
    "listing",
    "blockquote",
    "table",
    "td",
    "th",
    "span",
    "my-widget",
    "nav",
    "footer",
    "svg",
    "math",
    "select",
    "template",
    "canvas",
    "object",
    "thead",
    "tbody",
];
const VOID: &[&str] = &["br", "hr", "img"];
/// Elements the tokenizer reads as raw text up to their end tag.
const RAW: &[&str] = &[
    "script", "style", "iframe", "noscript", "xmp", "title", "textarea", "noembed",
];
/// What `tags::kind_of` drops with its subtree.
const DROPPED: &[&str] = &[
    "script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "nav", "footer", "math", "select",
];
const ATTR_NAMES: &[&str] = &["href", "src", "alt", "class", "start", "id", "data-x", "onclick"];
const ATTR_VALUES: &[&str] = &[
    "",
    "x\ny 'q' > <b> &amp; z",
    "language-rust",
    "lang-",
    "data:image/png;base64,AAAA",
    "javascript:alert(1)",
    "-5",
    "99999999999999999999999",
    "1e9",
    "https://example.com/a b",
    "ü日本🦀",
];
const ENTITIES: &[&str] = &[
    "&amp;",
    "&lt;",
    "&gt;",
    "&quot;",
    "&nbsp;",
    "&#65;",
    "&#x3b1;",
    "&copy",
    "&bogus;",
    "&",
    "&#x1F980;",
    // Markup-like junk that ends itself, and characters that are not quite whitespace.
    "< ",
    "</>",
    "<?php x ?>",
    "<![CDATA[x]]>",
    "\r\n",
    "\r",
    "\u{200B}",
    "\u{202E}",
    "\u{0301}",
    "\u{000C}",
    "*_`|#",
];

/// One document and the words that must survive it.
struct Soup {
    rng: Rng,
    html: String,
    expected: Vec<String>,
    words: u32,
    open: Vec<&'static str>,
    /// Mirrors the converter: the element being skipped and how many of its kind are open.
    dropping: Option<(&'static str, usize)>,
}

impl Soup {
    fn word(&mut self, keep: bool) {
        self.words += 1;
        let word = if self.rng.below(5) == 0 {
            format!("ü{}ß", self.words)
        } else {
            format!("q{}z", self.words)
        };
        self.html.push(' ');
        self.html.push_str(&word);
        self.html.push(' ');
        if keep && self.dropping.is_none() {
            self.expected.push(word);
        }
    }

    fn start(&mut self, name: &'static str, self_closing: bool) {
        let shown = if self.rng.below(6) == 0 {
            name.to_uppercase()
        } else {
            name.to_string()
        };
        self.html.push('<');
        self.html.push_str(&shown);
        for _ in 0..self.rng.below(3) {
            let (key, value) = (self.rng.pick(ATTR_NAMES), self.rng.pick(ATTR_VALUES));
            match self.rng.below(3) {
                0 => self.html.push_str(&format!(" {key}=\"{}\"", value.replace('"', ""))),
                1 => self.html.push_str(&format!(" {key}='{}'", value.replace('\'', ""))),
                _ => {
                    let bare: String = value.chars().filter(|c| !"\"'<>=` \n".contains(*c)).collect();
                    // `key= />` would read `/` as the value: no `=` without a value.
                    if bare.is_empty() {
                        self.html.push_str(&format!(" {key}"));
                    } else {
                        self.html.push_str(&format!(" {key}={bare}"));
                    }
                }
            }
        }
        // A space first: an unquoted value would swallow the slash.
        self.html.push_str(if self_closing { " />" } else { ">" });
        match &mut self.dropping {
            Some((dropped, depth)) if *dropped == name && !self_closing => *depth += 1,
            Some(_) => {}
            None if DROPPED.contains(&name) && !self_closing => self.dropping = Some((name, 1)),
            None => {}
        }
    }

    fn end(&mut self, name: &'static str) {
        self.html.push_str(&format!("</{name}>"));
        if let Some((dropped, depth)) = &mut self.dropping
            && *dropped == name
        {
            *depth -= 1;
            if *depth == 0 {
                self.dropping = None;
            }
        }
    }

    fn step(&mut self) -> bool {
        match self.rng.below(100) {
            0..40 => self.word(true),
            40..62 => {
                let name = self.rng.pick(TAGS);
                let self_closing = self.rng.below(20) == 0;
                self.start(name, self_closing);
                if !self_closing {
                    self.open.push(name);
                }
            }
            62..65 => {
                let name = self.rng.pick(VOID);
                self.start(name, false);
            }
            65..70 => {
                // Raw text: words, then the end tag at once (the tokenizer reads up to it).
                let name = self.rng.pick(RAW);
                self.start(name, false);
                let keep = !DROPPED.contains(&name) && name != "title";
                for _ in 0..=self.rng.below(3) {
                    self.word(keep);
                }
                self.end(name);
            }
            70..85 if !self.open.is_empty() => {
                // The innermost, or one further out (misnested).
                let at = if self.rng.below(2) == 0 {
                    self.open.len() - 1
                } else {
                    self.rng.below(self.open.len())
                };
                let name = self.open.remove(at);
                self.end(name);
            }
            70..88 => {
                let name = self.rng.pick(TAGS);
                self.end(name);
            }
            88..93 => {
                let entity = self.rng.pick(ENTITIES);
                self.html.push_str(&format!(" {entity} "));
            }
            93..95 => self.html.push_str(" <!-- q0z \n --> "),
            95..98 => {
                self.html.push_str("<ul><li><table><tr><td><pre>");
                self.word(true);
                self.html.push('\n');
                self.word(true);
                self.html.push_str("</pre><td>");
                self.word(true);
                self.html.push_str("</table></ul>");
            }
            98 => {
                // Everything after `<plaintext>` is text.
                self.start("plaintext", false);
                for _ in 0..3 {
                    self.word(true);
                    self.html.push_str("<b></p>&amp;");
                }
                return false;
            }
            _ => self.html.push_str("\n\n \t"),
        }
        true
    }
}

fn soup(seed: u64) -> Soup {
    let mut soup = Soup {
        rng: Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
        html: String::new(),
        expected: Vec::new(),
        words: 0,
        open: Vec::new(),
        dropping: None,
    };
    let steps = 1 + soup.rng.below(80);
    for _ in 0..steps {
        if !soup.step() {
            return soup;
        }
    }
    // Close some of what is open, leave the rest unclosed.
    while let Some(name) = soup.open.pop() {
        if soup.rng.below(2) == 0 {
            soup.end(name);
        }
    }
    soup
}

#[test]
fn random_tag_soup_keeps_every_word_and_never_panics() {
    for seed in 0..4000 {
        let soup = soup(seed);
        let markdown = html_to_markdown(&soup.html);
        assert!(
            !markdown.contains('\u{FFFD}'),
            "seed {seed}: U+FFFD not in the input\n--- html\n{}\n--- markdown\n{markdown}",
            soup.html
        );
        for word in &soup.expected {
            assert!(
                markdown.contains(word.as_str()),
                "seed {seed}: `{word}` lost\n--- html\n{}\n--- markdown\n{markdown}",
                soup.html
            );
        }
    }
}
