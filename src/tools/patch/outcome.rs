//! How a patch mode ends: a success result plus what the editor shows, or an error object in
//! one of Hermes' two shapes.

use serde_json::{Value, json};

use crate::runtime::ToolDisplay;

/// How a mode ended: a success result plus what the editor shows, or an error object.
pub(crate) enum Outcome {
    Done(Value, ToolDisplay),
    Failed(Value),
}

/// `{"success": false, "error": ...}`, Hermes' failed `PatchResult`.
pub(crate) fn patch_error(error: impl Into<String>) -> Outcome {
    Outcome::Failed(json!({"success": false, "error": error.into()}))
}

/// `{"error": ...}`, Hermes' `tool_error`.
pub(crate) fn tool_error(error: impl Into<String>) -> Outcome {
    Outcome::Failed(json!({"error": error.into()}))
}
