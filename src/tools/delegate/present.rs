//! How a `delegate_task` call looks in the editor (the reference's texts): the tasks while it
//! runs, each child's outcome when it is done, and the live line per child while they work.

use serde_json::Value;

use crate::text::clip;

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() > max {
        format!("{}...", text.chars().take(max - 3).collect::<String>())
    } else {
        text.to_string()
    }
}

fn goal_of(v: &Value) -> Option<&str> {
    v.get("goal").and_then(Value::as_str).filter(|g| !g.trim().is_empty())
}

pub(super) fn title(args: &Value) -> String {
    if let Some(tasks) = args.get("tasks").and_then(Value::as_array).filter(|t| !t.is_empty()) {
        return format!("Delegate {} tasks to subagents", tasks.len());
    }
    match goal_of(args) {
        Some(goal) => format!(
            "Delegate \u{201c}{}\u{201d}",
            cut(&goal.split_whitespace().collect::<Vec<_>>().join(" "), 60)
        ),
        None => "Delegate a task".into(),
    }
}

pub(super) fn start_text(args: &Value) -> String {
    if let Some(tasks) = args.get("tasks").and_then(Value::as_array).filter(|t| !t.is_empty()) {
        let mut s = format!("Delegating {} tasks\n", tasks.len());
        for (i, task) in tasks.iter().take(8).enumerate() {
            let role = task.get("role").and_then(Value::as_str).map(|r| format!(" ({r})"));
            s.push_str(&format!(
                "\n{}. {}{}",
                i + 1,
                clip(goal_of(task).unwrap_or(""), 160),
                role.unwrap_or_default()
            ));
        }
        if tasks.len() > 8 {
            s.push_str(&format!("\n... {} more", tasks.len() - 8));
        }
        return s;
    }
    match goal_of(args) {
        Some(goal) => format!("Delegating task:\n{}", clip(goal, 800)),
        None => "Delegating task".into(),
    }
}

pub(super) fn summarise(result: &Value) -> String {
    let Some(results) = result.get("results").and_then(Value::as_array) else {
        return clip(&result.to_string(), 8000);
    };
    let total = result
        .get("total_duration_seconds")
        .and_then(Value::as_f64)
        .map(|t| format!(" in {t:.1}s"))
        .unwrap_or_default();
    let mut out = format!("Delegation results: {} task(s){total}", results.len());
    for entry in results {
        let status = entry.get("status").and_then(Value::as_str).unwrap_or("unknown");
        let icon = match status {
            "completed" => "✅",
            "interrupted" => "⏹️",
            _ => "❌",
        };
        let index = entry.get("task_index").and_then(Value::as_u64).unwrap_or(0) + 1;
        let model = entry.get("model").and_then(Value::as_str).unwrap_or("?");
        let role = entry.get("role").and_then(Value::as_str).unwrap_or("leaf");
        let secs = entry.get("duration_seconds").and_then(Value::as_f64).unwrap_or(0.0);
        out.push_str(&format!(
            "\n\n{icon} Task {index}: {status} ({model}, role={role}, {secs:.1}s)"
        ));
        if let Some(summary) = entry.get("summary").and_then(Value::as_str).filter(|s| !s.is_empty()) {
            out.push_str(&format!("\n{}", clip(summary, 1200)));
        }
        if let Some(error) = entry.get("error").and_then(Value::as_str) {
            out.push_str(&format!("\nError: {}", clip(error, 800)));
        }
        let tools: Vec<&str> = (entry.get("tool_trace").and_then(Value::as_array))
            .into_iter()
            .flatten()
            .filter_map(|t| t.get("tool").and_then(Value::as_str))
            .take(12)
            .collect();
        if !tools.is_empty() {
            out.push_str(&format!("\nTools: {}", tools.join(", ")));
        }
    }
    clip(&out, 8000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn titles_and_start_texts() {
        assert_eq!(
            title(&json!({"goal": "x".repeat(70)})),
            format!("Delegate \u{201c}{}...\u{201d}", "x".repeat(57))
        );
        assert_eq!(
            title(&json!({"tasks": [{"goal": "a"}, {"goal": "b"}]})),
            "Delegate 2 tasks to subagents"
        );
        assert_eq!(title(&json!({})), "Delegate a task");
        assert_eq!(
            start_text(&json!({"tasks": [{"goal": "a", "role": "leaf"}, {"goal": "b"}]})),
            "Delegating 2 tasks\n\n1. a (leaf)\n2. b"
        );
        assert_eq!(start_text(&json!({"goal": "fix"})), "Delegating task:\nfix");
    }

    #[test]
    fn summary_lists_each_child() {
        let result = json!({"total_duration_seconds": 1.5, "results": [
            {"task_index": 0, "status": "completed", "summary": "done A", "model": "m", "role": "leaf",
             "duration_seconds": 1.0, "tool_trace": [{"tool": "read_file"}]},
            {"task_index": 1, "status": "error", "summary": null, "error": "boom", "model": "m",
             "duration_seconds": 0.5, "tool_trace": []}
        ]});
        let text = summarise(&result);
        assert!(text.starts_with("Delegation results: 2 task(s) in 1.5s"), "{text}");
        assert!(
            text.contains("✅ Task 1: completed (m, role=leaf, 1.0s)\ndone A\nTools: read_file"),
            "{text}"
        );
        assert!(
            text.contains("❌ Task 2: error (m, role=leaf, 0.5s)\nError: boom"),
            "{text}"
        );
    }
}
