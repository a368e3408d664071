//! The per-turn checkpoint guard the session layer puts on the turn's `SessionScope`: the first
//! `before_change` of a turn snapshots the session folder (on the blocking pool), records the
//! commit against the turn's prompt in the store and works out the `Coverage`; later calls in
//! the turn return the same coverage at once. A turn that changes nothing never calls it, so it
//! costs nothing. When a snapshot cannot be taken (no git, a folder too broad), the turn goes
//! on, the coverage says why, and the user is told once per folder in this process.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{LazyLock, Mutex};

use futures::future::BoxFuture;

use super::excludes::Limits;
use super::{CheckpointError, Shadow, coverage};
use crate::agent::{AgentEvent, Sink};
use crate::runtime::checkpoint::{Checkpoints, Coverage};
use crate::store::Store;
use crate::sync::lock;

/// Folders whose "undo is unavailable" notice was already shown in this process.
static NOTICED: LazyLock<Mutex<HashSet<PathBuf>>> = LazyLock::new(Default::default);

/// One turn's guard.
pub struct TurnCheckpoint {
    home: PathBuf,
    cwd: PathBuf,
    session_id: String,
    store: Store,
    events: Sink,
    taken: tokio::sync::OnceCell<Coverage>,
}

impl TurnCheckpoint {
    pub fn new(home: PathBuf, cwd: PathBuf, session_id: String, store: Store, events: Sink) -> TurnCheckpoint {
        TurnCheckpoint {
            home,
            cwd,
            session_id,
            store,
            events,
            taken: tokio::sync::OnceCell::new(),
        }
    }

    async fn take(&self) -> Coverage {
        match self.try_take().await {
            Ok(coverage) => {
                tracing::debug!(session = %self.session_id, complete = coverage.complete, "checkpoint taken");
                coverage
            }
            Err(e) => {
                tracing::warn!(session = %self.session_id, error = %e, "no checkpoint for this turn");
                if lock(&NOTICED).insert(self.cwd.clone()) {
                    self.events.emit(AgentEvent::Notice(format!(
                        "/undo is unavailable for changes in {}: {e}. The turn goes on without a checkpoint.",
                        self.cwd.display()
                    )));
                }
                let (cwd, error) = (self.cwd.clone(), e);
                tokio::task::spawn_blocking(move || coverage::of_failure(&cwd, &error, coverage::hooks_of))
                    .await
                    .unwrap_or_else(|e| Coverage::none(e.to_string()))
            }
        }
    }

    async fn try_take(&self) -> Result<Coverage, CheckpointError> {
        // The turn's prompt was stored when the turn began.
        let turn = self
            .store
            .last_turn(&self.session_id)
            .await?
            .ok_or_else(|| CheckpointError::Corrupt("the turn's prompt is not stored".into()))?;
        let (home, cwd) = (self.home.clone(), self.cwd.clone());
        let message = format!("before turn {} of session {}", turn.seq, self.session_id);
        let (commit, coverage) = tokio::task::spawn_blocking(move || {
            let shadow = Shadow::open(&home, &cwd)?;
            let snapshot = shadow.snapshot(&message)?;
            let coverage = coverage::of_snapshot(shadow.work_tree(), &snapshot, Limits::default(), coverage::hooks_of);
            Ok::<_, CheckpointError>((snapshot.commit, coverage))
        })
        .await
        .map_err(|e| CheckpointError::Task(e.to_string()))??;
        let cwd = self.cwd.display().to_string();
        self.store
            .record_checkpoint(&self.session_id, turn.seq, &cwd, &commit)
            .await?;
        Ok(coverage)
    }
}

impl Checkpoints for TurnCheckpoint {
    fn before_change(&self) -> BoxFuture<'_, Coverage> {
        Box::pin(async move { self.taken.get_or_init(|| self.take()).await.clone() })
    }

    fn repositories(&self) -> Vec<PathBuf> {
        (self.taken.get().into_iter())
            .flat_map(|coverage| coverage.nested_repos.iter().map(|repo| repo.git_dir.clone()))
            .collect()
    }
}
