//! Redaction of the text a tool produced (`runtime::output::redact_output` applies it to a
//! whole result, once, at the source): the known secret
//! values first (by value, named markers), then the patterns of this module as a second net.
//! JSON results are decoded and every string is redacted as raw text before the result is
//! encoded again, so escapes (`\n` before a key, `\"` around one) never hide a secret from a
//! word boundary; the whole encoded text then gets the pattern pass too, for secrets that only
//! show as a key/value pair (`{"api_key": "…"}`).

use serde_json::Value;

use crate::safety::secrets::SecretSet;

/// `text` with known values and secret-looking patterns masked.
pub fn redact_text(secrets: &SecretSet, text: &str) -> String {
    super::redact(&secrets.redact(text))
}

/// A tool result's text: JSON is redacted string by string, anything else as plain text.
pub fn redact_content(secrets: &SecretSet, content: &str) -> String {
    let trimmed = content.trim_start();
    if !(trimmed.starts_with('{') || trimmed.starts_with('[')) {
        return redact_text(secrets, content);
    }
    let Ok(mut value) = serde_json::from_str::<Value>(content) else {
        return redact_text(secrets, content);
    };
    let encoded = if redact_strings(secrets, &mut value) {
        value.to_string()
    } else {
        content.to_string()
    };
    // Both passes are idempotent, so the values already masked stay as they are.
    redact_text(secrets, &encoded)
}

/// Redacts every string (and object key) of `value` in place; true when anything changed.
fn redact_strings(secrets: &SecretSet, value: &mut Value) -> bool {
    match value {
        Value::String(s) => {
            let redacted = redact_text(secrets, s);
            let changed = redacted != *s;
            if changed {
                *s = redacted;
            }
            changed
        }
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |changed, item| redact_strings(secrets, item) | changed),
        Value::Object(map) => {
            let mut changed = false;
            let keys: Vec<String> = map.keys().cloned().collect();
            for key in keys {
                let new_key = redact_text(secrets, &key);
                if new_key != key
                    && let Some(v) = map.remove(&key)
                {
                    map.insert(new_key, v);
                    changed = true;
                }
            }
            map.values_mut()
                .fold(changed, |changed, item| redact_strings(secrets, item) | changed)
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use crate::safety::secrets::fixtures::{AWS_SECRET_KEY, GITHUB_TOKEN, aws_secret_set};

    #[test]
    fn json_results_are_redacted_on_their_decoded_strings() {
        let content =
            json!({"output": format!("first\n{GITHUB_TOKEN}\nsk-abcdefghijklmnop1234567890\n{AWS_SECRET_KEY}"), "exit_code": 0}).to_string();
        let redacted = redact_content(&aws_secret_set(), &content);
        let value: Value = serde_json::from_str(&redacted).unwrap();
        assert_eq!(
            value["output"],
            "first\nghp_…[REDACTED]\nsk-…[REDACTED]\n[REDACTED:AWS_SECRET_ACCESS_KEY]"
        );
        assert_eq!(value["exit_code"], 0);
    }

    #[test]
    fn key_value_pairs_of_the_result_itself_are_masked() {
        let content = json!({"api_key": "abc123xyz", "n": 1}).to_string();
        assert_eq!(
            redact_content(&SecretSet::default(), &content),
            r#"{"api_key":"[REDACTED]","n":1}"#
        );
    }

    #[test]
    fn untouched_results_keep_their_exact_text() {
        let content = "{\"b\": 1, \"a\": 2}";
        assert_eq!(redact_content(&aws_secret_set(), content), content);
        assert_eq!(redact_content(&aws_secret_set(), "plain text"), "plain text");
    }
}
