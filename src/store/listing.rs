//! Reading session rows: `session/list` pages (by cursor, optionally one cwd), one session by
//! id, the most recent sessions and sessions by title (for `session_search`). Every query maps
//! its rows with the one mapper in `rows.rs`.

use rusqlite::{OptionalExtension, params};

use super::rows::{SESSION_COLUMNS, SessionRecord, SessionsPage, row_to_record};
use super::{Store, StoreError};

impl Store {
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

    /// A session's metadata, or `None` when unknown.
    pub async fn session_info(&self, id: &str) -> Result<Option<SessionRecord>, StoreError> {
        let id = id.to_string();
        self.call(move |conn| {
            Ok(conn
                .query_row(
                    &format!("SELECT {SESSION_COLUMNS} FROM sessions WHERE id = ?1"),
                    [&id],
                    row_to_record,
                )
                .optional()?)
        })
        .await
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
    pub async fn recent_sessions(&self, limit: usize, exclude: Vec<String>) -> Result<Vec<SessionRecord>, StoreError> {
        self.call(move |conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {SESSION_COLUMNS} FROM sessions WHERE message_count > 0 \
                 ORDER BY updated_at DESC, id ASC LIMIT ?1"
            ))?;
            let rows = stmt
                .query_map([(limit + exclude.len()) as i64], row_to_record)?
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::Message;

    #[tokio::test]
    async fn list_pages_by_cursor_and_filters_by_cwd() {
        let store = Store::open_in_memory().unwrap();
        for i in 0..5 {
            let cwd = if i % 2 == 0 { "/a" } else { "/b" };
            store
                .create_session(
                    SessionRecord::for_test(&format!("s{i}"), cwd),
                    vec![Message::user("hi")],
                )
                .await
                .unwrap();
        }
        // Distinct update times, oldest first, set directly rather than waited for.
        store
            .call(|conn| {
                conn.execute("UPDATE sessions SET updated_at = CAST(substr(id, 2) AS INTEGER)", [])?;
                Ok(())
            })
            .await
            .unwrap();
        store
            .create_session(SessionRecord::for_test("empty", "/a"), vec![])
            .await
            .unwrap();
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
}
