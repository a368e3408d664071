//! Patch mode: parse, read every named file, plan in memory, refuse protected targets and
//! broken JSON/YAML/TOML, then ask the user file by file (any denial stops before a write),
//! then write. A write failing half way rolls the earlier files back, so the patch lands whole
//! or not at all.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::parse::{OpKind, Operation};
use super::plan::{FileEdit, Snapshot, plan};
use crate::tools::file_io::{self, GuardEnv};
use crate::tools::patch::tool::{Outcome, PatchTool, patch_error, tool_error};
use crate::tools::{FileChange, ToolContext, ToolDisplay};

pub(in crate::tools::patch) async fn run(
    tool: &PatchTool,
    ctx: &ToolContext,
    args: &Value,
    patch_text: Option<&str>,
) -> Outcome {
    let Some(text) = patch_text.filter(|t| !t.is_empty()) else {
        return tool_error("patch content required");
    };
    let ops = match super::parse(text) {
        Ok(ops) => ops,
        Err(e) => return patch_error(format!("Failed to parse patch: {e}")),
    };

    let mut errors = denied_targets(&tool.guard, &ops, ctx);
    let mut snapshot: Snapshot = HashMap::new();
    for op in &ops {
        for raw in std::iter::once(&op.path).chain(op.new_path.as_ref()) {
            let path = ctx.session.workspace.resolve(raw);
            if let Entry::Vacant(slot) = snapshot.entry(path.clone()) {
                slot.insert(file_io::read_text(ctx, &path).await.map_err(|e| e.to_string()));
            }
        }
    }
    let workspace = Arc::clone(&ctx.session.workspace);
    let planned = tokio::task::spawn_blocking(move || plan(&ops, &snapshot, &|raw| workspace.resolve(raw))).await;
    let plan = match planned {
        Ok(Ok(plan)) => Some(plan),
        Ok(Err(mut plan_errors)) => {
            errors.append(&mut plan_errors);
            None
        }
        Err(e) => return patch_error(format!("Patch planning failed: {e}")),
    };
    if let Some(plan) = &plan {
        for edit in &plan.edits {
            if let Some(after) = &edit.after
                && let Err(e) = file_io::syntax_gate(&edit.path, after)
            {
                errors.push(e);
            }
        }
    }
    let plan = match plan {
        Some(plan) if errors.is_empty() => plan,
        _ => {
            let list: Vec<String> = errors.iter().map(|e| format!("  • {e}")).collect();
            return patch_error(format!(
                "Patch validation failed (no files were modified):\n{}",
                list.join("\n")
            ));
        }
    };

    for edit in &plan.edits {
        let after = edit.after.as_deref().unwrap_or_default();
        if let Err(e) =
            file_io::request_edit_approval(ctx, "patch", &edit.path, edit.before.as_deref(), after, args).await
        {
            return tool_error(e);
        }
    }
    if let Err(e) = apply(ctx, &plan.edits).await {
        return patch_error(e);
    }

    let shown = |paths: &[PathBuf]| -> Vec<String> { paths.iter().map(|p| file_io::display_path(p)).collect() };
    let mut result = json!({"success": true, "files_modified": shown(&plan.touched)});
    if !plan.diff.is_empty() {
        result["diff"] = json!(plan.diff);
    }
    if !plan.created.is_empty() {
        result["files_created"] = json!(shown(&plan.created));
    }
    if !plan.deleted.is_empty() {
        result["files_deleted"] = json!(shown(&plan.deleted));
    }
    let lint: Map<String, Value> = plan
        .edits
        .iter()
        .filter_map(|e| {
            Some((
                file_io::display_path(&e.path),
                file_io::lint_report(&e.path, e.after.as_deref()?),
            ))
        })
        .collect();
    if !lint.is_empty() {
        result["lint"] = Value::Object(lint);
    }
    if plan.touched.len() == 1 {
        result["resolved_path"] = json!(file_io::display_path(&plan.touched[0]));
    }
    let changes = plan
        .edits
        .into_iter()
        .map(|e| FileChange {
            path: e.path,
            old_text: e.before,
            new_text: e.after,
        })
        .collect();
    Outcome::Done(result, ToolDisplay::Changes(changes))
}

/// Protected credential targets, with the verb Hermes' file operations use.
fn denied_targets(guard: &GuardEnv, ops: &[Operation], ctx: &ToolContext) -> Vec<String> {
    let mut errors = Vec::new();
    for op in ops {
        let verb = match op.kind {
            OpKind::Add | OpKind::Update => "Write",
            OpKind::Delete => "Delete",
            OpKind::Move => "Move",
        };
        for raw in std::iter::once(&op.path).chain(op.new_path.as_ref()) {
            if let Some(e) = file_io::write_denied_error(guard, &ctx.session.workspace.resolve(raw), verb) {
                errors.push(e);
            }
        }
    }
    errors
}

/// Writes and deletes every edit in order; on a failure restores what was already done.
async fn apply(ctx: &ToolContext, edits: &[FileEdit]) -> Result<(), String> {
    ctx.session.checkpoints.before_change().await;
    // Permission bits of move sources, read before the sources disappear.
    let sources: Vec<PathBuf> = edits.iter().filter_map(|e| e.mode_from.clone()).collect();
    let modes: HashMap<PathBuf, std::fs::Permissions> = file_io::blocking(move || {
        Ok(sources
            .into_iter()
            .filter_map(|s| Some((s.clone(), std::fs::metadata(&s).ok()?.permissions())))
            .collect())
    })
    .await
    .unwrap_or_default();
    for (done, edit) in edits.iter().enumerate() {
        if let Err(e) = apply_one(ctx, edit, &modes).await {
            let failure = format!("{}: {e}", edit.path.display());
            let rollback_errors = rollback(ctx, &edits[..done]).await;
            if rollback_errors.is_empty() {
                return Err(format!(
                    "Apply phase failed; the files already written were restored (no files were modified):\n  • {failure}"
                ));
            }
            let list: Vec<String> = std::iter::once(failure)
                .chain(rollback_errors)
                .map(|e| format!("  • {e}"))
                .collect();
            return Err(format!(
                "Apply phase failed (state may be inconsistent — run `git diff` to assess):\n{}",
                list.join("\n")
            ));
        }
    }
    Ok(())
}

async fn apply_one(
    ctx: &ToolContext,
    edit: &FileEdit,
    modes: &HashMap<PathBuf, std::fs::Permissions>,
) -> std::io::Result<()> {
    match &edit.after_raw {
        Some(text) => {
            file_io::write_text(ctx, &edit.path, text.clone()).await?;
            if let Some(perms) = edit.mode_from.as_ref().and_then(|source| modes.get(source)) {
                let (path, perms) = (edit.path.clone(), perms.clone());
                file_io::blocking(move || std::fs::set_permissions(&path, perms)).await?;
            }
            Ok(())
        }
        None => {
            let path = edit.path.clone();
            file_io::blocking(move || file_io::delete_file(&path)).await
        }
    }
}

/// Puts back the original content of `edits` (newest first); returns what could not be undone.
async fn rollback(ctx: &ToolContext, edits: &[FileEdit]) -> Vec<String> {
    let mut errors = Vec::new();
    for edit in edits.iter().rev() {
        let result = match &edit.before_raw {
            Some(original) => file_io::write_text(ctx, &edit.path, original.clone()).await.map(|_| ()),
            None => {
                let path = edit.path.clone();
                file_io::blocking(move || remove_if_present(&path)).await
            }
        };
        if let Err(e) = result {
            errors.push(format!("could not restore {}: {e}", edit.path.display()));
        }
    }
    errors
}

fn remove_if_present(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}
