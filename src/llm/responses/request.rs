//! The Responses API request body (Hermes' `ResponsesApiTransport.build_kwargs`): `model`,
//! `instructions`, `input`, flat function tools, `store: false`, `stream: true`, reasoning with
//! the session's effort (medium when unset, as Hermes), a summary and its encrypted content included (so the next request can hand it back),
//! parallel tool calls and the output cap.

use serde_json::{Value, json};

use super::convert::input_items;
use crate::llm::ChatRequest;
use crate::llm::effort::{self, Effort, Route};
use crate::llm::model_names::reasons;

/// Hermes' default effort when `agent.reasoning_effort` is unset.
const REASONING_EFFORT: Effort = Effort::Medium;
/// The smallest `max_output_tokens` the Responses API accepts.
const MIN_OUTPUT_TOKENS: u32 = 16;

/// The JSON body of a streaming `POST /responses` to `issuer`.
pub fn request_body(request: &ChatRequest, issuer: &str) -> Value {
    let accepts_images = crate::llm::vision::accepts_images(&request.model);
    let (instructions, input) = input_items(&request.messages, issuer, accepts_images);
    let mut body = json!({
        "model": request.model,
        "input": input,
        "store": false,
        "stream": true,
    });
    if !instructions.is_empty() {
        body["instructions"] = Value::String(instructions);
    }
    let tools = tools(&request.tools);
    if !tools.is_empty() {
        body["tools"] = Value::Array(tools);
        body["tool_choice"] = json!("auto");
        body["parallel_tool_calls"] = json!(true);
    }
    if reasons(&request.model) {
        let level = effort::resolve(Route::Responses, &request.model, request.reasoning_effort);
        body["reasoning"] = json!({"effort": level.unwrap_or(REASONING_EFFORT).id(), "summary": "auto"});
        body["include"] = json!(["reasoning.encrypted_content"]);
    } else {
        body["include"] = json!([]);
    }
    if let Some(max) = request.max_tokens {
        // The API refuses caps below 16 (HTTP 400); `--check` asks for a single token.
        body["max_output_tokens"] = json!(max.max(MIN_OUTPUT_TOKENS));
    }
    body
}

/// Chat-completions function schemas (`{type, function: {name, description, parameters}}`)
/// as the Responses API's flat ones (`{type, name, description, strict, parameters}`).
pub fn tools(schemas: &[Value]) -> Vec<Value> {
    schemas
        .iter()
        .filter_map(|schema| {
            let function = schema.get("function").unwrap_or(schema);
            let name = function.get("name")?.as_str().filter(|n| !n.trim().is_empty())?;
            Some(json!({
                "type": "function",
                "name": name,
                "description": function.get("description").cloned().unwrap_or_else(|| json!("")),
                "strict": false,
                "parameters": function
                    .get("parameters")
                    .cloned()
                    .unwrap_or_else(|| json!({"type": "object", "properties": {}})),
            }))
        })
        .collect()
}
