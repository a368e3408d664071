//! `/undo` in the database: where each turn starts (the seq of its prompt among the active
//! rows), the checkpoint taken before a turn's first change, and undoing a turn — its rows stay
//! stored, marked `undone` and inactive, so the live conversation drops them while the full
//! history keeps them.

use rusqlite::{OptionalExtension, params};

use super::loading::{decode_any, decode_row, seq_and_body};
use super::{Store, StoreError, now_ms};
use crate::transcript::{Message, Role};

/// The prompt that opened a turn.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnStart {
    pub seq: i64,
    /// The prompt's first line.
    pub prompt: String,
}

/// A checkpoint of a turn that was not undone.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckpointRow {
    pub turn_seq: i64,
    pub cwd: String,
    pub commit_id: String,
    pub created_at: i64,
    /// The turn's prompt, first line (empty when its row is no longer active).
    pub prompt: String,
}

/// A user-role message the user wrote (not the agent's budget note or a compaction summary).
fn is_prompt(message: &Message) -> bool {
    message.role() == Role::User && !message.meta.budget_note && message.meta.compaction.is_none()
}

fn first_line(message: &Message) -> String {
    message.text_content().lines().next().unwrap_or("").trim().to_string()
}

impl Store {
    /// The newest active turn of a session.
    pub async fn last_turn(&self, session_id: &str) -> Result<Option<TurnStart>, StoreError> {
        let id = session_id.to_string();
        self.call(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT seq, body FROM messages WHERE session_id = ?1 AND active = 1 AND role = 'user' ORDER BY seq DESC",
            )?;
            let mut rows = stmt.query([&id])?;
            while let Some(row) = rows.next()? {
                let (seq, body) = seq_and_body(row)?;
                // An unreadable row (logged) is not a prompt: the turn before it is found.
                let Some(message) = decode_row(&id, seq, body, decode_any)? else {
                    continue;
                };
                if is_prompt(&message) {
                    return Ok(Some(TurnStart {
                        seq,
                        prompt: first_line(&message),
                    }));
                }
            }
            Ok(None)
        })
        .await
    }

    /// Records the checkpoint of the turn starting at `turn_seq` in the folder `cwd` (the first
    /// one per turn and folder wins).
    pub async fn record_checkpoint(
        &self,
        session_id: &str,
        turn_seq: i64,
        cwd: &str,
        commit_id: &str,
    ) -> Result<(), StoreError> {
        let (id, cwd, commit) = (session_id.to_string(), cwd.to_string(), commit_id.to_string());
        self.call(move |conn| {
            conn.execute(
                "INSERT OR IGNORE INTO checkpoints (session_id, turn_seq, cwd, commit_id, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![id, turn_seq, cwd, commit, now_ms()],
            )?;
            Ok(())
        })
        .await
    }

    /// The session's checkpoints that were not undone, newest first (a turn's folders in name
    /// order), with their prompts.
    pub async fn checkpoints(&self, session_id: &str) -> Result<Vec<CheckpointRow>, StoreError> {
        let id = session_id.to_string();
        self.call(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT c.turn_seq, c.cwd, c.commit_id, c.created_at, m.body FROM checkpoints c \
                 LEFT JOIN messages m ON m.session_id = c.session_id AND m.seq = c.turn_seq AND m.active = 1 \
                 WHERE c.session_id = ?1 AND c.undone = 0 ORDER BY c.turn_seq DESC, c.cwd",
            )?;
            let rows = stmt.query_map([&id], |r| {
                Ok((
                    CheckpointRow {
                        turn_seq: r.get(0)?,
                        cwd: r.get(1)?,
                        commit_id: r.get(2)?,
                        created_at: r.get(3)?,
                        prompt: String::new(),
                    },
                    r.get::<_, Option<String>>(4),
                ))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (mut checkpoint, body) = row?;
                // No active prompt row (NULL from the join) leaves the prompt empty; an
                // unreadable one is logged and does the same, the checkpoint stays usable.
                let body = body.transpose();
                if let Some(body) = body
                    && let Some(message) = decode_row(&id, checkpoint.turn_seq, body, decode_any)?
                {
                    checkpoint.prompt = first_line(&message);
                }
                out.push(checkpoint);
            }
            Ok(out)
        })
        .await
    }

    /// Undoes the turn starting at `turn_seq`: its active rows (and any after it) become
    /// inactive and `undone`, its checkpoint is spent. Returns how many rows were undone.
    pub async fn undo_turn(&self, session_id: &str, turn_seq: i64) -> Result<usize, StoreError> {
        let id = session_id.to_string();
        self.call(move |conn| {
            let tx = conn.transaction()?;
            let undone = tx.execute(
                "UPDATE messages SET active = 0, undone = 1 WHERE session_id = ?1 AND active = 1 AND seq >= ?2",
                params![id, turn_seq],
            )?;
            tx.execute(
                "UPDATE checkpoints SET undone = 1 WHERE session_id = ?1 AND turn_seq >= ?2",
                params![id, turn_seq],
            )?;
            tx.execute(
                "UPDATE sessions SET message_count = (SELECT COUNT(*) FROM messages WHERE session_id = ?1 AND active = 1), updated_at = ?2 WHERE id = ?1",
                params![id, now_ms()],
            )?;
            tx.commit()?;
            Ok(undone)
        })
        .await
    }

    /// How many stored rows of a session are marked undone (tests, history views).
    pub async fn undone_messages(&self, session_id: &str) -> Result<usize, StoreError> {
        let id = session_id.to_string();
        self.call(move |conn| {
            let n: Option<i64> = conn
                .query_row(
                    "SELECT COUNT(*) FROM messages WHERE session_id = ?1 AND undone = 1",
                    [&id],
                    |r| r.get(0),
                )
                .optional()?;
            Ok(n.unwrap_or(0) as usize)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SessionRecord;
    use crate::transcript::MessageMeta;

    #[tokio::test]
    async fn turns_checkpoints_and_undo_walk_back_one_turn_at_a_time() {
        let store = Store::open_in_memory().unwrap();
        let record = SessionRecord::for_test("s", "/w");
        store.create_session(record, vec![]).await.unwrap();
        let mut note = Message::user("budget note");
        note.meta = MessageMeta::budget_note();
        let history = vec![
            Message::user("first\nmore"),
            Message::assistant("one"),
            Message::user("second"),
            Message::assistant("two"),
            note,
            Message::assistant("summary"),
        ];
        store.append_messages("s", history).await.unwrap();
        let last = store.last_turn("s").await.unwrap().unwrap();
        assert_eq!(
            last,
            TurnStart {
                seq: 2,
                prompt: "second".into()
            }
        );
        store.record_checkpoint("s", 0, "/w", "aaaa").await.unwrap();
        store.record_checkpoint("s", 2, "/w", "bbbb").await.unwrap();
        store.record_checkpoint("s", 2, "/w", "cccc").await.unwrap();
        // Another folder of the session has its own checkpoint of the same turn.
        store.record_checkpoint("s", 2, "/lib", "dddd").await.unwrap();
        let listed = store.checkpoints("s").await.unwrap();
        let shown: Vec<_> = (listed.iter())
            .map(|c| (c.turn_seq, c.cwd.as_str(), c.commit_id.as_str(), c.prompt.as_str()))
            .collect();
        assert_eq!(
            shown,
            [
                (2, "/lib", "dddd", "second"),
                (2, "/w", "bbbb", "second"),
                (0, "/w", "aaaa", "first")
            ]
        );

        assert_eq!(store.undo_turn("s", 2).await.unwrap(), 4);
        let (record, live) = store.load_session("s").await.unwrap().unwrap();
        assert_eq!(live.len(), 2);
        assert_eq!(record.message_count, 2);
        assert_eq!(store.undone_messages("s").await.unwrap(), 4);
        assert_eq!(store.last_turn("s").await.unwrap().unwrap().seq, 0);
        assert_eq!(store.checkpoints("s").await.unwrap().len(), 1);
        // Rows are kept: the full history still has all six.
        assert_eq!(store.full_history("s").await.unwrap().len(), 6);
    }
}
