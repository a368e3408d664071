//! How tool calls look in the editor (reference §4, with its bugs fixed): kind, title, locations
//! and start content for the `tool_call`; status and content for the final `tool_call_update`.
//! Pure functions over the tool name, its arguments and its output — used identically by the
//! live bridge and by `session/load` replay, so both show the same cards.
//! Over 400 lines on purpose for now: the per-tool knowledge here moves into the tools
//! themselves (issue "One owner per concern"), which splits it by tool.

use std::path::Path;

use agent_client_protocol::v1::schema::{Diff, ToolCallContent, ToolCallLocation, ToolCallStatus, ToolKind};
use serde_json::Value;

use crate::tools::{ToolDisplay, ToolOutput};

/// Text blocks are capped for UI safety.
pub const TEXT_CAP: usize = 5_000;

/// The ACP kind of a tool (reference §4.1).
pub fn kind(name: &str) -> ToolKind {
    match name {
        "read_file" | "skill_view" | "skills_list" => ToolKind::Read,
        "write_file" | "patch" => ToolKind::Edit,
        "search_files" => ToolKind::Search,
        "terminal" | "process" => ToolKind::Execute,
        _ => ToolKind::Other,
    }
}

fn arg<'a>(args: &'a Value, key: &str) -> Option<&'a str> {
    args.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// The card title (reference §4.2).
pub fn title(name: &str, args: &Value) -> String {
    match name {
        "terminal" => format!("terminal: {}", shorten(arg(args, "command").unwrap_or("?"), 80, 77)),
        "read_file" => format!("read: {}", arg(args, "path").unwrap_or("?")),
        "write_file" => format!("write: {}", arg(args, "path").unwrap_or("?")),
        "patch" => {
            let mode = arg(args, "mode").unwrap_or("replace");
            let target = arg(args, "path")
                .map(str::to_string)
                .unwrap_or_else(|| v4a_paths(args).join(", "));
            format!(
                "patch ({mode}): {}",
                if target.is_empty() { "?".into() } else { target }
            )
        }
        "search_files" => format!("search: {}", arg(args, "pattern").unwrap_or("?")),
        "process" => match arg(args, "session_id") {
            Some(id) => format!("process {}: {id}", arg(args, "action").unwrap_or("manage")),
            None => format!("process {}", arg(args, "action").unwrap_or("manage")),
        },
        "todo" => match args.get("todos").and_then(Value::as_array) {
            Some(list) => format!("todo ({} item{})", list.len(), if list.len() == 1 { "" } else { "s" }),
            None => "todo".into(),
        },
        "session_search" => match arg(args, "query") {
            Some(q) => format!("session search: {q}"),
            None => "recent sessions".into(),
        },
        "memory" => format!(
            "memory {}: {}",
            arg(args, "action").unwrap_or("manage"),
            arg(args, "target").unwrap_or("memory")
        ),
        "skill_view" => match arg(args, "file_path") {
            Some(f) => format!("skill view ({}/{f})", arg(args, "name").unwrap_or("?")),
            None => format!("skill view ({})", arg(args, "name").unwrap_or("?")),
        },
        "skills_list" => match arg(args, "category") {
            Some(c) => format!("skills list ({c})"),
            None => "skills list".into(),
        },
        other => other.to_string(),
    }
}

/// Where the editor can follow along: the file a tool touches, with a line when known.
pub fn locations(name: &str, args: &Value, cwd: &Path) -> Vec<ToolCallLocation> {
    let resolve = |p: &str| crate::tools::workspace::resolve_against(cwd, p);
    let mut out = Vec::new();
    if let Some(path) = arg(args, "path") {
        let line = match name {
            "read_file" => args.get("offset").and_then(Value::as_u64).map(|o| o.max(1) as u32),
            _ => None,
        };
        if name != "search_files" || Path::new(path).extension().is_some() {
            out.push(ToolCallLocation::new(resolve(path)).line(line));
        }
    } else if name == "patch" {
        out.extend(v4a_paths(args).iter().map(|p| ToolCallLocation::new(resolve(p))));
    }
    out
}

/// Content shown while the call is pending/running (reference §4.3).
pub fn start_content(name: &str, args: &Value) -> Vec<ToolCallContent> {
    let text = match name {
        "terminal" => arg(args, "command").map(|c| format!("$ {c}")),
        "read_file" => None,
        "write_file" => Some(match arg(args, "path") {
            Some(p) => format!("Preparing write to {p}."),
            None => "Preparing file write.".into(),
        }),
        "patch" => Some(format!(
            "Preparing {} edit for {}.",
            arg(args, "mode").unwrap_or("replace"),
            arg(args, "path").unwrap_or("patch input")
        )),
        "search_files" => arg(args, "pattern").map(|p| {
            let target = arg(args, "target").unwrap_or("content");
            match arg(args, "path") {
                Some(path) => format!("Searching for '{p}' ({target}) in {path}"),
                None => format!("Searching for '{p}' ({target})"),
            }
        }),
        "process" => Some(format!("Process action: {}", arg(args, "action").unwrap_or("?"))),
        "todo" => Some(match args.get("todos").and_then(Value::as_array) {
            Some(items) => {
                let mut s = String::from("Updating todo list\n");
                for item in items.iter().take(8) {
                    let status = item.get("status").and_then(Value::as_str).unwrap_or("pending");
                    let content = item
                        .get("content")
                        .or_else(|| item.get("id"))
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    s.push_str(&format!("\n- {status}: {content}"));
                }
                if items.len() > 8 {
                    s.push_str(&format!("\n... {} more", items.len() - 8));
                }
                s
            }
            None => "Reading todo list".into(),
        }),
        _ => match args.as_object() {
            Some(map) if !map.is_empty() => serde_json::to_string_pretty(args).ok(),
            _ => None,
        },
    };
    text.map(|t| vec![text_block(&cap(&t, 1_200))]).unwrap_or_default()
}

/// Status, content and raw output of the finished card (reference §4.4).
pub fn completion(
    name: &str,
    args: &Value,
    output: &ToolOutput,
) -> (ToolCallStatus, Vec<ToolCallContent>, Option<Value>) {
    let parsed: Option<Value> = serde_json::from_str(&output.content).ok();
    let failed = output.is_error || parsed.as_ref().is_some_and(is_failure);
    let status = if failed {
        ToolCallStatus::Failed
    } else {
        ToolCallStatus::Completed
    };
    let mut content = Vec::new();
    match &output.display {
        ToolDisplay::Changes(changes) => {
            for change in changes {
                let diff = Diff::new(change.path.clone(), change.new_text.clone().unwrap_or_default())
                    .old_text(change.old_text.clone());
                content.push(ToolCallContent::Diff(diff));
            }
        }
        ToolDisplay::Terminal {
            command,
            output: out,
            exit_code,
        } => {
            let mut text = format!("$ {command}\n{out}");
            if let Some(code) = exit_code {
                text.push_str(&format!("\n\n[exit code {code}]"));
            }
            content.push(text_block(&cap(&text, TEXT_CAP)));
        }
        ToolDisplay::None => {}
    }
    if content.is_empty() || failed {
        let summary = match (&parsed, failed) {
            (Some(v), true) => format!("{name} failed: {}", error_text(v)),
            (Some(v), false) => summarize(name, args, v),
            (None, _) => output.content.clone(),
        };
        if !summary.is_empty() {
            content.push(text_block(&cap(&summary, TEXT_CAP)));
        }
    }
    let raw_output = parsed.or_else(|| Some(Value::String(cap(&output.content, TEXT_CAP))));
    (status, content, raw_output)
}

/// Reference §4.4 failure rule.
fn is_failure(v: &Value) -> bool {
    let Some(obj) = v.as_object() else { return false };
    if obj.get("success").and_then(Value::as_bool) == Some(false)
        || obj.get("ok").and_then(Value::as_bool) == Some(false)
    {
        return true;
    }
    if obj.get("status").and_then(Value::as_str) == Some("blocked") {
        return true;
    }
    let has_error = obj.get("error").is_some_and(|e| !e.is_null() && e.as_str() != Some(""));
    has_error && !obj.contains_key("content")
}

fn error_text(v: &Value) -> String {
    match v.get("error") {
        Some(Value::String(s)) => s.clone(),
        Some(other) if !other.is_null() => other.to_string(),
        _ => v.to_string(),
    }
}

/// A readable summary of a JSON result: never raw JSON for the tools we know.
fn summarize(name: &str, args: &Value, v: &Value) -> String {
    match name {
        "read_file" => {
            let path = arg(args, "path").unwrap_or("?");
            let body = v.get("content").and_then(Value::as_str).unwrap_or("");
            let total = v
                .get("total_lines")
                .and_then(Value::as_u64)
                .map(|n| format!(" — {n} total lines"))
                .unwrap_or_default();
            format!("Read {path}{total}\n\n{}", fence(body))
        }
        "search_files" => search_summary(v),
        "todo" => todo_summary(v),
        _ => generic_summary(name, v),
    }
}

fn search_summary(v: &Value) -> String {
    let mut out = String::from("Search results");
    if let Some(total) = v.get("total_count").and_then(Value::as_u64) {
        out.push_str(&format!("\nFound {total} result(s)."));
    }
    for key in ["matches", "files"] {
        if let Some(items) = v.get(key).and_then(Value::as_array) {
            for item in items.iter().take(20) {
                match item {
                    Value::String(s) => out.push_str(&format!("\n- {s}")),
                    obj => {
                        let path = obj.get("path").and_then(Value::as_str).unwrap_or("?");
                        let line = obj
                            .get("line")
                            .and_then(Value::as_u64)
                            .map(|l| format!(":{l}"))
                            .unwrap_or_default();
                        let snippet = obj
                            .get("content")
                            .and_then(Value::as_str)
                            .map(|c| collapse(c, 300))
                            .unwrap_or_default();
                        out.push_str(&format!("\n- {path}{line}"));
                        if !snippet.is_empty() {
                            out.push_str(&format!("\n  {snippet}"));
                        }
                    }
                }
            }
            if items.len() > 20 {
                out.push_str(&format!("\n... {} more", items.len() - 20));
            }
        }
    }
    if let Some(text) = v.get("matches_text").and_then(Value::as_str) {
        out.push('\n');
        out.push_str(text);
    }
    if let Some(counts) = v.get("counts").and_then(Value::as_object) {
        for (path, n) in counts.iter().take(20) {
            out.push_str(&format!("\n- {path}: {n}"));
        }
    }
    out
}

fn todo_summary(v: &Value) -> String {
    let mut out = String::from("**Todo list**\n");
    for item in v.get("todos").and_then(Value::as_array).into_iter().flatten() {
        let icon = match item.get("status").and_then(Value::as_str) {
            Some("completed") => "✅",
            Some("in_progress") => "🔄",
            Some("pending") => "⏳",
            Some("cancelled") => "✗",
            _ => "•",
        };
        out.push_str(&format!(
            "\n- {icon} {}",
            item.get("content").and_then(Value::as_str).unwrap_or("")
        ));
    }
    if let Some(s) = v.get("summary") {
        let n = |k: &str| s.get(k).and_then(Value::as_u64).unwrap_or(0);
        out.push_str(&format!(
            "\n\n**Progress:** {} completed, {} in progress, {} pending",
            n("completed"),
            n("in_progress"),
            n("pending")
        ));
        if n("cancelled") > 0 {
            out.push_str(&format!(", {} cancelled", n("cancelled")));
        }
    }
    out
}

fn generic_summary(name: &str, v: &Value) -> String {
    let Some(obj) = v.as_object() else {
        return cap(&v.to_string(), 1_500);
    };
    let mut out = if obj.get("success").and_then(Value::as_bool) == Some(true) {
        format!("✅ {name} completed")
    } else {
        format!("{name} result")
    };
    for (key, value) in obj.iter().take(40) {
        let text = match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        out.push_str(&format!("\n- **{key}:** {}", cap(&text, 500)));
    }
    out
}

/// All paths named in a V4A patch (`*** Update/Add/Delete File:` headers).
pub fn v4a_paths(args: &Value) -> Vec<String> {
    let Some(patch) = arg(args, "patch") else {
        return Vec::new();
    };
    patch
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            ["*** Update File:", "*** Add File:", "*** Delete File:"]
                .iter()
                .find_map(|p| l.strip_prefix(p))
                .map(|p| p.trim().to_string())
        })
        .collect()
}

pub fn text_block(text: &str) -> ToolCallContent {
    ToolCallContent::from(text.to_string())
}

/// Caps text for UI safety with a "(N chars total, truncated)" marker.
pub fn cap(text: &str, max: usize) -> String {
    crate::text::cap_with(text, max, max.saturating_sub(100), |total| {
        format!("\n... ({total} chars total, truncated)")
    })
}

fn shorten(text: &str, limit: usize, keep: usize) -> String {
    if text.chars().count() > limit {
        format!("{}...", text.chars().take(keep).collect::<String>())
    } else {
        text.to_string()
    }
}

fn collapse(text: &str, max: usize) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    shorten(&collapsed, max, max.saturating_sub(3))
}

/// Wraps text in a backtick fence longer than any backtick run inside it.
fn fence(body: &str) -> String {
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let ticks = "`".repeat(longest.max(2) + 1);
    format!("{ticks}\n{body}\n{ticks}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn titles_and_kinds_follow_the_reference() {
        assert_eq!(title("terminal", &json!({"command": "ls"})), "terminal: ls");
        assert_eq!(title("read_file", &json!({})), "read: ?");
        assert_eq!(title("patch", &json!({"path": "a.rs"})), "patch (replace): a.rs");
        assert_eq!(title("todo", &json!({"todos": [{}]})), "todo (1 item)");
        assert_eq!(kind("write_file"), ToolKind::Edit);
        assert_eq!(kind("mcp_x_y"), ToolKind::Other);
        let long = "x".repeat(100);
        assert_eq!(
            title("terminal", &json!({"command": long})).len(),
            "terminal: ".len() + 80
        );
    }

    #[test]
    fn failures_and_caps() {
        let out = ToolOutput::json(json!({"output": "", "exit_code": -1, "error": "BLOCKED: no", "status": "blocked"}));
        let (status, content, _) = completion("terminal", &json!({"command": "rm -rf /"}), &out);
        assert_eq!(status, ToolCallStatus::Failed);
        assert_eq!(content.len(), 1);
        let capped = cap(&"a".repeat(6000), TEXT_CAP);
        assert!(capped.ends_with("(6000 chars total, truncated)"));
        assert_eq!(fence("a ``` b"), "````\na ``` b\n````");
    }
}
