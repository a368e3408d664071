//! Read-only queries behind the `session_search` tool: full-text hits over `messages_fts` (with
//! each hit's lineage root), their snippets, session lineage and which session a message is in;
//! `window.rs` reads the messages around a hit, `fts.rs` turns a user's free text into a safe
//! FTS5 query, so FTS syntax never reaches SQLite unchecked. Session rows are read in
//! `listing.rs`.
//!
//! "Visible" rows are active ones plus compaction archives (`active = 0, compacted = 1`: text
//! summarised out of the live conversation but still worth recalling); rewound rows
//! (`active = 0, compacted = 0`) never show. The rule is `VISIBLE`, shared by both files.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};

mod fts;
mod window;

use super::{Store, StoreError};
use fts::fts5_plain;
pub use fts::fts5_query;
pub use window::{FoundMessage, MessageView};

/// The SQL condition for messages search may show.
const VISIBLE: &str = "(active = 1 OR compacted = 1)";

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

/// Where a message lives and whether it is still in its session's live conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageOwner {
    pub session_id: String,
    pub active: bool,
    pub compacted: bool,
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
}

#[cfg(test)]
impl Store {
    /// Session ids, roles and snippets of the messages matching an FTS5 query, newest first
    /// (the store's own tests check indexing with it; the tool uses [`Store::search_hits`]).
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
