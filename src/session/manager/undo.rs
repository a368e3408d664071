//! `/undo` and `/checkpoints` on a session, and the per-turn checkpoint guard a turn's scope
//! carries. Undo takes the session's newest active turn, restores the files its checkpoint
//! covers (when it changed any), then marks the turn's stored rows undone and reloads the live
//! conversation from the store, so the next model request no longer holds it. Everything it
//! needs lives in the store and the shadow repository, so it works after a restart too.

use std::path::PathBuf;
use std::sync::Arc;

use super::{SessionError, SessionManager};
use crate::agent::Sink;
use crate::session::Session;
use crate::session::checkpoints::{self, Restored, Shadow, TurnCheckpoint};
use crate::sync::lock;
use crate::tools::FileSystem;
use crate::tools::checkpoint::Checkpoints;

/// What `/undo` did.
#[derive(Debug, Clone, PartialEq)]
pub enum UndoReport {
    /// No turn left to undo.
    Nothing,
    /// The turn was removed from the conversation after its files were put back.
    Undone {
        /// The undone turn's prompt, first line.
        prompt: String,
        restored: Vec<Restored>,
        /// Files the checkpoint could not see (left out, or in a regenerable folder), left
        /// as they are.
        kept: Vec<String>,
    },
    /// Some files could not be put back; the turn stays in the conversation (run it again).
    Partial {
        restored: Vec<Restored>,
        failures: Vec<String>,
    },
}

/// One line of `/checkpoints`.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckpointInfo {
    pub prompt: String,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    /// Files that differ between this checkpoint and the next one (or the folder now); `None`
    /// when the shadow repository could not say.
    pub files_changed: Option<usize>,
}

impl SessionManager {
    /// The checkpoint guard of one turn of `session`, snapshotting `cwd`.
    pub(super) fn turn_checkpoint(&self, session: &Session, cwd: PathBuf, events: Sink) -> Arc<dyn Checkpoints> {
        Arc::new(TurnCheckpoint::new(
            self.config().home.clone(),
            cwd,
            session.id.clone(),
            self.store().clone(),
            events,
        ))
    }

    /// Undoes the session's newest turn: files first (through `fs`), then the conversation.
    pub async fn undo(&self, session: &Session, fs: Arc<dyn FileSystem>) -> Result<UndoReport, SessionError> {
        // Held throughout: no turn runs while files and history are put back.
        let mut history = session.history.lock().await;
        let Some(turn) = self.store().last_turn(&session.id).await? else {
            return Ok(UndoReport::Nothing);
        };
        let checkpoint = self
            .store()
            .checkpoints(&session.id)
            .await?
            .into_iter()
            .find(|c| c.turn_seq == turn.seq);
        let mut restored = Vec::new();
        let mut kept = Vec::new();
        if let Some(checkpoint) = checkpoint {
            let cwd = PathBuf::from(&checkpoint.cwd);
            let done = checkpoints::restore(&self.config().home, &cwd, &checkpoint.commit_id, fs.as_ref())
                .await
                .map_err(|e| SessionError::Internal(format!("nothing was changed: {e}")))?;
            if !done.failures.is_empty() {
                return Ok(UndoReport::Partial {
                    restored: done.restored,
                    failures: done.failures,
                });
            }
            (restored, kept) = (done.restored, done.kept);
        }
        self.store().undo_turn(&session.id, turn.seq).await?;
        let (_, live) = self
            .store()
            .load_session(&session.id)
            .await?
            .ok_or_else(|| SessionError::NotFound(session.id.clone()))?;
        *history = live;
        // The size memory of automatic compaction described the longer conversation.
        lock(&session.auto_compaction).reset();
        Ok(UndoReport::Undone {
            prompt: turn.prompt,
            restored,
            kept,
        })
    }

    /// The session's checkpoints that can still be undone, newest first.
    pub async fn checkpoints(&self, session: &Session) -> Result<Vec<CheckpointInfo>, SessionError> {
        let rows = self.store().checkpoints(&session.id).await?;
        let home = self.config().home.clone();
        let rows_for_counts = rows.clone();
        // Per checkpoint: what differs from the next newer one of the same folder, or from the
        // folder now for the newest.
        let counts = tokio::task::spawn_blocking(move || {
            let mut counts = Vec::with_capacity(rows_for_counts.len());
            for (i, row) in rows_for_counts.iter().enumerate() {
                let newer = i
                    .checked_sub(1)
                    .map(|j| &rows_for_counts[j])
                    .filter(|n| n.cwd == row.cwd);
                let count = Shadow::open(&home, std::path::Path::new(&row.cwd))
                    .ok()
                    .and_then(|shadow| {
                        let to = match newer {
                            Some(n) => n.commit_id.clone(),
                            None => shadow.current().ok()?,
                        };
                        shadow.count_changes(&row.commit_id, &to).ok()
                    });
                counts.push(count);
            }
            counts
        })
        .await
        .map_err(|e| SessionError::Internal(format!("listing checkpoints failed: {e}")))?;
        Ok(rows
            .into_iter()
            .zip(counts)
            .map(|(row, files_changed)| CheckpointInfo {
                prompt: row.prompt,
                created_at: row.created_at,
                files_changed,
            })
            .collect())
    }
}
