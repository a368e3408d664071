//! The serde shapes of the Messages API's stream events, only the fields we read (unknown
//! fields are ignored, so new ones Anthropic adds do not break parsing). Text stays borrowed
//! where it can: the event type and delta type are compared, never kept.

use std::borrow::Cow;

use serde::Deserialize;

#[derive(Deserialize)]
pub(super) struct Typed<'a> {
    #[serde(rename = "type", borrow)]
    pub(super) kind: Cow<'a, str>,
}

#[derive(Deserialize, Default)]
pub(super) struct WireUsage {
    pub(super) input_tokens: Option<u64>,
    pub(super) output_tokens: Option<u64>,
    pub(super) cache_creation_input_tokens: Option<u64>,
    pub(super) cache_read_input_tokens: Option<u64>,
}

#[derive(Deserialize)]
pub(super) struct MessageStart {
    pub(super) message: StartedMessage,
}

#[derive(Deserialize)]
pub(super) struct StartedMessage {
    #[serde(default)]
    pub(super) usage: Option<WireUsage>,
}

#[derive(Deserialize)]
pub(super) struct BlockStart {
    pub(super) index: usize,
    pub(super) content_block: StartedBlock,
}

#[derive(Deserialize)]
pub(super) struct StartedBlock {
    #[serde(rename = "type")]
    pub(super) kind: String,
    #[serde(default)]
    pub(super) text: Option<String>,
    #[serde(default)]
    pub(super) thinking: Option<String>,
    #[serde(default)]
    pub(super) id: Option<String>,
    #[serde(default)]
    pub(super) name: Option<String>,
    #[serde(default)]
    pub(super) input: Option<serde_json::Value>,
    /// A thinking block's signature (usually empty here, streamed as `signature_delta`).
    #[serde(default)]
    pub(super) signature: Option<String>,
    /// A `redacted_thinking` block's encrypted payload.
    #[serde(default)]
    pub(super) data: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct BlockDelta<'a> {
    pub(super) index: usize,
    #[serde(borrow)]
    pub(super) delta: Delta<'a>,
}

#[derive(Deserialize)]
pub(super) struct Delta<'a> {
    #[serde(rename = "type", borrow)]
    pub(super) kind: Cow<'a, str>,
    #[serde(default)]
    pub(super) text: Option<String>,
    #[serde(default)]
    pub(super) thinking: Option<String>,
    #[serde(default)]
    pub(super) partial_json: Option<String>,
    #[serde(default)]
    pub(super) signature: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct BlockStop {
    pub(super) index: usize,
}

#[derive(Deserialize)]
pub(super) struct MessageDelta {
    #[serde(default)]
    pub(super) delta: Option<StopInfo>,
    #[serde(default)]
    pub(super) usage: Option<WireUsage>,
}

#[derive(Deserialize)]
pub(super) struct StopInfo {
    #[serde(default)]
    pub(super) stop_reason: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct ErrorEvent {
    pub(super) error: ErrorBody,
}

#[derive(Deserialize)]
pub(super) struct ErrorBody {
    #[serde(rename = "type", default)]
    pub(super) kind: String,
    #[serde(default)]
    pub(super) message: String,
}
