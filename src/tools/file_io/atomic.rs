//! Disk mutations for the edit tools: the atomic whole-file write (temp file beside the target,
//! fsync, rename over it, original mode kept) plus delete and move for V4A patches. A crash or
//! a failed write leaves either the old file or the new one, never half of each.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::write_target;

/// Writes `bytes` to `path` atomically. The temp file lives in the same directory so the final
/// rename never crosses file systems; an existing file's permission bits are copied onto it;
/// a symlink is followed so the link itself survives. Parent directories are created.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = write_target(path);
    if target.is_dir() {
        return Err(io::Error::other(format!("{} is a directory", target.display())));
    }
    let parent = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("/"))
        .to_path_buf();
    fs::create_dir_all(&parent)?;
    let permissions = fs::metadata(&target).ok().map(|m| m.permissions());
    let (tmp_path, mut file) = create_temp(&parent, &target)?;
    let result = (|| {
        file.write_all(bytes)?;
        if let Some(perms) = permissions {
            file.set_permissions(perms)?;
        }
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp_path, &target)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp_path);
        return Err(e);
    }
    sync_dir(&parent);
    Ok(())
}

/// Deletes a regular file (directories are refused).
pub fn delete_file(path: &Path) -> io::Result<()> {
    let meta = fs::symlink_metadata(path)?;
    if meta.is_dir() {
        return Err(io::Error::other(format!("{} is a directory", path.display())));
    }
    fs::remove_file(path)?;
    if let Some(parent) = path.parent() {
        sync_dir(parent);
    }
    Ok(())
}

/// Moves a file, creating the destination's parent directories; falls back to copy + delete
/// when the two paths are on different file systems.
pub fn move_file(src: &Path, dst: &Path) -> io::Result<()> {
    if let Some(parent) = dst.parent() {
        fs::create_dir_all(parent)?;
    }
    match fs::rename(src, dst) {
        Ok(()) => Ok(()),
        Err(e) if e.raw_os_error() == Some(libc::EXDEV) => {
            fs::copy(src, dst)?;
            fs::remove_file(src)
        }
        Err(e) => Err(e),
    }
}

/// Creates a fresh hidden temp file next to `target` (`.<name>.hermes-tmp.<random>`).
fn create_temp(dir: &Path, target: &Path) -> io::Result<(PathBuf, File)> {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    let mut last_err = None;
    for _ in 0..16 {
        let candidate = dir.join(format!(".{name}.hermes-tmp.{:08x}", fastrand::u32(..)));
        match OpenOptions::new().write(true).create_new(true).open(&candidate) {
            Ok(file) => return Ok((candidate, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last_err = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last_err.unwrap_or_else(|| io::Error::other("could not create a temp file")))
}

/// Flushes a directory entry change (rename, unlink) to disk; best effort.
fn sync_dir(dir: &Path) {
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
}
