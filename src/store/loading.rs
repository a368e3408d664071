//! Reading a session's stored history tolerantly: a row that cannot be decoded is skipped
//! (logged, and counted so the protocol layer can tell the user) instead of making the whole
//! session unloadable.

use rusqlite::Connection;

use super::StoreError;
use crate::transcript::{Message, Role};

/// The active messages of a session and how many rows were skipped as unreadable: a body that
/// is not JSON or not a message (an unknown role, a wrong type), or a tool result that names
/// no call (a provider would reject the whole history). One bad row must not make the whole
/// session unloadable.
pub(super) fn load_messages(conn: &Connection, session_id: &str) -> Result<(Vec<Message>, usize), StoreError> {
    let mut stmt =
        conn.prepare_cached("SELECT seq, body FROM messages WHERE session_id = ?1 AND active = 1 ORDER BY seq")?;
    let rows = stmt.query_map([session_id], seq_and_body)?;
    let (mut out, mut skipped) = (Vec::new(), 0);
    for row in rows {
        let (seq, body) = row?;
        match decode_row(session_id, seq, body, decode_message)? {
            Some(message) => out.push(message),
            None => skipped += 1,
        }
    }
    Ok((out, skipped))
}

/// Maps a row whose first two columns are `seq, body`; the body is read separately so that
/// one that is not text (a BLOB or NULL written by something else) can be skipped with its seq.
pub(super) fn seq_and_body(row: &rusqlite::Row<'_>) -> rusqlite::Result<(i64, rusqlite::Result<String>)> {
    Ok((row.get(0)?, row.get(1)))
}

/// Decodes one stored body with `decode`. A body that is not text or does not decode is
/// logged with the session and seq (never the body: it may hold secrets or a whole file) and
/// becomes `None`, so the caller keeps the other rows. Other SQLite errors still fail the read.
pub(super) fn decode_row(
    session_id: &str,
    seq: i64,
    body: rusqlite::Result<String>,
    decode: fn(&str) -> Result<Message, String>,
) -> Result<Option<Message>, StoreError> {
    let problem = match body {
        Ok(body) => match decode(&body) {
            Ok(message) => return Ok(Some(message)),
            Err(problem) => problem,
        },
        Err(rusqlite::Error::FromSqlConversionFailure(..) | rusqlite::Error::InvalidColumnType(..)) => {
            "the body is not text".to_string()
        }
        Err(e) => return Err(e.into()),
    };
    tracing::warn!(
        session = session_id,
        seq,
        "skipping an unreadable stored message: {problem}"
    );
    Ok(None)
}

/// Any message JSON (the full history keeps tool results whatever they answer). The error
/// says only what kind of problem and where: serde's own text can quote part of the body.
pub(super) fn decode_any(body: &str) -> Result<Message, String> {
    serde_json::from_str(body)
        .map_err(|e| format!("{:?} error at line {} column {}", e.classify(), e.line(), e.column()))
}

/// A message fit for the live conversation: it decodes, and a tool result names its call.
fn decode_message(body: &str) -> Result<Message, String> {
    let message = decode_any(body)?;
    if message.role == Some(Role::Tool) && message.tool_call_id.is_none() {
        return Err("a tool result without a tool call id".into());
    }
    Ok(message)
}

#[cfg(test)]
mod tests {
    use crate::store::{SessionRecord, Store};
    use crate::transcript::Message;

    #[tokio::test]
    async fn corrupt_rows_are_skipped_and_counted_the_rest_loads() {
        let store = Store::open_in_memory().unwrap();
        let record = SessionRecord::for_test("s", "/w");
        let history: Vec<Message> = (0..5).map(|i| Message::user(format!("m{i}"))).collect();
        store.create_session(record, history).await.unwrap();
        let bad = [
            (1, "{not json"),
            (2, r#"{"role":"wizard","content":"x"}"#),
            (3, r#"{"role":"tool","content":"orphan result"}"#),
        ];
        for (nth, body) in bad {
            corrupt(&store, nth, rusqlite::types::Value::Text(body.into())).await;
        }
        let (_, messages) = store.load_session("s").await.unwrap().unwrap();
        let texts: Vec<_> = messages.iter().map(Message::text_content).collect();
        assert_eq!(texts, ["m0", "m4"]);
        assert_eq!(store.unreadable_messages("s"), 3);
    }

    #[tokio::test]
    async fn rows_written_by_earlier_versions_load_with_their_metadata() {
        let store = Store::open_in_memory().unwrap();
        let record = SessionRecord {
            id: "old".into(),
            cwd: "/w".into(),
            ..Default::default()
        };
        store.create_session(record, vec![]).await.unwrap();
        // Bodies exactly as the version before typed metadata wrote them.
        let bodies = [
            r#"{"role":"user","parts":[{"type":"text","text":"hi"}],"meta":{"prompt":[{"type":"text","text":"hi"}]}}"#,
            r#"{"role":"assistant","parts":[],"tool_calls":[{"id":"c1","name":"terminal","arguments":"{}"}]}"#,
            r#"{"role":"tool","parts":[{"type":"text","text":"{}"}],"tool_call_id":"c1","tool_name":"terminal","meta":{"terminal":{"command":"ls","output":"a","exit_code":0}}}"#,
            r#"{"role":"assistant","parts":[{"type":"text","text":"par"}],"meta":{"interrupted":"cancelled"}}"#,
        ];
        store
            .call(move |conn| {
                for (seq, body) in bodies.iter().enumerate() {
                    conn.execute(
                        "INSERT INTO messages (session_id, seq, role, content, body, created_at) VALUES ('old', ?1, 'user', '', ?2, 0)",
                        rusqlite::params![seq as i64, body],
                    )?;
                }
                Ok(())
            })
            .await
            .unwrap();
        let (_, messages) = store.load_session("old").await.unwrap().unwrap();
        assert_eq!(messages.len(), 4);
        assert!(messages[0].meta.legacy_prompt.is_some());
        assert!(matches!(
            &messages[2].meta.display,
            crate::transcript::ToolDisplay::Terminal { command, .. } if command == "ls"
        ));
        assert_eq!(
            messages[3].meta.interrupted,
            Some(crate::transcript::Interruption::Cancelled)
        );
        assert_eq!(store.unreadable_messages("old"), 0);
    }

    /// Overwrites the body of the `nth` stored row of session `s` (0-based, in seq order).
    async fn corrupt(store: &Store, nth: i64, body: rusqlite::types::Value) {
        store
            .call(move |conn| {
                conn.execute(
                    "UPDATE messages SET body = ?1 WHERE id = (SELECT id FROM messages WHERE session_id = 's' ORDER BY seq LIMIT 1 OFFSET ?2)",
                    rusqlite::params![body, nth],
                )?;
                Ok(())
            })
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn a_corrupt_row_in_the_middle_spares_history_undo_and_compaction() {
        use rusqlite::types::Value;
        let store = Store::open_in_memory().unwrap();
        let record = SessionRecord::for_test("s", "/w");
        let history = vec![
            Message::user("one"),
            Message::assistant("a1"),
            Message::user("two"),
            Message::assistant("a2"),
            Message::user("three"),
            Message::assistant("a3"),
        ];
        store.create_session(record, history).await.unwrap();
        store.record_checkpoint("s", 2, "/w", "c2").await.unwrap();
        store.record_checkpoint("s", 4, "/w", "c4").await.unwrap();
        // Not JSON, and not text at all.
        corrupt(&store, 1, Value::Text("{broken".into())).await;
        corrupt(&store, 4, Value::Blob(vec![0xff, 0x00, 0x01])).await;

        // The model history and replay: the readable rows, in order.
        let (_, live) = store.load_session("s").await.unwrap().unwrap();
        let texts: Vec<_> = live.iter().map(Message::text_content).collect();
        assert_eq!(texts, ["one", "two", "a2", "a3"]);
        assert_eq!(store.unreadable_messages("s"), 2);
        // The full history keeps its seqs and leaves the two rows out.
        let full = store.full_history("s").await.unwrap();
        assert_eq!(full.iter().map(|r| r.seq).collect::<Vec<_>>(), [0, 2, 3, 5]);

        // Undo: the newest prompt is unreadable, so the newest readable one is the last turn;
        // its checkpoint lists with an empty prompt instead of failing the list.
        assert_eq!(store.last_turn("s").await.unwrap().unwrap().seq, 2);
        let checkpoints = store.checkpoints("s").await.unwrap();
        let listed: Vec<_> = checkpoints.iter().map(|c| (c.turn_seq, c.prompt.as_str())).collect();
        assert_eq!(listed, [(4, ""), (2, "two")]);
        assert_eq!(store.undo_turn("s", 4).await.unwrap(), 2);

        // The session continues: appends follow the highest seq and load with the rest.
        store.append_messages("s", vec![Message::user("four")]).await.unwrap();
        let (_, live) = store.load_session("s").await.unwrap().unwrap();
        let texts: Vec<_> = live.iter().map(Message::text_content).collect();
        assert_eq!(texts, ["one", "two", "a2", "four"]);
        assert_eq!(store.full_history("s").await.unwrap().last().unwrap().seq, 6);

        // Compaction archives the unreadable row with the others; the new live set loads clean.
        assert_eq!(
            store
                .compact_session("s", vec![Message::user("summary")])
                .await
                .unwrap(),
            5
        );
        let (_, live) = store.load_session("s").await.unwrap().unwrap();
        assert_eq!(live, vec![Message::user("summary")]);
        assert_eq!(store.unreadable_messages("s"), 0);
        assert_eq!(store.full_history("s").await.unwrap().len(), 6);
    }
}
