//! How a `read_file` call looks in the editor: the file (at the requested line) as location,
//! and the text read, fenced, as the finished card's summary.

use std::path::Path;

use serde_json::Value;

use crate::runtime::describe::{self, Presentation, ToolKind};

pub(super) fn present(args: &Value, cwd: &Path) -> Presentation {
    let line = args.get("offset").and_then(Value::as_u64).map(|o| o.max(1) as u32);
    Presentation {
        kind: ToolKind::Read,
        title: match describe::arg(args, "path") {
            Some(path) => format!("Read {}", describe::shown_path(path, cwd)),
            None => "Read a file".to_string(),
        },
        locations: describe::path_location(args, cwd, line).into_iter().collect(),
        start_text: None,
    }
}

pub(super) fn summarise(args: &Value, result: &Value) -> String {
    let path = describe::arg(args, "path").unwrap_or("?");
    let body = result.get("content").and_then(Value::as_str).unwrap_or("");
    let total = result
        .get("total_lines")
        .and_then(Value::as_u64)
        .map(|n| format!(" — {n} total lines"))
        .unwrap_or_default();
    format!("Read {path}{total}\n\n{}", describe::fence(body))
}
