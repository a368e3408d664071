//! Putting a folder back to a checkpoint: the files that differ between the checkpoint and the
//! folder now are restored byte for byte — created files removed, deleted and modified ones
//! written back with their executable bit, symlinks recreated. Text goes through the session's
//! `FileSystem` first (the editor's `fs/write_text_file` when it offers it, so open buffers
//! follow); what it does not take, binary content, removals and symlinks go to the disk in one
//! blocking batch. Disk writes are atomic (temporary file renamed over the target) but not
//! fsynced one by one: 100 fsyncs cost most of a second, and a crash mid-undo leaves the
//! checkpoint in place to run `/undo` again. Submodules are left alone.

use std::path::{Path, PathBuf};

use super::{Change, ChangeKind, CheckpointError, Shadow};
use crate::tools::FileSystem;

const SYMLINK: u32 = 0o120000;
const GITLINK: u32 = 0o160000;

/// One file put back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restored {
    /// Relative to the session folder.
    pub path: String,
    pub kind: ChangeKind,
}

/// Each changed file with its checkpoint content (`None` for files the turn created).
type Plan = Vec<(Change, Option<Vec<u8>>)>;

/// What the disk batch does for one file.
enum DiskOp {
    Remove,
    Write(Vec<u8>),
    Symlink(Vec<u8>),
    /// Written by the editor; only the executable bit is left to set.
    ModeOnly,
}

/// Restores `cwd` to `commit` of its shadow repository. Returns the files put back and, per
/// file that could not be, why. Fails without touching anything when git fails.
pub async fn restore(
    home: &Path,
    cwd: &Path,
    commit: &str,
    fs: &dyn FileSystem,
) -> Result<(Vec<Restored>, Vec<String>), CheckpointError> {
    let (home_owned, cwd_owned, commit_owned) = (home.to_path_buf(), cwd.to_path_buf(), commit.to_string());
    let plan = tokio::task::spawn_blocking(move || plan(&home_owned, &cwd_owned, &commit_owned))
        .await
        .map_err(|e| CheckpointError::Task(e.to_string()))??;
    let mut failures = Vec::new();
    let mut batch = Vec::with_capacity(plan.len());
    for (change, content) in plan {
        let target = cwd.join(&change.path);
        let op = match content {
            None => DiskOp::Remove,
            Some(bytes) if change.old_mode == SYMLINK => DiskOp::Symlink(bytes),
            Some(bytes) => match editor_text(&target, &bytes) {
                Some(text) => match fs.write_text(&target, text).await {
                    Some(Ok(())) => DiskOp::ModeOnly,
                    Some(Err(e)) => {
                        failures.push(format!("{}: {e}", change.path));
                        continue;
                    }
                    None => DiskOp::Write(bytes),
                },
                None => DiskOp::Write(bytes),
            },
        };
        batch.push((change, target, op));
    }
    let (restored, disk_failures) = tokio::task::spawn_blocking(move || apply(batch))
        .await
        .map_err(|e| CheckpointError::Task(e.to_string()))?;
    failures.extend(disk_failures);
    Ok((restored, failures))
}

/// The changes since `commit` with the checkpoint content of each file to write back.
fn plan(home: &Path, cwd: &Path, commit: &str) -> Result<Plan, CheckpointError> {
    let shadow = Shadow::open(home, cwd)?;
    let tree = shadow.current_tree(commit)?;
    let changes: Vec<Change> = shadow
        .changes(commit, &tree)?
        .into_iter()
        .filter(|c| c.old_mode != GITLINK)
        .collect();
    let wanted: Vec<&str> = changes
        .iter()
        .filter(|c| c.kind != ChangeKind::Created)
        .map(|c| c.old_blob.as_str())
        .collect();
    let mut blobs = shadow.blobs(&wanted)?.into_iter();
    Ok(changes
        .into_iter()
        .map(|c| {
            let content = (c.kind != ChangeKind::Created).then(|| blobs.next().unwrap_or_default());
            (c, content)
        })
        .collect())
}

/// Text the editor can take: UTF-8 without NUL bytes, and a target that is not a symlink now
/// (the editor would write through it).
fn editor_text<'a>(target: &Path, bytes: &'a [u8]) -> Option<&'a str> {
    if bytes.contains(&0) || std::fs::symlink_metadata(target).is_ok_and(|m| m.file_type().is_symlink()) {
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

fn apply(batch: Vec<(Change, PathBuf, DiskOp)>) -> (Vec<Restored>, Vec<String>) {
    let mut restored = Vec::with_capacity(batch.len());
    let mut failures = Vec::new();
    for (change, target, op) in batch {
        let executable = change.old_mode & 0o111 != 0;
        let result = match op {
            DiskOp::Remove => remove(&target),
            DiskOp::Symlink(link) => restore_symlink(&target, &link),
            DiskOp::Write(bytes) => write(&target, &bytes).and_then(|()| set_executable(&target, executable)),
            DiskOp::ModeOnly => set_executable(&target, executable),
        };
        match result {
            Ok(()) => restored.push(Restored {
                path: change.path,
                kind: change.kind,
            }),
            Err(e) => failures.push(format!("{}: {e}", change.path)),
        }
    }
    (restored, failures)
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
/// at `target` is replaced (the checkpoint had a regular file there).
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
    use std::os::unix::ffi::OsStrExt;
    if std::fs::symlink_metadata(target).is_ok() {
        remove(target)?;
    }
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::os::unix::fs::symlink(std::ffi::OsStr::from_bytes(link), target)
}

#[cfg(not(unix))]
fn restore_symlink(target: &Path, link: &[u8]) -> std::io::Result<()> {
    write(target, link)
}

/// Git keeps only the executable bit; the other permission bits of the file stay as they are.
#[cfg(unix)]
fn set_executable(path: &Path, executable: bool) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path)?.permissions().mode();
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

// Its one test needs Unix modes and symlinks.
#[cfg(all(test, unix))]
#[path = "restore_tests.rs"]
mod tests;
