//! Judges one incoming line before the SDK sees it: a well-formed JSON-RPC message is forwarded
//! unchanged; anything else is answered here with the right code and, whenever the line carries
//! a usable id, with that id (the SDK would answer `id: null` or not at all), or ignored when
//! JSON-RPC says nothing may be answered (notifications, responses).

use agent_client_protocol::RawJsonRpcMessage;
use serde_json::{Map, Value, json};

/// JSON-RPC: the line is not JSON (or not UTF-8).
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC: JSON, but not a valid request object.
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC: `params` is neither an object nor an array.
pub const INVALID_PARAMS: i64 = -32602;

/// What to do with one line read from stdin.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// A well-formed message: hand this line to the SDK unchanged.
    Forward(String),
    /// Answer with this error response (one JSON line, no newline).
    Reply(String),
    /// Say nothing: a blank line, an invalid notification or an invalid response.
    Ignore(&'static str),
}

/// Classifies one line (without its `\n`).
pub fn classify(line: Vec<u8>) -> Verdict {
    let text = match String::from_utf8(line) {
        Ok(text) => text,
        Err(_) => return Verdict::Reply(error_line(&Value::Null, PARSE_ERROR, "Parse error: not UTF-8")),
    };
    if text.trim().is_empty() {
        return Verdict::Ignore("blank line");
    }
    // serde_json stops at 128 levels of nesting, so hostile depth is an error, not a stack overflow.
    let value: Value = match serde_json::from_str(&text) {
        Ok(value) => value,
        Err(_) => return Verdict::Reply(error_line(&Value::Null, PARSE_ERROR, "Parse error")),
    };
    let Value::Object(object) = value else {
        // Arrays included: the SDK does not support batches.
        return Verdict::Reply(error_line(
            &Value::Null,
            INVALID_REQUEST,
            "Invalid request: not an object",
        ));
    };
    match envelope_problem(&object) {
        Some(Problem::Answer { id, code, message }) => Verdict::Reply(error_line(&id, code, message)),
        Some(Problem::Silent(why)) => Verdict::Ignore(why),
        None => {
            let id = reply_id(&object);
            let is_call = object.contains_key("method") && object.contains_key("id");
            // The SDK's own parse is the final word: forward only what it accepts as a message.
            match serde_json::from_value::<RawJsonRpcMessage>(Value::Object(object)) {
                Ok(_) => Verdict::Forward(text),
                Err(_) if is_call => Verdict::Reply(error_line(&id, INVALID_REQUEST, "Invalid request")),
                Err(_) => Verdict::Ignore("message the SDK cannot read"),
            }
        }
    }
}

enum Problem {
    Answer {
        id: Value,
        code: i64,
        message: &'static str,
    },
    Silent(&'static str),
}

/// The first thing wrong with the envelope of `object`, if any.
fn envelope_problem(object: &Map<String, Value>) -> Option<Problem> {
    let id = reply_id(object);
    let has_id = object.contains_key("id");
    let answer = |code, message| {
        Some(Problem::Answer {
            id: id.clone(),
            code,
            message,
        })
    };
    let has_result = object.contains_key("result") || object.contains_key("error");
    let Some(method) = object.get("method") else {
        if has_result {
            // A response (perhaps to nothing we sent): JSON-RPC never answers responses; the SDK
            // ignores stray ones.
            return None;
        }
        if has_id {
            return answer(INVALID_REQUEST, "Invalid request: no method");
        }
        return answer(INVALID_REQUEST, "Invalid request: neither a request nor a response");
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return answer(INVALID_REQUEST, "Invalid request: jsonrpc must be \"2.0\"");
    }
    if !method.is_string() {
        return answer(INVALID_REQUEST, "Invalid request: method must be a string");
    }
    if has_result {
        return answer(INVALID_REQUEST, "Invalid request: a request cannot carry a result");
    }
    if has_id
        && !matches!(
            object.get("id"),
            Some(Value::String(_) | Value::Number(_) | Value::Null)
        )
    {
        return answer(INVALID_REQUEST, "Invalid request: id must be a string or a number");
    }
    match object.get("params") {
        None | Some(Value::Null | Value::Object(_) | Value::Array(_)) => None,
        Some(_) if has_id => answer(INVALID_PARAMS, "Invalid params: must be an object or an array"),
        Some(_) => Some(Problem::Silent("notification with params that are not an object")),
    }
}

/// The id an error answer must carry: the request's own when it is a string or a number,
/// `null` otherwise (JSON-RPC: "if there was an error in detecting the id").
fn reply_id(object: &Map<String, Value>) -> Value {
    match object.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        _ => Value::Null,
    }
}

/// One JSON-RPC error response, serialized.
pub fn error_line(id: &Value, code: i64, message: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}).to_string()
}

#[cfg(test)]
mod tests;
