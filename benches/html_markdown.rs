//! HTML to Markdown on a generated 2 MB page shaped like real documentation: nested divs,
//! headings, links, tables, code blocks, lists, and the inline scripts, styles and SVG that
//! `web_extract` must drop; and 10,000 levels of nesting. Run with `cargo bench --bench html_markdown`.

use std::fmt::Write;

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use hermes_acp::net::page::html_to_markdown;

fn page(bytes: usize) -> String {
    let mut html = String::from(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Reference</title>\
         <style>body{margin:0}.nav>li{display:inline}</style>\
         <script>window.analytics={track:function(){}};</script></head><body>\
         <nav><ul><li><a href=\"/\">Home</a></li><li><a href=\"/docs\">Docs</a></li></ul></nav><main>",
    );
    let mut i = 0;
    while html.len() < bytes {
        let _ = write!(
            html,
            "<div class=\"section\"><div class=\"inner\"><h2 id=\"s{i}\">Section {i}</h2>\
             <p>Some <b>bold</b> and <i>italic</i> text with <a href=\"https://example.com/p/{i}\">a link</a> \
             and <code>inline_code()</code>. Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>\
             <table><thead><tr><th>Name</th><th>Value</th><th>Note</th></tr></thead><tbody>"
        );
        for row in 0..5 {
            let _ = write!(
                html,
                "<tr><td>row {row}</td><td>{}</td><td>note &amp; more</td></tr>",
                row * i
            );
        }
        let _ = write!(
            html,
            "</tbody></table><pre><code class=\"language-rust\">fn main() {{\n    println!(\"{i}\");\n}}\n</code></pre>\
             <ul><li>one</li><li>two <a href=\"/x\">x</a></li></ul><script>track('{i}')</script>\
             <svg viewBox=\"0 0 10 10\"><path d=\"M0 0L10 10\"/></svg></div></div>"
        );
        i += 1;
    }
    html.push_str("</main><footer>(c) 2026</footer></body></html>");
    html
}

fn bench(c: &mut Criterion) {
    let html = page(2 * 1024 * 1024);
    let mut group = c.benchmark_group("html_markdown");
    group.sample_size(10);
    group.bench_function("2MB page", |b| b.iter(|| html_to_markdown(black_box(&html))));
    // Hostile nesting: html5ever was quadratic here, the streaming converter must stay linear.
    let divs = "<div>".repeat(10_000) + "<p>deep</p>";
    group.bench_function("10k nested divs", |b| b.iter(|| html_to_markdown(black_box(&divs))));
    let mixed = "<blockquote><ul><li><b>".repeat(10_000) + "<p>deep</p>";
    group.bench_function("10k nested quotes, lists, bold", |b| {
        b.iter(|| html_to_markdown(black_box(&mixed)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
