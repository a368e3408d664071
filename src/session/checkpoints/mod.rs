//! Checkpoints for `/undo`: before the first change of a turn, the session folder is snapshotted
//! into a shadow git repository under `HERMES_HOME/checkpoints/` (never the project's own
//! `.git`); `/undo` puts back every file that differs from the last turn's snapshot. `git.rs`
//! drives the git CLI, `shadow.rs` owns one folder's shadow repository, `excludes.rs` what is
//! left out, `guard.rs` the per-turn guard tools call, `restore.rs` writing files back.

mod excludes;
pub mod git;
mod guard;
mod restore;
mod shadow;

pub use excludes::{EXCLUDES, MAX_FILE_BYTES, MAX_FILES};
pub use guard::TurnCheckpoint;
pub use restore::{Restored, restore};
pub use shadow::{Change, ChangeKind, Shadow, shadow_dir};

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
