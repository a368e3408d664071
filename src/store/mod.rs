//! Persistence: our own SQLite database (rusqlite, bundled) under HERMES_HOME with sessions,
//! messages and an FTS5 index. Only this module knows SQL. All access goes through
//! `Store::call`, which runs the closure on tokio's blocking pool so SQLite never stalls the
//! protocol loop or another session.

mod compaction;
mod loading;
mod migrations;
mod permissions;
mod search;
mod sessions;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use rusqlite::Connection;

pub use compaction::HistoryRow;
pub use permissions::PermissionRule;
pub use search::{FoundMessage, MessageOwner, MessageView, SearchHit, SearchOrder, SessionInfo, fts5_query};
pub use sessions::{SessionPatch, SessionRecord, SessionsPage};

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
        let map = self.unreadable.lock().unwrap_or_else(|p| p.into_inner());
        map.get(session_id).copied().unwrap_or(0)
    }

    fn note_unreadable(&self, session_id: &str, count: usize) {
        let mut map = self.unreadable.lock().unwrap_or_else(|p| p.into_inner());
        if count == 0 {
            map.remove(session_id);
        } else {
            map.insert(session_id.to_string(), count);
        }
    }

    /// Opens (creating if needed) the database at `path`, in WAL mode, migrated to the latest
    /// schema.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::Dir {
                path: dir.display().to_string(),
                source,
            })?;
        }
        let conn = Connection::open(path)?;
        Store::init(conn)
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

    /// The schema version this build writes.
    pub fn schema_version() -> i64 {
        migrations::latest_version()
    }

    /// Runs `f` with the connection on the blocking pool.
    pub async fn call<F, R>(&self, f: F) -> Result<R, StoreError>
    where
        F: FnOnce(&mut Connection) -> Result<R, StoreError> + Send + 'static,
        R: Send + 'static,
    {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || {
            let mut guard = conn.wait().lock().unwrap_or_else(|p| p.into_inner());
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
        let mut guard = self.conn.wait().lock().unwrap_or_else(|p| p.into_inner());
        f(&mut guard)
    }
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
