//! What the model and the editor see of a web call: the result JSON as Hermes prints it
//! (`json.dumps(..., indent=2)`), and the cards' summaries as Hermes' ACP adapter renders them
//! (`Web results: N` with up to 10 hits; for extraction only the pages that failed).

use serde_json::Value;

use crate::runtime::ToolOutput;
use crate::text::clip;

/// The result for the model; a call is an error when Hermes' JSON says `success: false` or
/// carries only an `error`.
pub fn output(value: Value) -> ToolOutput {
    let failed = value.get("success").and_then(Value::as_bool) == Some(false)
        || (value.get("error").is_some_and(|e| !e.is_null()) && value.get("results").is_none());
    let mut out = if failed {
        ToolOutput::json_error(Value::Null)
    } else {
        ToolOutput::json(Value::Null)
    };
    out.content = serde_json::to_string_pretty(&value).unwrap_or_else(|_| value.to_string());
    out
}

fn field(item: &Value, key: &str) -> String {
    match item.get(key) {
        Some(Value::String(s)) => s.trim().to_string(),
        None | Some(Value::Null) => String::new(),
        Some(other) => other.to_string(),
    }
}

/// `Web results: N`, then `• title — url` and the description for the first 10 hits.
pub fn search_summary(result: &Value) -> String {
    let web = match result.get("data") {
        Some(data) if data.is_object() => data.get("web"),
        _ => result.get("web"),
    };
    let Some(web) = web.and_then(Value::as_array) else {
        return String::new();
    };
    let mut lines = vec![format!("Web results: {}", web.len())];
    for item in web.iter().take(10).filter(|i| i.is_object()) {
        let url = field(item, "url");
        let title = [field(item, "title"), url.clone()]
            .into_iter()
            .find(|s| !s.is_empty())
            .unwrap_or_else(|| "result".to_string());
        lines.push(if url.is_empty() {
            format!("• {title}")
        } else {
            format!("• {title} — {url}")
        });
        let description = field(item, "description");
        if !description.is_empty() {
            lines.push(format!("  {description}"));
        }
    }
    lines.join("\n")
}

/// Only failures: `Web extract failed for N URL(s)` and each failed page; nothing on success
/// (the card's title already names the pages).
pub fn extract_summary(result: &Value) -> String {
    let Some(results) = result.get("results").and_then(Value::as_array) else {
        return String::new();
    };
    let failures: Vec<String> = (results.iter().take(10))
        .filter_map(|item| {
            let error = field(item, "error");
            if error.is_empty() {
                return None;
            }
            let url = field(item, "url");
            let title = [field(item, "title"), url.clone()]
                .into_iter()
                .find(|s| !s.is_empty())
                .unwrap_or_else(|| "Untitled".to_string());
            let shown_url = if !url.is_empty() && url != title {
                format!(" — {url}")
            } else {
                String::new()
            };
            Some(format!("- {title}{shown_url}\n  Error: {}", clip(&error, 500)))
        })
        .collect();
    if failures.is_empty() {
        return String::new();
    }
    let plural = if failures.len() == 1 { "" } else { "s" };
    format!(
        "Web extract failed for {} URL{plural}\n{}",
        failures.len(),
        failures.join("\n")
    )
}

/// `extract: <first url>` and ` (+N)` for the others; `web extract` without URLs.
pub fn extract_title(args: &Value) -> String {
    let Some(urls) = args.get("urls").and_then(Value::as_array).filter(|u| !u.is_empty()) else {
        return "Fetch web pages".to_string();
    };
    let first = match &urls[0] {
        Value::String(s) => s.clone(),
        Value::Object(o) => (o.get("url").or_else(|| o.get("href")))
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string(),
        _ => "?".to_string(),
    };
    match urls.len() {
        1 => format!("Fetch {first}"),
        n => format!("Fetch {first} and {} more", n - 1),
    }
}
