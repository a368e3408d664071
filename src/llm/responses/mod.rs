//! The OpenAI Responses API (Hermes' `codex_responses` mode: api.openai.com, api.x.ai, or any
//! endpoint with `model.api_mode: codex_responses`): the streaming `POST {base}/responses` with
//! a bearer key, and `GET {base}/models`. `convert` turns our transcript into input items
//! (replaying encrypted reasoning), `request` builds the body, `sse` folds the streamed events
//! into `StreamEvent`s and `stream` drives it over the response. Errors, retries, fallbacks and
//! cancel behave as for the other providers: the request goes through the shared skeleton
//! (`llm::request`), a dropped stream closes the connection.

pub mod convert;
pub mod failure;
pub mod request;
pub mod sse;
pub mod stream;

#[cfg(test)]
mod tests;

use futures::future::BoxFuture;

use super::request::{self as skeleton, Access};
use super::{ChatRequest, EventStream, LlmError, Provider, models};

pub use sse::ResponsesParser;

/// The `OpaqueReasoning::provider` of the encrypted reasoning items this API hands out.
pub const REASONING_FORMAT: &str = "openai_responses";

/// A Responses API endpoint.
pub struct ResponsesProvider {
    id: String,
    /// Without a trailing slash: endpoints are `{base}/responses` and `{base}/models`.
    base_url: String,
    key_hint: String,
    access: Access,
}

impl ResponsesProvider {
    pub fn new(endpoint: &crate::llm::Endpoint, client: crate::llm::http::HttpClient) -> ResponsesProvider {
        let (id, key_hint) = (endpoint.id.as_str(), endpoint.key_hint());
        let headers = skeleton::openai_headers(endpoint);
        ResponsesProvider {
            id: id.to_string(),
            access: Access::new(id, &key_hint, skeleton::OPENAI_COMPATIBLE, headers, client),
            key_hint,
            base_url: endpoint.base_url.trim().trim_end_matches('/').to_string(),
        }
    }

    /// Who minted the reasoning this provider returns: encrypted items are sealed to it.
    pub fn issuer(&self) -> &str {
        &self.base_url
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
            let parser = ResponsesParser::new(&self.id, &self.key_hint, self.issuer());
            self.access
                .stream(&url, &body, |events| stream::event_stream(parser, events))
                .await
        })
    }

    fn list_models(&self) -> BoxFuture<'_, Result<Vec<String>, LlmError>> {
        Box::pin(async move {
            let url = format!("{}/models", self.base_url);
            models::fetch(&self.access, &url).await
        })
    }
}
