//! The text side of memory entries, as Hermes counts and words it: character counts in code
//! points, `1,234` budgets, percentages, splitting a file into entries, screening entries for
//! the system prompt, previews and the failure shape. No file access here (`entries.rs`).

use serde_json::{Value, json};

/// What separates two entries in a memory file (Hermes' `§` on a line of its own).
pub const ENTRY_DELIMITER: &str = "\n§\n";
use super::threats;

/// Characters as Python counts them (code points), which is what the budgets are in.
pub fn char_len(text: &str) -> usize {
    text.chars().count()
}

pub fn joined_len(entries: &[String]) -> usize {
    if entries.is_empty() {
        return 0;
    }
    entries.iter().map(|e| char_len(e)).sum::<usize>() + char_len(ENTRY_DELIMITER) * (entries.len() - 1)
}

/// `1234567` → `1,234,567` (Python's `{:,}`), for the budgets Hermes prints.
pub fn commas(n: usize) -> String {
    crate::text::thousands(n as u64)
}

/// Usage as a whole percentage, capped at 100 (0 for a zero budget).
pub fn percent(current: usize, limit: usize) -> usize {
    (current * 100).checked_div(limit).map_or(0, |p| p.min(100))
}

/// Splits a file's text into entries (trimmed, empty ones and exact duplicates dropped).
pub fn parse_entries(raw: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for entry in raw.split(ENTRY_DELIMITER).map(str::trim).filter(|e| !e.is_empty()) {
        if !out.iter().any(|e| e == entry) {
            out.push(entry.to_string());
        }
    }
    out
}

/// Entries safe to show the model: one that matches a threat pattern is replaced by a
/// placeholder (the file keeps it so the user can see and remove it).
pub fn sanitize_entries(entries: &[String], file_name: &str) -> Vec<String> {
    entries
        .iter()
        .map(|entry| {
            if entry.is_empty() || entry.starts_with("[BLOCKED:") {
                return entry.clone();
            }
            let size = char_len(entry);
            if size > threats::MAX_SCAN_CHARS {
                return format!(
                    "[BLOCKED: {file_name} entry too large to scan ({} chars). Removed from system prompt; use \
                     memory(action=remove) to delete the original.]",
                    commas(size)
                );
            }
            let findings = threats::scan(entry);
            if findings.is_empty() {
                return entry.clone();
            }
            tracing::warn!(file = file_name, findings = %findings.join(", "), "memory entry blocked");
            format!(
                "[BLOCKED: {file_name} entry contained threat pattern(s): {}. Removed from system prompt; use \
                 memory(action=remove) to delete the original.]",
                findings.join(", ")
            )
        })
        .collect()
}

/// A result with `success: false` and the given error.
pub fn failure(error: impl Into<String>) -> Value {
    json!({"success": false, "error": error.into()})
}

/// The first `width` characters of an entry, with `...` when cut (Hermes' previews).
pub(super) fn preview(entry: &str, width: usize) -> String {
    if char_len(entry) <= width {
        return entry.to_string();
    }
    format!("{}...", entry.chars().take(width).collect::<String>())
}
