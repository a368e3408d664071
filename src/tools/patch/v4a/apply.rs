//! Writing a validated V4A plan: every file on the site the user approved (`EditSite`), on
//! disk through directory descriptors. A write replaces the file, a delete is an `unlinkat` in
//! the resolved directory, and a move is one `renameat` between the two resolved directories
//! (then the moved file's new text, if the patch also changed it). A step failing part way
//! undoes the steps already taken, newest first, so the patch lands whole or not at all.

use std::collections::HashMap;
use std::path::PathBuf;

use super::plan::FileEdit;
use crate::runtime::ToolContext;
use crate::runtime::file_io::beneath::FileMode;
use crate::runtime::file_io::{self, EditSite};

/// One change to the disk, by index into the plan's edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// The edit's new text (its mode: the file's own, or a move source's).
    Write(usize),
    Delete(usize),
    /// The `from` file renamed onto `to`'s site.
    Rename {
        from: usize,
        to: usize,
    },
    /// The renamed file given `to`'s new text.
    Rewrite {
        from: usize,
        to: usize,
    },
}

/// What puts one step back.
enum Undo {
    Restore(EditSite, String, FileMode),
    Remove(EditSite),
    MoveBack { now: EditSite, before: EditSite },
}

/// Applies `edits` on their approved `sites` (same order). `read_sites` are the write sites
/// the files were read through, by path: a move source read through a link is copied (written
/// and deleted), not renamed, since the rename would move the link.
pub(super) async fn apply(
    ctx: &ToolContext,
    edits: &[FileEdit],
    sites: &[EditSite],
    read_sites: &HashMap<PathBuf, EditSite>,
) -> Result<(), String> {
    ctx.session.checkpoints.before_change().await;
    let steps = steps(edits, sites, read_sites);
    // A move that cannot be a rename takes its source's bits, read before anything changes.
    let mut modes = HashMap::new();
    for step in &steps {
        if let Step::Write(i) = *step
            && let Some(source) = edits[i].mode_from.as_ref().and_then(|s| read_sites.get(s))
            && let Ok(Some(bits)) = file_io::site_mode(source).await
        {
            modes.insert(i, bits);
        }
    }
    let mut done: Vec<Undo> = Vec::new();
    for step in steps {
        if let Err(e) = run(ctx, step, edits, sites, &modes, &mut done).await {
            let failed = match step {
                Step::Write(i) | Step::Delete(i) | Step::Rewrite { to: i, .. } | Step::Rename { to: i, .. } => i,
            };
            let failure = format!("{}: {e}", edits[failed].path.display());
            let rollback_errors = rollback(ctx, done).await;
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

/// The plan as disk steps, in the plan's order: a destination whose source is deleted by the
/// same patch (and was a plain file on disk) is a rename at the source's place in the order.
fn steps(edits: &[FileEdit], sites: &[EditSite], read_sites: &HashMap<PathBuf, EditSite>) -> Vec<Step> {
    let mut source_of = HashMap::new();
    let mut dest_of = HashMap::new();
    for (to, edit) in edits.iter().enumerate() {
        let (Some(_), Some(source)) = (&edit.after_raw, &edit.mode_from) else {
            continue;
        };
        let from = edits
            .iter()
            .position(|e| &e.path == source && e.after_raw.is_none() && e.before_raw.is_some());
        if let Some(from) = from
            && !dest_of.contains_key(&from)
            && read_sites
                .get(source)
                .is_some_and(|read| read.judged.real == sites[from].judged.real)
        {
            source_of.insert(to, from);
            dest_of.insert(from, to);
        }
    }
    let mut steps = Vec::with_capacity(edits.len());
    for (i, edit) in edits.iter().enumerate() {
        if source_of.contains_key(&i) {
            continue;
        }
        match (dest_of.get(&i), &edit.after_raw) {
            (Some(&to), _) => {
                steps.push(Step::Rename { from: i, to });
                if edits[to].after_raw != edit.before_raw {
                    steps.push(Step::Rewrite { from: i, to });
                }
            }
            (None, Some(_)) => steps.push(Step::Write(i)),
            (None, None) => steps.push(Step::Delete(i)),
        }
    }
    steps
}

async fn run(
    ctx: &ToolContext,
    step: Step,
    edits: &[FileEdit],
    sites: &[EditSite],
    modes: &HashMap<usize, u32>,
    done: &mut Vec<Undo>,
) -> std::io::Result<()> {
    match step {
        Step::Write(i) => {
            let mode = modes.get(&i).map_or(FileMode::Keep, |&bits| FileMode::Exact(bits));
            let text = edits[i].after_raw.clone().unwrap_or_default();
            file_io::write_site(ctx, &sites[i], text, mode).await?;
            done.push(match &edits[i].before_raw {
                Some(old) => Undo::Restore(sites[i].clone(), old.clone(), FileMode::Keep),
                None => Undo::Remove(sites[i].clone()),
            });
        }
        Step::Delete(i) => {
            let bits = file_io::site_mode(&sites[i]).await.ok().flatten();
            file_io::remove_site(&sites[i]).await?;
            let mode = bits.map_or(FileMode::Keep, FileMode::Exact);
            let old = edits[i].before_raw.clone().unwrap_or_default();
            done.push(Undo::Restore(sites[i].clone(), old, mode));
        }
        Step::Rename { from, to } => {
            file_io::move_site(&sites[from], &sites[to]).await?;
            if let Some(replaced) = &edits[to].before_raw {
                done.push(Undo::Restore(sites[to].clone(), replaced.clone(), FileMode::Keep));
            }
            done.push(Undo::MoveBack {
                now: sites[to].clone(),
                before: sites[from].clone(),
            });
        }
        Step::Rewrite { from, to } => {
            let text = edits[to].after_raw.clone().unwrap_or_default();
            file_io::write_site(ctx, &sites[to], text, FileMode::Keep).await?;
            let moved = edits[from].before_raw.clone().unwrap_or_default();
            done.push(Undo::Restore(sites[to].clone(), moved, FileMode::Keep));
        }
    }
    Ok(())
}

/// Undoes `done` newest first; returns what could not be undone.
async fn rollback(ctx: &ToolContext, done: Vec<Undo>) -> Vec<String> {
    let mut errors = Vec::new();
    for undo in done.into_iter().rev() {
        let (site, result) = match undo {
            Undo::Restore(site, text, mode) => {
                let result = file_io::write_site(ctx, &site, text, mode).await.map(drop);
                (site, result)
            }
            Undo::Remove(site) => match file_io::remove_site(&site).await {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => (site, Ok(())),
                other => (site, other),
            },
            Undo::MoveBack { now, before } => {
                let result = file_io::move_site(&now, &before).await;
                (before, result)
            }
        };
        if let Err(e) = result {
            errors.push(format!("could not restore {}: {e}", site.path.display()));
        }
    }
    errors
}
