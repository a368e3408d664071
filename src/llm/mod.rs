//! Talking to the model. `Provider` is the seam: one streaming call per attempt, yielding
//! `StreamEvent`s; `retry` wraps it with backoff; `assemble` folds the events into an assistant
//! message. Only this module knows provider wire formats.

pub mod anthropic;
pub mod assemble;
pub mod effort;
pub mod error;
pub mod http;
pub mod meter;
pub mod models;
pub mod openai;
pub mod pricing;
mod pricing_table;
pub mod rate_limits;
pub mod responses;
pub mod retry;
pub mod vision;

use futures::future::BoxFuture;
use futures::stream::BoxStream;
use serde_json::Value;

pub use assemble::{Assembled, Assembler};
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

/// Builds the provider for resolved settings. Infallible: everything that can be wrong was
/// checked when the settings were resolved.
pub fn from_settings(
    settings: &crate::config::ProviderSettings,
    cache_ttl: crate::config::file::CacheTtl,
    client: crate::llm::http::HttpClient,
) -> std::sync::Arc<dyn Provider> {
    use crate::config::ApiMode;
    let key_hint = key_hint(settings);
    match settings.api_mode {
        ApiMode::ChatCompletions => std::sync::Arc::new(openai::OpenAiProvider::new(
            &settings.id,
            &settings.base_url,
            settings.api_key.as_ref().map(|k| k.expose().to_string()),
            &key_hint,
            client,
        )),
        ApiMode::CodexResponses => std::sync::Arc::new(responses::ResponsesProvider::new(
            &settings.id,
            &settings.base_url,
            settings.api_key.as_ref().map(|k| k.expose().to_string()),
            &key_hint,
            client,
        )),
        ApiMode::AnthropicMessages => std::sync::Arc::new(
            anthropic::AnthropicProvider::from_settings(settings, &key_hint, client).with_cache_ttl(cache_ttl),
        ),
    }
}

/// What to check when the key is rejected: the variable or setting and the file it came from.
pub fn key_hint(settings: &crate::config::ProviderSettings) -> String {
    match (&settings.key_source, &settings.key_origin) {
        (Some(source), Some(origin)) => format!("{source} (read from {origin})"),
        (Some(source), None) => source.clone(),
        (None, _) => "the API key: none is configured for this provider (run `hermes-acp --setup`)".to_string(),
    }
}
