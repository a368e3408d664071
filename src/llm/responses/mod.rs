//! The OpenAI Responses API (Hermes' `codex_responses` mode: api.openai.com, api.x.ai, or any
//! endpoint with `model.api_mode: codex_responses`): the streaming `POST {base}/responses` with
//! a bearer key, and `GET {base}/models`. `convert` turns our transcript into input items
//! (replaying encrypted reasoning), `request` builds the body, `sse` folds the streamed events
//! into `StreamEvent`s and `stream` drives it over the response. Errors, retries, fallbacks and cancel behave as for the other providers:
//! status mapping comes from `http`, a dropped stream closes the connection.

pub mod convert;
pub mod request;
pub mod sse;
pub mod stream;

#[cfg(test)]
mod tests;

use futures::future::BoxFuture;

use super::{ChatRequest, EventStream, LlmError, Provider, http, models};

pub use sse::ResponsesParser;

/// The `OpaqueReasoning::provider` of the encrypted reasoning items this API hands out.
pub const REASONING_FORMAT: &str = "openai_responses";

/// A Responses API endpoint.
pub struct ResponsesProvider {
    id: String,
    /// Without a trailing slash: endpoints are `{base}/responses` and `{base}/models`.
    base_url: String,
    api_key: Option<String>,
    key_hint: String,
    client: crate::llm::http::HttpClient,
}

impl ResponsesProvider {
    pub fn new(
        id: &str,
        base_url: &str,
        api_key: Option<String>,
        key_hint: &str,
        client: crate::llm::http::HttpClient,
    ) -> ResponsesProvider {
        ResponsesProvider {
            id: id.to_string(),
            base_url: base_url.trim().trim_end_matches('/').to_string(),
            api_key,
            key_hint: key_hint.to_string(),
            client,
        }
    }

    /// Who minted the reasoning this provider returns: encrypted items are sealed to it.
    pub fn issuer(&self) -> &str {
        &self.base_url
    }

    fn authorize(&self, builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.api_key {
            Some(key) => builder.bearer_auth(key),
            None => builder,
        }
    }
}

impl Provider for ResponsesProvider {
    fn id(&self) -> &str {
        &self.id
    }

    fn stream<'a>(&'a self, request: &'a ChatRequest) -> BoxFuture<'a, Result<EventStream, LlmError>> {
        Box::pin(async move {
            let url = format!("{}/responses", self.base_url);
            let body = request::request_body(request, self.issuer());
            let response = self
                .authorize(self.client.post(&url))
                .header(reqwest::header::ACCEPT, "text/event-stream")
                .json(&body)
                .send()
                .await
                .map_err(|e| http::connect_error(&self.id, &url, &e))?;
            if !response.status().is_success() {
                return Err(http::status_error(&self.id, &self.key_hint, response).await);
            }
            if http::is_html(&response) {
                return Err(http::html_error(&self.id, &url));
            }
            let parser = ResponsesParser::new(&self.id, &self.key_hint, self.issuer());
            let limits = http::rate_limits(&response);
            Ok(http::with_rate_limits(
                limits,
                stream::event_stream(parser, http::sse_events(response)),
            ))
        })
    }

    fn list_models(&self) -> BoxFuture<'_, Result<Vec<String>, LlmError>> {
        Box::pin(async move {
            let url = format!("{}/models", self.base_url);
            models::fetch(&self.id, &self.key_hint, self.authorize(self.client.get(&url)), &url).await
        })
    }
}
