//! Which model looks at the image and how it is asked. `VisionServices` (on `ToolServices`,
//! built once at start) holds the configured auxiliary vision model — its provider built on
//! first use — and the limits of a call; otherwise the session's own model answers when it is
//! known to accept images. The question and the image go as one user message through the
//! provider's own encoding (OpenAI `image_url` part, Anthropic `image` block), with retries,
//! a time limit and the call's cancel token.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::picture::{ANTHROPIC_LIMITS, Limits, OPENAI_LIMITS};
use crate::llm::retry::{CallOutcome, call_with_retry};
use crate::llm::{ApiMode, Endpoint};
use crate::llm::{ChatRequest, LlmError, Provider, RetryPolicy};
use crate::runtime::scope::SessionModel;
use crate::transcript::{Message, Part, Role};

/// Hermes' `max_tokens` for a vision answer.
const MAX_TOKENS: u32 = 2000;

/// Hermes' `auxiliary.vision.timeout`: vision calls are slow, local models slower still.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);
/// Hermes' `auxiliary.vision.download_timeout` for http(s) images.
pub const DEFAULT_DOWNLOAD_TIMEOUT: Duration = Duration::from_secs(30);

/// The vision settings as configured (built by `config` from `auxiliary.vision`).
#[derive(Debug, Clone, PartialEq)]
pub struct VisionSettings {
    /// The auxiliary vision model's endpoint when one is configured, or why it cannot be used.
    pub aux: Option<Result<Endpoint, String>>,
    /// The main provider's default model, when there is a main provider.
    pub main_model: Option<String>,
    /// How long one vision call may take.
    pub timeout: Duration,
    /// How long downloading an http(s) image may take.
    pub download_timeout: Duration,
}

/// The process-wide vision settings tools see.
#[derive(Clone)]
pub struct VisionServices {
    /// `auxiliary.vision` when configured: its provider, or why it cannot be used.
    aux: Option<Arc<AuxModel>>,
    /// Whether the main provider's default model accepts images (the tool is offered then).
    pub main_sees_images: bool,
    pub retry: RetryPolicy,
    /// How long one vision call may take.
    pub timeout: Duration,
    /// How long downloading an http(s) image may take.
    pub download_timeout: Duration,
}

impl Default for VisionServices {
    fn default() -> VisionServices {
        VisionServices {
            aux: None,
            main_sees_images: false,
            retry: RetryPolicy::default(),
            timeout: DEFAULT_TIMEOUT,
            download_timeout: DEFAULT_DOWNLOAD_TIMEOUT,
        }
    }
}

struct AuxModel {
    settings: Result<Endpoint, String>,
    client: crate::llm::http::HttpClient,
    /// Built on first use: most sessions never look at an image.
    provider: OnceLock<Arc<dyn Provider>>,
}

/// The model chosen for one call.
pub struct Chosen {
    pub provider: Arc<dyn Provider>,
    pub model: String,
    pub limits: Limits,
}

/// Why no model could look at the image.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NoVisionModel {
    #[error("auxiliary.vision cannot be used: {0}")]
    Misconfigured(String),
    #[error(
        "no vision model is available: the session's model '{model}' is not known to accept images and auxiliary.vision is not configured. Set auxiliary.vision.model (with provider or base_url) in config.yaml, or AUXILIARY_VISION_MODEL."
    )]
    None { model: String },
}

/// Why asking the model failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AskError {
    #[error("{0}")]
    Llm(#[from] LlmError),
    #[error("the vision model did not answer within {0} s")]
    TimedOut(u64),
    #[error("Interrupted")]
    Cancelled,
}

impl VisionServices {
    /// The services for configured settings, sharing the providers' HTTP client.
    pub fn new(settings: VisionSettings, retry: RetryPolicy, client: crate::llm::http::HttpClient) -> VisionServices {
        let aux = settings.aux.map(|settings| {
            if let Ok(s) = &settings {
                tracing::info!(provider = %s.id, model = %s.model, base_url = %s.base_url, "vision model resolved");
            }
            Arc::new(AuxModel {
                settings,
                client,
                provider: OnceLock::new(),
            })
        });
        VisionServices {
            aux,
            main_sees_images: settings
                .main_model
                .as_deref()
                .is_some_and(crate::llm::vision::accepts_images),
            retry,
            timeout: settings.timeout,
            download_timeout: settings.download_timeout,
        }
    }

    /// Whether some model can be asked (decides whether the tool is offered).
    pub fn available(&self) -> bool {
        self.aux.as_ref().is_some_and(|a| a.settings.is_ok()) || self.main_sees_images
    }

    /// The configured vision model, else the session's own when it accepts images.
    pub fn choose(&self, session: Option<&SessionModel>) -> Result<Chosen, NoVisionModel> {
        if let Some(aux) = &self.aux
            && let Ok(settings) = &aux.settings
        {
            let provider = aux
                .provider
                .get_or_init(|| crate::llm::from_endpoint(settings, aux.client.clone()));
            return Ok(Chosen {
                provider: provider.clone(),
                model: settings.model.clone(),
                limits: limits_for(settings.api_mode),
            });
        }
        if let Some(session) = session.filter(|s| crate::llm::vision::accepts_images(&s.model)) {
            return Ok(Chosen {
                provider: session.provider.clone(),
                model: session.model.clone(),
                limits: limits_for(session.api_mode),
            });
        }
        Err(match self.aux.as_ref().map(|a| &a.settings) {
            Some(Err(why)) => NoVisionModel::Misconfigured(why.clone()),
            _ => NoVisionModel::None {
                model: session.map(|s| s.model.clone()).unwrap_or_default(),
            },
        })
    }
}

fn limits_for(mode: ApiMode) -> Limits {
    match mode {
        ApiMode::AnthropicMessages => ANTHROPIC_LIMITS,
        // The Responses API takes the same image limits as chat completions (OpenAI's).
        ApiMode::ChatCompletions | ApiMode::CodexResponses => OPENAI_LIMITS,
    }
}

/// The one request a vision call sends: the prompt, then the image.
pub fn request(model: &str, prompt: &str, data_url: &str) -> ChatRequest {
    ChatRequest {
        model: model.to_string(),
        messages: vec![Message {
            role: Some(Role::User),
            parts: vec![
                Part::Text {
                    text: prompt.to_string(),
                },
                Part::Image {
                    url: data_url.to_string(),
                },
            ],
            ..Message::default()
        }],
        tools: Vec::new(),
        max_tokens: Some(MAX_TOKENS),
        reasoning_effort: None,
    }
}

/// Asks `chosen` and returns its answer (the reasoning when the text is empty, as Hermes does).
pub async fn ask(
    chosen: &Chosen,
    request: &ChatRequest,
    services: &VisionServices,
    cancel: &CancellationToken,
) -> Result<String, AskError> {
    let (mut on_event, mut on_retry) = (|_: &_| {}, |_: &_| {});
    let call = call_with_retry(
        chosen.provider.as_ref(),
        request,
        &services.retry,
        cancel,
        &mut on_event,
        &mut on_retry,
    );
    let outcome = match tokio::time::timeout(services.timeout, call).await {
        Ok(outcome) => outcome?,
        Err(_) => return Err(AskError::TimedOut(services.timeout.as_secs())),
    };
    let assembled = match outcome {
        CallOutcome::Completed(assembled) => assembled,
        CallOutcome::Cancelled(_) => return Err(AskError::Cancelled),
    };
    let text = assembled.message.text_content();
    Ok(match text.trim() {
        "" => assembled.message.reasoning.unwrap_or_default(),
        _ => text,
    })
}
