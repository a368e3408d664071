//! Session and message rows: create, patch, append, load, list, fork, delete, full-text search.
//! Messages are stored as their JSON body plus a searchable text column; rows marked inactive
//! (compacted) stay for search and history but are not loaded into the live conversation.
//! Slightly over 400 lines: one SQL table pair and its mapper; the single row type the store
//! is to get (issue "One owner per concern") is the split that makes sense, not a cut now.

use rusqlite::{Connection, OptionalExtension, params};

use super::{Store, StoreError, now_ms};
use crate::transcript::Message;

/// A session row.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SessionRecord {
    pub id: String,
    pub cwd: String,
    pub title: Option<String>,
    /// `user` when the user set the title (never overwritten), `auto` otherwise.
    pub title_source: Option<String>,
    pub model: Option<String>,
    pub provider: Option<String>,
    pub mode: Option<String>,
    /// Other per-session settings as a JSON object.
    pub settings: serde_json::Value,
    pub parent_session_id: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub message_count: i64,
    /// First user message text (for titles when none is set).
    pub preview: Option<String>,
}

/// Fields to change on a session row; `None` leaves a column as it is.
#[derive(Debug, Clone, Default)]
pub struct SessionPatch {
    pub cwd: Option<String>,
    pub title: Option<(String, &'static str)>,
    pub model: Option<String>,
    pub provider: Option<String>,
    pub mode: Option<String>,
    pub settings: Option<serde_json::Value>,
}

/// One page of `list_sessions`.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionsPage {
    pub sessions: Vec<SessionRecord>,
    pub next_cursor: Option<String>,
}

const SESSION_COLUMNS: &str = "id, cwd, title, title_source, model, provider, mode, settings, parent_session_id, created_at, updated_at, message_count, \
     (SELECT content FROM messages m WHERE m.session_id = sessions.id AND m.role = 'user' ORDER BY seq LIMIT 1)";

/// Compiles the hot statements once at open, so the first session does not pay for it.
pub(super) fn warm_statements(conn: &Connection) -> rusqlite::Result<()> {
    conn.prepare_cached("SELECT COALESCE(MAX(seq), -1) + 1 FROM messages WHERE session_id = ?1")?;
    conn.prepare_cached(
        "INSERT INTO messages (session_id, seq, role, content, body, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    conn.prepare_cached("SELECT body FROM messages WHERE session_id = ?1 AND active = 1 ORDER BY seq")?;
    Ok(())
}

fn row_to_record(row: &rusqlite::Row<'_>) -> rusqlite::Result<SessionRecord> {
    let settings: String = row.get(7)?;
    Ok(SessionRecord {
        id: row.get(0)?,
        cwd: row.get(1)?,
        title: row.get(2)?,
        title_source: row.get(3)?,
        model: row.get(4)?,
        provider: row.get(5)?,
        mode: row.get(6)?,
        settings: serde_json::from_str(&settings).unwrap_or_else(|_| serde_json::json!({})),
        parent_session_id: row.get(8)?,
        created_at: row.get(9)?,
        updated_at: row.get(10)?,
        message_count: row.get(11)?,
        preview: row.get(12)?,
    })
}

/// The text indexed for search per message. The full message is always stored (`body`); only
/// the searchable copy is cut, because every term of a huge message (a 100 000-word answer, a
/// whole file read) makes each later FTS5 insert slower — we measured 1 000 small inserts go
/// from 14 ms to 640 ms after one 100 000-term message.
pub const SEARCH_TEXT_CAP: usize = 16_000;

fn cap_searchable(text: &mut String) {
    if text.len() > SEARCH_TEXT_CAP {
        let mut cut = SEARCH_TEXT_CAP;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
    }
}

pub(super) fn insert_messages(conn: &Connection, session_id: &str, messages: &[Message]) -> Result<(), StoreError> {
    let next_seq: i64 = conn.query_row(
        "SELECT COALESCE(MAX(seq), -1) + 1 FROM messages WHERE session_id = ?1",
        [session_id],
        |r| r.get(0),
    )?;
    let now = now_ms();
    let mut stmt = conn.prepare_cached(
        "INSERT INTO messages (session_id, seq, role, content, body, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for (offset, message) in messages.iter().enumerate() {
        let body = serde_json::to_string(message)?;
        let mut searchable = message.text_content();
        for call in &message.tool_calls {
            searchable.push(' ');
            searchable.push_str(&call.name);
            searchable.push(' ');
            searchable.push_str(&call.arguments);
        }
        cap_searchable(&mut searchable);
        stmt.execute(params![
            session_id,
            next_seq + offset as i64,
            message.role().as_str(),
            searchable,
            body,
            now
        ])?;
    }
    conn.execute(
        "UPDATE sessions SET message_count = (SELECT COUNT(*) FROM messages WHERE session_id = ?1 AND active = 1), updated_at = ?2 WHERE id = ?1",
        params![session_id, now],
    )?;
    Ok(())
}

impl Store {
    /// Creates a session row (and its initial messages, for forks).
    pub async fn create_session(&self, record: SessionRecord, messages: Vec<Message>) -> Result<(), StoreError> {
        self.call(move |conn| {
            let tx = conn.transaction()?;
            tx.execute(
                "INSERT INTO sessions (id, cwd, title, title_source, model, provider, mode, settings, parent_session_id, created_at, updated_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10)",
                params![
                    record.id,
                    record.cwd,
                    record.title,
                    record.title_source,
                    record.model,
                    record.provider,
                    record.mode,
                    record.settings.to_string(),
                    record.parent_session_id,
                    record.created_at,
                ],
            )?;
            insert_messages(&tx, &record.id, &messages)?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// Changes some columns of a session row.
    pub async fn patch_session(&self, id: &str, patch: SessionPatch) -> Result<(), StoreError> {
        let id = id.to_string();
        self.call(move |conn| {
            let tx = conn.transaction()?;
            if let Some(cwd) = patch.cwd {
                tx.execute("UPDATE sessions SET cwd = ?2 WHERE id = ?1", params![id, cwd])?;
            }
            if let Some((title, source)) = patch.title {
                tx.execute(
                    "UPDATE sessions SET title = ?2, title_source = ?3, updated_at = ?4 WHERE id = ?1",
                    params![id, title, source, now_ms()],
                )?;
            }
            if let Some(model) = patch.model {
                tx.execute("UPDATE sessions SET model = ?2 WHERE id = ?1", params![id, model])?;
            }
            if let Some(provider) = patch.provider {
                tx.execute("UPDATE sessions SET provider = ?2 WHERE id = ?1", params![id, provider])?;
            }
            if let Some(mode) = patch.mode {
                tx.execute("UPDATE sessions SET mode = ?2 WHERE id = ?1", params![id, mode])?;
            }
            if let Some(settings) = patch.settings {
                tx.execute(
                    "UPDATE sessions SET settings = ?2 WHERE id = ?1",
                    params![id, settings.to_string()],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// Appends messages at the end of a session's history, durably, in one transaction.
    pub async fn append_messages(&self, id: &str, messages: Vec<Message>) -> Result<(), StoreError> {
        if messages.is_empty() {
            return Ok(());
        }
        let id = id.to_string();
        self.call(move |conn| {
            let tx = conn.transaction()?;
            insert_messages(&tx, &id, &messages)?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// Removes every message of a session (`/reset`).
    pub async fn clear_messages(&self, id: &str) -> Result<(), StoreError> {
        let id = id.to_string();
        self.call(move |conn| {
            conn.execute("DELETE FROM messages WHERE session_id = ?1", [&id])?;
            conn.execute(
                "UPDATE sessions SET message_count = 0, updated_at = ?2 WHERE id = ?1",
                params![id, now_ms()],
            )?;
            Ok(())
        })
        .await
    }

    /// A session row and its active history, or `None` when unknown.
    pub async fn load_session(&self, id: &str) -> Result<Option<(SessionRecord, Vec<Message>)>, StoreError> {
        let id = id.to_string();
        let loaded = self
            .call(move |conn| {
                let record = conn
                    .query_row(
                        &format!("SELECT {SESSION_COLUMNS} FROM sessions WHERE id = ?1"),
                        [&id],
                        row_to_record,
                    )
                    .optional()?;
                let Some(record) = record else { return Ok(None) };
                let (messages, skipped) = super::loading::load_messages(conn, &id)?;
                Ok(Some((record, messages, skipped)))
            })
            .await?;
        Ok(loaded.map(|(record, messages, skipped)| {
            self.note_unreadable(&record.id, skipped);
            (record, messages)
        }))
    }

    /// Sessions with at least one message, most recently updated first, `limit` per page. The
    /// cursor is the id of the last session of the previous page.
    pub async fn list_sessions(
        &self,
        cwd: Option<String>,
        cursor: Option<String>,
        limit: usize,
    ) -> Result<SessionsPage, StoreError> {
        self.call(move |conn| {
            // Resolve the cursor to its (updated_at, id) position; an unknown cursor is an empty page.
            let after = match &cursor {
                Some(c) => match conn
                    .query_row("SELECT updated_at FROM sessions WHERE id = ?1", [c], |r| {
                        r.get::<_, i64>(0)
                    })
                    .optional()?
                {
                    Some(ts) => Some((ts, c.clone())),
                    None => {
                        return Ok(SessionsPage {
                            sessions: Vec::new(),
                            next_cursor: None,
                        });
                    }
                },
                None => None,
            };
            let (after_ts, after_id) = after.unwrap_or((i64::MAX, String::new()));
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {SESSION_COLUMNS} FROM sessions \
                 WHERE message_count > 0 AND (?1 IS NULL OR cwd = ?1) \
                   AND (updated_at < ?2 OR (updated_at = ?2 AND id > ?3)) \
                 ORDER BY updated_at DESC, id ASC LIMIT ?4"
            ))?;
            let mut sessions = stmt
                .query_map(params![cwd, after_ts, after_id, limit as i64 + 1], row_to_record)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let next_cursor = if sessions.len() > limit {
                sessions.truncate(limit);
                sessions.last().map(|s| s.id.clone())
            } else {
                None
            };
            Ok(SessionsPage { sessions, next_cursor })
        })
        .await
    }

    /// Deletes a session and its messages. Returns whether it existed.
    pub async fn delete_session(&self, id: &str) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.call(move |conn| Ok(conn.execute("DELETE FROM sessions WHERE id = ?1", [&id])? > 0))
            .await
    }

    /// Message ids and snippets matching an FTS5 query, newest first.
    pub async fn search_messages(
        &self,
        query: &str,
        limit: usize,
    ) -> Result<Vec<(String, String, String)>, StoreError> {
        let query = query.to_string();
        self.call(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT m.session_id, m.role, snippet(messages_fts, 0, '[', ']', '…', 12) FROM messages_fts \
                 JOIN messages m ON m.id = messages_fts.rowid WHERE messages_fts MATCH ?1 ORDER BY m.id DESC LIMIT ?2",
            )?;
            let rows = stmt
                .query_map(params![query, limit as i64], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::{Message, ToolCall};

    fn record(id: &str, cwd: &str) -> SessionRecord {
        SessionRecord {
            id: id.into(),
            cwd: cwd.into(),
            created_at: now_ms(),
            settings: serde_json::json!({}),
            ..Default::default()
        }
    }

    #[tokio::test]
    async fn messages_round_trip_and_are_searchable() {
        let store = Store::open_in_memory().unwrap();
        store.create_session(record("s1", "/w"), vec![]).await.unwrap();
        let mut assistant = Message::assistant("");
        assistant.tool_calls.push(ToolCall {
            id: "c1".into(),
            name: "read_file".into(),
            arguments: "{}".into(),
        });
        let msgs = vec![Message::user("find the zebra"), assistant, Message::assistant("done")];
        store.append_messages("s1", msgs.clone()).await.unwrap();
        let (rec, loaded) = store.load_session("s1").await.unwrap().unwrap();
        assert_eq!(loaded, msgs);
        assert_eq!(rec.message_count, 3);
        assert_eq!(rec.preview.as_deref(), Some("find the zebra"));
        let hits = store.search_messages("zebra", 10).await.unwrap();
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].0, "s1");
        assert!(store.load_session("nope").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn list_pages_by_cursor_and_filters_by_cwd() {
        let store = Store::open_in_memory().unwrap();
        for i in 0..5 {
            let cwd = if i % 2 == 0 { "/a" } else { "/b" };
            store
                .create_session(record(&format!("s{i}"), cwd), vec![Message::user("hi")])
                .await
                .unwrap();
            tokio::time::sleep(std::time::Duration::from_millis(3)).await;
        }
        store.create_session(record("empty", "/a"), vec![]).await.unwrap();
        let page = store.list_sessions(None, None, 2).await.unwrap();
        assert_eq!(
            page.sessions.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
            ["s4", "s3"]
        );
        let page2 = store.list_sessions(None, page.next_cursor.clone(), 2).await.unwrap();
        assert_eq!(
            page2.sessions.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
            ["s2", "s1"]
        );
        let last = store.list_sessions(None, page2.next_cursor, 2).await.unwrap();
        assert_eq!(last.sessions.len(), 1);
        assert_eq!(last.next_cursor, None);
        let a = store.list_sessions(Some("/a".into()), None, 50).await.unwrap();
        assert_eq!(a.sessions.len(), 3);
        assert!(
            store
                .list_sessions(None, Some("unknown".into()), 2)
                .await
                .unwrap()
                .sessions
                .is_empty()
        );
    }

    #[tokio::test]
    async fn delete_cascades_and_file_database_persists() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db/sessions.db");
        {
            let store = Store::open(&path).unwrap();
            store
                .create_session(record("s1", "/w"), vec![Message::user("keep me")])
                .await
                .unwrap();
            store
                .patch_session(
                    "s1",
                    SessionPatch {
                        mode: Some("accept_edits".into()),
                        ..Default::default()
                    },
                )
                .await
                .unwrap();
        }
        let store = Store::open(&path).unwrap();
        let (rec, msgs) = store.load_session("s1").await.unwrap().unwrap();
        assert_eq!(rec.mode.as_deref(), Some("accept_edits"));
        assert_eq!(msgs.len(), 1);
        assert!(store.delete_session("s1").await.unwrap());
        assert!(!store.delete_session("s1").await.unwrap());
        let remaining: i64 = store
            .call_blocking(|c| Ok(c.query_row("SELECT COUNT(*) FROM messages", [], |r| r.get(0))?))
            .unwrap();
        assert_eq!(remaining, 0);
    }
}
