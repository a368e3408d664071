//! The one request skeleton every provider shares. `Access` is how a provider reaches its
//! endpoint: its id and key hint (for errors), the headers every request carries (its
//! authentication and the API's own, decided once when the provider is built) and the shared
//! client. `Access::stream` POSTs a JSON body, maps a failed send or an error status to a typed
//! `LlmError`, refuses a web page answered with success (the base URL is not this API), reads
//! the rate limits the headers name (the stream's first event) and hands the SSE events to the
//! provider's parser; `Access::get` runs `GET /models` through the same checks. A provider only
//! builds its body and parses its stream.

use futures::StreamExt;
use serde_json::Value;

use super::http::{self, HttpClient, SseEvents};
use super::rate_limits::RateLimits;
use super::{Endpoint, EventStream, LlmError, StreamEvent};

/// How the OpenAI-compatible APIs are named in errors.
pub const OPENAI_COMPATIBLE: &str = "an OpenAI-compatible API";

/// The headers every request to one endpoint carries, as (name, value) pairs.
pub type Headers = Vec<(&'static str, String)>;

/// How one provider reaches its endpoint.
#[derive(Clone)]
pub struct Access {
    provider: String,
    key_hint: String,
    /// What the endpoint is meant to be, for the error when a URL answers with a web page.
    api: &'static str,
    headers: Headers,
    client: HttpClient,
}

impl Access {
    /// `api` names the API in errors ("an OpenAI-compatible API").
    pub fn new(provider: &str, key_hint: &str, api: &'static str, headers: Headers, client: HttpClient) -> Access {
        Access {
            provider: provider.to_string(),
            key_hint: key_hint.to_string(),
            api,
            headers,
            client,
        }
    }

    /// `builder` with the endpoint's headers.
    pub fn authorize(&self, builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        self.headers
            .iter()
            .fold(builder, |builder, (name, value)| builder.header(*name, value))
    }

    /// POSTs `body` to `url` asking for a stream, and parses the answer's SSE events with
    /// `parse`; the stream opens with the rate limits the response named, if any.
    pub async fn stream(
        &self,
        url: &str,
        body: &Value,
        parse: impl FnOnce(SseEvents) -> EventStream,
    ) -> Result<EventStream, LlmError> {
        let request = self
            .authorize(self.client.post(url))
            .header(reqwest::header::ACCEPT, "text/event-stream")
            .json(body);
        let response = self.send(request, url).await?;
        let limits = RateLimits::from_headers(response.headers(), chrono::Utc::now());
        let events = parse(http::sse_events(response));
        Ok(match limits {
            Some(limits) => futures::stream::once(async move { Ok(StreamEvent::RateLimits(limits)) })
                .chain(events)
                .boxed(),
            None => events,
        })
    }

    /// A `GET url` with the endpoint's headers, sent through the same checks; `configure`
    /// adjusts the request (a timeout).
    pub async fn get(
        &self,
        url: &str,
        configure: impl FnOnce(reqwest::RequestBuilder) -> reqwest::RequestBuilder,
    ) -> Result<reqwest::Response, LlmError> {
        self.send(configure(self.authorize(self.client.get(url))), url).await
    }

    /// Sends `request`: a failed send, an error status or a web page is an error.
    async fn send(&self, request: reqwest::RequestBuilder, url: &str) -> Result<reqwest::Response, LlmError> {
        let response = request
            .send()
            .await
            .map_err(|e| http::connect_error(&self.provider, url, &e))?;
        if !response.status().is_success() {
            return Err(http::status_error(&self.provider, &self.key_hint, response).await);
        }
        if is_html(&response) {
            return Err(LlmError::Protocol {
                provider: self.provider.clone(),
                message: format!(
                    "{url} answered with an HTML page, not {} (check the base URL)",
                    self.api
                ),
            });
        }
        Ok(response)
    }

    pub fn provider(&self) -> &str {
        &self.provider
    }

    pub fn key_hint(&self) -> &str {
        &self.key_hint
    }
}

/// Whether a response is a web page rather than an API answer.
fn is_html(response: &reqwest::Response) -> bool {
    response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().contains("text/html"))
}

/// The headers of every OpenAI-compatible request (chat completions and the Responses API):
/// the key as a bearer, and OpenRouter's attribution headers when the endpoint is OpenRouter.
/// A new header for these APIs goes here, read from a field of the endpoint.
pub fn openai_headers(endpoint: &Endpoint) -> Headers {
    let mut headers = Headers::new();
    if let Some(key) = &endpoint.api_key {
        headers.push(("authorization", format!("Bearer {}", key.expose())));
    }
    if endpoint.base_url.contains("openrouter.ai") {
        headers.push(("http-referer", "https://github.com/hermes-acp/hermes-acp".into()));
        headers.push(("x-title", "hermes-acp".into()));
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endpoint(key: Option<&str>, base_url: &str) -> Endpoint {
        Endpoint {
            api_key: key.map(crate::llm::Secret::new),
            base_url: base_url.to_string(),
            ..Endpoint::default()
        }
    }

    #[test]
    fn openai_compatible_endpoints_get_a_bearer_and_openrouter_its_attribution() {
        let local = openai_headers(&endpoint(None, "http://127.0.0.1:11434/v1"));
        assert!(local.is_empty());
        let openai = openai_headers(&endpoint(Some("sk-1"), "https://api.openai.com/v1"));
        assert_eq!(openai, [("authorization", "Bearer sk-1".to_string())]);
        let openrouter = openai_headers(&endpoint(Some("sk-or"), "https://openrouter.ai/api/v1"));
        let names: Vec<&str> = openrouter.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, ["authorization", "http-referer", "x-title"]);
    }

    #[test]
    fn every_request_carries_the_endpoint_headers() {
        let client = http::client();
        let access = Access::new(
            "p",
            "k",
            OPENAI_COMPATIBLE,
            openai_headers(&endpoint(Some("sk-1"), "https://openrouter.ai/api/v1")),
            client.clone(),
        );
        let request = access
            .authorize(client.get("https://openrouter.ai/api/v1/models"))
            .build()
            .unwrap();
        assert_eq!(request.headers()["authorization"], "Bearer sk-1");
        assert_eq!(request.headers()["x-title"], "hermes-acp");
    }

    /// A server that answers one request with `200 OK` and a web page, after reading it whole.
    async fn web_page_server() -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut seen = Vec::new();
            let mut buf = [0u8; 4096];
            loop {
                let n = socket.read(&mut buf).await.unwrap();
                seen.extend_from_slice(&buf[..n]);
                let text = String::from_utf8_lossy(&seen).to_ascii_lowercase();
                if let Some(end) = text.find("\r\n\r\n") {
                    let length = text
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:"))
                        .and_then(|v| v.trim().parse::<usize>().ok())
                        .unwrap_or(0);
                    if n == 0 || seen.len() >= end + 4 + length {
                        break;
                    }
                }
            }
            let page = "<html><body>hello</body></html>";
            let answer = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
                page.len()
            );
            socket.write_all(answer.as_bytes()).await.unwrap();
        });
        url
    }

    /// Every wire format goes through the one skeleton: a web page answered with success is a
    /// protocol error naming what the URL should have been, never a stream to parse.
    #[tokio::test]
    async fn a_web_page_is_refused_on_every_wire_format() {
        use crate::llm::{ApiMode, ChatRequest, Endpoint};
        for (mode, api) in [
            (ApiMode::ChatCompletions, OPENAI_COMPATIBLE),
            (ApiMode::CodexResponses, OPENAI_COMPATIBLE),
            (ApiMode::AnthropicMessages, "an Anthropic Messages API"),
        ] {
            let endpoint = Endpoint {
                id: "p".into(),
                api_mode: mode,
                base_url: web_page_server().await,
                model: "m".into(),
                ..Endpoint::default()
            };
            let provider = crate::llm::from_endpoint(&endpoint, http::client());
            let request = ChatRequest {
                model: "m".into(),
                messages: vec![crate::transcript::Message::user("hi")],
                tools: Vec::new(),
                max_tokens: None,
                reasoning_effort: None,
            };
            match provider.stream(&request).await {
                Err(LlmError::Protocol { message, .. }) => {
                    assert!(
                        message.contains(&format!("HTML page, not {api}")),
                        "{mode:?}: {message}"
                    )
                }
                Err(other) => panic!("{mode:?}: {other:?}"),
                Ok(_) => panic!("{mode:?}: a web page was parsed as a stream"),
            }
        }
    }
}
