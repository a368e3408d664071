//! Patch mode: parse, resolve and read every named file (`EditSite`), plan in memory, refuse
//! protected targets and broken JSON/YAML/TOML, then ask the user file by file (any denial
//! stops before a write), then write the approved sites (`apply.rs`), all or nothing.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::parse::{OpKind, Operation};
use super::plan::{Snapshot, plan};
use crate::runtime::file_io::{self, EditSite, GuardEnv};
use crate::runtime::{FileChange, ToolContext, ToolDisplay};
use crate::tools::patch::outcome::{Outcome, patch_error, tool_error};

pub(in crate::tools::patch) async fn run(
    guard: &GuardEnv,
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

    let mut errors = denied_targets(guard, &ops, ctx);
    let mut snapshot: Snapshot = HashMap::new();
    // Each file resolved once, for reading and (unless deleted) for writing.
    let mut read_sites: HashMap<PathBuf, EditSite> = HashMap::new();
    for op in &ops {
        for raw in std::iter::once(&op.path).chain(op.new_path.as_ref()) {
            let path = ctx.session.workspace.resolve(raw);
            if let Entry::Vacant(slot) = snapshot.entry(path.clone()) {
                let site = EditSite::for_write(ctx, path.clone());
                slot.insert(file_io::read_site(ctx, &site).await.map_err(|e| e.to_string()));
                read_sites.insert(path, site);
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

    let mut sites = Vec::with_capacity(plan.edits.len());
    for edit in &plan.edits {
        // A deleted (or moved-away) file is its own name, not what a link there points at.
        let site = match (&edit.after_raw, read_sites.get(&edit.path)) {
            (Some(_), Some(read)) => read.clone(),
            (Some(_), None) => EditSite::for_write(ctx, edit.path.clone()),
            (None, _) => EditSite::for_removal(ctx, edit.path.clone()),
        };
        let after = edit.after.as_deref().unwrap_or_default();
        if let Err(e) = file_io::request_edit_approval(ctx, "patch", &site, edit.before.as_deref(), after, args).await {
            return tool_error(e);
        }
        sites.push(site);
    }
    if let Err(e) = super::apply::apply(ctx, &plan.edits, &sites, &read_sites).await {
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
