//! The streamed Responses answer folded into our `StreamEvent`s (Hermes'
//! `_consume_codex_event_stream`): `response.output_text.delta` → text (commentary-phase text →
//! reasoning), `response.reasoning_summary_text.delta` (any reasoning delta) → reasoning,
//! `response.output_item.added` / `function_call_arguments.delta` / `.done` /
//! `output_item.done` → tool-call fragments (one index per call, found by item id),
//! `output_item.done` of a `reasoning` item → its encrypted content kept, `response.completed`
//! → usage and finish reason, `response.incomplete` → a cut answer, `response.failed` and
//! `error` → errors (`stream.rs`). `ResponsesParser` is pure (one event in, events out), so it
//! is unit-tested without HTTP; `stream::event_stream` drives it over a response.

use serde_json::Value;

use super::REASONING_FORMAT;
use super::failure::failure;
use crate::llm::{LlmError, StreamEvent};
use crate::transcript::{OpaqueReasoning, Usage};

/// One function call of the answer.
#[derive(Debug)]
struct Call {
    /// The output item's id (`fc_…`), which argument events name.
    item_id: String,
    output_index: Option<u64>,
    /// Whether its call id and name were passed on.
    announced: bool,
    /// Whether any argument text was passed on.
    streamed: bool,
}

/// Folds one response's SSE events into stream events.
#[derive(Debug)]
pub struct ResponsesParser {
    pub(super) provider: String,
    key_hint: String,
    issuer: String,
    calls: Vec<Call>,
    /// Items whose text or reasoning arrived as deltas (their `done` repeats it).
    streamed_items: Vec<String>,
    /// The phase of the message item being streamed (`commentary` text is not the answer).
    phase: Option<String>,
    /// The reasoning part last streamed, to separate the next one with a blank line.
    reasoning_part: Option<(String, u64)>,
    complete: bool,
}

impl ResponsesParser {
    /// `issuer` is the endpoint, recorded on the encrypted reasoning it hands out.
    pub fn new(provider: &str, key_hint: &str, issuer: &str) -> ResponsesParser {
        ResponsesParser {
            provider: provider.to_string(),
            key_hint: key_hint.to_string(),
            issuer: issuer.to_string(),
            calls: Vec::new(),
            streamed_items: Vec::new(),
            phase: None,
            reasoning_part: None,
            complete: false,
        }
    }

    /// Whether the terminal event has arrived: the answer is whole.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// Parses one SSE event (`event` is its `event:` name; the JSON's `type` wins when both are
    /// present) and appends what it means to `out`.
    pub fn feed(&mut self, event: &str, data: &str, out: &mut Vec<StreamEvent>) -> Result<(), LlmError> {
        let data = data.trim();
        if data.is_empty() || data == "[DONE]" {
            return Ok(());
        }
        let value: Value = serde_json::from_str(data).map_err(|e| LlmError::Protocol {
            provider: self.provider.clone(),
            message: format!("bad stream event ({e}): {}", data.chars().take(200).collect::<String>()),
        })?;
        let kind = value.get("type").and_then(Value::as_str).unwrap_or(event);
        match kind {
            "response.output_item.added" => self.item_added(&value, out),
            "response.output_text.delta" => {
                let delta = text_at(&value, "delta");
                self.mark_streamed(&value);
                if !delta.is_empty() {
                    out.push(match self.phase.as_deref() {
                        Some("commentary" | "analysis") => StreamEvent::Reasoning(delta.to_string()),
                        _ => StreamEvent::Text(delta.to_string()),
                    });
                }
            }
            "response.function_call_arguments.delta" => {
                let index = self.call_index(&value);
                let delta = text_at(&value, "delta");
                if !delta.is_empty() {
                    self.calls[index].streamed = true;
                    out.push(fragment(index, None, None, delta.to_string()));
                }
            }
            "response.function_call_arguments.done" => {
                let index = self.call_index(&value);
                let arguments = text_at(&value, "arguments");
                if !self.calls[index].streamed && !arguments.is_empty() {
                    self.calls[index].streamed = true;
                    out.push(fragment(index, None, None, arguments.to_string()));
                }
            }
            "response.output_item.done" => self.item_done(&value, out),
            "response.completed" | "response.incomplete" => {
                let response = value.get("response").unwrap_or(&Value::Null);
                if let Some(usage) = response.get("usage").filter(|u| u.is_object()) {
                    out.push(StreamEvent::Usage(usage_of(usage)));
                }
                out.push(StreamEvent::Finish(self.finish_reason(kind, response)));
                self.complete = true;
            }
            "response.failed" => {
                let error = value.pointer("/response/error").unwrap_or(&Value::Null);
                return Err(failure(&self.provider, &self.key_hint, error, "the response failed"));
            }
            "error" => {
                // The spec puts `code`/`message` at the top; SDKs and proxies nest them.
                let error = value.get("error").filter(|e| e.is_object()).unwrap_or(&value);
                return Err(failure(
                    &self.provider,
                    &self.key_hint,
                    error,
                    "stream emitted an error event",
                ));
            }
            // Reasoning deltas under any name (`reasoning_summary_text`, `reasoning_text`).
            kind if kind.contains("reasoning") && kind.ends_with(".delta") => self.reasoning_delta(&value, out),
            // created, in_progress, content_part.*, *.done repeats…: nothing new.
            _ => {}
        }
        Ok(())
    }

    fn item_added(&mut self, value: &Value, out: &mut Vec<StreamEvent>) {
        let item = value.get("item").unwrap_or(&Value::Null);
        match text_at(item, "type") {
            "function_call" => {
                let index = self.call_index(value);
                self.announce(index, item, out);
                let arguments = text_at(item, "arguments");
                if !arguments.is_empty() {
                    self.calls[index].streamed = true;
                    out.push(fragment(index, None, None, arguments.to_string()));
                }
            }
            "message" => {
                self.phase = item
                    .get("phase")
                    .and_then(Value::as_str)
                    .map(|p| p.trim().to_ascii_lowercase());
            }
            _ => self.phase = None,
        }
    }

    fn item_done(&mut self, value: &Value, out: &mut Vec<StreamEvent>) {
        let item = value.get("item").unwrap_or(&Value::Null);
        let id = text_at(item, "id");
        let streamed = !id.is_empty() && self.streamed_items.iter().any(|s| s == id);
        match text_at(item, "type") {
            "function_call" => {
                let index = self.call_index(value);
                self.announce(index, item, out);
                if !self.calls[index].streamed {
                    self.calls[index].streamed = true;
                    let arguments = text_at(item, "arguments");
                    let arguments = if arguments.trim().is_empty() { "{}" } else { arguments };
                    out.push(fragment(index, None, None, arguments.to_string()));
                }
            }
            "message" if !streamed => {
                // A server that sends the message whole, without deltas.
                let text: String = parts_text(item.get("content"), &["output_text", "text"]);
                if !text.is_empty() {
                    out.push(match item.get("phase").and_then(Value::as_str) {
                        Some("commentary" | "analysis") => StreamEvent::Reasoning(text),
                        _ => StreamEvent::Text(text),
                    });
                }
            }
            "reasoning" => {
                if !streamed {
                    let summary = parts_text(item.get("summary"), &["summary_text"]);
                    if !summary.is_empty() {
                        out.push(StreamEvent::Reasoning(summary));
                    }
                }
                if let Some(record) = self.reasoning_record(item) {
                    out.push(StreamEvent::OpaqueReasoning(record));
                }
            }
            _ => {}
        }
    }

    /// The encrypted reasoning item to keep, in the shape Hermes stores (`type`, `id`,
    /// `encrypted_content`, `summary`). Transient `rs_tmp_` items are never replayable.
    fn reasoning_record(&self, item: &Value) -> Option<OpaqueReasoning> {
        let encrypted = text_at(item, "encrypted_content");
        let id = text_at(item, "id");
        if encrypted.is_empty() || id.starts_with("rs_tmp_") {
            return None;
        }
        let summary: Vec<Value> = (item.get("summary").and_then(Value::as_array).into_iter().flatten())
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .map(|text| serde_json::json!({"type": "summary_text", "text": text}))
            .collect();
        let mut data = serde_json::json!({"type": "reasoning", "encrypted_content": encrypted, "summary": summary});
        if !id.is_empty() {
            data["id"] = Value::String(id.to_string());
        }
        Some(OpaqueReasoning {
            provider: REASONING_FORMAT.to_string(),
            issuer: self.issuer.clone(),
            data,
        })
    }

    fn reasoning_delta(&mut self, value: &Value, out: &mut Vec<StreamEvent>) {
        self.mark_streamed(value);
        let delta = text_at(value, "delta");
        if delta.is_empty() {
            return;
        }
        let part = (
            text_at(value, "item_id").to_string(),
            value.get("summary_index").and_then(Value::as_u64).unwrap_or(0),
        );
        let mut text = String::new();
        if self.reasoning_part.as_ref().is_some_and(|last| *last != part) {
            text.push_str("\n\n");
        }
        self.reasoning_part = Some(part);
        text.push_str(delta);
        out.push(StreamEvent::Reasoning(text));
    }

    fn mark_streamed(&mut self, value: &Value) {
        let id = text_at(value, "item_id");
        if !id.is_empty() && !self.streamed_items.iter().any(|s| s == id) {
            self.streamed_items.push(id.to_string());
        }
    }

    /// The index of the call an event is about: by item id, else by output index, else a new
    /// call (a server that skipped `output_item.added`).
    fn call_index(&mut self, value: &Value) -> usize {
        let item_id = value
            .get("item_id")
            .or_else(|| value.pointer("/item/id"))
            .and_then(Value::as_str)
            .unwrap_or("");
        let output_index = value.get("output_index").and_then(Value::as_u64);
        let found = self.calls.iter().position(|c| {
            if !item_id.is_empty() && !c.item_id.is_empty() {
                c.item_id == item_id
            } else {
                output_index.is_some() && c.output_index == output_index
            }
        });
        found.unwrap_or_else(|| {
            self.calls.push(Call {
                item_id: item_id.to_string(),
                output_index,
                announced: false,
                streamed: false,
            });
            self.calls.len() - 1
        })
    }

    /// Passes on a call's id and name once (the call id is what the tool result answers).
    fn announce(&mut self, index: usize, item: &Value, out: &mut Vec<StreamEvent>) {
        let name = text_at(item, "name");
        if self.calls[index].announced || name.is_empty() {
            return;
        }
        self.calls[index].announced = true;
        let call_id = Some(text_at(item, "call_id"))
            .filter(|id| !id.is_empty())
            .unwrap_or_else(|| text_at(item, "id"));
        out.push(fragment(
            index,
            Some(call_id.to_string()).filter(|id| !id.is_empty()),
            Some(name.to_string()),
            String::new(),
        ));
    }

    /// In the chat-completions words the agent understands.
    fn finish_reason(&self, kind: &str, response: &Value) -> String {
        let reason = response.pointer("/incomplete_details/reason").and_then(Value::as_str);
        let incomplete = kind == "response.incomplete" || text_at(response, "status") == "incomplete";
        match (incomplete, reason) {
            (true, Some("content_filter")) => "content_filter",
            (true, _) => "length",
            (false, _) if self.calls.iter().any(|c| c.announced) => "tool_calls",
            (false, _) => "stop",
        }
        .to_string()
    }
}

fn text_at<'v>(value: &'v Value, key: &str) -> &'v str {
    value.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The text of the parts of the given types, joined (summary parts by newlines, as Hermes).
fn parts_text(parts: Option<&Value>, types: &[&str]) -> String {
    (parts.and_then(Value::as_array).into_iter().flatten())
        .filter(|part| types.contains(&text_at(part, "type")))
        .map(|part| text_at(part, "text"))
        .filter(|text| !text.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

fn fragment(index: usize, id: Option<String>, name: Option<String>, arguments: String) -> StreamEvent {
    StreamEvent::ToolCallDelta {
        index,
        id,
        name,
        arguments,
    }
}

/// Responses usage: `input_tokens` is the whole prompt, the cached part beside it.
pub fn usage_of(usage: &Value) -> Usage {
    let n = |path: &str| usage.pointer(path).and_then(Value::as_u64).unwrap_or(0);
    Usage {
        input_tokens: n("/input_tokens"),
        output_tokens: n("/output_tokens"),
        reasoning_tokens: n("/output_tokens_details/reasoning_tokens"),
        cache_read_tokens: n("/input_tokens_details/cached_tokens"),
        cache_write_tokens: 0,
    }
}
