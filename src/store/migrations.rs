//! The database schema as an ordered list of migrations, tracked by `PRAGMA user_version`.
//! Append new migrations; never edit one that has shipped.

use rusqlite::Connection;

/// Each entry moves the schema from version `index` to `index + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: sessions, messages and the full-text index over message text.
    r#"
    CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        cwd TEXT NOT NULL,
        title TEXT,
        title_source TEXT,
        model TEXT,
        provider TEXT,
        mode TEXT,
        parent_session_id TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        message_count INTEGER NOT NULL DEFAULT 0,
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX sessions_updated ON sessions(updated_at DESC);
    CREATE INDEX sessions_cwd ON sessions(cwd);
    CREATE TABLE messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        role TEXT NOT NULL,
        content TEXT NOT NULL DEFAULT '',
        body TEXT NOT NULL,
        active INTEGER NOT NULL DEFAULT 1,
        compacted INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
    );
    CREATE INDEX messages_session ON messages(session_id, active, seq);
    CREATE VIRTUAL TABLE messages_fts USING fts5(content, content='messages', content_rowid='id');
    CREATE TRIGGER messages_ai AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
    END;
    CREATE TRIGGER messages_ad AFTER DELETE ON messages BEGIN
        INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
    END;
    CREATE TRIGGER messages_au AFTER UPDATE OF content ON messages BEGIN
        INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
        INSERT INTO messages_fts(rowid, content) VALUES (new.id, new.content);
    END;
    "#,
    // 2: per-session settings as JSON. Model and mode moved to their own columns; the column now
    // holds `SessionPreferences` (the editor toggles such as `auto_compact`).
    r#"
    ALTER TABLE sessions ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
    "#,
    // 3: permission rules the user chose to remember for a workspace ("always allow this
    // command in this project", "always deny").
    r#"
    CREATE TABLE permission_rules (
        workspace TEXT NOT NULL,
        command TEXT NOT NULL,
        decision TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (workspace, command)
    );
    "#,
    // 4: `/undo`. Messages of an undone turn stay stored, marked `undone` (and inactive, so the
    // live conversation no longer holds them); each checkpoint maps a turn (the seq of its
    // prompt) to the shadow-repository commit taken before its first change.
    r#"
    ALTER TABLE messages ADD COLUMN undone INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE checkpoints (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        turn_seq INTEGER NOT NULL,
        cwd TEXT NOT NULL,
        commit_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        undone INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (session_id, turn_seq)
    );
    "#,
    // 5: a session may have several folders (ACP `additionalDirectories`), each with its own
    // shadow repository: one checkpoint per turn and folder.
    r#"
    CREATE TABLE checkpoints_by_folder (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        turn_seq INTEGER NOT NULL,
        cwd TEXT NOT NULL,
        commit_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        undone INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (session_id, turn_seq, cwd)
    );
    INSERT INTO checkpoints_by_folder SELECT session_id, turn_seq, cwd, commit_id, created_at, undone FROM checkpoints;
    DROP TABLE checkpoints;
    ALTER TABLE checkpoints_by_folder RENAME TO checkpoints;
    "#,
];

/// Brings the database up to date, one transaction per migration.
pub fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    let current: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(current.max(0) as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", index as i64 + 1)?;
        tx.commit()?;
        tracing::debug!(version = index + 1, "database migrated");
    }
    Ok(())
}
