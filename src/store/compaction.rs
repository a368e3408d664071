//! Context compaction in the database: in one transaction, every active message of a session
//! is archived (`active = 0, compacted = 1`) and the compacted live history is inserted after
//! it under the same session id. Nothing is deleted: archived rows stay in the full-text index
//! (`session_search` still finds them) and in the session's full history, while loading a
//! session returns only the active set.

use super::loading::{decode_any, decode_row, seq_and_body};
use super::{Store, StoreError};
use crate::transcript::Message;

/// One archived-or-live message row, oldest first (`Store::full_history`).
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryRow {
    pub seq: i64,
    pub message: Message,
    /// Part of the live conversation (false for rows archived by a compaction).
    pub active: bool,
    pub compacted: bool,
}

impl Store {
    /// Replaces the live history of `session_id` with `live` (the output of a compaction),
    /// archiving the current active rows. Returns how many rows were archived.
    pub async fn compact_session(&self, session_id: &str, live: Vec<Message>) -> Result<usize, StoreError> {
        let id = session_id.to_string();
        self.call(move |conn| {
            let tx = conn.transaction()?;
            let archived = tx.execute(
                "UPDATE messages SET active = 0, compacted = 1 WHERE session_id = ?1 AND active = 1",
                [&id],
            )?;
            // The new live rows go after every stored row, archived ones included.
            super::sessions::insert_messages(&tx, &id, &live)?;
            tx.commit()?;
            Ok(archived)
        })
        .await
    }

    /// Every stored message of a session, archived ones included, in the order they were
    /// written (for a history view or an export; replay uses the active set). A row that does
    /// not decode is skipped with a warning; the others are returned.
    pub async fn full_history(&self, session_id: &str) -> Result<Vec<HistoryRow>, StoreError> {
        let id = session_id.to_string();
        self.call(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT seq, body, active, compacted FROM messages WHERE session_id = ?1 ORDER BY seq, id",
            )?;
            let rows = stmt.query_map([&id], |r| {
                let (seq, body) = seq_and_body(r)?;
                Ok((seq, body, r.get::<_, bool>(2)?, r.get::<_, bool>(3)?))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (seq, body, active, compacted) = row?;
                // One row this build cannot read is left out (and logged), not the whole history.
                if let Some(message) = decode_row(&id, seq, body, decode_any)? {
                    out.push(HistoryRow {
                        seq,
                        message,
                        active,
                        compacted,
                    });
                }
            }
            Ok(out)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SessionRecord;

    #[tokio::test]
    async fn compaction_archives_old_rows_and_loads_the_new_live_set() {
        let store = Store::open_in_memory().unwrap();
        let record = SessionRecord::for_test("s1", "/w");
        store.create_session(record, vec![]).await.unwrap();
        let original = vec![
            Message::user("find the aardvark"),
            Message::assistant("looking"),
            Message::user("and the zebra"),
            Message::assistant("found both"),
        ];
        store.append_messages("s1", original.clone()).await.unwrap();
        let live = vec![
            original[0].clone(),
            Message::user("[Context compaction — summary of earlier conversation]\nsummary of the hunt"),
            original[3].clone(),
        ];
        assert_eq!(store.compact_session("s1", live.clone()).await.unwrap(), 4);
        let (record, loaded) = store.load_session("s1").await.unwrap().unwrap();
        assert_eq!(loaded, live);
        assert_eq!(record.message_count, 3);
        assert_eq!(record.preview.as_deref(), Some("find the aardvark"));

        // Everything is still stored: the originals archived, the live set after them.
        let full = store.full_history("s1").await.unwrap();
        assert_eq!(full.len(), 7);
        assert_eq!(
            full.iter().map(|r| r.seq).collect::<Vec<_>>(),
            (0..7).collect::<Vec<_>>()
        );
        assert!(full[..4].iter().all(|r| !r.active && r.compacted));
        assert_eq!(
            full[..4].iter().map(|r| r.message.clone()).collect::<Vec<_>>(),
            original
        );
        assert!(full[4..].iter().all(|r| r.active && !r.compacted));

        // The archived rows stay searchable; the summary row is indexed too.
        let zebra = store.search_messages("zebra", 10).await.unwrap();
        assert_eq!(zebra.len(), 1);
        assert_eq!(zebra[0].0, "s1");
        assert_eq!(store.search_messages("hunt", 10).await.unwrap().len(), 1);

        // Appends after a compaction continue the sequence and stay live.
        store.append_messages("s1", vec![Message::user("next")]).await.unwrap();
        let (_, loaded) = store.load_session("s1").await.unwrap().unwrap();
        assert_eq!(loaded.len(), 4);
        assert_eq!(store.full_history("s1").await.unwrap().last().unwrap().seq, 7);

        // A second compaction archives only the current live set.
        assert_eq!(
            store.compact_session("s1", vec![Message::user("fresh")]).await.unwrap(),
            4
        );
        let (_, loaded) = store.load_session("s1").await.unwrap().unwrap();
        assert_eq!(loaded, vec![Message::user("fresh")]);
        assert_eq!(store.full_history("s1").await.unwrap().len(), 9);
        // Deleting the session removes the archive with it (FTS follows via the trigger).
        assert!(store.delete_session("s1").await.unwrap());
        assert!(store.search_messages("zebra", 10).await.unwrap().is_empty());
    }
}
