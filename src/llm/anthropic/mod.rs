//! Anthropic's native Messages API (api.anthropic.com, and compatible servers under a base URL
//! ending in `/anthropic`): authentication (API keys in `x-api-key`, Claude subscription OAuth
//! tokens as a bearer with the Claude Code identity), the streaming `POST /v1/messages`, and
//! `GET /v1/models`. `convert` and `request` build the body (with prompt-cache breakpoints),
//! `sse` parses the answer (`wire` holds the shapes of its events).

pub mod convert;
pub mod request;
pub mod sse;
mod wire;

#[cfg(test)]
mod tests;

use futures::future::BoxFuture;

use super::request::{Access, Headers};
use super::{ChatRequest, EventStream, LlmError, Provider, models};
use crate::llm::CacheTtl;
use crate::llm::Endpoint;
use request::BodyOptions;

pub use sse::SseParser;

pub const ANTHROPIC_VERSION: &str = "2023-06-01";
/// The `OpaqueReasoning::provider` of the thinking blocks this API signs.
pub const REASONING_FORMAT: &str = "anthropic";
/// Beta flags Anthropic requires on the subscription (OAuth) route.
const OAUTH_BETAS: &str = "claude-code-20250219,oauth-2025-04-20";
/// The client Anthropic expects on the subscription route (Hermes sends the same shape).
const OAUTH_USER_AGENT: &str = "claude-cli/2.1.74 (external, cli)";
/// Env variables whose value is a subscription token rather than an API key.
const OAUTH_VARS: [&str; 2] = ["ANTHROPIC_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"];

/// A Messages API endpoint.
pub struct AnthropicProvider {
    id: String,
    /// Without a trailing `/v1`: endpoints are `{base}/v1/messages` and `{base}/v1/models`.
    base_url: String,
    oauth: bool,
    key_hint: String,
    cache_ttl: CacheTtl,
    access: Access,
}

impl AnthropicProvider {
    /// A provider from its parts (tests); `key_source` is the env variable the key came from
    /// (it tells an OAuth token apart).
    #[cfg(test)]
    pub fn new(
        id: &str,
        base_url: &str,
        api_key: Option<String>,
        key_source: Option<&str>,
        key_hint: &str,
        client: crate::llm::http::HttpClient,
    ) -> AnthropicProvider {
        let endpoint = Endpoint {
            id: id.to_string(),
            api_mode: crate::llm::ApiMode::AnthropicMessages,
            base_url: base_url.to_string(),
            api_key: api_key.map(crate::llm::Secret::new),
            key_source: key_source.map(str::to_string),
            ..Endpoint::default()
        };
        AnthropicProvider::build(&endpoint, key_hint, client)
    }

    /// The provider for a resolved endpoint (its cache lifetime included).
    pub fn from_endpoint(endpoint: &Endpoint, client: crate::llm::http::HttpClient) -> AnthropicProvider {
        AnthropicProvider::build(endpoint, &endpoint.key_hint(), client).with_cache_ttl(endpoint.cache_ttl)
    }

    fn build(endpoint: &Endpoint, key_hint: &str, client: crate::llm::http::HttpClient) -> AnthropicProvider {
        let key = endpoint.api_key.as_ref().map(|k| k.expose());
        let oauth = key.is_some_and(|key| is_oauth(key, endpoint.key_source.as_deref()));
        let headers = headers(endpoint, oauth);
        AnthropicProvider {
            id: endpoint.id.clone(),
            base_url: normalize_base(&endpoint.base_url),
            oauth,
            key_hint: key_hint.to_string(),
            cache_ttl: CacheTtl::default(),
            access: Access::new(&endpoint.id, key_hint, "an Anthropic Messages API", headers, client),
        }
    }

    /// The lifetime of prompt-cache breakpoints (`prompt_caching.cache_ttl`).
    pub fn with_cache_ttl(mut self, ttl: CacheTtl) -> AnthropicProvider {
        self.cache_ttl = ttl;
        self
    }

    /// Whether requests go out as a Claude subscription (bearer token + Claude Code identity).
    pub fn is_oauth(&self) -> bool {
        self.oauth
    }

    /// The URL of an API path such as `messages`.
    pub fn endpoint(&self, path: &str) -> String {
        format!("{}/v1/{path}", self.base_url)
    }

    /// `builder` with this endpoint's headers (the tests look at them).
    #[cfg(test)]
    fn authorize(&self, builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        self.access.authorize(builder)
    }
}

/// The headers of every Messages API request: its version, and the key in `x-api-key` — or,
/// for a subscription token, as a bearer with the Claude Code identity. A new header for this
/// API goes here, read from a field of the endpoint.
fn headers(endpoint: &Endpoint, oauth: bool) -> Headers {
    let mut headers: Headers = vec![("anthropic-version", ANTHROPIC_VERSION.to_string())];
    match endpoint.api_key.as_ref().map(|k| k.expose()) {
        Some(key) if oauth => headers.extend([
            ("authorization", format!("Bearer {key}")),
            ("anthropic-beta", OAUTH_BETAS.to_string()),
            ("user-agent", OAUTH_USER_AGENT.to_string()),
            ("x-app", "cli".to_string()),
        ]),
        Some(key) => headers.push(("x-api-key", key.to_string())),
        None => {}
    }
    headers
}

/// Subscription tokens (`sk-ant-oat…`, or anything but an API key from the token variables)
/// authenticate as a bearer; API keys (`sk-ant-api…`, third-party keys) go in `x-api-key`.
pub fn is_oauth(key: &str, key_source: Option<&str>) -> bool {
    if key.starts_with("sk-ant-api") {
        return false;
    }
    key.starts_with("sk-ant-oat") || key_source.is_some_and(|var| OAUTH_VARS.contains(&var))
}

/// `https://api.anthropic.com`, `…/v1`, `…/anthropic/` and `…/anthropic/v1` all name the same
/// API root; the `/v1` is added back per request so it is never doubled.
pub fn normalize_base(base_url: &str) -> String {
    let trimmed = base_url.trim().trim_end_matches('/');
    trimmed.strip_suffix("/v1").unwrap_or(trimmed).to_string()
}

impl Provider for AnthropicProvider {
    fn id(&self) -> &str {
        &self.id
    }

    fn stream<'a>(&'a self, request: &'a ChatRequest) -> BoxFuture<'a, Result<EventStream, LlmError>> {
        Box::pin(async move {
            let url = self.endpoint("messages");
            let options = BodyOptions {
                cache_ttl: self.cache_ttl,
                oauth: self.oauth,
                issuer: &self.base_url,
            };
            let (body, names) = request::request_body(request, options);
            let parser = SseParser::new(&self.id, &self.key_hint)
                .with_tool_names(names)
                .with_issuer(&self.base_url);
            self.access
                .stream(&url, &body, |events| sse::event_stream(parser, events))
                .await
        })
    }

    fn list_models(&self) -> BoxFuture<'_, Result<Vec<String>, LlmError>> {
        Box::pin(async move {
            // The default page is 20 models; one page of the maximum covers every account.
            let url = self.endpoint("models?limit=1000");
            models::fetch(&self.access, &url).await
        })
    }
}
