//! OpenAI-compatible chat completions (OpenRouter, OpenAI, Ollama, vLLM, llama.cpp, LM Studio…):
//! the request body, the streamed `chat.completion.chunk` parsing (content, reasoning, tool-call
//! fragments, usage, finish reason), and the `Provider` implementation; `wire.rs` builds the
//! request body.

mod wire;

pub use wire::request_body;

use futures::future::BoxFuture;
use futures::{StreamExt, stream};
use serde_json::Value;

use super::http::SseEvents;
use super::request::{self, Access};
use super::{ChatRequest, EventStream, LlmError, Provider, StreamEvent, models};
use crate::transcript::Usage;

/// A chat-completions endpoint.
pub struct OpenAiProvider {
    id: String,
    base_url: String,
    access: Access,
}

impl OpenAiProvider {
    pub fn new(endpoint: &crate::llm::Endpoint, client: crate::llm::http::HttpClient) -> OpenAiProvider {
        let (id, key_hint) = (endpoint.id.as_str(), endpoint.key_hint());
        let headers = request::openai_headers(endpoint);
        OpenAiProvider {
            id: id.to_string(),
            access: Access::new(id, &key_hint, request::OPENAI_COMPATIBLE, headers, client),
            base_url: endpoint.base_url.trim_end_matches('/').to_string(),
        }
    }
}

impl Provider for OpenAiProvider {
    fn id(&self) -> &str {
        &self.id
    }

    fn stream<'a>(&'a self, request: &'a ChatRequest) -> BoxFuture<'a, Result<EventStream, LlmError>> {
        Box::pin(async move {
            let url = format!("{}/chat/completions", self.base_url);
            let route = super::effort::Route::of(crate::llm::ApiMode::ChatCompletions, &self.id, &self.base_url);
            let body = request_body(request, route);
            let provider = self.id.clone();
            self.access
                .stream(&url, &body, |events| parse_stream(provider, events))
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

/// State carried across SSE events of one response.
struct ChunkState {
    provider: String,
    done: bool,
    finished: bool,
}

fn parse_stream(provider: String, events: SseEvents) -> EventStream {
    let state = ChunkState {
        provider,
        done: false,
        finished: false,
    };
    stream::unfold(
        (events, state, Vec::<StreamEvent>::new().into_iter()),
        |(mut events, mut state, mut pending)| async move {
            loop {
                if let Some(event) = pending.next() {
                    return Some((Ok(event), (events, state, pending)));
                }
                if state.done {
                    return None;
                }
                match events.next().await {
                    Some(Ok(event)) => {
                        let data = event.data.trim();
                        if data.is_empty() {
                            continue;
                        }
                        if data == "[DONE]" {
                            state.done = true;
                            continue;
                        }
                        match parse_chunk(data, &state.provider) {
                            Ok(parsed) => {
                                if parsed.iter().any(|e| matches!(e, StreamEvent::Finish(_))) {
                                    state.finished = true;
                                }
                                pending = parsed.into_iter();
                            }
                            Err(e) => {
                                state.done = true;
                                return Some((Err(e), (events, state, pending)));
                            }
                        }
                    }
                    Some(Err(message)) => {
                        state.done = true;
                        let err = if state.finished {
                            continue;
                        } else {
                            LlmError::Connect {
                                provider: state.provider.clone(),
                                url: String::new(),
                                message,
                            }
                        };
                        return Some((Err(err), (events, state, pending)));
                    }
                    None => {
                        state.done = true;
                        // A stream that ends without [DONE] or a finish reason was cut off.
                        if !state.finished {
                            let err = LlmError::Truncated {
                                provider: state.provider.clone(),
                            };
                            return Some((Err(err), (events, state, pending)));
                        }
                    }
                }
            }
        },
    )
    .boxed()
}

/// Parses one `chat.completion.chunk` into events.
pub fn parse_chunk(data: &str, provider: &str) -> Result<Vec<StreamEvent>, LlmError> {
    let value: Value = serde_json::from_str(data).map_err(|e| LlmError::Protocol {
        provider: provider.to_string(),
        message: format!("bad chunk ({e}): {}", truncate(data)),
    })?;
    if let Some(err) = value.get("error") {
        let message = err
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| err.to_string());
        let status = err
            .get("code")
            .and_then(Value::as_u64)
            .and_then(|c| u16::try_from(c).ok())
            .unwrap_or(500);
        return Err(LlmError::Status {
            provider: provider.to_string(),
            status,
            message,
            retry_after: None,
        });
    }
    let mut out = Vec::new();
    if let Some(choice) = value.get("choices").and_then(Value::as_array).and_then(|c| c.first()) {
        if let Some(delta) = choice.get("delta") {
            for key in ["reasoning_content", "reasoning"] {
                if let Some(r) = delta.get(key).and_then(Value::as_str).filter(|s| !s.is_empty()) {
                    out.push(StreamEvent::Reasoning(r.to_string()));
                    break;
                }
            }
            if let Some(t) = delta.get("content").and_then(Value::as_str).filter(|s| !s.is_empty()) {
                out.push(StreamEvent::Text(t.to_string()));
            }
            for (position, call) in delta
                .get("tool_calls")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let index = call
                    .get("index")
                    .and_then(Value::as_u64)
                    .map(|i| i as usize)
                    .unwrap_or(position);
                let function = call.get("function");
                out.push(StreamEvent::ToolCallDelta {
                    index,
                    id: call.get("id").and_then(Value::as_str).map(str::to_string),
                    name: function
                        .and_then(|f| f.get("name"))
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    arguments: function
                        .and_then(|f| f.get("arguments"))
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string(),
                });
            }
        }
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            out.push(StreamEvent::Finish(reason.to_string()));
        }
    }
    if let Some(usage) = value.get("usage").filter(|u| u.is_object()) {
        let n = |path: &str| usage.pointer(path).and_then(Value::as_u64).unwrap_or(0);
        out.push(StreamEvent::Usage(Usage {
            input_tokens: n("/prompt_tokens"),
            output_tokens: n("/completion_tokens"),
            reasoning_tokens: n("/completion_tokens_details/reasoning_tokens"),
            cache_read_tokens: n("/prompt_tokens_details/cached_tokens"),
            cache_write_tokens: 0,
        }));
    }
    Ok(out)
}

fn truncate(s: &str) -> String {
    s.chars().take(200).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_become_events() {
        let events = parse_chunk(
            r#"{"choices":[{"index":0,"delta":{"reasoning_content":"hm","content":"Hi","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"terminal","arguments":"{\"com"}}]},"finish_reason":null}]}"#,
            "p",
        )
        .unwrap();
        assert_eq!(events[0], StreamEvent::Reasoning("hm".into()));
        assert_eq!(events[1], StreamEvent::Text("Hi".into()));
        assert!(matches!(&events[2], StreamEvent::ToolCallDelta { index: 0, id: Some(id), .. } if id == "call_1"));
        let usage = parse_chunk(
            r#"{"choices":[],"usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120}}"#,
            "p",
        )
        .unwrap();
        assert_eq!(
            usage,
            vec![StreamEvent::Usage(Usage {
                input_tokens: 100,
                output_tokens: 20,
                ..Usage::default()
            })]
        );
        assert!(parse_chunk(r#"{"error":{"message":"overloaded","code":503}}"#, "p").is_err());
        assert!(parse_chunk("not json", "p").is_err());
    }
}
