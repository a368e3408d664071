//! Persistence: our own SQLite database (rusqlite, bundled) under HERMES_HOME with sessions,
//! messages and an FTS5 index. Only this module knows SQL. All access goes through
//! `Store::call`, which runs the closure on tokio's blocking pool so SQLite never stalls the
//! protocol loop or another session.

mod checkpoints;
mod compaction;
pub mod hermes;
mod listing;
mod loading;
mod migrations;
mod permissions;
mod rows;
mod search;
mod sessions;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use rusqlite::Connection;

pub use checkpoints::{CheckpointRow, TurnStart};
pub use compaction::HistoryRow;
pub use permissions::PermissionRule;
pub use rows::{ClientPrompt, ClientPromptMode, SessionPatch, SessionPreferences, SessionRecord, SessionsPage};
pub use search::{FoundMessage, MessageOwner, MessageView, SearchHit, SearchOrder, fts5_query};

use crate::sync::lock;

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite reported an error.
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The database directory could not be created.
    #[error("cannot create the database directory {path}: {source}")]
    Dir { path: String, source: std::io::Error },
    /// A stored message could not be decoded.
    #[error("corrupt stored message: {0}")]
    Decode(#[from] serde_json::Error),
    /// The blocking task running the query died.
    #[error("database task failed: {0}")]
    Task(String),
}

/// A handle to the database; cheap to clone. The connection may still be opening in the
/// background: calls wait for it (on the blocking pool), so start-up never waits for SQLite.
#[derive(Clone)]
pub struct Store {
    conn: Arc<OnceLock<Mutex<Connection>>>,
    /// Per session, how many stored messages could not be read at its last load (they were
    /// skipped; the protocol layer tells the user).
    unreadable: Arc<Mutex<std::collections::HashMap<String, usize>>>,
}

impl Store {
    /// How many stored messages of `session_id` were skipped as unreadable when it was last
    /// loaded in this process.
    pub fn unreadable_messages(&self, session_id: &str) -> usize {
        let map = lock(&self.unreadable);
        map.get(session_id).copied().unwrap_or(0)
    }

    fn note_unreadable(&self, session_id: &str, count: usize) {
        let mut map = lock(&self.unreadable);
        if count == 0 {
            map.remove(session_id);
        } else {
            map.insert(session_id.to_string(), count);
        }
    }

    /// Opens (creating if needed) the database at `path`, in WAL mode, migrated to the latest
    /// schema. The file is 0600 before SQLite first opens it (SQLite gives the `-wal`/`-shm`
    /// files the database's mode), and our own directory is 0700: the history holds everything
    /// the user and the tools said.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        if let Some(dir) = path.parent() {
            private_dir(dir).map_err(|source| StoreError::Dir {
                path: dir.display().to_string(),
                source,
            })?;
        }
        private_file(path).map_err(|source| StoreError::Dir {
            path: path.display().to_string(),
            source,
        })?;
        let conn = Connection::open(path)?;
        let store = Store::init(conn)?;
        // Files left by an older build (0644) are tightened too.
        for suffix in ["-wal", "-shm"] {
            let mut side = path.as_os_str().to_owned();
            side.push(suffix);
            if let Err(e) = restrict(Path::new(&side), 0o600) {
                tracing::debug!(error = %e, "could not restrict {}", Path::new(&side).display());
            }
        }
        Ok(store)
    }

    /// Opens the database on a background thread and returns at once. If the file cannot be
    /// opened, the store falls back to a private in-memory database (sessions then do not
    /// survive a restart) and says so on stderr.
    pub fn open_in_background(path: PathBuf) -> Store {
        let store = Store {
            conn: Arc::new(OnceLock::new()),
            unreadable: Arc::default(),
        };
        let cell = store.conn.clone();
        std::thread::spawn(move || {
            let opened = Store::open(&path).or_else(|e| {
                tracing::error!(path = %path.display(), error = %e, "cannot open the session database; sessions will not persist");
                Store::open_in_memory()
            });
            let conn = match opened {
                Ok(store) => Arc::try_unwrap(store.conn).ok().and_then(|c| c.into_inner()),
                Err(e) => {
                    tracing::error!(error = %e, "cannot open even an in-memory database");
                    None
                }
            };
            if let Some(conn) = conn {
                let _ = cell.set(conn);
            }
        });
        store
    }

    /// A private in-memory database (tests, benches).
    pub fn open_in_memory() -> Result<Store, StoreError> {
        Store::init(Connection::open_in_memory()?)
    }

    fn init(mut conn: Connection) -> Result<Store, StoreError> {
        // WAL + NORMAL: a committed transaction survives a killed process; several readers
        // never block the writer. busy_timeout covers a second hermes-acp on the same file.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        migrations::migrate(&mut conn)?;
        sessions::warm_statements(&conn)?;
        let cell = OnceLock::new();
        let _ = cell.set(Mutex::new(conn));
        Ok(Store {
            conn: Arc::new(cell),
            unreadable: Arc::default(),
        })
    }

    /// Runs `f` with the connection on the blocking pool.
    pub async fn call<F, R>(&self, f: F) -> Result<R, StoreError>
    where
        F: FnOnce(&mut Connection) -> Result<R, StoreError> + Send + 'static,
        R: Send + 'static,
    {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || {
            let mut guard = lock(conn.wait());
            f(&mut guard)
        })
        .await
        .map_err(|e| StoreError::Task(e.to_string()))?
    }

    /// Runs `f` on the calling thread (start-up checks, sync tests).
    pub fn call_blocking<F, R>(&self, f: F) -> Result<R, StoreError>
    where
        F: FnOnce(&mut Connection) -> Result<R, StoreError>,
    {
        let mut guard = lock(self.conn.wait());
        f(&mut guard)
    }
}

/// Creates `dir` (and missing parents) as 0700. An existing directory is tightened only when it
/// is ours (`hermes-acp`), never a shared one such as `/tmp` chosen through `HERMES_ACP_DB`.
fn private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.as_os_str().is_empty() {
        return Ok(());
    }
    let existed = dir.is_dir();
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)?;
    if !existed || dir.file_name().is_some_and(|n| n == "hermes-acp") {
        restrict(dir, 0o700)?;
    }
    Ok(())
}

/// Creates `path` empty with mode 0600 (an empty file is a new SQLite database), or tightens an
/// existing one.
fn private_file(path: &Path) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => restrict(path, 0o600),
        Err(e) => Err(e),
    }
}

/// Sets `path`'s mode when it exists and differs.
#[cfg(unix)]
fn restrict(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    match std::fs::metadata(path) {
        Ok(meta) if meta.permissions().mode() & 0o777 != mode => {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        }
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Windows has no mode bits: files under the user's profile are private by its ACL already.
#[cfg(not(unix))]
fn restrict(_path: &Path, _mode: u32) -> std::io::Result<()> {
    Ok(())
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// An ISO 8601 UTC timestamp for a millisecond time.
pub fn iso8601(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}
