//! Putting a folder back to a checkpoint: the files that differ between the checkpoint and the
//! folder now are restored byte for byte — created files removed, deleted and modified ones
//! written back with their executable bit, symlinks recreated. Text goes through the session's
//! `FileSystem` (the editor's `fs/write_text_file` when it offers it, so open buffers follow);
//! binary content, removals and symlinks go to the disk. Submodules are left alone.

use std::path::{Path, PathBuf};

use super::{Change, ChangeKind, CheckpointError, Shadow};
use crate::tools::FileSystem;
use crate::tools::file_io;

const SYMLINK: u32 = 0o120000;
const GITLINK: u32 = 0o160000;

/// One file put back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restored {
    /// Relative to the session folder.
    pub path: String,
    pub kind: ChangeKind,
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
    let mut restored = Vec::with_capacity(plan.len());
    let mut failures = Vec::new();
    for (change, content) in plan {
        let target = cwd.join(&change.path);
        match put_back(&change, content, target, fs).await {
            Ok(()) => restored.push(Restored {
                path: change.path,
                kind: change.kind,
            }),
            Err(e) => failures.push(format!("{}: {e}", change.path)),
        }
    }
    Ok((restored, failures))
}

/// The changes since `commit` with the checkpoint content of each file to write back.
fn plan(home: &Path, cwd: &Path, commit: &str) -> Result<Vec<(Change, Option<Vec<u8>>)>, CheckpointError> {
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

async fn put_back(change: &Change, content: Option<Vec<u8>>, target: PathBuf, fs: &dyn FileSystem) -> std::io::Result<()> {
    let Some(bytes) = content else {
        return file_io::blocking(move || match std::fs::symlink_metadata(&target) {
            Ok(meta) if meta.is_dir() => Ok(()),
            Ok(_) => std::fs::remove_file(&target),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e),
        })
        .await;
    };
    let mode = change.old_mode;
    if mode == SYMLINK {
        return file_io::blocking(move || restore_symlink(&target, &bytes)).await;
    }
    let parent = target.parent().map(Path::to_path_buf);
    let is_symlink_now = std::fs::symlink_metadata(&target).is_ok_and(|m| m.file_type().is_symlink());
    file_io::blocking(move || {
        if let Some(parent) = parent {
            std::fs::create_dir_all(parent)?;
        }
        Ok(())
    })
    .await?;
    let text = (!is_symlink_now && !bytes.contains(&0))
        .then(|| String::from_utf8(bytes.clone()).ok())
        .flatten();
    let through_editor = match &text {
        Some(text) => fs.write_text(&target, text).await,
        None => None,
    };
    match through_editor {
        Some(result) => result?,
        None => {
            let target = target.clone();
            file_io::blocking(move || {
                if is_symlink_now {
                    std::fs::remove_file(&target)?;
                }
                file_io::atomic_write(&target, &bytes)
            })
            .await?
        }
    }
    file_io::blocking(move || set_executable(&target, mode & 0o111 != 0)).await
}

#[cfg(unix)]
fn restore_symlink(target: &Path, link: &[u8]) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    if std::fs::symlink_metadata(target).is_ok() {
        std::fs::remove_file(target)?;
    }
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::os::unix::fs::symlink(std::ffi::OsStr::from_bytes(link), target)
}

#[cfg(not(unix))]
fn restore_symlink(target: &Path, link: &[u8]) -> std::io::Result<()> {
    file_io::atomic_write(target, link)
}

/// Git keeps only the executable bit; the other permission bits of the file stay as they are.
#[cfg(unix)]
fn set_executable(path: &Path, executable: bool) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path)?.permissions().mode();
    let wanted = if executable { mode | ((mode & 0o444) >> 2) } else { mode & !0o111 };
    if wanted != mode {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(wanted))?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn set_executable(_path: &Path, _executable: bool) -> std::io::Result<()> {
    Ok(())
}
