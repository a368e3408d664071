//! Provider-opaque reasoning an assistant message carries so the next request of a tool loop can
//! hand it back: the OpenAI Responses API's encrypted `reasoning` items and Anthropic's signed
//! `thinking` / `redacted_thinking` blocks (provider `anthropic`). The agent never reads the
//! payload; the provider that minted it decides what to send back, and others ignore it.

use serde::{Deserialize, Serialize};

/// One opaque reasoning record, stored with its assistant message.
///
/// - `provider`: the wire format that produced it (`openai_responses`, `anthropic`) — a provider only
///   replays records of its own format.
/// - `issuer`: the endpoint that minted it (a base URL). Encrypted reasoning is sealed to its
///   issuer (the Responses API answers HTTP 400 `invalid_encrypted_content` to a foreign one),
///   so a session that switches endpoints drops records of another issuer instead of failing.
/// - `data`: the provider's own JSON for the record (for the Responses API the `reasoning`
///   output item: `type`, `id`, `encrypted_content`, `summary`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpaqueReasoning {
    pub provider: String,
    #[serde(default)]
    pub issuer: String,
    pub data: serde_json::Value,
}

/// Reads a stored list tolerantly: an entry this build cannot read is dropped, never the list
/// nor its message (old rows have no list at all and get an empty one).
pub(super) fn lenient_list<'de, D>(deserializer: D) -> Result<Vec<OpaqueReasoning>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    let value = serde_json::Value::deserialize(deserializer)?;
    let serde_json::Value::Array(items) = value else {
        return Ok(Vec::new());
    };
    Ok(items
        .into_iter()
        .filter_map(|item| serde_json::from_value(item).ok())
        .collect())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::transcript::{Message, OpaqueReasoning};

    #[test]
    fn reasoning_round_trips_and_old_or_odd_rows_still_load() {
        let mut message = Message::assistant("");
        message.opaque_reasoning.push(OpaqueReasoning {
            provider: "openai_responses".into(),
            issuer: "https://api.openai.com/v1".into(),
            data: json!({"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAA", "summary": []}),
        });
        let stored = serde_json::to_string(&message).unwrap();
        assert_eq!(serde_json::from_str::<Message>(&stored).unwrap(), message);
        let plain = serde_json::to_value(Message::assistant("x")).unwrap();
        assert!(plain.get("opaque_reasoning").is_none(), "{plain}");
        let old: Message = serde_json::from_value(json!({"role": "assistant", "parts": []})).unwrap();
        assert!(old.opaque_reasoning.is_empty());
        let odd: Message = serde_json::from_value(json!({"role": "assistant", "parts": [],
            "opaque_reasoning": [{"no_provider": 1}, {"provider": "p", "data": 1}]}))
        .unwrap();
        assert_eq!(odd.opaque_reasoning.len(), 1);
        let not_a_list: Message =
            serde_json::from_value(json!({"role": "assistant", "parts": [], "opaque_reasoning": 7})).unwrap();
        assert!(not_a_list.opaque_reasoning.is_empty());
    }
}
