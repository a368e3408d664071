//! Read-only queries behind the `session_search` tool: full-text hits over `messages_fts`, a
//! window of messages around one message (with the session's first and last exchanges), whole
//! sessions, recent sessions and session lineage. Also owns turning a user's free text into a
//! safe FTS5 query, so FTS syntax never reaches SQLite unchecked.
//!
//! "Visible" rows are active ones plus compaction archives (`active = 0, compacted = 1`: text
//! summarised out of the live conversation but still worth recalling); rewound rows
//! (`active = 0, compacted = 0`) never show.
//! Slightly over 400 lines: the queries share one visibility rule and one row mapper; cutting
//! them apart would split that rule.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};

mod fts;

use super::{Store, StoreError};
use crate::transcript::{Message, Role};
use fts::fts5_plain;
pub use fts::fts5_query;

const VISIBLE: &str = "(active = 1 OR compacted = 1)";

/// One stored message as session search shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundMessage {
    pub id: i64,
    pub role: String,
    pub message: Message,
    pub created_at: i64,
}

/// One full-text match.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    pub message_id: i64,
    pub session_id: String,
    /// The oldest ancestor through `parent_session_id` (the session itself when it has none).
    pub lineage_root: String,
    pub role: String,
    /// Whether the row was compacted out of the live conversation.
    pub compacted: bool,
}

/// How to order hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchOrder {
    Relevance,
    Newest,
    Oldest,
}

/// Session metadata for search results.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SessionInfo {
    pub id: String,
    pub cwd: String,
    pub title: Option<String>,
    pub model: Option<String>,
    pub provider: Option<String>,
    pub parent_session_id: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub message_count: i64,
    /// The first user message.
    pub preview: Option<String>,
}

/// Where a message lives and whether it is still in its session's live conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageOwner {
    pub session_id: String,
    pub active: bool,
    pub compacted: bool,
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

const SESSION_INFO_COLUMNS: &str = "id, cwd, title, model, provider, parent_session_id, created_at, updated_at, message_count, \
     (SELECT content FROM messages m WHERE m.session_id = sessions.id AND m.role = 'user' ORDER BY seq LIMIT 1)";

fn row_to_info(row: &rusqlite::Row<'_>) -> rusqlite::Result<SessionInfo> {
    Ok(SessionInfo {
        id: row.get(0)?,
        cwd: row.get(1)?,
        title: row.get(2)?,
        model: row.get(3)?,
        provider: row.get(4)?,
        parent_session_id: row.get(5)?,
        created_at: row.get(6)?,
        updated_at: row.get(7)?,
        message_count: row.get(8)?,
        preview: row.get(9)?,
    })
}

const MESSAGE_COLUMNS: &str = "id, role, content, body, created_at";

fn row_to_message(row: &rusqlite::Row<'_>) -> rusqlite::Result<FoundMessage> {
    let role: String = row.get(1)?;
    let content: String = row.get(2)?;
    let body: String = row.get(3)?;
    // A body this build cannot decode still shows as plain text rather than failing the search.
    let message = serde_json::from_str(&body)
        .unwrap_or_else(|_| Message::text(Role::parse(&role).unwrap_or(Role::User), content));
    Ok(FoundMessage {
        id: row.get(0)?,
        role,
        message,
        created_at: row.get(4)?,
    })
}

fn lineage(conn: &Connection, id: &str) -> rusqlite::Result<Vec<String>> {
    let mut chain = vec![id.to_string()];
    let mut stmt = conn.prepare_cached("SELECT parent_session_id FROM sessions WHERE id = ?1")?;
    while chain.len() < 64 {
        let current = chain.last().cloned().unwrap_or_default();
        let parent: Option<String> = stmt.query_row([&current], |r| r.get(0)).optional()?.flatten();
        match parent {
            Some(p) if !chain.contains(&p) => chain.push(p),
            _ => break,
        }
    }
    Ok(chain)
}

/// A raw hit: message id, session id, role, compacted.
type HitRow = (i64, String, String, bool);

fn run_search(
    conn: &Connection,
    fts: &str,
    roles: &[String],
    order: SearchOrder,
    limit: usize,
) -> rusqlite::Result<Vec<HitRow>> {
    let order_sql = match order {
        SearchOrder::Relevance => "rank",
        SearchOrder::Newest => "m.created_at DESC, m.id DESC, rank",
        SearchOrder::Oldest => "m.created_at ASC, m.id ASC, rank",
    };
    let role_sql = if roles.is_empty() {
        String::new()
    } else {
        format!(" AND m.role IN ({})", vec!["?"; roles.len()].join(", "))
    };
    let sql = format!(
        "SELECT m.id, m.session_id, m.role, m.compacted \
         FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid \
         WHERE messages_fts MATCH ? AND (m.active = 1 OR m.compacted = 1){role_sql} \
         ORDER BY {order_sql} LIMIT ?"
    );
    let mut values: Vec<rusqlite::types::Value> = vec![fts.to_string().into()];
    values.extend(roles.iter().map(|r| r.clone().into()));
    values.push((limit as i64).into());
    let mut stmt = conn.prepare_cached(&sql)?;
    stmt.query_map(rusqlite::params_from_iter(values), |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get::<_, i64>(3)? != 0))
    })?
    .collect()
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
    /// Full-text hits for the user's free text (sanitised with [`fts5_query`]), `roles` only
    /// (all roles when empty), at most `limit` rows. Never fails on query syntax.
    pub async fn search_hits(
        &self,
        text: &str,
        roles: Vec<String>,
        order: SearchOrder,
        limit: usize,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let Some(fts) = fts5_query(text) else {
            return Ok(Vec::new());
        };
        let plain = fts5_plain(text);
        self.call(move |conn| {
            let rows = match run_search(conn, &fts, &roles, order, limit) {
                Ok(rows) => rows,
                Err(e) => {
                    tracing::warn!(query = %fts, error = %e, "FTS query rejected; retrying as plain terms");
                    match plain {
                        Some(plain) => run_search(conn, &plain, &roles, order, limit)?,
                        None => Vec::new(),
                    }
                }
            };
            let mut roots: HashMap<String, String> = HashMap::new();
            let mut hits = Vec::with_capacity(rows.len());
            for (message_id, session_id, role, compacted) in rows {
                let lineage_root = match roots.get(&session_id) {
                    Some(root) => root.clone(),
                    None => {
                        let root = lineage(conn, &session_id)?.pop().unwrap_or_else(|| session_id.clone());
                        roots.insert(session_id.clone(), root.clone());
                        root
                    }
                };
                hits.push(SearchHit {
                    message_id,
                    session_id,
                    lineage_root,
                    role,
                    compacted,
                });
            }
            Ok(hits)
        })
        .await
    }

    /// The matched text of each message (`>>>`/`<<<` around the matching terms), keyed by
    /// message id. Separate from [`Store::search_hits`] because `snippet()` is costly on long
    /// messages and only the few hits shown need one.
    pub async fn hit_snippets(&self, text: &str, message_ids: Vec<i64>) -> Result<HashMap<i64, String>, StoreError> {
        let Some(fts) = fts5_query(text) else {
            return Ok(HashMap::new());
        };
        let plain = fts5_plain(text);
        self.call(move |conn| {
            let one = |query: &str, id: i64| -> rusqlite::Result<Option<String>> {
                conn.prepare_cached(
                    "SELECT snippet(messages_fts, 0, '>>>', '<<<', '...', 40) FROM messages_fts \
                     WHERE messages_fts MATCH ?1 AND rowid = ?2",
                )?
                .query_row(params![query, id], |r| r.get(0))
                .optional()
            };
            let mut out = HashMap::new();
            for id in message_ids {
                let snippet = match one(&fts, id) {
                    Ok(s) => s,
                    Err(_) => match &plain {
                        Some(plain) => one(plain, id)?,
                        None => None,
                    },
                };
                if let Some(snippet) = snippet {
                    out.insert(id, snippet);
                }
            }
            Ok(out)
        })
        .await
    }

    /// The session and its ancestors through `parent_session_id`, nearest first.
    pub async fn session_lineage(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let id = id.to_string();
        self.call(move |conn| Ok(lineage(conn, &id)?)).await
    }

    /// A session's metadata, or `None` when unknown.
    pub async fn session_info(&self, id: &str) -> Result<Option<SessionInfo>, StoreError> {
        let id = id.to_string();
        self.call(move |conn| {
            Ok(conn
                .query_row(
                    &format!("SELECT {SESSION_INFO_COLUMNS} FROM sessions WHERE id = ?1"),
                    [&id],
                    row_to_info,
                )
                .optional()?)
        })
        .await
    }

    /// Which session a message belongs to, or `None` when there is no such message.
    pub async fn message_owner(&self, message_id: i64) -> Result<Option<MessageOwner>, StoreError> {
        self.call(move |conn| {
            Ok(conn
                .query_row(
                    "SELECT session_id, active, compacted FROM messages WHERE id = ?1",
                    [message_id],
                    |r| {
                        Ok(MessageOwner {
                            session_id: r.get(0)?,
                            active: r.get::<_, i64>(1)? != 0,
                            compacted: r.get::<_, i64>(2)? != 0,
                        })
                    },
                )
                .optional()?)
        })
        .await
    }

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

    /// Sessions (with messages) whose title is `title`, ignoring ASCII case; newest first.
    pub async fn sessions_titled(&self, title: &str) -> Result<Vec<String>, StoreError> {
        let title = title.to_string();
        self.call(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id FROM sessions WHERE message_count > 0 AND title = ?1 COLLATE NOCASE \
                 ORDER BY updated_at DESC LIMIT 10",
            )?;
            Ok(stmt
                .query_map([&title], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?)
        })
        .await
    }

    /// The most recently active sessions with messages, skipping the `exclude` ids.
    pub async fn recent_sessions(&self, limit: usize, exclude: Vec<String>) -> Result<Vec<SessionInfo>, StoreError> {
        self.call(move |conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {SESSION_INFO_COLUMNS} FROM sessions WHERE message_count > 0 \
                 ORDER BY updated_at DESC, id ASC LIMIT ?1"
            ))?;
            let rows = stmt
                .query_map([(limit + exclude.len()) as i64], row_to_info)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(rows
                .into_iter()
                .filter(|s| !exclude.contains(&s.id))
                .take(limit)
                .collect())
        })
        .await
    }
}
