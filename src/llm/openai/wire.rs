//! The chat-completions request body: our transcript in OpenAI's message shape (text or
//! multimodal user content, assistant tool calls, tool results), plus tools, limits and the
//! reasoning effort (`reasoning_effort`, or OpenRouter's `reasoning` object).

use serde_json::{Value, json};

use crate::llm::ChatRequest;
use crate::llm::effort::{self, Effort, Route};
use crate::transcript::{Message, Part, Role};

/// The JSON body of a streaming chat-completions request; `route` says whether the endpoint is
/// OpenRouter (see `effort::Route::of`).
pub fn request_body(request: &ChatRequest, route: Route) -> Value {
    let mut body = json!({
        "model": request.model,
        "messages": wire_messages(&request.messages, crate::llm::vision::accepts_images(&request.model)),
        "stream": true,
        "stream_options": {"include_usage": true},
    });
    if !request.tools.is_empty() {
        body["tools"] = Value::Array(request.tools.clone());
    }
    if let Some(max) = request.max_tokens {
        body["max_tokens"] = json!(max);
    }
    if let Some(level) = effort::resolve(route, &request.model, request.reasoning_effort) {
        add_effort(&mut body, route, &request.model, level);
    }
    body
}

/// The effort in the endpoint's words. OpenRouter: `reasoning: {enabled, effort}` (Hermes
/// passes its reasoning config through the same way), except adaptive Claude models, which
/// take the effort as `verbosity` and refuse any `reasoning` object (Hermes' OpenRouter
/// profile). Other endpoints: OpenAI's top-level `reasoning_effort`.
fn add_effort(body: &mut Value, route: Route, model: &str, level: Effort) {
    if route != Route::OpenRouter {
        body["reasoning_effort"] = json!(level.id());
    } else if effort::openrouter_claude_adaptive(model) {
        body["verbosity"] = json!(level.id());
    } else if level == Effort::None {
        body["reasoning"] = json!({"enabled": false});
    } else {
        body["reasoning"] = json!({"enabled": true, "effort": level.id()});
    }
}

/// The conversation on the wire. Tool messages carry text only, so images a tool returned
/// follow the run of tool results as one user message, for models that accept images.
fn wire_messages(messages: &[Message], accepts_images: bool) -> Vec<Value> {
    let mut out = Vec::with_capacity(messages.len());
    let mut pending_images: Vec<Value> = Vec::new();
    for message in messages {
        if message.role() != Role::Tool && !pending_images.is_empty() {
            out.push(tool_images_message(std::mem::take(&mut pending_images)));
        }
        out.push(wire_message(message));
        if accepts_images && message.role() == Role::Tool {
            pending_images.extend(message.parts.iter().filter_map(|part| match part {
                Part::Image { url } => Some(json!({"type": "image_url", "image_url": {"url": url}})),
                Part::Text { .. } => None,
            }));
        }
    }
    if !pending_images.is_empty() {
        out.push(tool_images_message(pending_images));
    }
    out
}

fn tool_images_message(images: Vec<Value>) -> Value {
    let mut content = vec![json!({"type": "text", "text": "[Images returned by the tool calls above]"})];
    content.extend(images);
    json!({"role": "user", "content": content})
}

fn wire_message(message: &Message) -> Value {
    match message.role() {
        Role::System => json!({"role": "system", "content": message.text_content()}),
        Role::User => {
            if message.has_images() {
                let parts: Vec<Value> = message
                    .parts
                    .iter()
                    .map(|p| match p {
                        Part::Text { text } => json!({"type": "text", "text": text}),
                        Part::Image { url } => json!({"type": "image_url", "image_url": {"url": url}}),
                    })
                    .collect();
                json!({"role": "user", "content": parts})
            } else {
                json!({"role": "user", "content": message.text_content()})
            }
        }
        Role::Assistant => {
            let text = message.text_content();
            let mut value = json!({"role": "assistant", "content": if text.is_empty() { Value::Null } else { Value::String(text) }});
            if !message.tool_calls.is_empty() {
                value["tool_calls"] = message
                    .tool_calls
                    .iter()
                    .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}))
                    .collect();
            }
            value
        }
        Role::Tool => json!({
            "role": "tool",
            "tool_call_id": message.tool_call_id.clone().unwrap_or_default(),
            "name": message.tool_name.clone().unwrap_or_default(),
            "content": message.text_content(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::ToolCall;

    #[test]
    fn request_body_matches_the_wire_format() {
        let mut assistant = Message::assistant("");
        assistant.tool_calls.push(ToolCall {
            id: "c1".into(),
            name: "todo".into(),
            arguments: "{}".into(),
        });
        let request = ChatRequest {
            model: "m".into(),
            messages: vec![
                Message::system("sys"),
                Message::user("hi"),
                assistant.clone(),
                Message::tool_result(&assistant.tool_calls[0], "{\"ok\":true}".into(), false),
            ],
            tools: vec![json!({"type": "function"})],
            max_tokens: None,
            reasoning_effort: None,
        };
        let body = request_body(&request, Route::ChatCompletions);
        assert_eq!(
            body["messages"][2],
            json!({"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "todo", "arguments": "{}"}}]})
        );
        assert_eq!(body["messages"][3]["tool_call_id"], "c1");
        assert_eq!(body["stream_options"]["include_usage"], true);
        assert_eq!(body["tools"].as_array().unwrap().len(), 1);
    }

    fn history_with_a_tool_image(model: &str) -> Value {
        let mut assistant = Message::assistant("");
        for id in ["c1", "c2"] {
            assistant.tool_calls.push(ToolCall {
                id: id.into(),
                name: "mcp_browser_screenshot".into(),
                arguments: "{}".into(),
            });
        }
        let mut shot = Message::tool_result(&assistant.tool_calls[0], "[image: image/png, 3 bytes]".into(), false);
        shot.parts.push(Part::Image {
            url: "data:image/png;base64,AAAA".into(),
        });
        let plain = Message::tool_result(&assistant.tool_calls[1], "ok".into(), false);
        let request = ChatRequest {
            model: model.into(),
            messages: vec![Message::user("look"), assistant, shot, plain, Message::user("and?")],
            tools: Vec::new(),
            max_tokens: None,
            reasoning_effort: None,
        };
        request_body(&request, Route::ChatCompletions)["messages"].clone()
    }

    #[test]
    fn tool_images_follow_the_tool_results_for_models_that_see_images() {
        let messages = history_with_a_tool_image("openai/gpt-4o");
        assert_eq!(messages.as_array().unwrap().len(), 6);
        assert_eq!(
            messages[2]["content"], "[image: image/png, 3 bytes]",
            "tool messages stay text"
        );
        assert_eq!(messages[3]["role"], "tool");
        assert_eq!(
            messages[4],
            json!({"role": "user", "content": [
                {"type": "text", "text": "[Images returned by the tool calls above]"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
            ]})
        );
        assert_eq!(messages[5]["content"], "and?");
    }

    #[test]
    fn text_only_models_get_the_placeholder_alone() {
        let messages = history_with_a_tool_image("deepseek/deepseek-chat");
        assert_eq!(messages.as_array().unwrap().len(), 5);
        assert_eq!(messages[2]["content"], "[image: image/png, 3 bytes]");
    }

    fn effort_body(route: Route, model: &str, wanted: Option<Effort>) -> Value {
        let request = ChatRequest {
            model: model.into(),
            messages: vec![Message::user("hi")],
            tools: Vec::new(),
            max_tokens: None,
            reasoning_effort: wanted,
        };
        let body = request_body(&request, route);
        let keys = ["reasoning_effort", "reasoning", "verbosity"];
        keys.iter()
            .filter_map(|k| body.get(*k).map(|v| json!({*k: v})))
            .next()
            .unwrap_or(Value::Null)
    }

    #[test]
    fn openai_reasoning_models_get_reasoning_effort_fitted_to_the_model() {
        let cc = Route::ChatCompletions;
        assert_eq!(
            effort_body(cc, "o3-mini", Some(Effort::High)),
            json!({"reasoning_effort": "high"})
        );
        assert_eq!(
            effort_body(cc, "gpt-5.1", Some(Effort::None)),
            json!({"reasoning_effort": "none"})
        );
        assert_eq!(
            effort_body(cc, "o4-mini", Some(Effort::XHigh)),
            json!({"reasoning_effort": "high"})
        );
        assert_eq!(
            effort_body(cc, "gpt-4o", Some(Effort::High)),
            Value::Null,
            "no knob, nothing sent"
        );
        assert_eq!(
            effort_body(cc, "o3", None),
            Value::Null,
            "unset keeps the provider's default"
        );
    }

    #[test]
    fn openrouter_gets_its_reasoning_object() {
        let or = Route::OpenRouter;
        assert_eq!(
            effort_body(or, "deepseek/deepseek-r1", Some(Effort::Low)),
            json!({"reasoning": {"enabled": true, "effort": "low"}})
        );
        assert_eq!(
            effort_body(or, "openai/gpt-5", Some(Effort::None)),
            json!({"reasoning": {"enabled": false}})
        );
        assert_eq!(
            effort_body(or, "anthropic/claude-sonnet-4.6", Some(Effort::High)),
            json!({"verbosity": "high"})
        );
        assert_eq!(
            effort_body(or, "meta-llama/llama-3-70b", Some(Effort::High)),
            Value::Null
        );
    }
}
