//! The `memory` tool: persistent notes under `HERMES_HOME/memories/` (`MEMORY.md` for the
//! agent's own notes, `USER.md` for the user profile) that are injected into the system prompt
//! of every NEW session as a frozen snapshot ([`prompt_block`]). Mid-session writes land on disk
//! at once but never change the running session's prompt, so its provider cache stays warm.
//! Schema, messages and result shapes follow Hermes' `tools/memory_tool.py`.
//!
//! Before anything is stored, the known secret values in it (and their encoded forms) are
//! redacted with the session's `SecretSet`, and an entry that would lower the guard of every
//! future session (`approvals.rs`: skip approvals, leave the sandbox, download and run a
//! script) asks the user first (`consent.rs`), in every mode but yolo.

mod approvals;
mod batch;
mod consent;
mod entries;
mod format;
// Unix only: the tests check file modes.
#[cfg(all(test, unix))]
mod tests;
mod threats;

use std::path::Path;

use futures::future::BoxFuture;
use serde_json::{Value, json};

pub use entries::{ENTRY_DELIMITER, MemoryLimits, Target, memory_dir};
use entries::{MemoryFile, char_len, commas, failure, parse_entries, percent, sanitize_entries};

use crate::runtime::describe::{self, Presentation, PromptSection, ToolEffect};
use crate::runtime::{Tool, ToolContext, ToolOutput};

const DESCRIPTION: &str = "Save durable facts to persistent memory that survive across sessions. Memory is injected \
into every future turn, so keep entries compact and high-signal.\n\n\
HOW: make ALL your changes in ONE call via an 'operations' array (each item: {action, content?, old_text?}). The batch \
applies atomically and the char limit is checked only on the FINAL result — so a single call can remove/replace stale \
entries to free room AND add new ones, even when an add alone would overflow. The response reports current/limit chars \
and confirms completion; one batch call finishes the update, so don't repeat it. Use the bare action/content/old_text \
fields only for a single lone change.\n\n\
WHEN: save proactively when the user states a preference, correction, or personal detail, or you learn a stable fact \
about their environment, conventions, or workflow. Priority: user preferences & corrections > environment facts > \
procedures. The best memory stops the user repeating themselves.\n\n\
IF FULL: an add is rejected with the current entries shown. Reissue as ONE batch that removes or shortens enough stale \
entries and adds the new one together.\n\n\
TARGETS: 'user' = who the user is (name, role, preferences, style). 'memory' = your notes (environment, conventions, \
tool quirks, lessons).\n\n\
SKIP: trivial/obvious info, easily re-discovered facts, raw data dumps, task progress, completed-work logs, temporary \
TODO state (use session_search for those). Reusable procedures belong in a skill, not memory.";

/// The `memory` tool.
#[derive(Debug, Clone, Default)]
pub struct MemoryTool {
    limits: MemoryLimits,
}

impl MemoryTool {
    /// A memory tool with non-default budgets (`memory.memory_char_limit` / `user_char_limit`).
    pub fn with_limits(limits: MemoryLimits) -> MemoryTool {
        MemoryTool { limits }
    }
}

/// The memory snapshot for the system prompt of a new session: the `MEMORY.md` block then the
/// `USER.md` block, separated by a blank line, each with its header and usage; `None` when
/// both files are empty. Entries matching a threat pattern are shown as `[BLOCKED: …]`.
pub fn prompt_block(hermes_home: &Path) -> Option<String> {
    prompt_block_with(hermes_home, &MemoryLimits::default())
}

/// [`prompt_block`] with explicit budgets.
pub fn prompt_block_with(hermes_home: &Path, limits: &MemoryLimits) -> Option<String> {
    let blocks: Vec<String> = [Target::Memory, Target::User]
        .into_iter()
        .filter_map(|target| {
            let file = MemoryFile::new(hermes_home, target, limits);
            let raw = std::fs::read_to_string(&file.path).ok()?;
            let entries = sanitize_entries(&parse_entries(&raw), target.file_name());
            render_block(target, &entries, file.limit)
        })
        .collect();
    (!blocks.is_empty()).then(|| blocks.join("\n\n"))
}

/// One target's block: a `═` rule, the header with usage, a rule, then the entries. A file
/// grown past its budget by other writers is cut to head + tail so it cannot flood the prompt.
fn render_block(target: Target, entries: &[String], limit: usize) -> Option<String> {
    if entries.is_empty() {
        return None;
    }
    let mut content = entries.join(ENTRY_DELIMITER);
    let current = char_len(&content);
    let render_cap = (limit * 2).max(4000);
    if current > render_cap {
        let head = render_cap * 7 / 10;
        let tail = render_cap * 2 / 10;
        let omitted = current - head - tail;
        let chars: Vec<char> = content.chars().collect();
        content = format!(
            "{}\n\n[... {} chars truncated — memory over budget ({}/{}); consolidate via memory(action=remove/replace) ...]\n\n{}",
            chars[..head].iter().collect::<String>(),
            commas(omitted),
            commas(current),
            commas(limit),
            chars[current - tail..].iter().collect::<String>()
        );
    }
    let over = if current > limit { " ⚠ OVER BUDGET" } else { "" };
    let usage = format!(
        "{}% — {}/{} chars{over}",
        percent(current, limit),
        commas(current),
        commas(limit)
    );
    let header = match target {
        Target::User => format!("USER PROFILE (who the user is) [{usage}]"),
        Target::Memory => format!("MEMORY (your personal notes) [{usage}]"),
    };
    let rule = "═".repeat(46);
    Some(format!("{rule}\n{header}\n{rule}\n{content}"))
}

fn result(value: Value) -> ToolOutput {
    if value.get("success").and_then(Value::as_bool) == Some(false) {
        ToolOutput::json_error(value)
    } else {
        ToolOutput::json(value)
    }
}

fn text_arg<'a>(args: &'a Value, key: &str) -> Option<&'a str> {
    args.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// The call's target, or the error result.
fn target(args: &Value) -> Result<Target, Value> {
    let raw_target = args.get("target").and_then(Value::as_str).unwrap_or("memory");
    Target::parse(raw_target).ok_or_else(|| failure(format!("Invalid target '{raw_target}'. Use 'memory' or 'user'.")))
}

/// Runs one call against the files (blocking: file locks and fsync).
fn run_blocking(home: &Path, limits: &MemoryLimits, args: &Value) -> Value {
    match target(args) {
        Ok(target) => dispatch(&MemoryFile::new(home, target, limits), args),
        Err(error) => error,
    }
}

/// Runs one call's operation (or batch) on `file`.
fn dispatch(file: &MemoryFile, args: &Value) -> Value {
    match args.get("operations") {
        Some(Value::Array(ops)) if !ops.is_empty() => return file.batch(ops),
        Some(Value::Null | Value::Bool(false)) | None => {}
        Some(Value::Array(_)) => {}
        Some(Value::String(s)) if s.is_empty() => {}
        Some(_) => return failure("operations must be a list of {action, content?, old_text?} objects."),
    }
    let action = args.get("action").and_then(Value::as_str).unwrap_or("");
    let content = text_arg(args, "content");
    let old_text = text_arg(args, "old_text");
    match (action, content, old_text) {
        ("add", None, _) => failure("Content is required for 'add' action."),
        ("add", Some(content), _) => file.add(content),
        ("replace", _, None) => file.missing_old_text("replace"),
        ("replace", None, Some(_)) => failure("content is required for 'replace' action."),
        ("replace", Some(content), Some(old)) => file.replace(old, content),
        ("remove", _, None) => file.missing_old_text("remove"),
        ("remove", _, Some(old)) => file.remove(old),
        (other, _, _) => failure(format!("Unknown action '{other}'. Use: add, replace, remove")),
    }
}

impl Tool for MemoryTool {
    fn name(&self) -> &'static str {
        "memory"
    }

    fn description(&self) -> String {
        DESCRIPTION.to_string()
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "action": {
                    "type": "string",
                    "enum": ["add", "replace", "remove"],
                    "description": "The action to perform (single-op shape). Omit when using 'operations'."
                },
                "target": {
                    "type": "string",
                    "enum": ["memory", "user"],
                    "description": "Which memory store: 'memory' for personal notes, 'user' for user profile."
                },
                "content": {
                    "type": "string",
                    "description": "The entry content. Required for 'add' and 'replace' (single-op shape)."
                },
                "old_text": {
                    "type": "string",
                    "description": "REQUIRED for 'replace' and 'remove' (single-op shape): a short unique substring identifying the existing entry to modify. Omit only for 'add'."
                },
                "operations": {
                    "type": "array",
                    "description": "Batch shape: a list of operations applied atomically in one call against the final char budget. Preferred when making multiple changes or consolidating to make room. Each item is {action, content?, old_text?}.",
                    "items": {
                        "type": "object",
                        "properties": {
                            "action": {"type": "string", "enum": ["add", "replace", "remove"]},
                            "content": {"type": "string", "description": "Entry content for add/replace."},
                            "old_text": {"type": "string", "description": "Substring identifying the entry for replace/remove."}
                        },
                        "required": ["action"]
                    }
                }
            },
            "required": ["target"]
        })
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(async move {
            let Some(home) = ctx.services.hermes_home.clone() else {
                return result(failure(
                    "Memory is not available: HERMES_HOME is not configured for this session.",
                ));
            };
            let limits = self.limits;
            let args = consent::redact_contents(&ctx.services.secrets, args);
            if let Err(refusal) = consent::ask_if_lowering(ctx, &home, limits, &args).await {
                return result(refusal);
            }
            match tokio::task::spawn_blocking(move || run_blocking(&home, &limits, &args)).await {
                Ok(value) => result(value),
                Err(e) => result(failure(format!("Memory operation failed: {e}"))),
            }
        })
    }

    /// Every action changes memory; a batch (`operations`) does too.
    fn effect(&self, args: &Value) -> ToolEffect {
        let action = describe::arg(args, "action");
        if action.is_some_and(|a| a != "read") || args.get("operations").is_some_and(|o| !o.is_null()) {
            ToolEffect::WritesMemory
        } else {
            ToolEffect::ReadOnly
        }
    }

    fn present(&self, args: &Value, cwd: &Path) -> Presentation {
        Presentation {
            title: {
                let target = match describe::arg(args, "target") {
                    Some("user") => "the user profile",
                    _ => "memory",
                };
                match describe::arg(args, "action") {
                    Some("add") => format!("Add to {target}"),
                    Some("replace") => format!("Replace an entry in {target}"),
                    Some("remove") => format!("Remove an entry from {target}"),
                    _ => format!("Update {target}"),
                }
            },
            ..describe::generic_presentation(self.name(), args, cwd)
        }
    }

    /// The model edits memory knowing what it holds: the snapshot goes in the prompt.
    fn prompt_section(&self) -> Option<PromptSection> {
        Some(PromptSection::MemorySnapshot)
    }
}
