//! Against a `state.db` built here from Hermes' documented schema (reference §6.1): only ACP
//! sessions with messages are listed, newest first, with the cwd from `model_config`; history
//! converts (tool calls, results, JSON content, repairs); the file's bytes never change.

use std::path::Path;

use rusqlite::{Connection, params};

use super::*;
use crate::transcript::{Part, Role};

/// The columns of Hermes' schema this code reads, plus a few it does not (as in the real file).
const SCHEMA: &str = "
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES (22);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT, model TEXT, model_config TEXT,
    system_prompt TEXT, parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL,
    end_reason TEXT, message_count INTEGER DEFAULT 0, tool_call_count INTEGER DEFAULT 0,
    input_tokens INTEGER DEFAULT 0, cwd TEXT, title TEXT, archived INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
    content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL,
    token_count INTEGER, finish_reason TEXT, reasoning TEXT, reasoning_content TEXT,
    reasoning_details TEXT, active INTEGER NOT NULL DEFAULT 1, compacted INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX idx_messages_session ON messages(session_id, timestamp);
CREATE UNIQUE INDEX idx_sessions_title_unique ON sessions(title) WHERE title IS NOT NULL;
";

fn session(conn: &Connection, id: &str, source: &str, cwd: &str, started: f64, count: i64, end_reason: Option<&str>) {
    conn.execute(
        "INSERT INTO sessions (id, source, model, model_config, started_at, message_count, end_reason) \
         VALUES (?1, ?2, 'hermes-model', ?3, ?4, ?5, ?6)",
        params![
            id,
            source,
            format!(r#"{{"cwd":"{cwd}","provider":"custom"}}"#),
            started,
            count,
            end_reason
        ],
    )
    .unwrap();
}

fn message(conn: &Connection, session: &str, role: &str, content: &str, at: f64, extra: (&str, &str, &str)) {
    let (call_id, calls, name) = extra;
    let opt = |s: &str| (!s.is_empty()).then(|| s.to_string());
    conn.execute(
        "INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![session, role, content, opt(call_id), opt(calls), opt(name), at],
    )
    .unwrap();
}

/// A WAL-mode state.db like a running Hermes leaves it.
pub(crate) fn fixture(path: &Path) {
    let conn = Connection::open(path).unwrap();
    conn.pragma_update(None, "journal_mode", "wal").unwrap();
    conn.execute_batch(SCHEMA).unwrap();
    let none = ("", "", "");
    session(&conn, "acp-old", "acp", "/ws/old", 1_700_000_000.0, 2, None);
    message(&conn, "acp-old", "user", "first question", 1_700_000_001.0, none);
    message(&conn, "acp-old", "assistant", "first answer", 1_700_000_002.0, none);
    session(&conn, "acp-tools", "acp", "/ws/tools", 1_700_000_100.0, 6, None);
    conn.execute(
        "UPDATE sessions SET title = 'Fix the parser' WHERE id = 'acp-tools'",
        [],
    )
    .unwrap();
    message(&conn, "acp-tools", "system", "You are Hermes", 1_700_000_100.5, none);
    message(
        &conn,
        "acp-tools",
        "user",
        "\u{0}json:[{\"type\":\"text\",\"text\":\"read main.rs\"},{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/png;base64,AAAA\"}}]",
        1_700_000_101.0,
        none,
    );
    let calls = r#"[{"id":"tc-1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"main.rs\"}"}},{"id":"tc-2","type":"function","function":{"name":"terminal","arguments":{"command":"ls"}}}]"#;
    message(&conn, "acp-tools", "assistant", "", 1_700_000_102.0, ("", calls, ""));
    message(
        &conn,
        "acp-tools",
        "tool",
        "fn main() {}",
        1_700_000_103.0,
        ("tc-1", "", "read_file"),
    );
    // tc-2 never got a result; a stray result answers nothing.
    message(
        &conn,
        "acp-tools",
        "tool",
        "stray",
        1_700_000_104.0,
        ("tc-9", "", "terminal"),
    );
    message(
        &conn,
        "acp-tools",
        "assistant",
        "main.rs is empty",
        1_700_000_200.0,
        none,
    );
    session(&conn, "cli-1", "cli", "/ws/cli", 1_700_000_300.0, 1, None);
    message(&conn, "cli-1", "user", "cli question", 1_700_000_301.0, none);
    session(
        &conn,
        "acp-rotated",
        "acp",
        "/ws/rot",
        1_700_000_050.0,
        1,
        Some("compression"),
    );
    message(&conn, "acp-rotated", "user", "rotated", 1_700_000_051.0, none);
    session(&conn, "acp-empty", "acp", "/ws/empty", 1_700_000_400.0, 0, None);
    // Keep the writer's WAL around, as a running Hermes would.
    std::mem::forget(conn);
}

/// Every file of Hermes' folder as (name, length, hash). The `-shm` index is named but not
/// hashed: inside one process SQLite shares a live writer's index with every connection, so a
/// reader here (unlike one in another process: see `tests/hermes_sessions.rs`, which hashes it
/// too) marks its reads in the writer's own mapping.
fn fingerprint(dir: &Path) -> Vec<(String, usize, u64)> {
    use std::hash::{Hash, Hasher};
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|entry| {
            let index = entry.file_name().to_string_lossy().ends_with("-shm");
            let bytes = if index {
                Vec::new()
            } else {
                std::fs::read(entry.path()).unwrap()
            };
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            bytes.hash(&mut hasher);
            (
                entry.file_name().to_string_lossy().into_owned(),
                bytes.len(),
                hasher.finish(),
            )
        })
        .collect();
    files.sort();
    files
}

#[tokio::test]
async fn lists_acp_sessions_with_messages_newest_first_and_never_writes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.db");
    fixture(&path);
    let before = fingerprint(dir.path());
    assert_eq!(before.len(), 3, "the fixture is a live Hermes: a WAL and its index");
    let hermes = HermesSessions::new(path);
    let listed = hermes.list().await;
    let ids: Vec<&str> = listed.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["acp-tools", "acp-old"]);
    assert_eq!(listed[0].cwd, "/ws/tools");
    assert_eq!(listed[0].title.as_deref(), Some("Fix the parser"));
    assert_eq!(listed[0].updated_at, 1_700_000_200_000);
    assert_eq!(listed[1].preview.as_deref(), Some("first question"));
    assert_eq!(listed[0].preview.as_deref(), Some("read main.rs"));
    let (_, history) = hermes.load("acp-tools").await.unwrap();
    assert!(hermes.load("cli-1").await.is_none(), "only ACP sessions");
    assert!(hermes.load("missing").await.is_none());
    // Listed again while the file is unchanged: the same list, from memory.
    assert_eq!(hermes.list().await, listed);
    drop(history);
    assert_eq!(
        fingerprint(dir.path()),
        before,
        "state.db, its WAL and index are untouched"
    );
}

#[tokio::test]
async fn a_live_hermes_latest_sessions_are_seen_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.db");
    fixture(&path);
    let hermes = HermesSessions::new(path.clone());
    assert_eq!(hermes.list().await.len(), 2);
    // Hermes goes on writing: a new session lands in its WAL.
    let writer = Connection::open(&path).unwrap();
    session(&writer, "acp-new", "acp", "/ws/new", 1_700_000_500.0, 1, None);
    message(&writer, "acp-new", "user", "fresh", 1_700_000_501.0, ("", "", ""));
    let before = fingerprint(dir.path());
    let ids: Vec<String> = hermes.list().await.into_iter().map(|s| s.id).collect();
    assert_eq!(ids, ["acp-new", "acp-tools", "acp-old"]);
    assert_eq!(fingerprint(dir.path()), before, "the reader changed nothing");
}

#[tokio::test]
async fn a_closed_or_crashed_hermes_folder_gets_no_new_files() {
    // Closed: the last connection checkpointed and removed the WAL and its index.
    let closed = tempfile::tempdir().unwrap();
    let path = closed.path().join("state.db");
    let conn = Connection::open(&path).unwrap();
    conn.pragma_update(None, "journal_mode", "wal").unwrap();
    conn.execute_batch(SCHEMA).unwrap();
    session(&conn, "acp-a", "acp", "/ws/a", 1_700_000_000.0, 1, None);
    message(&conn, "acp-a", "user", "hello", 1_700_000_001.0, ("", "", ""));
    drop(conn);
    let before = fingerprint(closed.path());
    assert_eq!(before.len(), 1, "only state.db: {before:?}");
    let hermes = HermesSessions::new(path);
    assert_eq!(hermes.list().await.len(), 1);
    assert!(hermes.load("acp-a").await.is_some());
    assert_eq!(fingerprint(closed.path()), before, "no -wal or -shm created");

    // Crashed: a WAL full of sessions, no index beside it.
    let live = tempfile::tempdir().unwrap();
    fixture(&live.path().join("state.db"));
    let crashed = tempfile::tempdir().unwrap();
    for name in ["state.db", "state.db-wal"] {
        std::fs::copy(live.path().join(name), crashed.path().join(name)).unwrap();
    }
    let before = fingerprint(crashed.path());
    let hermes = HermesSessions::new(crashed.path().join("state.db"));
    let ids: Vec<String> = hermes.list().await.into_iter().map(|s| s.id).collect();
    assert_eq!(ids, ["acp-tools", "acp-old"], "what only the WAL holds is seen");
    assert_eq!(fingerprint(crashed.path()), before, "no -shm created");
}

#[tokio::test]
async fn history_converts_and_stays_valid_for_a_provider() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.db");
    fixture(&path);
    let (session, history) = HermesSessions::new(path).load("acp-tools").await.unwrap();
    assert_eq!(session.model.as_deref(), Some("hermes-model"));
    let roles: Vec<Role> = history.iter().map(|m| m.role()).collect();
    assert_eq!(
        roles,
        [Role::User, Role::Assistant, Role::Tool, Role::Tool, Role::Assistant]
    );
    assert_eq!(
        history[0].parts,
        vec![
            Part::Text {
                text: "read main.rs".into()
            },
            Part::Image {
                url: "data:image/png;base64,AAAA".into()
            }
        ]
    );
    let calls = &history[1].tool_calls;
    assert_eq!(
        (calls[0].name.as_str(), calls[0].arguments.as_str()),
        ("read_file", r#"{"path":"main.rs"}"#)
    );
    assert_eq!(
        calls[1].arguments, r#"{"command":"ls"}"#,
        "object arguments become text"
    );
    assert_eq!(history[2].tool_call_id.as_deref(), Some("tc-1"));
    assert_eq!(history[2].text_content(), "fn main() {}");
    // The unanswered call gets a result; the stray one is gone.
    assert_eq!(history[3].tool_call_id.as_deref(), Some("tc-2"));
    assert!(history[3].is_error && history[3].text_content().contains("No result was recorded"));
    assert_eq!(history[4].text_content(), "main.rs is empty");
}

#[tokio::test]
async fn no_state_db_means_no_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let hermes = HermesSessions::new(dir.path().join("state.db"));
    assert!(hermes.list().await.is_empty());
    assert!(hermes.load("x").await.is_none());
    assert!(!dir.path().join("state.db").exists(), "never created");
}

#[tokio::test]
async fn an_unreadable_hermes_row_is_skipped_and_the_rest_imports() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.db");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(SCHEMA).unwrap();
    let none = ("", "", "");
    session(&conn, "acp-bad", "acp", "/ws/bad", 1_700_000_000.0, 5, None);
    message(&conn, "acp-bad", "user", "first", 1_700_000_001.0, none);
    message(&conn, "acp-bad", "assistant", "first answer", 1_700_000_002.0, none);
    // A BLOB where Hermes writes text: the row cannot be read as a message.
    conn.execute(
        "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('acp-bad', 'user', ?1, 1700000003.0)",
        [vec![0xffu8, 0x00, 0x01]],
    )
    .unwrap();
    // Tool calls that are not JSON: the answer stays, its calls and their results go.
    message(
        &conn,
        "acp-bad",
        "assistant",
        "calling",
        1_700_000_004.0,
        ("", "[{broken", ""),
    );
    message(
        &conn,
        "acp-bad",
        "tool",
        "result",
        1_700_000_005.0,
        ("tc-1", "", "terminal"),
    );
    message(&conn, "acp-bad", "user", "last", 1_700_000_006.0, none);
    drop(conn);
    let (_, history) = HermesSessions::new(path).load("acp-bad").await.unwrap();
    let texts: Vec<_> = history.iter().map(|m| m.text_content()).collect();
    assert_eq!(texts, ["first", "first answer", "calling", "last"]);
    assert!(history[2].tool_calls.is_empty());
}
