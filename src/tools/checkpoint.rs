//! The checkpoint seam: before the first change a turn makes to the session's folder (a file
//! edit, a command that may write), the tool asks the turn's checkpoint guard to snapshot the
//! folder so `/undo` can put it back. The session layer implements it (a shadow git repository);
//! tools only call `before_change`, which is idempotent per turn and never fails the tool.

use futures::future::BoxFuture;

/// The turn's checkpoint guard as tools see it.
pub trait Checkpoints: Send + Sync {
    /// Snapshots the session folder unless this turn already did. Waits for the snapshot, so
    /// the change that follows is never part of it; a failure is logged and reported to the
    /// user by the implementation, and the tool goes on.
    fn before_change(&self) -> BoxFuture<'_, ()>;
}

/// No checkpoints (tests, benches, sub-scopes that must not snapshot).
#[derive(Debug, Default, Clone, Copy)]
pub struct NoCheckpoints;

impl Checkpoints for NoCheckpoints {
    fn before_change(&self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }
}
