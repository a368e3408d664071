//! [`Root`] where there are no directory descriptors to resolve through (Windows): the same
//! operations by path, as the edit tools did before. The path is still the judged one (root and
//! relative path, no `..`), and symlinks at the final name are refused as on Unix, but a
//! directory swapped between the check and the write is not detected.

use std::ffi::OsStr;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::{BeneathError, Durability, FileMode, Op, split, staging_name};

/// The directory an edit was judged inside.
#[derive(Debug)]
pub struct Root {
    path: PathBuf,
}

impl Root {
    pub fn open(path: &Path) -> Result<Root, BeneathError> {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => Ok(Root {
                path: path.to_path_buf(),
            }),
            Ok(_) => Err(BeneathError::io(path, io::Error::other("not a directory"))),
            Err(e) => Err(BeneathError::io(path, e)),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn target(&self, rel: &Path, op: Op) -> Result<PathBuf, BeneathError> {
        split(rel)?;
        let target = self.path.join(rel);
        match fs::symlink_metadata(&target) {
            Ok(meta) if meta.file_type().is_symlink() => Err(BeneathError::FinalSymlink {
                op,
                target: fs::read_link(&target)
                    .map(|t| t.display().to_string())
                    .unwrap_or_else(|_| "?".into()),
                path: target,
            }),
            Ok(meta) if meta.is_dir() => Err(BeneathError::IsDirectory(target)),
            _ => Ok(target),
        }
    }

    pub fn write(&self, rel: &Path, bytes: &[u8], mode: FileMode, durability: Durability) -> Result<(), BeneathError> {
        let target = self.target(rel, Op::Write)?;
        let parent = target.parent().unwrap_or(&self.path).to_path_buf();
        fs::create_dir_all(&parent).map_err(|e| BeneathError::io(&parent, e))?;
        let readonly = fs::metadata(&target).ok().map(|m| m.permissions().readonly());
        let name = target.file_name().unwrap_or(OsStr::new("file"));
        let staged = parent.join(staging_name(name));
        let result = (|| {
            let mut file = OpenOptions::new().write(true).create_new(true).open(&staged)?;
            file.write_all(bytes)?;
            // Windows has one permission bit: read-only. Keep it, or take it from an exact mode.
            let readonly = match mode {
                FileMode::Exact(bits) => Some(bits & 0o222 == 0),
                _ => readonly,
            };
            if let Some(readonly) = readonly {
                let mut perms = file.metadata()?.permissions();
                perms.set_readonly(readonly);
                file.set_permissions(perms)?;
            }
            if durability == Durability::Synced {
                file.sync_all()?;
            }
            drop(file);
            fs::rename(&staged, &target)
        })();
        if let Err(e) = result {
            let _ = fs::remove_file(&staged);
            return Err(BeneathError::io(&target, e));
        }
        Ok(())
    }

    pub fn read(&self, rel: &Path) -> Result<Option<Vec<u8>>, BeneathError> {
        let target = self.target(rel, Op::Read)?;
        match fs::read(&target) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(BeneathError::io(&target, e)),
        }
    }

    pub fn remove(&self, rel: &Path, _durability: Durability) -> Result<(), BeneathError> {
        split(rel)?;
        let target = self.path.join(rel);
        if fs::symlink_metadata(&target).is_ok_and(|m| m.is_dir()) {
            return Err(BeneathError::IsDirectory(target));
        }
        fs::remove_file(&target).map_err(|e| BeneathError::io(&target, e))
    }

    pub fn rename(&self, rel: &Path, to: &Root, to_rel: &Path, durability: Durability) -> Result<(), BeneathError> {
        let from = self.target(rel, Op::Move)?;
        let dest = to.target(to_rel, Op::Move)?;
        if let Some(parent) = dest.parent() {
            fs::create_dir_all(parent).map_err(|e| BeneathError::io(parent, e))?;
        }
        if fs::rename(&from, &dest).is_ok() {
            return Ok(());
        }
        // Another volume: copy, then delete the source.
        let bytes = fs::read(&from).map_err(|e| BeneathError::io(&from, e))?;
        to.write(to_rel, &bytes, FileMode::Keep, durability)?;
        fs::remove_file(&from).map_err(|e| BeneathError::io(&from, e))
    }

    pub fn set_mode(&self, rel: &Path, mode: FileMode) -> Result<(), BeneathError> {
        let target = self.target(rel, Op::Write)?;
        if let FileMode::Exact(bits) = mode {
            let mut perms = fs::metadata(&target)
                .map_err(|e| BeneathError::io(&target, e))?
                .permissions();
            perms.set_readonly(bits & 0o222 == 0);
            fs::set_permissions(&target, perms).map_err(|e| BeneathError::io(&target, e))?;
        }
        Ok(())
    }

    pub fn mode_of(&self, rel: &Path) -> Result<Option<u32>, BeneathError> {
        let target = self.target(rel, Op::Read)?;
        match fs::metadata(&target) {
            Ok(meta) => Ok(Some(if meta.permissions().readonly() { 0o444 } else { 0o666 })),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(BeneathError::io(&target, e)),
        }
    }

    pub fn create_dirs(&self, rel: &Path) -> Result<(), BeneathError> {
        if !rel.components().all(|c| matches!(c, std::path::Component::Normal(_))) {
            return Err(BeneathError::BadPath(rel.to_path_buf()));
        }
        let target = self.path.join(rel);
        fs::create_dir_all(&target).map_err(|e| BeneathError::io(&target, e))
    }
}
