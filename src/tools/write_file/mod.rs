//! The `write_file` tool: replaces a file's whole content (creating it and its parents). Guards
//! and the syntax gate run first, then the user approves the exact old/new texts, then the write
//! goes through the editor or atomically to disk, keeping the file's CRLF endings, BOM and mode.
//! The path is resolved once (`file_io::EditSite`): the disk write goes to the target the
//! policy judged, below the root it was judged inside, through directory descriptors.

use std::path::Path;

use futures::future::BoxFuture;
use serde_json::{Value, json};

use crate::runtime::describe::{self, Presentation, ToolEffect, ToolKind};
use crate::runtime::file_io::beneath::FileMode;
use crate::runtime::file_io::{self, GuardEnv};
use crate::runtime::{FileChange, Tool, ToolContext, ToolDisplay, ToolOutput};

const DESCRIPTION: &str = "Write content to a file, completely replacing existing content. Use this instead of \
echo/cat heredoc in terminal. Creates parent directories automatically. OVERWRITES the entire file — use 'patch' \
for targeted edits. Auto-runs syntax checks on .py/.json/.yaml/.toml and other linted languages; only NEW errors \
introduced by this write are surfaced (pre-existing errors are filtered out).";

/// `write_file`: whole-file writes.
pub struct WriteFileTool {
    guard: GuardEnv,
}

impl WriteFileTool {
    /// With the environment of the path guards (`GuardEnv::new` from the configuration).
    pub fn with_guard(guard: GuardEnv) -> WriteFileTool {
        WriteFileTool { guard }
    }

    async fn write(&self, ctx: &ToolContext, args: Value) -> ToolOutput {
        let raw_path = match args.get("path") {
            Some(Value::String(p)) if !p.is_empty() => p.clone(),
            _ => {
                return ToolOutput::error(
                    "write_file: missing required field 'path'. Re-emit the tool call with both 'path' and \
                     'content' set.",
                );
            }
        };
        let content = match args.get("content") {
            None => {
                return ToolOutput::error(
                    "write_file: missing required field 'content'. The tool call included a path but no content \
                     argument — this is almost always a dropped-arg bug under context pressure. Re-emit the tool \
                     call with the full content payload, or use execute_code with hermes_tools.write_file() for \
                     very large files.",
                );
            }
            Some(Value::String(c)) => c.clone(),
            Some(other) => {
                return ToolOutput::error(format!(
                    "write_file: 'content' must be a string, got {}.",
                    type_name(other)
                ));
            }
        };
        let cross_profile = crate::runtime::args::boolean(&args, "cross_profile", false);
        let path = ctx.session.workspace.resolve(&raw_path);

        if let Err(e) = file_io::check_edit_target(&self.guard, &raw_path, &path, cross_profile) {
            return ToolOutput::error(e);
        }
        if let Err(e) = file_io::check_internal_content(&content) {
            return ToolOutput::error(e);
        }
        if let Some(e) = file_io::write_denied_error(&self.guard, &path, "Write") {
            return write_error(&path, e);
        }
        // Resolved once: what is read, shown, judged and written is this one site.
        let site = file_io::EditSite::for_write(ctx, path.clone());
        let old_raw = match file_io::read_site_lossy(ctx, &site).await {
            Ok(old) => old,
            Err(e) => return write_error(&path, format!("Failed to write file: {e}")),
        };
        if let Err(e) = file_io::syntax_gate(&path, &content) {
            return write_error(&path, e);
        }

        let final_text = file_io::preserve_conventions(old_raw.as_deref(), &content);
        let old_shown = old_raw.as_deref().map(|t| file_io::strip_bom(t).0.to_string());
        let new_shown = file_io::strip_bom(&final_text).0.to_string();
        if let Err(e) =
            file_io::request_edit_approval(ctx, "write_file", &site, old_shown.as_deref(), &new_shown, &args).await
        {
            return ToolOutput::error(e);
        }

        let bytes_written = final_text.len();
        ctx.session.checkpoints.before_change().await;
        if let Err(e) = file_io::write_site(ctx, &site, final_text, FileMode::Keep).await {
            return write_error(&path, format!("Failed to write file: {e}"));
        }
        let shown = file_io::display_path(&path);
        let result = json!({
            "bytes_written": bytes_written,
            // Hermes reports true whenever the (absolute) path has a parent, i.e. always.
            "dirs_created": true,
            "lint": file_io::lint_report(&path, &new_shown),
            "resolved_path": shown,
            "files_modified": [shown],
        });
        let change = FileChange {
            path,
            old_text: old_shown,
            new_text: Some(new_shown),
        };
        ToolOutput::json(result).with_display(ToolDisplay::Changes(vec![change]))
    }
}

impl Tool for WriteFileTool {
    fn name(&self) -> &'static str {
        "write_file"
    }

    fn description(&self) -> String {
        DESCRIPTION.to_string()
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "path": {
                    "type": "string",
                    "description": "Path to the file to write (will be created if it doesn't exist, overwritten if it does)"
                },
                "content": {"type": "string", "description": "Complete content to write to the file"},
                "cross_profile": {
                    "type": "boolean",
                    "description": "Opt out of the cross-profile soft guard. Defaults to false. Set true ONLY after \
        explicit user direction to edit another Hermes profile's skills/plugins/cron/memories — by default these writes are \
        blocked with a warning because they affect a different profile than the one this session is running under.",
                    "default": false
                }
            },
            "required": ["path", "content"]
        })
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(self.write(ctx, args))
    }

    fn effect(&self, _args: &Value) -> ToolEffect {
        ToolEffect::EditsFiles
    }

    fn present(&self, args: &Value, cwd: &Path) -> Presentation {
        let path = describe::arg(args, "path");
        Presentation {
            kind: ToolKind::Edit,
            title: match path {
                Some(p) => format!("Write {}", describe::shown_path(p, cwd)),
                None => "Write a file".to_string(),
            },
            start_text: Some(match path {
                Some(p) => format!("Preparing write to {p}."),
                None => "Preparing file write.".into(),
            }),
            ..describe::generic_presentation(self.name(), args, cwd)
        }
    }

    fn brief(&self, args: &Value) -> Option<String> {
        describe::arg(args, "path").map(|p| describe::clip(p, 80))
    }
}

/// A failed write in Hermes' `WriteResult` shape.
fn write_error(path: &Path, error: String) -> ToolOutput {
    ToolOutput::json_error(json!({
        "bytes_written": 0,
        "dirs_created": false,
        "error": error,
        "resolved_path": file_io::display_path(path),
    }))
}

/// Python's type names, for the "must be a string" message.
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

// Unix only: the tests check file modes, symlinks and directories swapped mid-edit.
#[cfg(all(test, unix))]
mod swap_tests;
#[cfg(all(test, unix))]
mod tests;
