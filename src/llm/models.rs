//! Listing a provider's models, shared by every provider: `GET …/models` with a short timeout
//! (the model picker waits on it), the same error mapping as chat calls, and the ids read from
//! `{"data": [{"id": …}]}` (OpenAI, Anthropic) or Ollama's `{"models": [{"name": …}]}`.

use std::time::Duration;

use serde_json::Value;

use super::LlmError;
use super::request::Access;

/// How long a model list may take; the picker shows the configured model meanwhile.
const LIST_TIMEOUT: Duration = Duration::from_secs(3);

/// `GET url` on `access`'s endpoint and the model ids of its answer.
pub async fn fetch(access: &Access, url: &str) -> Result<Vec<String>, LlmError> {
    let response = access.get(url, |request| request.timeout(LIST_TIMEOUT)).await?;
    let value: Value = response.json().await.map_err(|e| LlmError::Protocol {
        provider: access.provider().to_string(),
        message: e.to_string(),
    })?;
    Ok(model_ids(&value))
}

/// Model ids from a `/models` answer.
pub fn model_ids(value: &Value) -> Vec<String> {
    let list = value
        .get("data")
        .or_else(|| value.get("models"))
        .and_then(Value::as_array);
    list.into_iter()
        .flatten()
        .filter_map(|m| m.get("id").or_else(|| m.get("name")).and_then(Value::as_str))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn model_lists_from_openai_anthropic_and_ollama() {
        assert_eq!(model_ids(&json!({"data": [{"id": "a"}, {"id": "b"}]})), ["a", "b"]);
        let anthropic = json!({"data": [{"id": "claude-a", "type": "model"}, {"id": "claude-b"}], "has_more": false});
        assert_eq!(model_ids(&anthropic), ["claude-a", "claude-b"]);
        assert_eq!(model_ids(&json!({"models": [{"name": "llama3"}]})), ["llama3"]);
        assert!(model_ids(&json!({})).is_empty());
    }
}
