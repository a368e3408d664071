//! Talking to the model. `Provider` is the seam: one streaming call per attempt, yielding
//! `StreamEvent`s; `retry` wraps it with backoff; `assemble` folds the events into an assistant
//! message. Only this module knows provider wire formats.

pub mod anthropic;
pub mod assemble;
pub mod effort;
pub mod endpoint;
pub mod error;
pub mod http;
pub mod meter;
pub mod model_names;
pub mod models;
pub mod openai;
pub mod pricing;
mod pricing_settings;
mod pricing_table;
pub mod rate_limits;
pub mod request;
pub mod responses;
pub mod retry;
pub mod vision;

use futures::future::BoxFuture;
use futures::stream::BoxStream;
use serde_json::Value;

pub use assemble::{Assembled, Assembler};
pub use endpoint::{ApiMode, CacheTtl, Endpoint, Secret};
pub use error::LlmError;
pub use retry::{RetryNotice, RetryPolicy};

use crate::transcript::{Message, OpaqueReasoning, Usage};

/// One model call.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    pub model: String,
    /// The whole conversation, system prompt first.
    pub messages: Vec<Message>,
    /// OpenAI-style function schemas; empty for a tool-less call.
    pub tools: Vec<Value>,
    pub max_tokens: Option<u32>,
    /// The reasoning level the user chose (session option or `agent.reasoning_effort`);
    /// `None` keeps the provider's default. Each provider fits it to its model
    /// (`effort::resolve`), so a fallback to another wire format still gets a valid level.
    pub reasoning_effort: Option<effort::Effort>,
}

/// What a streaming provider reports, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamEvent {
    /// A piece of the answer text.
    Text(String),
    /// A piece of the model's reasoning.
    Reasoning(String),
    /// A fragment of a tool call; fragments with the same index belong together.
    ToolCallDelta {
        index: usize,
        id: Option<String>,
        name: Option<String>,
        arguments: String,
    },
    Usage(Usage),
    /// Reasoning the provider hands out opaquely and wants back on the next request (an
    /// encrypted Responses API item); kept on the assistant message, never shown.
    OpaqueReasoning(OpaqueReasoning),
    /// Why the model stopped (`stop`, `tool_calls`, `length`…).
    Finish(String),
    /// What the response's headers said about the caller's rate limits (first, when any).
    RateLimits(rate_limits::RateLimits),
}

pub type EventStream = BoxStream<'static, Result<StreamEvent, LlmError>>;

/// A model provider. Each `stream` call is one attempt; dropping the stream closes the
/// connection (that is how a cancel reaches the provider).
pub trait Provider: Send + Sync {
    /// The provider id (`openrouter`, `custom`, …) for messages and logs.
    fn id(&self) -> &str;
    fn stream<'a>(&'a self, request: &'a ChatRequest) -> BoxFuture<'a, Result<EventStream, LlmError>>;
    /// The model ids the provider offers (`GET /models`).
    fn list_models(&self) -> BoxFuture<'_, Result<Vec<String>, LlmError>>;
}

/// Builds the provider for a resolved endpoint. Infallible: everything that can be wrong was
/// checked when the endpoint was resolved.
pub fn from_endpoint(endpoint: &Endpoint, client: crate::llm::http::HttpClient) -> std::sync::Arc<dyn Provider> {
    match endpoint.api_mode {
        ApiMode::ChatCompletions => std::sync::Arc::new(openai::OpenAiProvider::new(endpoint, client)),
        ApiMode::CodexResponses => std::sync::Arc::new(responses::ResponsesProvider::new(endpoint, client)),
        ApiMode::AnthropicMessages => {
            std::sync::Arc::new(anthropic::AnthropicProvider::from_endpoint(endpoint, client))
        }
    }
}
