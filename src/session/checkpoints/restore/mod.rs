//! Putting a folder back to a checkpoint (`restore_plan.rs` decides what): files the turn
//! created are removed first (so a symlink or file that replaced a folder is gone before the
//! folder's files come back), then every other file is written back byte for byte with the
//! checkpoint's permission bits (executable or not, private or not), symlinks recreated as
//! symlinks, and permissions a command changed on untouched files are put back. Text of the
//! folder's own files goes through the session's `FileSystem` first (the editor's
//! `fs/write_text_file` when it offers it, so open buffers follow) and its mode is then set on
//! the disk, since an editor keeps whatever mode the file had; binary content, symlinks and git
//! metadata go to the disk. The folder's own object files a command deleted go back first. Nothing is written through a symlinked folder. Disk writes are
//! atomic (temporary file renamed over the target) but not fsynced one by one: 100 fsyncs cost
//! most of a second, and a crash mid-undo leaves the checkpoint in place to run `/undo` again.

use std::path::{Path, PathBuf};

use super::restore_plan::{self, Step, display};
use super::walk::path_from_bytes;
use super::{ChangeKind, CheckpointError};
use super::{objects, objects_back};
use crate::runtime::FileSystem;

const SYMLINK: u32 = 0o120000;

/// One file put back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restored {
    /// Relative to the session folder.
    pub path: String,
    pub kind: ChangeKind,
}

/// What a restore did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Restoration {
    pub restored: Vec<Restored>,
    /// Files that could not be put back, each with why.
    pub failures: Vec<String>,
    /// Files the checkpoint could not see (left out or skipped as regenerable), left as
    /// they are.
    pub kept: Vec<String>,
}

/// What the disk does for one file.
enum DiskOp {
    Write(Vec<u8>),
    Symlink(Vec<u8>),
    /// Written by the editor; only the mode is left to set.
    ModeOnly,
}

/// Restores `cwd` to `commit` of its shadow repository. Fails without touching anything when
/// git fails.
pub async fn restore(
    home: &Path,
    cwd: &Path,
    commit: &str,
    fs: &dyn FileSystem,
) -> Result<Restoration, CheckpointError> {
    let (home_owned, cwd_owned, commit_owned) = (home.to_path_buf(), cwd.to_path_buf(), commit.to_string());
    let plan = blocking(move || restore_plan::plan(&home_owned, &cwd_owned, &commit_owned)).await??;
    let mut outcome = Restoration {
        failures: plan.refused,
        kept: plan.kept,
        ..Restoration::default()
    };
    // Objects first, so the refs written next point at objects that exist.
    if let Some((shadow, root)) = plan.own_objects {
        let back = blocking(move || objects_back::put_back(&root, &shadow, objects::hard_link)).await?;
        if back.count > 0 {
            outcome.restored.push(Restored {
                path: format!(".git/objects ({} object files)", back.count),
                kind: ChangeKind::Deleted,
            });
        }
        outcome.failures.extend(back.failures);
    }
    let (removals, writes): (Vec<Step>, Vec<Step>) = plan.steps.into_iter().partition(|s| s.content.is_none());
    let root = cwd.to_path_buf();
    let removed = blocking(move || {
        removals
            .into_iter()
            .map(|step| {
                let result = beneath(&root, &step.rel).and_then(|target| remove(&target));
                (step, result)
            })
            .collect::<Vec<_>>()
    })
    .await?;
    for (step, result) in removed {
        record(&mut outcome, step, result);
    }
    let mut batch = Vec::with_capacity(writes.len());
    for step in writes {
        let target = match beneath(cwd, &step.rel) {
            Ok(target) => target,
            Err(e) => {
                record(&mut outcome, step, Err(e));
                continue;
            }
        };
        let bytes = step.content.clone().unwrap_or_default();
        let op = match editor_text(&step, &target, &bytes) {
            Some(text) => {
                if let Some(parent) = target.parent()
                    && let Err(e) = std::fs::create_dir_all(parent)
                {
                    record(&mut outcome, step, Err(e));
                    continue;
                }
                match fs.write_text(&target, text).await {
                    Some(Ok(())) => DiskOp::ModeOnly,
                    Some(Err(e)) => {
                        record(&mut outcome, step, Err(e));
                        continue;
                    }
                    None => DiskOp::Write(bytes),
                }
            }
            None if step.mode == SYMLINK => DiskOp::Symlink(bytes),
            None => DiskOp::Write(bytes),
        };
        batch.push((step, target, op));
    }
    let root = cwd.to_path_buf();
    let permissions = plan.permissions;
    let (written, chmodded) = blocking(move || {
        let written: Vec<_> = batch
            .into_iter()
            .map(|(step, target, op)| {
                let result = apply(&target, step.mode, step.perms, op);
                (step, result)
            })
            .collect();
        let chmodded: Vec<_> = permissions
            .into_iter()
            .map(|(rel, perms)| {
                let result = beneath(&root, &rel).and_then(|target| set_permissions(&target, perms));
                (rel, result)
            })
            .collect();
        (written, chmodded)
    })
    .await?;
    for (step, result) in written {
        record(&mut outcome, step, result);
    }
    for (rel, result) in chmodded {
        match result {
            Ok(()) => outcome.restored.push(Restored {
                path: display(&rel),
                kind: ChangeKind::Modified,
            }),
            Err(e) => outcome.failures.push(format!("{}: {e}", display(&rel))),
        }
    }
    Ok(outcome)
}

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, CheckpointError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| CheckpointError::Task(e.to_string()))
}

fn record(outcome: &mut Restoration, step: Step, result: std::io::Result<()>) {
    match result {
        Ok(()) => outcome.restored.push(Restored {
            path: display(&step.rel),
            kind: step.kind,
        }),
        Err(e) => outcome.failures.push(format!("{}: {e}", display(&step.rel))),
    }
}

/// Text the editor can take: one of the folder's own files (not git metadata, not a symlink)
/// whose content is UTF-8 without NUL bytes, at a target that is not a symlink now (the
/// editor would write through it).
fn editor_text<'a>(step: &Step, target: &Path, bytes: &'a [u8]) -> Option<&'a str> {
    if step.metadata
        || step.mode == SYMLINK
        || bytes.contains(&0)
        || std::fs::symlink_metadata(target).is_ok_and(|m| m.file_type().is_symlink())
    {
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

/// `root` joined with `rel`, refused when a folder on the way is a symlink (writing through
/// it could land outside the folder) or a file.
fn beneath(root: &Path, rel: &[u8]) -> std::io::Result<PathBuf> {
    let target = root.join(path_from_bytes(rel));
    let mut at = root.to_path_buf();
    let parents: Vec<&[u8]> = rel.split(|b| *b == b'/').collect();
    for part in &parents[..parents.len().saturating_sub(1)] {
        at.push(path_from_bytes(part));
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(std::io::Error::other(format!(
                    "{} is a symbolic link; nothing is written through it",
                    at.display()
                )));
            }
            Ok(meta) if !meta.is_dir() => {
                return Err(std::io::Error::other(format!(
                    "{} is in the way (not a folder)",
                    at.display()
                )));
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => break,
            Err(e) => return Err(e),
        }
    }
    Ok(target)
}

/// Writes one file (unless the editor did) and gives it the checkpoint's permissions: all of
/// them when recorded, else the executable bit.
fn apply(target: &Path, mode: u32, perms: Option<u32>, op: DiskOp) -> std::io::Result<()> {
    let permissions = |target: &Path| match perms {
        Some(perms) => set_permissions(target, perms),
        None => set_executable(target, mode & 0o111 != 0),
    };
    match op {
        DiskOp::Symlink(link) => restore_symlink(target, &link),
        DiskOp::Write(bytes) => write(target, &bytes).and_then(|()| permissions(target)),
        DiskOp::ModeOnly => permissions(target),
    }
}

fn remove(target: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(target) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => std::fs::remove_file(target),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Writes a temporary file beside `target` and renames it over: never half a file. A symlink
/// at `target` is replaced (the checkpoint had a regular file there); an existing file's
/// permission bits are kept (git records only the executable bit, set afterwards).
fn write(target: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let parent = target.parent().unwrap_or(Path::new("/"));
    std::fs::create_dir_all(parent)?;
    if std::fs::symlink_metadata(target).is_ok_and(|m| m.is_dir()) {
        return Err(std::io::Error::other("a folder is in the way"));
    }
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = parent.join(format!(".{name}.hermes-undo-{}", std::process::id()));
    let permissions = std::fs::symlink_metadata(target)
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.permissions());
    let result = std::fs::write(&tmp, bytes)
        .and_then(|()| match permissions {
            Some(p) => std::fs::set_permissions(&tmp, p),
            None => Ok(()),
        })
        .and_then(|()| std::fs::rename(&tmp, target));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(unix)]
fn restore_symlink(target: &Path, link: &[u8]) -> std::io::Result<()> {
    if std::fs::symlink_metadata(target).is_ok() {
        remove(target)?;
    }
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::os::unix::fs::symlink(path_from_bytes(link), target)
}

#[cfg(not(unix))]
fn restore_symlink(target: &Path, link: &[u8]) -> std::io::Result<()> {
    write(target, link)
}

/// Sets exactly these permission bits (a regular file; never through a symlink).
#[cfg(unix)]
fn set_permissions(path: &Path, perms: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::symlink_metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    if meta.permissions().mode() & 0o7777 != perms {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(perms))?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn set_permissions(_path: &Path, _perms: u32) -> std::io::Result<()> {
    Ok(())
}

/// Sets or clears the executable bits (where the read bits are) to match the checkpoint; the
/// other permission bits stay as they are.
#[cfg(unix)]
fn set_executable(path: &Path, executable: bool) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::symlink_metadata(path)?.permissions().mode();
    let wanted = if executable {
        mode | ((mode & 0o444) >> 2)
    } else {
        mode & !0o111
    };
    if wanted != mode {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(wanted))?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn set_executable(_path: &Path, _executable: bool) -> std::io::Result<()> {
    Ok(())
}

// Its tests need Unix modes and symlinks.
#[cfg(all(test, unix))]
mod tests;
