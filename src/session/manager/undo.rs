//! `/undo` and `/checkpoints` on a session, and the per-turn checkpoint guard a turn's scope
//! carries. Undo takes the session's newest active turn, restores the files its checkpoint
//! covers (when it changed any), then marks the turn's stored rows undone and reloads the live
//! conversation from the store, so the next model request no longer holds it. Everything it
//! needs lives in the store and the shadow repository, so it works after a restart too. Each
//! of the session's folders (the cwd and the editor's additional ones) has its own shadow
//! repository and its own checkpoint of a turn; undo puts every one of them back.

use std::path::PathBuf;
use std::sync::Arc;

use futures::future::BoxFuture;

use super::{SessionError, SessionManager};
use crate::agent::Sink;
use crate::runtime::FileSystem;
use crate::runtime::checkpoint::{Checkpoints, Coverage};
use crate::session::Session;
use crate::session::checkpoints::{self, Restored, Shadow, TurnCheckpoint};

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
    /// The checkpoint guard of one turn of `session`, snapshotting each of `folders`.
    pub(super) fn turn_checkpoint(
        &self,
        session: &Session,
        folders: Vec<PathBuf>,
        events: Sink,
    ) -> Arc<dyn Checkpoints> {
        let guards = folders
            .into_iter()
            .map(|folder| {
                TurnCheckpoint::new(
                    self.config().home.clone(),
                    folder,
                    session.id.clone(),
                    self.store().clone(),
                    events.clone(),
                )
            })
            .collect();
        Arc::new(EveryFolder(guards))
    }

    /// Undoes the session's newest turn: files first (through `fs`), then the conversation.
    pub async fn undo(&self, session: &Session, fs: Arc<dyn FileSystem>) -> Result<UndoReport, SessionError> {
        // Held throughout: no turn runs while files and history are put back.
        let mut history = session.history.lock().await;
        let Some(turn) = self.store().last_turn(&session.id).await? else {
            return Ok(UndoReport::Nothing);
        };
        let turn_checkpoints =
            (self.store().checkpoints(&session.id).await?.into_iter()).filter(|c| c.turn_seq == turn.seq);
        let (mut restored, mut kept, mut failures) = (Vec::new(), Vec::new(), Vec::new());
        for checkpoint in turn_checkpoints {
            let cwd = PathBuf::from(&checkpoint.cwd);
            let outcome = checkpoints::restore(&self.config().home, &cwd, &checkpoint.commit_id, fs.as_ref()).await;
            match outcome {
                Ok(done) => {
                    restored.extend(done.restored);
                    kept.extend(done.kept);
                    failures.extend(done.failures);
                }
                // A first folder failing changed nothing; a later one leaves the turn partly undone.
                Err(e) if restored.is_empty() && failures.is_empty() => {
                    return Err(SessionError::Internal(format!("nothing was changed: {e}")));
                }
                Err(e) => failures.push(format!("{}: {e}", cwd.display())),
            }
        }
        if !failures.is_empty() {
            return Ok(UndoReport::Partial { restored, failures });
        }
        self.store().undo_turn(&session.id, turn.seq).await?;
        let (_, live) = self
            .store()
            .load_session(&session.id)
            .await?
            .ok_or_else(|| SessionError::NotFound(session.id.clone()))?;
        *history = live;
        // The size memory of automatic compaction described the longer conversation.
        session.auto_compaction.with(|auto| auto.reset());
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
                // The nearest newer checkpoint of the same folder (rows are newest first).
                let newer = rows_for_counts[..i].iter().rev().find(|n| n.cwd == row.cwd);
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
        // One line per turn: its folders' changes added up.
        let mut lines: Vec<(i64, CheckpointInfo)> = Vec::new();
        for (row, files_changed) in rows.into_iter().zip(counts) {
            match lines.last_mut() {
                Some((seq, line)) if *seq == row.turn_seq => {
                    line.files_changed = line.files_changed.zip(files_changed).map(|(a, b)| a + b);
                    line.created_at = line.created_at.min(row.created_at);
                }
                _ => lines.push((
                    row.turn_seq,
                    CheckpointInfo {
                        prompt: row.prompt,
                        created_at: row.created_at,
                        files_changed,
                    },
                )),
            }
        }
        Ok(lines.into_iter().map(|(_, line)| line).collect())
    }
}

/// A turn's guards, one per folder of the session: the first change snapshots them all.
struct EveryFolder(Vec<TurnCheckpoint>);

impl Checkpoints for EveryFolder {
    /// Complete only when every folder's is; what each left out and every repository, once.
    fn before_change(&self) -> BoxFuture<'_, Coverage> {
        Box::pin(async move {
            let each = futures::future::join_all(self.0.iter().map(|guard| guard.before_change())).await;
            merged(each)
        })
    }

    fn repositories(&self) -> Vec<PathBuf> {
        let mut all: Vec<PathBuf> = Vec::new();
        for dir in self.0.iter().flat_map(|guard| guard.repositories()) {
            if !all.contains(&dir) {
                all.push(dir);
            }
        }
        all
    }
}

/// The folders' coverages as one: complete only when there is at least one and every one is;
/// what each left out, every repository once, and every reason.
fn merged(each: Vec<Coverage>) -> Coverage {
    let mut all = Coverage {
        complete: !each.is_empty(),
        ..Coverage::default()
    };
    let mut reasons = Vec::new();
    for coverage in each {
        all.complete &= coverage.complete;
        all.uncovered.extend(coverage.uncovered);
        for repo in coverage.nested_repos {
            if !all.nested_repos.iter().any(|r| r.git_dir == repo.git_dir) {
                all.nested_repos.push(repo);
            }
        }
        reasons.extend(coverage.reason);
    }
    all.reason = match reasons.is_empty() {
        true if all.complete => None,
        true => Some("no checkpoint is taken for this session".to_string()),
        false => Some(reasons.join("; ")),
    };
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::checkpoint::GitRepository;

    fn repo(dir: &str) -> GitRepository {
        GitRepository {
            work_tree: PathBuf::from(dir),
            git_dir: PathBuf::from(dir).join(".git"),
            hooks_path: None,
        }
    }

    #[test]
    fn every_folder_must_be_covered_and_repositories_count_once() {
        let whole = |dir: &str| Coverage {
            complete: true,
            nested_repos: vec![repo(dir), repo("/shared")],
            ..Coverage::default()
        };
        let both = merged(vec![whole("/a"), whole("/b")]);
        assert!(both.complete && both.reason.is_none());
        let dirs: Vec<&PathBuf> = both.nested_repos.iter().map(|r| &r.work_tree).collect();
        assert_eq!(
            dirs,
            [&PathBuf::from("/a"), &PathBuf::from("/shared"), &PathBuf::from("/b")]
        );

        let one_short = merged(vec![whole("/a"), Coverage::none("too many files in /b")]);
        assert!(!one_short.complete);
        assert_eq!(one_short.reason.as_deref(), Some("too many files in /b"));

        let nothing = merged(Vec::new());
        assert!(!nothing.complete && nothing.reason.is_some());
    }
}
