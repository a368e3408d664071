//! How a `todo` call looks in the editor: the items being written while it runs, the list with
//! progress when it is done, and the list as the editor's plan.

use serde_json::Value;

use crate::runtime::describe::{PlanItem, PlanStatus};

pub(super) fn title(args: &Value) -> String {
    match args.get("todos").and_then(Value::as_array) {
        Some(list) => format!(
            "Update the todo list ({} item{})",
            list.len(),
            if list.len() == 1 { "" } else { "s" }
        ),
        None => "Read the todo list".into(),
    }
}

pub(super) fn start_text(args: &Value) -> String {
    let Some(items) = args.get("todos").and_then(Value::as_array) else {
        return "Reading todo list".into();
    };
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

pub(super) fn summarise(v: &Value) -> String {
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

/// The complete list as a plan: cancelled items are shown completed with a `[cancelled]`
/// prefix; an empty list clears the plan.
pub(super) fn plan(v: &Value) -> Option<Vec<PlanItem>> {
    let items = v.get("todos")?.as_array()?;
    Some(
        items
            .iter()
            .map(|item| {
                let content = item.get("content").and_then(Value::as_str).unwrap_or("").to_string();
                let (content, status) = match item.get("status").and_then(Value::as_str) {
                    Some("completed") => (content, PlanStatus::Completed),
                    Some("in_progress") => (content, PlanStatus::InProgress),
                    Some("cancelled") => (format!("[cancelled] {content}"), PlanStatus::Completed),
                    _ => (content, PlanStatus::Pending),
                };
                PlanItem { content, status }
            })
            .collect(),
    )
}
