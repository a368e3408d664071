//! Read-only access to the sessions Hermes itself saved (`HERMES_HOME/state.db`, Hermes'
//! SessionDB, schema in the reference §6), so a user switching from `hermes acp` finds every
//! session in the editor's list, can open it, and continues it here. The file is opened for
//! each call and closed right after, so that nothing in Hermes' folder is created or changed
//! (see `open`): a Hermes process may be using it, and its latest sessions are still seen.
//! Only rows Hermes' ACP adapter wrote (`source = 'acp'`) are offered, as Hermes offers them.

mod convert;
mod import;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension};

use crate::sync::lock;
use crate::transcript::Message;

/// At most this many Hermes sessions are listed (Hermes' own ACP list stops at 1000 too).
pub const MAX_LISTED: usize = 1000;
/// How long a read waits for a Hermes writer holding the database.
const BUSY_WAIT: Duration = Duration::from_secs(2);

/// A session Hermes saved, as a list entry.
#[derive(Debug, Clone, PartialEq)]
pub struct HermesSession {
    pub id: String,
    /// From `model_config.cwd` (where Hermes' ACP adapter keeps it), else the `cwd` column.
    pub cwd: String,
    pub title: Option<String>,
    pub model: Option<String>,
    /// The provider Hermes used (`model_config.provider`), when it says.
    pub provider: Option<String>,
    /// Milliseconds since the epoch.
    pub started_at: i64,
    /// The last message's time (else the start), milliseconds since the epoch.
    pub updated_at: i64,
    /// The first user message, for a title when there is none.
    pub preview: Option<String>,
}

/// Hermes' session database, found at a path that may not exist. The list is kept until the
/// database or its WAL changes (size or time), so the editor's repeated `session/list` calls
/// read the file once.
#[derive(Debug, Clone)]
pub struct HermesSessions {
    path: PathBuf,
    listed: Arc<Mutex<Option<Listed>>>,
}

/// The last list read and the state of the file it was read from.
type Listed = (Stamp, Vec<HermesSession>);

/// What says the database changed: length and modification time of the file and its WAL.
type Stamp = [Option<(u64, std::time::SystemTime)>; 2];

impl HermesSessions {
    pub fn new(path: PathBuf) -> HermesSessions {
        HermesSessions {
            path,
            listed: Arc::default(),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The ACP sessions Hermes saved that have messages, newest first (at most `MAX_LISTED`).
    /// Empty when there is no `state.db` or it cannot be read (logged).
    pub async fn list(&self) -> Vec<HermesSession> {
        let (path, listed) = (self.path.clone(), self.listed.clone());
        // The file checks run on the blocking pool too: nothing here touches the disk on an
        // async thread.
        blocking(move || {
            let stamp = stamp(&path);
            if stamp[0].is_none() {
                return Ok(Vec::new());
            }
            if let Some((seen, sessions)) = lock(&listed).as_ref()
                && *seen == stamp
            {
                return Ok(sessions.clone());
            }
            let conn = open(&path)?;
            let sessions = list_sessions(&conn)?;
            *lock(&listed) = Some((stamp, sessions.clone()));
            Ok(sessions)
        })
        .await
        .unwrap_or_default()
    }

    /// One ACP session Hermes saved and its active messages as our messages; `None` when it is
    /// not there.
    pub async fn load(&self, id: &str) -> Option<(HermesSession, Vec<Message>)> {
        let (path, id) = (self.path.clone(), id.to_string());
        blocking(move || {
            let conn = open(&path)?;
            let Some(session) = find_session(&conn, &id)? else {
                return Ok(None);
            };
            let messages = convert::load_messages(&conn, &id)?;
            Ok(Some((session, messages)))
        })
        .await
        .flatten()
    }
}

/// The size and time of the database and its WAL (`None` for a missing file).
fn stamp(path: &Path) -> Stamp {
    let of = |path: &Path| {
        let meta = std::fs::metadata(path).ok()?;
        Some((meta.len(), meta.modified().ok()?))
    };
    let mut wal = path.to_path_buf().into_os_string();
    wal.push("-wal");
    [of(path), of(Path::new(&wal))]
}

/// Runs a read on the blocking pool; a failure is logged and becomes `None`.
async fn blocking<T: Send + 'static>(work: impl FnOnce() -> rusqlite::Result<T> + Send + 'static) -> Option<T> {
    match tokio::task::spawn_blocking(work).await {
        Ok(Ok(value)) => Some(value),
        Ok(Err(rusqlite::Error::SqliteFailure(e, _))) if e.code == rusqlite::ErrorCode::CannotOpen => None,
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "cannot read Hermes' state.db; its sessions are not offered");
            None
        }
        Err(e) => {
            tracing::error!(error = %e, "reading Hermes' state.db failed");
            None
        }
    }
}

/// Opens `path` so that nothing beside it is created or changed: a plain read-only connection
/// to a WAL database creates `-wal`/`-shm` files when they are missing and writes its read
/// marks into `-shm` when they are not. So:
/// - no `-wal` (no Hermes running): `immutable=1`, which reads the file alone, with no locks;
/// - a `-wal` and its `-shm` (a live Hermes): `readonly_shm=1`, which reads the WAL through a
///   private copy of its index and never writes `-shm` — the latest sessions are seen;
/// - a `-wal` without `-shm` (a Hermes that crashed): a snapshot of both, copied into a
///   private temporary folder and opened there.
///
/// Never a write, never a checkpoint.
fn open(path: &Path) -> rusqlite::Result<Opened> {
    if !path.is_file() {
        return Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN),
            None,
        ));
    }
    let beside = |suffix: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    };
    let (wal, shm) = (beside("-wal"), beside("-shm"));
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI;
    let (conn, snapshot) = match (wal.exists(), shm.exists()) {
        (false, _) => (Connection::open_with_flags(uri(path, "immutable=1"), flags)?, None),
        (true, true) => (
            Connection::open_with_flags(uri(path, "mode=ro&readonly_shm=1"), flags)?,
            None,
        ),
        (true, false) => {
            let (conn, dir) = open_snapshot(path, &wal)?;
            (conn, Some(dir))
        }
    };
    conn.busy_timeout(BUSY_WAIT)?;
    conn.pragma_update(None, "query_only", true)?;
    Ok(Opened {
        conn,
        _snapshot: snapshot,
    })
}

/// A connection to Hermes' database, and the snapshot folder it reads (removed when dropped).
struct Opened {
    conn: Connection,
    _snapshot: Option<tempfile::TempDir>,
}

impl std::ops::Deref for Opened {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        &self.conn
    }
}

/// `path` as an SQLite URI with `query` (`%`, `?` and `#` in the path escaped).
fn uri(path: &Path, query: &str) -> String {
    let mut out = String::from("file:");
    for c in path.to_string_lossy().chars() {
        match c {
            '%' => out.push_str("%25"),
            '?' => out.push_str("%3f"),
            '#' => out.push_str("%23"),
            c => out.push(c),
        }
    }
    format!("{out}?{query}")
}

/// Copies the database and its WAL into a private folder and opens the copy.
fn open_snapshot(path: &Path, wal: &Path) -> rusqlite::Result<(Connection, tempfile::TempDir)> {
    let io = |e: std::io::Error| {
        rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN),
            Some(format!("snapshot of Hermes' state.db: {e}")),
        )
    };
    let dir = tempfile::Builder::new().prefix("hermes-state-").tempdir().map_err(io)?;
    let copy = dir.path().join("state.db");
    std::fs::copy(path, &copy).map_err(io)?;
    std::fs::copy(wal, dir.path().join("state.db-wal")).map_err(io)?;
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    Ok((Connection::open_with_flags(&copy, flags)?, dir))
}

/// The list query's columns, mapped by `row_to_session`. Sessions that Hermes ended by
/// compaction are left out: their continuation is a row of its own.
const SESSION_SELECT: &str = "SELECT s.id, s.model_config, s.cwd, s.title, s.model, s.started_at, \
     (SELECT MAX(m.timestamp) FROM messages m WHERE m.session_id = s.id), \
     (SELECT m.content FROM messages m WHERE m.session_id = s.id AND m.role = 'user' AND m.active = 1 ORDER BY m.id LIMIT 1) \
     FROM sessions s WHERE s.source = 'acp' AND COALESCE(s.end_reason, '') <> 'compression'";

fn list_sessions(conn: &Connection) -> rusqlite::Result<Vec<HermesSession>> {
    let sql = format!("{SESSION_SELECT} AND s.message_count > 0");
    let mut stmt = conn.prepare(&sql)?;
    let mut sessions: Vec<HermesSession> = stmt.query_map([], row_to_session)?.collect::<Result<_, _>>()?;
    sessions.sort_by(|a, b| b.updated_at.cmp(&a.updated_at).then_with(|| a.id.cmp(&b.id)));
    sessions.truncate(MAX_LISTED);
    Ok(sessions)
}

fn find_session(conn: &Connection, id: &str) -> rusqlite::Result<Option<HermesSession>> {
    let sql = format!("{SESSION_SELECT} AND s.id = ?1");
    conn.query_row(&sql, [id], row_to_session).optional()
}

fn row_to_session(row: &rusqlite::Row<'_>) -> rusqlite::Result<HermesSession> {
    let model_config: Option<String> = row.get(1)?;
    let cwd_column: Option<String> = row.get(2)?;
    let config: Option<serde_json::Value> = model_config.as_deref().and_then(|text| serde_json::from_str(text).ok());
    let config_text = |key: &str| {
        (config.as_ref())
            .and_then(|c| c.get(key).and_then(|v| v.as_str()))
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    let cwd = config_text("cwd").or(cwd_column).unwrap_or_default();
    let started_at = seconds_to_ms(row.get::<_, Option<f64>>(5)?.unwrap_or(0.0));
    let last = row.get::<_, Option<f64>>(6)?.map(seconds_to_ms);
    Ok(HermesSession {
        id: row.get(0)?,
        cwd,
        title: row.get::<_, Option<String>>(3)?.filter(|t| !t.trim().is_empty()),
        model: row.get::<_, Option<String>>(4)?.filter(|m| !m.trim().is_empty()),
        provider: config_text("provider"),
        started_at,
        updated_at: last.unwrap_or(started_at).max(started_at),
        preview: row.get::<_, Option<String>>(7)?.map(|c| convert::plain_text(&c)),
    })
}

fn seconds_to_ms(seconds: f64) -> i64 {
    (seconds * 1000.0).round() as i64
}

#[cfg(test)]
mod tests;
