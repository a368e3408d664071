//! Checkpoints for `/undo`: before the first change of a turn, the session folder is snapshotted
//! into a shadow git repository under `HERMES_HOME/checkpoints/` (never the project's own
//! `.git`) — every file but regenerable output, nested repositories as files, ignored files
//! included, and the refs, reflogs and index of every repository in it; `/undo` puts back every
//! file that differs from the last turn's snapshot, permissions included. `git.rs` drives the
//! git CLI; `shadow.rs` owns one folder's shadow repository: `walk.rs` finds the files,
//! `meta.rs` the repositories' metadata, `objects.rs` keeps the folder's own object files
//! by hard links (`objects_record.rs` remembers which, `objects_back.rs` puts them back),
//! `modes.rs` the permission bits, `cache.rs` remembers
//! what the last snapshot stored, `delta.rs` what changed since, `import.rs` writes a
//! snapshot, `index_file.rs` reads git indexes, `repos.rs` finds repositories, `parse.rs`
//! reads git's answers. `excludes.rs` says
//! what is left out and the caps, `coverage.rs` what a snapshot covers, `guard.rs` is the
//! per-turn guard tools call, `restore_plan.rs` and `restore.rs` write files back.

mod cache;
mod coverage;
mod delta;
mod excludes;
pub mod git;
mod guard;
mod import;
mod index_file;
mod meta;
mod modes;
mod objects;
mod objects_back;
mod objects_record;
mod parse;
mod repos;
mod restore;
mod restore_plan;
mod shadow;
#[cfg(test)]
mod test_git;
mod walk;

pub use excludes::{FOREIGN_VCS, Limits, MAX_FILE_BYTES, MAX_FILES, MAX_LISTED, REGENERABLE};
pub use guard::TurnCheckpoint;
pub use restore::{Restoration, Restored, restore};
pub use shadow::{Change, ChangeKind, RepoFound, Shadow, Snapshot, shadow_dir};

/// Why a checkpoint could not be taken or used.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error(transparent)]
    Git(#[from] git::GitError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    /// `/` or the home directory.
    #[error("{0}")]
    TooBroad(String),
    #[error("the folder has more than {0} files")]
    TooManyFiles(usize),
    #[error("the session folder cannot be used: {0}")]
    Folder(String),
    #[error("unexpected git output: {0}")]
    Corrupt(String),
    #[error("the checkpoint task failed: {0}")]
    Task(String),
}
