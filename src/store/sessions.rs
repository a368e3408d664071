//! Writing sessions and their messages: create (with a fork's history), patch, append, clear,
//! load, delete. Messages are stored as their JSON body (our `transcript` types) plus a
//! searchable text column; rows marked inactive (compacted) stay for search and history but are
//! not loaded into the live conversation. The row type and its mapper are in `rows.rs`.

use rusqlite::{Connection, OptionalExtension, params};

use super::rows::{SESSION_COLUMNS, SessionPatch, SessionRecord, row_to_record};
use super::{Store, StoreError, now_ms};
use crate::transcript::Message;

/// Compiles the hot statements once at open, so the first session does not pay for it.
pub(super) fn warm_statements(conn: &Connection) -> rusqlite::Result<()> {
    conn.prepare_cached("SELECT COALESCE(MAX(seq), -1) + 1 FROM messages WHERE session_id = ?1")?;
    conn.prepare_cached(
        "INSERT INTO messages (session_id, seq, role, content, body, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    conn.prepare_cached("SELECT body FROM messages WHERE session_id = ?1 AND active = 1 ORDER BY seq")?;
    Ok(())
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

/// Inserts `messages` as active rows after the session's highest seq (archived rows included,
/// so seq stays a total order of everything written) with their searchable text, and refreshes
/// the session's counters. Every writer of messages (appends, creation, compaction, import)
/// goes through here, so the seq order and the searchable text are the same for all.
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

/// Inserts a session row (the caller's transaction also inserts its messages).
pub(super) fn insert_session(conn: &Connection, record: &SessionRecord) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO sessions (id, cwd, title, title_source, model, provider, mode, parent_session_id, created_at, updated_at, settings) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?10)",
        params![
            record.id,
            record.cwd,
            record.title,
            record.title_source,
            record.model,
            record.provider,
            record.mode,
            record.parent_session_id,
            record.created_at,
            record.preferences.to_column(),
        ],
    )?;
    Ok(())
}

impl Store {
    /// Creates a session row (and its initial messages, for forks).
    pub async fn create_session(&self, record: SessionRecord, messages: Vec<Message>) -> Result<(), StoreError> {
        self.call(move |conn| {
            let tx = conn.transaction()?;
            insert_session(&tx, &record)?;
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
            if let Some(mode) = patch.mode {
                tx.execute("UPDATE sessions SET mode = ?2 WHERE id = ?1", params![id, mode])?;
            }
            if let Some(preferences) = patch.preferences {
                tx.execute(
                    "UPDATE sessions SET settings = ?2 WHERE id = ?1",
                    params![id, preferences.to_column()],
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

    /// Deletes a session and its messages. Returns whether it existed.
    pub async fn delete_session(&self, id: &str) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.call(move |conn| Ok(conn.execute("DELETE FROM sessions WHERE id = ?1", [&id])? > 0))
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::{Message, ToolCall};

    #[tokio::test]
    async fn messages_round_trip_and_are_searchable() {
        let store = Store::open_in_memory().unwrap();
        store
            .create_session(SessionRecord::for_test("s1", "/w"), vec![])
            .await
            .unwrap();
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
    async fn delete_cascades_and_file_database_persists() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db/sessions.db");
        {
            let store = Store::open(&path).unwrap();
            store
                .create_session(SessionRecord::for_test("s1", "/w"), vec![Message::user("keep me")])
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
