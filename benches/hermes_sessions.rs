//! Reading Hermes' own session database: listing 1,000 ACP sessions (20 messages each) from a
//! WAL-mode `state.db` (first read, and again while the file is unchanged), and loading one of
//! them as our messages. Run with
//! `cargo bench --bench hermes_sessions`.

use criterion::{Criterion, criterion_group, criterion_main};
use hermes_acp::store::hermes::HermesSessions;
use rusqlite::{Connection, params};

const SESSIONS: usize = 1_000;
const MESSAGES_PER_SESSION: usize = 20;

/// A state.db with the columns Hermes' schema has for what we read, filled like a busy user's.
fn state_db(path: &std::path::Path) {
    let mut conn = Connection::open(path).unwrap();
    conn.pragma_update(None, "journal_mode", "wal").unwrap();
    conn.execute_batch(
        "CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, model_config TEXT,
             started_at REAL NOT NULL, end_reason TEXT, message_count INTEGER DEFAULT 0, cwd TEXT, title TEXT);
         CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
             content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL,
             reasoning TEXT, reasoning_content TEXT, active INTEGER NOT NULL DEFAULT 1);
         CREATE INDEX idx_messages_session ON messages(session_id, timestamp);",
    )
    .unwrap();
    let tx = conn.transaction().unwrap();
    for s in 0..SESSIONS {
        let id = format!("session-{s:04}");
        let started = 1_700_000_000.0 + s as f64 * 60.0;
        tx.execute(
            "INSERT INTO sessions (id, source, model, model_config, started_at, message_count) VALUES (?1, 'acp', 'm', ?2, ?3, ?4)",
            params![id, format!(r#"{{"cwd":"/ws/p{}"}}"#, s % 7), started, MESSAGES_PER_SESSION as i64],
        )
        .unwrap();
        for m in 0..MESSAGES_PER_SESSION {
            let role = if m % 2 == 0 { "user" } else { "assistant" };
            tx.execute(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?1, ?2, ?3, ?4)",
                params![
                    id,
                    role,
                    format!("message {m} of session {s}: ").repeat(8),
                    started + m as f64
                ],
            )
            .unwrap();
        }
    }
    tx.commit().unwrap();
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.db");
    state_db(&path);
    let hermes = HermesSessions::new(path.clone());
    let runtime = tokio::runtime::Runtime::new().unwrap();
    assert_eq!(runtime.block_on(hermes.list()).len(), SESSIONS);
    // The first `session/list` reads the file; later ones reuse the list until it changes.
    c.bench_function("hermes_sessions/list_1000_first", |b| {
        b.iter(|| runtime.block_on(HermesSessions::new(path.clone()).list()))
    });
    c.bench_function("hermes_sessions/list_1000_unchanged", |b| {
        b.iter(|| runtime.block_on(hermes.list()))
    });
    c.bench_function("hermes_sessions/load_one_of_20_messages", |b| {
        b.iter(|| runtime.block_on(hermes.load("session-0500")).unwrap())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
