//! The `web_search` tool: the query goes to the backend chosen at start (see
//! `backends::select`) and the model gets Hermes' result JSON, pretty-printed as Hermes prints
//! it. Offered only when a backend can search.

use futures::future::BoxFuture;
use serde_json::{Value, json};

use std::sync::Arc;

use super::backends::WebBackends;
use super::render;
use crate::runtime::describe::{Presentation, ToolEffect, ToolKind};
use crate::runtime::{Offer, Tool, ToolContext, ToolOutput, args};

const DESCRIPTION: &str = "Search the web for information. Returns up to 5 results by default with titles, URLs, and descriptions. The query is passed through to the configured backend, so operators such as site:domain, filetype:pdf, intitle:word, -term, and \"exact phrase\" may work when the backend supports them.";

/// The `web_search` tool.
#[derive(Clone, Default)]
pub struct WebSearchTool {
    /// The backends resolved once from `web:` and the environment.
    web: Arc<WebBackends>,
}

impl WebSearchTool {
    pub fn new(web: Arc<WebBackends>) -> WebSearchTool {
        WebSearchTool { web }
    }
}

impl Tool for WebSearchTool {
    fn name(&self) -> &'static str {
        "web_search"
    }

    fn description(&self) -> String {
        DESCRIPTION.to_string()
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "description": "The search query to look up on the web. You may include backend-supported operators such as site:example.com, filetype:pdf, intitle:word, -term, or \"exact phrase\"."
                },
                "limit": {
                    "type": "integer",
                    "description": "Maximum number of results to return. Defaults to 5.",
                    "minimum": 1,
                    "maximum": 100,
                    "default": 5
                }
            },
            "required": ["query"]
        })
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(async move {
            let query = args::string(&args, "query").unwrap_or_default();
            // Hermes: int(limit), 5 when unreadable, clamped to 1..=100.
            let limit = args::int(&args, "limit").unwrap_or(5).clamp(1, 100) as usize;
            let web = &self.web;
            let value = match web.search() {
                None => {
                    json!({"success": false, "error": "No web search provider configured. Run `hermes tools` to set one up."})
                }
                Some(Err(message)) => json!({"success": false, "error": message}),
                Some(Ok(backend)) => {
                    tracing::info!(backend = backend.name.id(), limit, "web search");
                    tokio::select! {
                        value = backend.search(web.client(), &query, limit) => value,
                        _ = ctx.cancel.cancelled() => json!({"success": false, "error": "Interrupted"}),
                    }
                }
            };
            render::output(value)
        })
    }

    fn effect(&self, _args: &Value) -> ToolEffect {
        // Reading the web changes nothing here; the backend is one the user configured.
        ToolEffect::ReadOnly
    }

    fn present(&self, args: &Value, _cwd: &std::path::Path) -> Presentation {
        let query = args::string(args, "query").filter(|q| !q.trim().is_empty());
        Presentation {
            kind: ToolKind::Fetch,
            title: match &query {
                Some(q) => format!(
                    "Search the web for \u{201c}{}\u{201d}",
                    crate::runtime::describe::first_line(q, 80)
                ),
                None => "Search the web".to_string(),
            },
            locations: Vec::new(),
            start_text: Some(match &query {
                Some(q) => format!("Searching the web for: {q}"),
                None => "Searching the web".to_string(),
            }),
        }
    }

    fn summarise(&self, _args: &Value, result: &Value) -> String {
        render::search_summary(result)
    }

    fn brief(&self, args: &Value) -> Option<String> {
        args::string(args, "query").map(|q| format!("web search: {}", crate::text::clip(&q, 60)))
    }

    fn offered(&self, _offer: &Offer) -> bool {
        self.web.search_offered()
    }
}
