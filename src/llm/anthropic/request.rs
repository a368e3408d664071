//! The JSON body of a streaming `POST /v1/messages`: model id, `max_tokens` (required by
//! Anthropic), the converted conversation, tools in Anthropic's schema, prompt-cache
//! breakpoints, thinking for the chosen reasoning effort (Hermes' shapes: a token budget for
//! Claude 3.7–4.5, adaptive thinking with `output_config.effort` from 4.6), and — for Claude
//! subscription (OAuth) tokens — the Claude Code identity that Anthropic expects on that
//! route, as Hermes sends it.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::convert::{self, text_block};
use crate::llm::CacheTtl;
use crate::llm::ChatRequest;
use crate::llm::effort::{self, ClaudeThinking, Effort, Route};
use crate::llm::model_names::normalize_model;

/// Output cap when the request names none and the model is not a Claude model we know.
pub const DEFAULT_MAX_TOKENS: u32 = 8192;
/// Output cap for current Claude models (every Claude 4 model accepts at least this much).
pub const CLAUDE_MAX_TOKENS: u32 = 32_000;
/// Room for the answer above a manual thinking budget (`max_tokens` must exceed the budget;
/// Hermes leaves the same).
const ANSWER_ROOM: u32 = 4_096;

/// The first system block on the OAuth route: without it Anthropic intermittently fails
/// subscription requests (Hermes' observation).
pub const CLAUDE_CODE_IDENTITY: &str = "You are Claude Code, Anthropic's official CLI for Claude.";
const OAUTH_TOOL_PREFIX: &str = "mcp__";
/// Tool names Anthropic's subscription route treats as third-party fingerprints (Hermes).
const OAUTH_TOOL_ALIASES: [(&str, &str); 2] = [("session_search", "chat_history_lookup"), ("memory", "context_notes")];
const OAUTH_SYSTEM_REPLACEMENTS: [(&str, &str); 4] = [
    ("Hermes Agent", "Claude Code"),
    ("Hermes agent", "Claude Code"),
    ("hermes-agent", "claude-code"),
    ("Nous Research", "Anthropic"),
];

/// How the body is shaped beyond the request itself.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BodyOptions<'a> {
    pub cache_ttl: CacheTtl,
    /// Apply the Claude Code identity transforms (subscription tokens).
    pub oauth: bool,
    /// The endpoint the request goes to: only thinking blocks it signed are replayed (empty:
    /// all of them).
    pub issuer: &'a str,
}

/// Maps the tool names the model sees on the wire back to ours (only the OAuth route renames).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolNames(HashMap<String, String>);

impl ToolNames {
    /// Our name for a name the model used.
    pub fn original(&self, wire: &str) -> String {
        self.0.get(wire).cloned().unwrap_or_else(|| wire.to_string())
    }
}

/// The request body and the tool-name mapping its answer needs.
pub fn request_body(request: &ChatRequest, options: BodyOptions<'_>) -> (Value, ToolNames) {
    let converted = convert::convert_for(&request.messages, options.issuer);
    let mut system: Vec<Value> = Vec::new();
    if options.oauth {
        system.push(text_block(CLAUDE_CODE_IDENTITY));
    }
    if !converted.system.trim().is_empty() {
        let text = if options.oauth {
            oauth_prose(&converted.system)
        } else {
            converted.system
        };
        system.push(text_block(&text));
    }
    let mut messages = converted.messages;
    let mut tools = convert_tools(&request.tools);
    let mut names = ToolNames::default();
    if options.oauth {
        names = oauth_tool_names(&tools);
        let to_wire: HashMap<String, String> = names
            .0
            .iter()
            .map(|(wire, ours)| (ours.clone(), wire.clone()))
            .collect();
        let rename = |name: &mut Value| {
            if let Some(wire) = name.as_str().and_then(|n| to_wire.get(n)) {
                *name = Value::String(wire.clone());
            }
        };
        tools.iter_mut().filter_map(|t| t.get_mut("name")).for_each(&rename);
        for message in &mut messages {
            let blocks = message.get_mut("content").and_then(Value::as_array_mut);
            for block in blocks.into_iter().flatten() {
                if block.get("type").and_then(Value::as_str) == Some("tool_use")
                    && let Some(name) = block.get_mut("name")
                {
                    rename(name);
                }
            }
        }
    }
    apply_cache_markers(&mut system, &mut messages, options.cache_ttl);
    let model = normalize_model(&request.model);
    // A loop made without thinking cannot continue with it: that request keeps the default.
    let wanted = request
        .reasoning_effort
        .filter(|_| !convert::loop_lacks_thinking(&messages));
    let mut body = json!({
        "model": model,
        "max_tokens": request.max_tokens.unwrap_or_else(|| default_max_tokens(&model)),
        "stream": true,
        "messages": messages,
    });
    if !system.is_empty() {
        body["system"] = Value::Array(system);
    }
    if !tools.is_empty() {
        body["tools"] = Value::Array(tools);
    }
    add_thinking(&mut body, &model, wanted);
    (body, names)
}

/// Thinking for the chosen level. Unset or none: Claude 4.6+ is told not to think (it would
/// by default), older models are left alone. Otherwise a manual budget (with `max_tokens`
/// above it) or adaptive thinking at that effort, summarised so the reasoning stays visible
/// (Hermes' `anthropic_adapter`). No temperature is ever sent, which thinking requires.
fn add_thinking(body: &mut Value, model: &str, wanted: Option<Effort>) {
    let level = effort::resolve(Route::Anthropic, model, wanted).filter(|l| *l != Effort::None);
    match (level, effort::claude_thinking(model)) {
        (Some(level), ClaudeThinking::Manual) => {
            let budget = effort::thinking_budget(level);
            body["thinking"] = json!({"type": "enabled", "budget_tokens": budget});
            let max = body["max_tokens"].as_u64().unwrap_or(0);
            body["max_tokens"] = json!(max.max(u64::from(budget + ANSWER_ROOM)));
        }
        (Some(level), ClaudeThinking::Adaptive) => {
            body["thinking"] = json!({"type": "adaptive", "display": "summarized"});
            body["output_config"] = json!({"effort": level.id()});
        }
        _ if disables_thinking(model) => body["thinking"] = json!({"type": "disabled"}),
        _ => {}
    }
}

/// `cache_control` on the system prompt's last block and on the last block of each of the
/// last three messages: Anthropic's four breakpoints, rolling forward with the conversation
/// so each request reads the prefix the previous one wrote.
pub fn apply_cache_markers(system: &mut [Value], messages: &mut [Value], ttl: CacheTtl) {
    let marker = match ttl {
        CacheTtl::FiveMinutes => json!({"type": "ephemeral"}),
        CacheTtl::OneHour => json!({"type": "ephemeral", "ttl": "1h"}),
    };
    if let Some(last) = system.last_mut() {
        last["cache_control"] = marker.clone();
    }
    let start = messages.len().saturating_sub(3);
    for message in &mut messages[start..] {
        let last = message
            .get_mut("content")
            .and_then(Value::as_array_mut)
            .and_then(|blocks| blocks.last_mut());
        if let Some(block) = last {
            block["cache_control"] = marker.clone();
        }
    }
}

/// OpenAI function schemas → `{name, description, input_schema}`. Duplicate names are dropped
/// (Anthropic rejects the whole request), and the schema is made an object schema without
/// top-level combinators, which Anthropic's validator refuses.
pub fn convert_tools(tools: &[Value]) -> Vec<Value> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(tools.len());
    for tool in tools {
        let function = tool.get("function").unwrap_or(tool);
        let name = function.get("name").and_then(Value::as_str).unwrap_or("");
        if name.is_empty() || !seen.insert(name.to_string()) {
            tracing::warn!(tool = name, "dropping a tool with a missing or duplicate name");
            continue;
        }
        let mut schema = match function.get("parameters").or_else(|| function.get("input_schema")) {
            Some(Value::Object(map)) => map.clone(),
            _ => Map::new(),
        };
        for key in ["anyOf", "oneOf", "allOf"] {
            schema.remove(key);
        }
        schema.entry("type").or_insert_with(|| json!("object"));
        if !schema.get("properties").is_some_and(Value::is_object) {
            schema.insert("properties".into(), json!({}));
        }
        out.push(json!({
            "name": name,
            "description": function.get("description").and_then(Value::as_str).unwrap_or(""),
            "input_schema": schema,
        }));
    }
    out
}

/// The output cap for a model when the request names none. Anthropic requires one and rejects
/// a value above the model's limit, so only Claude families we know get more than the default.
pub fn default_max_tokens(model: &str) -> u32 {
    let model = model.to_ascii_lowercase();
    if !model.starts_with("claude-") {
        DEFAULT_MAX_TOKENS
    } else if model.starts_with("claude-3-5-") || model.contains("claude-3-5") {
        8192
    } else if model.starts_with("claude-3-7-") {
        CLAUDE_MAX_TOKENS
    } else if model.starts_with("claude-3-") || model.starts_with("claude-instant") || model.starts_with("claude-2") {
        4096
    } else {
        CLAUDE_MAX_TOKENS
    }
}

/// Whether to send `thinking: {type: disabled}`: Claude models from 4.6 on think by default
/// (the older families think only when asked, and some newer ones refuse the switch).
fn disables_thinking(model: &str) -> bool {
    effort::claude_thinking(model) == ClaudeThinking::Adaptive && !effort::claude_always_thinks(model)
}

fn oauth_prose(text: &str) -> String {
    let mut text = text.to_string();
    for (from, to) in OAUTH_SYSTEM_REPLACEMENTS {
        text = text.replace(from, to);
    }
    text
}

/// The OAuth route's tool names: `mcp__<name>` (MCP tools registered as `mcp_<server>_<tool>`
/// lose their own prefix first), with Hermes' aliases for the fingerprinted tools.
fn oauth_tool_names(tools: &[Value]) -> ToolNames {
    let ours: Vec<&str> = tools
        .iter()
        .filter_map(|t| t.get("name").and_then(Value::as_str))
        .collect();
    let plain = |name: &str| format!("{OAUTH_TOOL_PREFIX}{}", name.strip_prefix("mcp_").unwrap_or(name));
    let mut map = HashMap::new();
    for name in &ours {
        if OAUTH_TOOL_ALIASES.iter().all(|(a, _)| a != name) {
            map.insert(plain(name), (*name).to_string());
        }
    }
    for (name, alias) in OAUTH_TOOL_ALIASES {
        if ours.contains(&name) {
            let wire = format!("{OAUTH_TOOL_PREFIX}{alias}");
            // A real tool already owning the alias keeps it; the aliased one stays plain.
            let wire = if map.contains_key(&wire) { plain(name) } else { wire };
            map.insert(wire, name.to_string());
        }
    }
    ToolNames(map)
}
