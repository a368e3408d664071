//! Hermes' atomic memory batch: a list of add / replace / remove operations applied to one
//! file all-or-nothing, with the character budget checked only on the final result, so one call
//! can free room and add in the same breath.

use serde_json::Value;

use super::entries::{MemoryFile, commas, failure, joined_len};
use super::threats;

impl MemoryFile {
    /// Applies `operations` all-or-nothing, checking the budget only on the final result.
    pub fn batch(&self, operations: &[Value]) -> Value {
        if operations.is_empty() {
            return failure("operations list is empty.");
        }
        for (i, op) in operations.iter().enumerate() {
            let action = op.get("action").and_then(Value::as_str);
            if let (Some("add" | "replace"), Some(content)) = (action, op.get("content").and_then(Value::as_str))
                && let Some(blocked) = threats::first_threat_message(content)
            {
                return failure(format!("Operation {}: {blocked}", i + 1));
            }
        }
        self.locked(true, |entries| {
            let abort = |message: String| {
                let error = format!("{message} No operations were applied (batch is all-or-nothing).");
                (None, self.with_entries(error, &entries, true))
            };
            let mut working = entries.clone();
            for (i, op) in operations.iter().enumerate() {
                let text = |key: &str| op.get(key).and_then(Value::as_str).unwrap_or("").trim().to_string();
                let action = op.get("action").and_then(Value::as_str);
                let (content, old_text) = (text("content"), text("old_text"));
                let pos = format!(
                    "Operation {} ({})",
                    i + 1,
                    action.filter(|a| !a.is_empty()).unwrap_or("unknown")
                );
                let target = |working: &[String]| -> Result<usize, String> {
                    let matches: Vec<usize> = (0..working.len()).filter(|&j| working[j].contains(&old_text)).collect();
                    match matches.first() {
                        None => Err(format!("{pos}: no entry matched '{old_text}'.")),
                        Some(&first) if matches.iter().any(|&j| working[j] != working[first]) => Err(format!(
                            "{pos}: '{old_text}' matched multiple distinct entries -- be more specific."
                        )),
                        Some(&first) => Ok(first),
                    }
                };
                match action {
                    Some("add") => {
                        if content.is_empty() {
                            return abort(format!("{pos}: content is required."));
                        }
                        if !working.contains(&content) {
                            working.push(content);
                        }
                    }
                    Some("replace") => {
                        if old_text.is_empty() {
                            return abort(format!("{pos}: old_text is required."));
                        }
                        if content.is_empty() {
                            return abort(format!("{pos}: content is required (use action='remove' to delete)."));
                        }
                        match target(&working) {
                            Ok(j) => working[j] = content,
                            Err(message) => return abort(message),
                        }
                    }
                    Some("remove") => {
                        if old_text.is_empty() {
                            return abort(format!("{pos}: old_text is required."));
                        }
                        match target(&working) {
                            Ok(j) => {
                                working.remove(j);
                            }
                            Err(message) => return abort(message),
                        }
                    }
                    _ => return abort(format!("{pos}: unknown action. Use add, replace, or remove.")),
                }
            }
            let total = joined_len(&working);
            if total > self.limit {
                let error = format!(
                    "After applying all {} operations, memory would be at {}/{} chars -- over the limit. Remove or \
                     shorten more entries in the same batch (see current_entries below), then retry.",
                    operations.len(),
                    commas(total),
                    commas(self.limit)
                );
                return (None, self.with_entries(error, &entries, true));
            }
            let result = self.success(&working, &format!("Applied {} operation(s).", operations.len()));
            (Some(working), result)
        })
    }
}
