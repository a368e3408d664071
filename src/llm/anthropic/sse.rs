//! The streamed Messages answer: SSE events (`message_start`, `content_block_start/delta/stop`,
//! `message_delta`, `message_stop`, `ping`, `error`) folded into our `StreamEvent`s. Thinking
//! blocks (text + signature) and `redacted_thinking` blocks also become `OpaqueReasoning`
//! records when they end, so a tool loop can hand them back unchanged. `SseParser`
//! is pure (one event in, events out) so it is unit-tested and benchmarked without HTTP;
//! `event_stream` drives it over a response and reports a stream that ends before
//! `message_stop` as truncated.

use std::borrow::Cow;

use eventsource_stream::Event;
use futures::{Stream, StreamExt, stream};
use serde::Deserialize;

use super::request::ToolNames;
use super::wire::{BlockDelta, BlockStart, BlockStop, ErrorEvent, MessageDelta, MessageStart, Typed, WireUsage};
use crate::llm::{EventStream, LlmError, StreamEvent};
use crate::transcript::{OpaqueReasoning, Usage};

/// What one content block is, remembered from its start event.
#[derive(Debug)]
enum Block {
    Text,
    /// The thinking text and signature so far (both must go back verbatim).
    Thinking {
        text: String,
        signature: String,
    },
    /// Encrypted thinking the safety system withheld; its `data` goes back as is.
    RedactedThinking(String),
    ToolUse {
        /// Whether any `input_json_delta` arrived (a tool without arguments sends none).
        streamed: bool,
        /// A non-empty `input` given whole in the start event (some compatible servers do).
        initial: Option<String>,
    },
    Other,
}

/// Folds one response's SSE events into stream events.
#[derive(Debug)]
pub struct SseParser {
    provider: String,
    key_hint: String,
    /// The endpoint whose signatures these are (see `OpaqueReasoning::issuer`).
    issuer: String,
    names: ToolNames,
    blocks: Vec<(usize, Block)>,
    usage: Usage,
    usage_sent: bool,
    complete: bool,
}

impl SseParser {
    pub fn new(provider: &str, key_hint: &str) -> SseParser {
        SseParser {
            provider: provider.to_string(),
            key_hint: key_hint.to_string(),
            issuer: String::new(),
            names: ToolNames::default(),
            blocks: Vec::new(),
            usage: Usage::default(),
            usage_sent: false,
            complete: false,
        }
    }

    /// Maps wire tool names back to ours (the OAuth route renames tools).
    pub fn with_tool_names(mut self, names: ToolNames) -> SseParser {
        self.names = names;
        self
    }

    /// Stamps thinking records with the endpoint that signed them.
    pub fn with_issuer(mut self, issuer: &str) -> SseParser {
        self.issuer = issuer.to_string();
        self
    }

    /// Whether `message_stop` has arrived: the answer is whole.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// Parses one SSE event (`event` is its `event:` name, empty when the server sent none; the
    /// type is then read from the data) and appends what it means to `out`.
    pub fn feed(&mut self, event: &str, data: &str, out: &mut Vec<StreamEvent>) -> Result<(), LlmError> {
        let data = data.trim();
        let kind: Cow<'_, str> = if event.is_empty() || event == "message" {
            if data.is_empty() {
                return Ok(());
            }
            self.decode::<Typed>(data)?.kind
        } else {
            Cow::Borrowed(event)
        };
        match kind.as_ref() {
            "message_start" => {
                if let Some(usage) = self.decode::<MessageStart>(data)?.message.usage {
                    self.merge_usage(&usage);
                }
            }
            "content_block_start" => self.block_start(self.decode(data)?, out),
            "content_block_delta" => self.block_delta(self.decode(data)?, out),
            "content_block_stop" => {
                let stop: BlockStop = self.decode(data)?;
                let issuer = self.issuer.clone();
                match self.block_mut(stop.index) {
                    Some(Block::ToolUse {
                        streamed: false,
                        initial,
                    }) => {
                        // No argument fragments came: the call has its start input or none.
                        let arguments = initial.take().unwrap_or_else(|| "{}".to_string());
                        out.push(tool_delta(stop.index, None, None, arguments));
                    }
                    // Unsigned thinking cannot be replayed (Anthropic refuses it): not kept.
                    Some(Block::Thinking { text, signature }) if !signature.is_empty() => {
                        let data = serde_json::json!({"type": "thinking", "thinking": std::mem::take(text),
                            "signature": std::mem::take(signature)});
                        out.push(opaque(issuer, data));
                    }
                    Some(Block::RedactedThinking(payload)) if !payload.is_empty() => {
                        let data = serde_json::json!({"type": "redacted_thinking", "data": std::mem::take(payload)});
                        out.push(opaque(issuer, data));
                    }
                    _ => {}
                }
            }
            "message_delta" => {
                let delta: MessageDelta = self.decode(data)?;
                if let Some(usage) = &delta.usage {
                    self.merge_usage(usage);
                }
                out.push(StreamEvent::Usage(self.usage));
                self.usage_sent = true;
                if let Some(reason) = delta.delta.and_then(|d| d.stop_reason) {
                    out.push(StreamEvent::Finish(finish_reason(&reason).to_string()));
                }
            }
            "message_stop" => {
                if !self.usage_sent && self.usage != Usage::default() {
                    out.push(StreamEvent::Usage(self.usage));
                    self.usage_sent = true;
                }
                self.complete = true;
            }
            "error" => {
                let body = self.decode::<ErrorEvent>(data)?.error;
                return Err(self.error(&body.kind, body.message));
            }
            // `ping` keeps the connection alive; new event types may appear at any time
            // (Anthropic's versioning policy), so anything unknown is skipped.
            _ => {}
        }
        Ok(())
    }

    fn block_start(&mut self, start: BlockStart, out: &mut Vec<StreamEvent>) {
        let block = start.content_block;
        let kind = match block.kind.as_str() {
            "text" => {
                push_text(out, block.text, StreamEvent::Text);
                Block::Text
            }
            "thinking" => {
                let text = block.thinking.clone().unwrap_or_default();
                push_text(out, block.thinking, StreamEvent::Reasoning);
                Block::Thinking {
                    text,
                    signature: block.signature.unwrap_or_default(),
                }
            }
            "redacted_thinking" => Block::RedactedThinking(block.data.unwrap_or_default()),
            "tool_use" => {
                let name = block.name.map(|n| self.names.original(&n));
                out.push(tool_delta(start.index, block.id, name, String::new()));
                let initial = block
                    .input
                    .filter(|input| input.as_object().is_some_and(|o| !o.is_empty()))
                    .map(|input| input.to_string());
                Block::ToolUse {
                    streamed: false,
                    initial,
                }
            }
            // Server tool blocks…: nothing for the user or the transcript.
            _ => Block::Other,
        };
        self.blocks.retain(|(i, _)| *i != start.index);
        self.blocks.push((start.index, kind));
    }

    fn block_delta(&mut self, delta: BlockDelta<'_>, out: &mut Vec<StreamEvent>) {
        let index = delta.index;
        let delta = delta.delta;
        match delta.kind.as_ref() {
            "text_delta" => push_text(out, delta.text, StreamEvent::Text),
            "thinking_delta" => {
                if let (Some(Block::Thinking { text, .. }), Some(piece)) = (self.block_mut(index), &delta.thinking) {
                    text.push_str(piece);
                }
                push_text(out, delta.thinking, StreamEvent::Reasoning);
            }
            "signature_delta" => {
                if let (Some(Block::Thinking { signature, .. }), Some(piece)) =
                    (self.block_mut(index), &delta.signature)
                {
                    signature.push_str(piece);
                }
            }
            "input_json_delta" => {
                let fragment = delta.partial_json.unwrap_or_default();
                if fragment.is_empty() {
                    return;
                }
                if let Some(Block::ToolUse { streamed, initial }) = self.block_mut(index) {
                    *streamed = true;
                    *initial = None;
                }
                out.push(tool_delta(index, None, None, fragment));
            }
            // citations_delta…: not kept.
            _ => {}
        }
    }

    fn block_mut(&mut self, index: usize) -> Option<&mut Block> {
        self.blocks.iter_mut().rev().find(|(i, _)| *i == index).map(|(_, b)| b)
    }

    fn merge_usage(&mut self, wire: &WireUsage) {
        let u = &mut self.usage;
        // Anthropic's input_tokens leaves out the cached part; ours is the whole prompt (it
        // measures how full the context is), with the cached parts reported beside it.
        let read = wire.cache_read_input_tokens.unwrap_or(u.cache_read_tokens);
        let write = wire.cache_creation_input_tokens.unwrap_or(u.cache_write_tokens);
        let uncached = match wire.input_tokens {
            Some(n) => n,
            None => u
                .input_tokens
                .saturating_sub(u.cache_read_tokens.saturating_add(u.cache_write_tokens)),
        };
        u.cache_read_tokens = read;
        u.cache_write_tokens = write;
        // Saturating: the counts are the provider's (untrusted); an overflow must not panic.
        u.input_tokens = uncached.saturating_add(read).saturating_add(write);
        if let Some(n) = wire.output_tokens {
            u.output_tokens = n;
        }
    }

    fn decode<'d, T: Deserialize<'d>>(&self, data: &'d str) -> Result<T, LlmError> {
        serde_json::from_str(data).map_err(|e| LlmError::Protocol {
            provider: self.provider.clone(),
            message: format!("bad stream event ({e}): {}", data.chars().take(200).collect::<String>()),
        })
    }

    /// An `error` event as an error: overload and rate limits stay retryable.
    fn error(&self, kind: &str, message: String) -> LlmError {
        let status = match kind {
            "invalid_request_error" => 400,
            "authentication_error" => 401,
            "billing_error" => 402,
            "permission_error" => 403,
            "not_found_error" => 404,
            "request_too_large" => 413,
            "rate_limit_error" => 429,
            "timeout_error" => 504,
            "overloaded_error" => 529,
            _ => 500,
        };
        let message = if message.is_empty() { kind.to_string() } else { message };
        if status == 401 || status == 403 {
            return LlmError::Auth {
                provider: self.provider.clone(),
                status,
                message,
                key_hint: self.key_hint.clone(),
            };
        }
        LlmError::Status {
            provider: self.provider.clone(),
            status,
            message,
            retry_after: None,
        }
    }
}

fn push_text(out: &mut Vec<StreamEvent>, text: Option<String>, make: fn(String) -> StreamEvent) {
    if let Some(text) = text.filter(|t| !t.is_empty()) {
        out.push(make(text));
    }
}

fn opaque(issuer: String, data: serde_json::Value) -> StreamEvent {
    StreamEvent::OpaqueReasoning(OpaqueReasoning {
        provider: super::REASONING_FORMAT.to_string(),
        issuer,
        data,
    })
}

fn tool_delta(index: usize, id: Option<String>, name: Option<String>, arguments: String) -> StreamEvent {
    StreamEvent::ToolCallDelta {
        index,
        id,
        name,
        arguments,
    }
}

/// Anthropic's stop reasons in the chat-completions words the agent understands.
pub fn finish_reason(stop_reason: &str) -> &str {
    match stop_reason {
        "end_turn" | "stop_sequence" | "pause_turn" => "stop",
        "tool_use" => "tool_calls",
        "max_tokens" | "model_context_window_exceeded" => "length",
        "refusal" => "content_filter",
        other => other,
    }
}

/// Drives `parser` over a response's SSE events. A transport error or an end before
/// `message_stop` is an error: a partial answer is never passed off as complete.
pub fn event_stream<S>(parser: SseParser, events: S) -> EventStream
where
    S: Stream<Item = Result<Event, String>> + Send + 'static,
{
    struct State<S> {
        events: std::pin::Pin<Box<S>>,
        parser: SseParser,
        pending: std::vec::IntoIter<StreamEvent>,
        done: bool,
    }
    let state = State {
        events: Box::pin(events),
        parser,
        pending: Vec::new().into_iter(),
        done: false,
    };
    stream::unfold(state, |mut state| async move {
        loop {
            if let Some(event) = state.pending.next() {
                return Some((Ok(event), state));
            }
            if state.done {
                return None;
            }
            let error = match state.events.next().await {
                Some(Ok(event)) => {
                    let mut out = Vec::new();
                    match state.parser.feed(&event.event, &event.data, &mut out) {
                        Ok(()) => {
                            state.done = state.parser.is_complete();
                            state.pending = out.into_iter();
                            continue;
                        }
                        Err(error) => error,
                    }
                }
                Some(Err(message)) => LlmError::Connect {
                    provider: state.parser.provider.clone(),
                    url: String::new(),
                    message,
                },
                None => LlmError::Truncated {
                    provider: state.parser.provider.clone(),
                },
            };
            state.done = true;
            return Some((Err(error), state));
        }
    })
    .boxed()
}
