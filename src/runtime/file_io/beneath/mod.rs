//! Writing below a decided root without following links: the disk primitive of every local edit.
//!
//! An edit is judged on its resolved path (`EditTarget.real`) inside some root — the canonical
//! project root, or `/` for an approved write elsewhere. Writing through the path string again
//! would re-resolve it, and a directory swapped for a symlink in between would carry the write
//! somewhere nobody approved. Here the path is a [`RootedPath`] (root + plain relative path),
//! and on Unix every operation opens the root once, resolves the directory that must hold the
//! file through directory file descriptors (Linux: one `openat2` with `RESOLVE_BENEATH |
//! RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS`; elsewhere, or without `openat2`, an
//! `O_NOFOLLOW | O_DIRECTORY` walk with `openat`, creating missing directories with `mkdirat`)
//! and then acts on one name inside that descriptor: `openat(O_NOFOLLOW)` to read, a temp file
//! plus `renameat` to write, `unlinkat` to delete, `renameat` between two descriptors to move.
//! A component that is (or became) a symlink or a non-directory fails with
//! [`BeneathError::Changed`] and nothing is written anywhere. Windows keeps path-based code
//! (`by_path.rs`), as the rest of the project does.

// Windows' code; built for tests on Unix too, so that it does not rot unseen.
#[cfg(any(not(unix), test))]
mod by_path;
#[cfg(unix)]
mod unix;
#[cfg(unix)]
mod walk;

use std::ffi::OsStr;
use std::io;
use std::path::{Component, Path, PathBuf};

#[cfg(not(unix))]
pub use by_path::Root;
#[cfg(unix)]
pub use unix::Root;

/// A path split into the root it was judged inside and the rest, which never leaves the root:
/// only plain names (no `..`, no root, no prefix).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootedPath {
    root: PathBuf,
    rel: PathBuf,
}

impl RootedPath {
    /// `rel` below `root`; `None` when `rel` is empty or has anything but plain names.
    pub fn new(root: &Path, rel: &Path) -> Option<RootedPath> {
        let plain = rel.components().all(|c| matches!(c, Component::Normal(_)));
        (plain && !rel.as_os_str().is_empty()).then(|| RootedPath {
            root: root.to_path_buf(),
            rel: rel.to_path_buf(),
        })
    }

    /// `real` below `root` when it lies strictly inside it, else below the file system root.
    /// `real` is a resolved path (`file_io::real_path`): absolute, no `..`.
    pub fn within(root: &Path, real: &Path) -> RootedPath {
        match real.strip_prefix(root).ok().and_then(|rel| RootedPath::new(root, rel)) {
            Some(inside) => inside,
            None => RootedPath::absolute(real),
        }
    }

    /// `real` below the root of its file system (`/`, or the drive on Windows).
    pub fn absolute(real: &Path) -> RootedPath {
        let root: PathBuf = real
            .components()
            .take_while(|c| matches!(c, Component::Prefix(_) | Component::RootDir))
            .collect();
        let rel: PathBuf = real
            .components()
            .skip_while(|c| !matches!(c, Component::Normal(_)))
            .collect();
        RootedPath { root, rel }
    }

    /// The directory the decision was made against.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The path below [`RootedPath::root`].
    pub fn rel(&self) -> &Path {
        &self.rel
    }

    /// Root and relative path joined, for messages.
    pub fn full(&self) -> PathBuf {
        self.root.join(&self.rel)
    }
}

/// The permission bits a written file ends with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileMode {
    /// The replaced file's bits; a new file gets the default (0o666 less the umask).
    Keep,
    /// Exactly these bits.
    Exact(u32),
    /// As `Keep`, then the executable bits set where the file is readable, or cleared: git
    /// keeps only this bit, so this is what a checkpoint restore wants.
    KeepExecutable(bool),
}

impl FileMode {
    /// The bits to set, given the replaced file's (`old`) and a fresh file's (`fresh`).
    pub fn bits(self, old: Option<u32>, fresh: u32) -> u32 {
        let base = old.unwrap_or(fresh) & 0o7777;
        match self {
            FileMode::Keep => base,
            FileMode::Exact(bits) => bits & 0o7777,
            FileMode::KeepExecutable(true) => base | ((base & 0o444) >> 2),
            FileMode::KeepExecutable(false) => base & !0o111,
        }
    }
}

/// Whether a change is flushed to disk before the call returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// fsync the file and its directory: an edit the user approved survives a crash.
    Synced,
    /// Leave it to the kernel: for batches that can be redone after a crash (a restore).
    Unsynced,
}

/// What an operation was doing, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Read,
    Write,
    Remove,
    Move,
}

impl Op {
    fn doing(self) -> &'static str {
        match self {
            Op::Read => "reading",
            Op::Write => "writing",
            Op::Remove => "deleting",
            Op::Move => "moving",
        }
    }

    fn nothing(self) -> &'static str {
        match self {
            Op::Read => "nothing was read",
            Op::Write => "nothing was written",
            Op::Remove => "nothing was deleted",
            Op::Move => "nothing was moved",
        }
    }
}

/// Why an operation below a root failed.
#[derive(Debug, thiserror::Error)]
pub enum BeneathError {
    /// A directory on the way is a symlink or not a directory: the path is not the one judged.
    #[error("the path changed while {}: {} {what}; {}", .op.doing(), .path.display(), .op.nothing())]
    Changed { op: Op, path: PathBuf, what: &'static str },
    /// The final name is a symlink where the judged path had a file (it dangles, or was swapped).
    #[error(
        "{} is a symbolic link (to {target}) where the checked path had no link — it points nowhere, or changed \
         after the check; {}",
        .path.display(),
        .op.nothing()
    )]
    FinalSymlink { op: Op, path: PathBuf, target: String },
    #[error("{} is a directory", .0.display())]
    IsDirectory(PathBuf),
    #[error("{} is not a regular file", .0.display())]
    NotRegular(PathBuf),
    #[error("`{}` is not a plain relative path below its root", .0.display())]
    BadPath(PathBuf),
    #[error("{}: {source}", .path.display())]
    Io { path: PathBuf, source: io::Error },
}

impl BeneathError {
    pub fn kind(&self) -> io::ErrorKind {
        match self {
            BeneathError::Io { source, .. } => source.kind(),
            BeneathError::IsDirectory(_) => io::ErrorKind::IsADirectory,
            BeneathError::BadPath(_) => io::ErrorKind::InvalidInput,
            _ => io::ErrorKind::Other,
        }
    }

    /// True when the path is not (or no longer) the one that was judged.
    pub fn is_changed(&self) -> bool {
        matches!(self, BeneathError::Changed { .. } | BeneathError::FinalSymlink { .. })
    }

    pub(crate) fn io(path: &Path, source: impl Into<io::Error>) -> BeneathError {
        BeneathError::Io {
            path: path.to_path_buf(),
            source: source.into(),
        }
    }
}

impl From<BeneathError> for io::Error {
    fn from(error: BeneathError) -> io::Error {
        io::Error::new(error.kind(), error)
    }
}

/// The parent (possibly empty) and final name of a relative path of plain names.
fn split(rel: &Path) -> Result<(&Path, &OsStr), BeneathError> {
    let plain = rel.components().all(|c| matches!(c, Component::Normal(_)));
    match (plain, rel.parent(), rel.file_name()) {
        (true, Some(parent), Some(name)) => Ok((parent, name)),
        _ => Err(BeneathError::BadPath(rel.to_path_buf())),
    }
}

/// The hidden sibling name a write or symlink is staged under before the rename.
fn staging_name(name: &OsStr) -> String {
    let shown: String = name.to_string_lossy().chars().take(64).collect();
    format!(".{shown}.hermes-tmp.{:08x}", fastrand::u32(..))
}

/// Writes `bytes` at `target` (see [`Root::write`]).
pub fn write_beneath(
    target: &RootedPath,
    bytes: &[u8],
    mode: FileMode,
    durability: Durability,
) -> Result<(), BeneathError> {
    Root::open(target.root())?.write(target.rel(), bytes, mode, durability)
}

/// Reads `target` (see [`Root::read`]).
pub fn read_beneath(target: &RootedPath) -> Result<Option<Vec<u8>>, BeneathError> {
    Root::open(target.root())?.read(target.rel())
}

/// Deletes the file at `target` (see [`Root::remove`]).
pub fn remove_beneath(target: &RootedPath, durability: Durability) -> Result<(), BeneathError> {
    Root::open(target.root())?.remove(target.rel(), durability)
}

/// Moves the file at `from` to `to` (see [`Root::rename`]).
pub fn rename_beneath(from: &RootedPath, to: &RootedPath, durability: Durability) -> Result<(), BeneathError> {
    let from_root = Root::open(from.root())?;
    if from.root() == to.root() {
        return from_root.rename(from.rel(), &from_root, to.rel(), durability);
    }
    from_root.rename(from.rel(), &Root::open(to.root())?, to.rel(), durability)
}

/// The permission bits of the file at `target`, `None` when there is none.
pub fn mode_beneath(target: &RootedPath) -> Result<Option<u32>, BeneathError> {
    Root::open(target.root())?.mode_of(target.rel())
}

/// Creates the directory `target` and its missing parents.
pub fn create_dirs_beneath(target: &RootedPath) -> Result<(), BeneathError> {
    Root::open(target.root())?.create_dirs(target.rel())
}

#[cfg(all(test, unix))]
mod race_tests;
#[cfg(all(test, unix))]
mod tests;
