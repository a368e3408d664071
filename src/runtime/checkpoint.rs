//! The checkpoint seam: before the first change a turn makes to the session's folder (a file
//! edit, a command that may write, a script), the tool asks the turn's checkpoint guard to
//! snapshot the folder so `/undo` can put it back. The session layer implements it (a shadow
//! git repository); tools only call `before_change`, which is idempotent per turn and never
//! fails the tool. Its answer, `Coverage`, says what `/undo` will be able to restore: a
//! command's changes inside the folder are undoable only when the coverage is complete (what
//! the permission policy needs to let a command run without a click). See `docs/undo.md`.

use std::path::PathBuf;

use futures::future::BoxFuture;

/// What this turn's checkpoint covers. Plain data, computed once per turn.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Coverage {
    /// A snapshot exists for this turn and holds every file a command could change inside the
    /// session folder, except regenerable output (dependency and build folders, caches); git
    /// objects are kept too (the folder's own hard-linked beside the shadow store, nested
    /// repositories' in it): `/undo` restores exactly what a contained command changes there.
    pub complete: bool,
    /// Precious files (or folders) the snapshot left out: over the size cap, past the
    /// file-count cap, unreadable, a name git cannot store, another VCS's metadata. Absolute;
    /// at most `checkpoints::MAX_LISTED` of them.
    pub uncovered: Vec<PathBuf>,
    /// The git repositories found: the one the folder sits in (when its `.git` is above the
    /// folder), then every `.git` inside it. Empty when no snapshot could be taken.
    pub nested_repos: Vec<GitRepository>,
    /// Why the coverage is not complete (no git, the folder is `/` or home, too many files,
    /// files left out, the snapshot failed); `None` when it is.
    pub reason: Option<String>,
}

/// A git repository in (or around) the session folder, for the sandbox to keep its hooks
/// and configuration read-only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitRepository {
    /// The folder the repository's files are in.
    pub work_tree: PathBuf,
    /// Its git directory (`<work tree>/.git`, or where a `gitdir:` file points).
    pub git_dir: PathBuf,
    /// Where `core.hooksPath` points when set (the user's global configuration included);
    /// hooks run from `<git_dir>/hooks` otherwise.
    pub hooks_path: Option<PathBuf>,
}

impl Coverage {
    /// No checkpoint: nothing is covered, for `reason`.
    pub fn none(reason: impl Into<String>) -> Coverage {
        Coverage {
            complete: false,
            uncovered: Vec::new(),
            nested_repos: Vec::new(),
            reason: Some(reason.into()),
        }
    }
}

/// The turn's checkpoint guard as tools see it.
pub trait Checkpoints: Send + Sync {
    /// Snapshots the session folder unless this turn already did, and says what the snapshot
    /// covers (the same answer for every call of the turn). Waits for the snapshot, so the
    /// change that follows is never part of it; a failure is logged and reported to the user
    /// by the implementation, and comes back as incomplete coverage.
    fn before_change(&self) -> BoxFuture<'_, Coverage>;

    /// The git directories this turn's checkpoint found (the enclosing repository, the
    /// folder's own, every nested one), for the sandbox to keep their hooks and configuration
    /// read-only; empty until `before_change` has answered.
    fn repositories(&self) -> Vec<PathBuf> {
        Vec::new()
    }
}

/// No checkpoints (tests, benches, scopes that must not snapshot): nothing can be undone.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoCheckpoints;

impl Checkpoints for NoCheckpoints {
    fn before_change(&self) -> BoxFuture<'_, Coverage> {
        Box::pin(async { Coverage::none("no checkpoints are taken here") })
    }
}

/// A checkpoint that covers everything (tests of what a contained, undoable command may do).
#[cfg(test)]
#[derive(Debug, Default, Clone, Copy)]
pub struct CompleteCoverage;

#[cfg(test)]
impl Checkpoints for CompleteCoverage {
    fn before_change(&self) -> BoxFuture<'_, Coverage> {
        Box::pin(async {
            Coverage {
                complete: true,
                ..Coverage::default()
            }
        })
    }
}
