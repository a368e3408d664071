//! The `web_extract` tool: up to five pages, through the extract backend chosen at start or,
//! with none, fetched here (`native`). Results keep the order of the `urls` given, each as
//! `{url, title, content, error}`; a page longer than the budget comes back as head and tail
//! with the full text saved (`net::page::fit_to_limit`, for backend pages too). Always offered: the native path needs no
//! credentials.

use futures::future::BoxFuture;
use serde_json::{Value, json};

use std::sync::Arc;

use super::backends::{Doc, ExtractRoute, WebBackends};
use super::{native, render, truncate, urls};
use crate::runtime::describe::{Presentation, ToolEffect, ToolKind};
use crate::runtime::{Tool, ToolContext, ToolOutput, args};

const DESCRIPTION: &str = "Extract content from web page URLs. Returns clean page content in markdown/text (no LLM summarization — fast). Also works with PDF URLs (arxiv papers, documents) — pass the PDF link directly. Pages within the char budget (default 15000) return whole; larger pages return a head+tail window with a footer telling you the full text's saved file path and the read_file call to page through the omitted middle. Inline images appear as [IMAGE: alt] placeholders; real image URLs are kept as links. If a URL fails or times out, use the browser tool instead.";

/// Hermes passes at most five URLs on.
const MAX_URLS: usize = 5;

/// The `web_extract` tool.
#[derive(Clone, Default)]
pub struct WebExtractTool {
    /// The backends resolved once from `web:` and the environment.
    web: Arc<WebBackends>,
}

impl WebExtractTool {
    pub fn new(web: Arc<WebBackends>) -> WebExtractTool {
        WebExtractTool { web }
    }
}

/// One page of the call: where it is in the `urls` list and what became of it.
struct Page {
    index: usize,
    doc: Doc,
}

async fn run(web: &WebBackends, ctx: &ToolContext, args: &Value) -> Value {
    let items: Vec<Value> = match args.get("urls") {
        Some(Value::Array(items)) => items.iter().take(MAX_URLS).cloned().collect(),
        _ => Vec::new(),
    };
    let mut pages = Vec::new();
    let mut wanted: Vec<(usize, String)> = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let Some(raw) = urls::item_url(item) else {
            pages.push(Page {
                index,
                doc: Doc::failed("", urls::invalid_item(index)),
            });
            continue;
        };
        let url = urls::normalise(&raw);
        if let Some(refusal) = urls::secret_refusal(&url, &ctx.services.secrets) {
            return json!({"success": false, "error": refusal});
        }
        wanted.push((index, url));
    }
    let limit = match args::int(args, "char_limit") {
        Some(n) => truncate::clamp_limit(n),
        None => truncate::clamp_limit(web.char_limit as i64),
    };
    let cache_dir = web
        .cache_dir
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join("hermes-web"));
    match web.extract() {
        ExtractRoute::Unusable(message) => return json!({"success": false, "error": message}),
        ExtractRoute::Native => {
            let fetches = wanted.into_iter().map(|(index, url)| {
                let cache_dir = &cache_dir;
                async move {
                    let doc = native::extract(&ctx.services.http, &url, limit, cache_dir).await;
                    Page { index, doc }
                }
            });
            pages.extend(futures::future::join_all(fetches).await);
        }
        ExtractRoute::Backend(backend) => {
            let mut safe = Vec::new();
            for (index, url) in wanted {
                if urls::safe_for_backend(&ctx.services.http, &url).await {
                    safe.push((index, url));
                } else {
                    pages.push(Page {
                        index,
                        doc: Doc::failed(&url, urls::BLOCKED_PRIVATE),
                    });
                }
            }
            if !safe.is_empty() {
                tracing::info!(backend = backend.name.id(), pages = safe.len(), "web extract");
                let list: Vec<String> = safe.iter().map(|(_, u)| u.clone()).collect();
                let docs = backend.extract(web.client(), &list).await;
                pages.extend(place(&safe, docs));
                for page in &mut pages {
                    finish_backend_page(ctx, page, &list, limit, &cache_dir).await;
                }
            }
        }
    }
    pages.sort_by_key(|p| p.index);
    let results: Vec<Value> = pages
        .into_iter()
        .map(|p| json!({"url": p.doc.url, "title": p.doc.title, "content": p.doc.content, "error": p.doc.error}))
        .collect();
    if results.is_empty() {
        return json!({"error": "Content was inaccessible or not found"});
    }
    json!({ "results": results })
}

/// Puts the backend's documents where their URLs were in the call. A backend answers in the
/// order it was asked and may add failed pages after; extra documents keep their place after
/// the last one asked for, and a page the backend left out says so.
fn place(asked: &[(usize, String)], docs: Vec<Doc>) -> Vec<Page> {
    let last = asked.last().map_or(0, |(i, _)| *i);
    let mut pages: Vec<Page> = Vec::new();
    let mut docs = docs.into_iter();
    for (index, url) in asked {
        let doc = (docs.next()).unwrap_or_else(|| Doc::failed(url, "Extract backend returned no result for this URL"));
        pages.push(Page { index: *index, doc });
    }
    pages.extend(docs.map(|doc| Page { index: last, doc }));
    pages
}

/// A backend page after the fact: a URL it ended at other than the one asked is checked again
/// (a redirect may have led inward), images become placeholders, and a long page is cut with
/// its full text saved.
async fn finish_backend_page(
    ctx: &ToolContext,
    page: &mut Page,
    asked: &[String],
    limit: usize,
    cache_dir: &std::path::Path,
) {
    let doc = &mut page.doc;
    if doc.error.is_some() || doc.content.is_empty() {
        return;
    }
    let moved = !doc.url.is_empty() && !asked.contains(&doc.url);
    if moved && !urls::safe_for_backend(&ctx.services.http, &doc.url).await {
        doc.content.clear();
        doc.error = Some(urls::BLOCKED_PRIVATE.to_string());
        return;
    }
    // Scanning and saving a page of megabytes is blocking work: off the async threads.
    let (content, url, dir) = (
        std::mem::take(&mut doc.content),
        doc.url.clone(),
        cache_dir.to_path_buf(),
    );
    let fitted = tokio::task::spawn_blocking(move || {
        let clean = truncate::base64_images_to_placeholders(&content);
        crate::net::page::fit_to_limit(&clean, &url, limit, &dir)
    })
    .await;
    let fitted = match fitted {
        Ok(fitted) => fitted,
        Err(e) => {
            doc.error = Some(format!("preparing the page failed: {e}"));
            return;
        }
    };
    if fitted.saved_to.is_some() {
        tracing::info!(url = %doc.url, from = fitted.full_chars, "web page cut to head and tail");
    }
    doc.content = fitted.content;
}

impl Tool for WebExtractTool {
    fn name(&self) -> &'static str {
        "web_extract"
    }

    fn description(&self) -> String {
        DESCRIPTION.to_string()
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "urls": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "List of URLs to extract content from (max 5 URLs per call)",
                    "maxItems": 5
                },
                "char_limit": {
                    "type": "integer",
                    "description": "Optional per-page character budget sent back (default 15000). Pages larger than this are head+tail truncated with the full text stored to disk. Raise it when you need more of a long page inline.",
                    "minimum": 2000
                }
            },
            "required": ["urls"]
        })
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(async move {
            let value = tokio::select! {
                value = run(&self.web, ctx, &args) => value,
                _ = ctx.cancel.cancelled() => json!({"success": false, "error": "Interrupted"}),
            };
            render::output(value)
        })
    }

    fn effect(&self, _args: &Value) -> ToolEffect {
        // Fetching is reading; the SSRF guard keeps the model's URLs off internal addresses.
        ToolEffect::ReadOnly
    }

    fn present(&self, args: &Value, _cwd: &std::path::Path) -> Presentation {
        Presentation {
            kind: ToolKind::Fetch,
            title: render::extract_title(args),
            locations: Vec::new(),
            start_text: None,
        }
    }

    fn summarise(&self, _args: &Value, result: &Value) -> String {
        render::extract_summary(result)
    }

    fn brief(&self, args: &Value) -> Option<String> {
        Some(render::extract_title(args))
    }
}
