//! A window of messages around one search hit, with the session's opening and closing
//! exchanges, and whole sessions: the messages `session_search` shows once it found where to
//! look. Undecodable bodies show as their searchable text rather than failing the search.

use rusqlite::{Connection, OptionalExtension, params};

use super::VISIBLE;
use crate::store::{Store, StoreError};
use crate::transcript::{Message, Role};

/// One stored message as session search shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundMessage {
    pub id: i64,
    pub role: String,
    pub message: Message,
    pub created_at: i64,
}

/// Messages around an anchor plus the session's opening and closing exchanges.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MessageView {
    /// Up to `window` messages each side of the anchor, the anchor included.
    pub window: Vec<FoundMessage>,
    /// How many visible messages precede / follow the anchor in the whole session.
    pub messages_before: usize,
    pub messages_after: usize,
    /// The first / last user or assistant messages not already in `window`.
    pub bookend_start: Vec<FoundMessage>,
    pub bookend_end: Vec<FoundMessage>,
}

const MESSAGE_COLUMNS: &str = "id, role, content, body, created_at";

fn row_to_message(row: &rusqlite::Row<'_>) -> rusqlite::Result<FoundMessage> {
    let role: String = row.get(1)?;
    let content: String = row.get(2)?;
    let id: i64 = row.get(0)?;
    // A body this build cannot read (not text, or not a message) still shows as its plain
    // searchable text rather than failing the search; logged by row id, never by content.
    let decoded = row
        .get::<_, String>(3)
        .ok()
        .and_then(|body| serde_json::from_str(&body).ok());
    let message = decoded.unwrap_or_else(|| {
        tracing::warn!(
            message_id = id,
            "unreadable stored message; showing its searchable text"
        );
        Message::text(Role::parse(&role).unwrap_or(Role::User), content)
    });
    Ok(FoundMessage {
        id,
        role,
        message,
        created_at: row.get(4)?,
    })
}

fn visible_messages(conn: &Connection, session_id: &str) -> rusqlite::Result<Vec<FoundMessage>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {MESSAGE_COLUMNS} FROM messages WHERE session_id = ?1 AND {VISIBLE} ORDER BY seq"
    ))?;
    stmt.query_map([session_id], row_to_message)?.collect()
}

fn message_view(
    conn: &Connection,
    session_id: &str,
    anchor: i64,
    window: usize,
    bookend: usize,
) -> rusqlite::Result<Option<MessageView>> {
    let anchor_seq: Option<i64> = conn
        .query_row(
            &format!("SELECT seq FROM messages WHERE id = ?1 AND session_id = ?2 AND {VISIBLE}"),
            params![anchor, session_id],
            |r| r.get(0),
        )
        .optional()?;
    let Some(seq) = anchor_seq else { return Ok(None) };
    let select = |cond: &str, order: &str, limit: usize| -> rusqlite::Result<Vec<FoundMessage>> {
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {MESSAGE_COLUMNS} FROM messages WHERE session_id = ?1 AND {VISIBLE} AND {cond} \
             ORDER BY seq {order} LIMIT ?3"
        ))?;
        stmt.query_map(params![session_id, seq, limit as i64], row_to_message)?
            .collect()
    };
    let count = |cond: &str| -> rusqlite::Result<usize> {
        let n: i64 = conn.query_row(
            &format!("SELECT COUNT(*) FROM messages WHERE session_id = ?1 AND {VISIBLE} AND {cond}"),
            params![session_id, seq],
            |r| r.get(0),
        )?;
        Ok(n as usize)
    };
    let mut before = select("seq < ?2", "DESC", window)?;
    before.reverse();
    let mut view = MessageView {
        window: before,
        messages_before: count("seq < ?2")?,
        messages_after: count("seq > ?2")?,
        ..MessageView::default()
    };
    view.window.extend(select("seq >= ?2", "ASC", window + 1)?);
    if bookend > 0 {
        let in_window = |m: &FoundMessage| view.window.iter().any(|w| w.id == m.id);
        let talk = "role IN ('user', 'assistant')";
        let start: Vec<FoundMessage> = select(talk, "ASC", bookend)?;
        let mut end: Vec<FoundMessage> = select(talk, "DESC", bookend)?;
        end.reverse();
        let start: Vec<FoundMessage> = start.into_iter().filter(|m| !in_window(m)).collect();
        let end: Vec<FoundMessage> = end
            .into_iter()
            .filter(|m| !in_window(m) && !start.iter().any(|s| s.id == m.id))
            .collect();
        view.bookend_start = start;
        view.bookend_end = end;
    }
    Ok(Some(view))
}

impl Store {
    /// Up to `window` visible messages each side of `anchor` in `session_id`, plus up to
    /// `bookend` opening and closing user/assistant messages. `None` when the anchor is not a
    /// visible message of that session.
    pub async fn message_view(
        &self,
        session_id: &str,
        anchor: i64,
        window: usize,
        bookend: usize,
    ) -> Result<Option<MessageView>, StoreError> {
        let session_id = session_id.to_string();
        self.call(move |conn| Ok(message_view(conn, &session_id, anchor, window, bookend)?))
            .await
    }

    /// Every visible message of a session, in order.
    pub async fn session_messages(&self, session_id: &str) -> Result<Vec<FoundMessage>, StoreError> {
        let session_id = session_id.to_string();
        self.call(move |conn| Ok(visible_messages(conn, &session_id)?)).await
    }
}
