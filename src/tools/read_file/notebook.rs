//! Jupyter notebook (`.ipynb`) to text, as Hermes' `read_extract` renders it: one
//! `# ── <Kind> cell N ──` header per cell followed by its source and a blank line.

use serde_json::Value;

/// Notebooks larger than this are read as plain JSON text instead (extraction needs it whole).
pub(crate) const MAX_NOTEBOOK_BYTES: u64 = 64 * 1024 * 1024;

pub(crate) fn is_notebook(path: &std::path::Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("ipynb"))
}

/// The notebook's cells as text, or `None` when it is not a readable notebook (the caller then
/// falls back to reading the raw JSON).
pub(crate) fn extract(json_text: &str) -> Option<String> {
    let root: Value = serde_json::from_str(json_text).ok()?;
    let root = root.as_object()?;
    let cells: Vec<&Value> = match root.get("cells").and_then(Value::as_array) {
        Some(cells) => cells.iter().collect(),
        // nbformat 3 kept cells inside worksheets.
        None => root
            .get("worksheets")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|ws| ws.get("cells").and_then(Value::as_array))
            .flatten()
            .collect(),
    };
    let (mut markdown, mut code) = (0usize, 0usize);
    let mut out: Vec<String> = Vec::new();
    for cell in cells {
        let header = match cell.get("cell_type").and_then(Value::as_str) {
            Some("markdown") => {
                markdown += 1;
                format!("# ── Markdown cell {markdown} ──")
            }
            Some("code") => {
                code += 1;
                format!("# ── Code cell {code} ──")
            }
            Some("raw") => "# ── Raw cell ──".to_string(),
            _ => continue,
        };
        out.push(header);
        out.push(source_text(cell.get("source")).trim_end_matches('\n').to_string());
        out.push(String::new());
    }
    if out.is_empty() {
        return None;
    }
    Some(format!("{}\n", out.join("\n").trim_end_matches('\n')))
}

fn source_text(source: Option<&Value>) -> String {
    match source {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts.iter().filter_map(Value::as_str).collect(),
        _ => String::new(),
    }
}
