//! The web backends Hermes supports (SearXNG, Firecrawl, Tavily, Exa, Parallel, Brave Search),
//! one file each, speaking their HTTP APIs directly with the request shapes Hermes' SDKs send
//! and mapping answers to Hermes' result JSON. This file holds what they share: the backend
//! names, credentials read from the environment, the call helper, and dispatch.

mod brave;
mod exa;
mod firecrawl;
mod parallel;
mod searxng;
pub mod select;
mod tavily;

use std::fmt;
use std::time::Duration;

use serde_json::Value;

use crate::tools::web::Variables;

pub use select::{ExtractRoute, WebBackends};

/// A web backend by Hermes' name for it (`web.backend: <id>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendName {
    Tavily,
    Exa,
    Parallel,
    Firecrawl,
    Searxng,
    BraveFree,
}

impl BackendName {
    /// Hermes' auto-detect order when `web.backend` names nothing we know (`_get_backend`).
    pub const AUTO_ORDER: [BackendName; 6] = [
        BackendName::Tavily,
        BackendName::Exa,
        BackendName::Parallel,
        BackendName::Firecrawl,
        BackendName::Searxng,
        BackendName::BraveFree,
    ];

    pub fn parse(name: &str) -> Option<BackendName> {
        Some(match name.trim().to_ascii_lowercase().as_str() {
            "tavily" => BackendName::Tavily,
            "exa" => BackendName::Exa,
            "parallel" => BackendName::Parallel,
            "firecrawl" => BackendName::Firecrawl,
            "searxng" => BackendName::Searxng,
            "brave-free" | "brave" => BackendName::BraveFree,
            _ => return None,
        })
    }

    pub fn id(self) -> &'static str {
        match self {
            BackendName::Tavily => "tavily",
            BackendName::Exa => "exa",
            BackendName::Parallel => "parallel",
            BackendName::Firecrawl => "firecrawl",
            BackendName::Searxng => "searxng",
            BackendName::BraveFree => "brave-free",
        }
    }

    /// Hermes' `display_name`.
    pub fn display(self) -> &'static str {
        match self {
            BackendName::Tavily => "Tavily",
            BackendName::Exa => "Exa",
            BackendName::Parallel => "Parallel",
            BackendName::Firecrawl => "Firecrawl",
            BackendName::Searxng => "SearXNG",
            BackendName::BraveFree => "Brave Search (Free)",
        }
    }

    /// SearXNG and Brave only search; the others also extract pages.
    pub fn extracts(self) -> bool {
        !matches!(self, BackendName::Searxng | BackendName::BraveFree)
    }

    /// Hermes' message when this backend is chosen but its credentials are missing.
    pub fn missing_credentials(self) -> &'static str {
        match self {
            BackendName::Tavily => {
                "TAVILY_API_KEY environment variable not set. Get your API key at https://app.tavily.com/home"
            }
            BackendName::Exa => "EXA_API_KEY environment variable not set. Get your API key at https://exa.ai",
            BackendName::Parallel => {
                "PARALLEL_API_KEY environment variable not set. Get your API key at https://parallel.ai"
            }
            BackendName::Firecrawl => {
                "Web tools are not configured. Set FIRECRAWL_API_KEY for cloud Firecrawl or set FIRECRAWL_API_URL for a self-hosted Firecrawl instance."
            }
            BackendName::Searxng => "SEARXNG_URL is not set",
            BackendName::BraveFree => "BRAVE_SEARCH_API_KEY is not set",
        }
    }
}

/// One usable backend: where it lives and how to authenticate. The key never prints.
#[derive(Clone, PartialEq, Eq)]
pub struct Backend {
    pub name: BackendName,
    /// The API root (no trailing slash); Brave's is its whole search endpoint.
    pub base_url: String,
    api_key: Option<String>,
    /// Parallel's search mode (`PARALLEL_SEARCH_MODE`).
    mode: String,
}

impl fmt::Debug for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Backend")
            .field("name", &self.name)
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "<set>"))
            .finish()
    }
}

impl Backend {
    /// The backend with its credentials from `env` (`.env` merged with the process env, read as
    /// Hermes' `get_env_value` does), or `None` when they are missing. Base-URL overrides are
    /// the ones Hermes honours: `TAVILY_BASE_URL`, `FIRECRAWL_API_URL` (self-hosted),
    /// `SEARXNG_URL`, and `PARALLEL_BASE_URL` (read by Parallel's SDK).
    pub fn from_env(name: BackendName, env: &dyn Variables) -> Option<Backend> {
        let key = |k: &str| env.secret(k).map(str::to_string);
        let url = |k: &str, default: &str| env.get(k).unwrap_or(default).trim().trim_end_matches('/').to_string();
        let (base_url, api_key) = match name {
            BackendName::Tavily => (
                url("TAVILY_BASE_URL", "https://api.tavily.com"),
                Some(key("TAVILY_API_KEY")?),
            ),
            BackendName::Exa => ("https://api.exa.ai".to_string(), Some(key("EXA_API_KEY")?)),
            BackendName::Parallel => (
                url("PARALLEL_BASE_URL", "https://api.parallel.ai"),
                Some(key("PARALLEL_API_KEY")?),
            ),
            BackendName::Firecrawl => {
                let api_key = key("FIRECRAWL_API_KEY");
                if api_key.is_none() && env.get("FIRECRAWL_API_URL").is_none() {
                    return None;
                }
                (url("FIRECRAWL_API_URL", "https://api.firecrawl.dev"), api_key)
            }
            BackendName::Searxng => (url("SEARXNG_URL", ""), None),
            BackendName::BraveFree => (brave::ENDPOINT.to_string(), Some(key("BRAVE_SEARCH_API_KEY")?)),
        };
        if base_url.is_empty() {
            return None;
        }
        let mode = env
            .get("PARALLEL_SEARCH_MODE")
            .unwrap_or("agentic")
            .trim()
            .to_ascii_lowercase();
        let mode = if matches!(mode.as_str(), "fast" | "one-shot" | "agentic") {
            mode
        } else {
            "agentic".to_string()
        };
        Some(Backend {
            name,
            base_url,
            api_key,
            mode,
        })
    }

    /// Searches; the value is Hermes' result JSON (`{"success": true, "data": {"web": [...]}}`
    /// or `{"success": false, "error": "..."}`).
    pub async fn search(&self, client: &reqwest::Client, query: &str, limit: usize) -> Value {
        match self.name {
            BackendName::Searxng => searxng::search(self, client, query, limit).await,
            BackendName::BraveFree => brave::search(self, client, query, limit).await,
            BackendName::Tavily => tavily::search(self, client, query, limit).await,
            BackendName::Exa => exa::search(self, client, query, limit).await,
            BackendName::Parallel => parallel::search(self, client, query, limit).await,
            BackendName::Firecrawl => firecrawl::search(self, client, query, limit).await,
        }
    }

    /// Extracts pages; one document per page (failures carry `error`). Search-only backends
    /// never get here (`ExtractRoute` sends those to the native path).
    pub async fn extract(&self, client: &reqwest::Client, urls: &[String]) -> Vec<Doc> {
        match self.name {
            BackendName::Tavily => tavily::extract(self, client, urls).await,
            BackendName::Exa => exa::extract(self, client, urls).await,
            BackendName::Parallel => parallel::extract(self, client, urls).await,
            BackendName::Firecrawl => firecrawl::extract(self, client, urls).await,
            BackendName::Searxng | BackendName::BraveFree => (urls.iter())
                .map(|u| Doc::failed(u, format!("{} is a search-only backend", self.name.display())))
                .collect(),
        }
    }

    fn key(&self) -> &str {
        self.api_key.as_deref().unwrap_or_default()
    }
}

/// One extracted page as a backend reported it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Doc {
    pub url: String,
    pub title: String,
    pub content: String,
    pub error: Option<String>,
}

impl Doc {
    pub fn failed(url: &str, error: impl Into<String>) -> Doc {
        Doc {
            url: url.to_string(),
            error: Some(error.into()),
            ..Doc::default()
        }
    }
}

/// Why a backend call failed, worded for the model.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum CallError {
    #[error("HTTP {status}{detail}")]
    Status { status: u16, detail: String },
    #[error("{0}")]
    Connect(String),
    #[error("the response is not JSON")]
    NotJson,
}

/// Sends a prepared request and reads a JSON answer. A failure status keeps the backend's own
/// error message (`{"error": ...}`, `{"message": ...}`, `{"detail": ...}`) or the start of the
/// body, so a 401 says which key is wrong instead of only "401".
async fn call(request: reqwest::RequestBuilder, timeout: Duration) -> Result<Value, CallError> {
    let response = (request.timeout(timeout).send().await).map_err(|e| CallError::Connect(error_chain(&e)))?;
    let status = response.status();
    let body = (response.bytes().await).map_err(|e| CallError::Connect(error_chain(&e)))?;
    if !status.is_success() {
        return Err(CallError::Status {
            status: status.as_u16(),
            detail: status_detail(&body),
        });
    }
    serde_json::from_slice(&body).map_err(|_| CallError::NotJson)
}

fn status_detail(body: &[u8]) -> String {
    let parsed: Option<Value> = serde_json::from_slice(body).ok();
    let from_json = parsed.as_ref().and_then(|v| {
        ["error", "message", "detail"].iter().find_map(|k| match v.get(*k)? {
            Value::String(s) => Some(s.clone()),
            Value::Object(o) => o.get("message").and_then(Value::as_str).map(str::to_string),
            _ => None,
        })
    });
    let text = from_json.unwrap_or_else(|| String::from_utf8_lossy(body).trim().to_string());
    if text.is_empty() {
        String::new()
    } else {
        format!(": {}", crate::text::clip(&text, 300))
    }
}

/// reqwest's error with its causes ("error sending request: connection refused").
fn error_chain(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// A JSON value as text the way Python's `str()` would show a missing field: empty.
fn text_of(value: Option<&Value>) -> String {
    match value {
        Some(Value::String(s)) => s.clone(),
        None | Some(Value::Null) => String::new(),
        Some(other) => other.to_string(),
    }
}

/// `{"success": false, "error": message}`.
fn failure(message: impl Into<String>) -> Value {
    serde_json::json!({"success": false, "error": message.into()})
}

/// `{"success": true, "data": {"web": hits}}`, the backend's results in order as Hermes' hits
/// (`title`, `url`, `description`, `position` from 1). Every backend names the title and url
/// fields alike; the description is what `describe` takes from a result (a `content` or
/// `description` field, or joined highlights or excerpts).
fn web_hits<'a>(results: impl IntoIterator<Item = &'a Value>, describe: impl Fn(&Value) -> String) -> Value {
    let hits: Vec<Value> = (results.into_iter().enumerate())
        .map(|(i, r)| {
            serde_json::json!({
                "title": text_of(r.get("title")),
                "url": text_of(r.get("url")),
                "description": describe(r),
                "position": i + 1,
            })
        })
        .collect();
    serde_json::json!({"success": true, "data": {"web": hits}})
}

/// A result's `key` field as text (the `describe` of backends that name one field).
fn field(key: &str) -> impl Fn(&Value) -> String + '_ {
    move |r| text_of(r.get(key))
}

#[cfg(test)]
mod tests;
