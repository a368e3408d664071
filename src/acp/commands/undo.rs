//! The replies of `/undo` and `/checkpoints`: the session manager does the work, this module
//! words it for the editor.

use std::sync::Arc;

use super::AcpState;
use crate::runtime::FileSystem;
use crate::session::checkpoints::ChangeKind;
use crate::session::{Session, UndoReport};

/// How many files left alone `/undo` names (a checkpoint of an earlier version, which held no
/// ignored files, can leave thousands).
const KEPT_SHOWN: usize = 20;

pub(super) async fn undo(state: &AcpState, session: &Session, fs: Arc<dyn FileSystem>) -> String {
    if state.manager.is_running(&session.id) {
        return "A turn is running; wait for it to end (or cancel it) before /undo.".into();
    }
    match state.manager.undo(session, fs).await {
        Ok(UndoReport::Nothing) => "Nothing to undo.".into(),
        Ok(UndoReport::Undone { prompt, restored, kept }) => {
            let mut out = format!("Undid the last turn (\u{201c}{prompt}\u{201d}).");
            if restored.is_empty() {
                out.push_str(" It changed no files.");
            } else {
                out.push_str(&format!(" Restored {} file(s):", restored.len()));
                for file in &restored {
                    out.push_str(&format!("\n  {} {}", verb(file.kind), file.path));
                }
            }
            if !kept.is_empty() {
                out.push_str(&format!(
                    "\nLeft as they are ({} file(s) the checkpoint did not hold, so it cannot tell whether the turn made them):",
                    kept.len()
                ));
                for path in kept.iter().take(KEPT_SHOWN) {
                    out.push_str(&format!("\n  {path}"));
                }
                if kept.len() > KEPT_SHOWN {
                    out.push_str(&format!("\n  \u{2026} and {} more", kept.len() - KEPT_SHOWN));
                }
            }
            out.push_str("\nRun /undo again to go back another turn.");
            out
        }
        Ok(UndoReport::Partial { restored, failures }) => {
            let mut out = format!(
                "Undo incomplete: {} file(s) restored, {} could not be; the turn stays in the conversation. Fix the cause and run /undo again:",
                restored.len(),
                failures.len()
            );
            for failure in failures {
                out.push_str(&format!("\n  {failure}"));
            }
            out
        }
        Err(e) => format!("Error executing /undo: {e}"),
    }
}

fn verb(kind: ChangeKind) -> &'static str {
    match kind {
        ChangeKind::Created => "removed",
        ChangeKind::Modified => "restored",
        ChangeKind::Deleted => "recreated",
    }
}

pub(super) async fn checkpoints(state: &AcpState, session: &Session) -> String {
    let list = match state.manager.checkpoints(session).await {
        Ok(list) => list,
        Err(e) => return format!("Error executing /checkpoints: {e}"),
    };
    if list.is_empty() {
        return "No checkpoints in this session (a checkpoint is taken before a turn's first file change).".into();
    }
    let mut out = String::from("Checkpoints (newest first; /undo goes back one turn at a time):");
    for (i, checkpoint) in list.iter().enumerate() {
        let when = chrono::DateTime::from_timestamp_millis(checkpoint.created_at)
            .map(|t| t.format("%Y-%m-%d %H:%M:%S UTC").to_string())
            .unwrap_or_default();
        let files = match checkpoint.files_changed {
            Some(n) => format!("{n} file(s) changed since"),
            None => "files changed: unknown".into(),
        };
        out.push_str(&format!(
            "\n  {}. {when} \u{2014} \u{201c}{}\u{201d} \u{2014} {files}",
            i + 1,
            checkpoint.prompt
        ));
    }
    out
}
