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
    let rows = stmt.query_map([session_id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?;
    let (mut out, mut skipped) = (Vec::new(), 0);
    for row in rows {
        let (seq, body) = match row {
            Ok(row) => row,
            // A body that is not text (a BLOB or NULL written by something else).
            Err(rusqlite::Error::FromSqlConversionFailure(..) | rusqlite::Error::InvalidColumnType(..)) => {
                tracing::warn!(session = session_id, "skipping a stored message that is not text");
                skipped += 1;
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        match decode_message(&body) {
            Ok(message) => out.push(message),
            Err(problem) => {
                tracing::warn!(
                    session = session_id,
                    seq,
                    "skipping an unreadable stored message: {problem}"
                );
                skipped += 1;
            }
        }
    }
    Ok((out, skipped))
}

fn decode_message(body: &str) -> Result<Message, String> {
    let message: Message = serde_json::from_str(body).map_err(|e| e.to_string())?;
    if message.role == Some(Role::Tool) && message.tool_call_id.is_none() {
        return Err("a tool result without a tool call id".into());
    }
    Ok(message)
}

#[cfg(test)]
mod tests {
    use crate::store::{SessionRecord, Store, now_ms};
    use crate::transcript::Message;

    #[tokio::test]
    async fn corrupt_rows_are_skipped_and_counted_the_rest_loads() {
        let store = Store::open_in_memory().unwrap();
        let record = SessionRecord {
            id: "s".into(),
            cwd: "/w".into(),
            created_at: now_ms(),
            ..Default::default()
        };
        let history: Vec<Message> = (0..5).map(|i| Message::user(format!("m{i}"))).collect();
        store.create_session(record, history).await.unwrap();
        store
            .call(|conn| {
                let bad = [
                    (1, "{not json"),
                    (2, r#"{"role":"wizard","content":"x"}"#),
                    (3, r#"{"role":"tool","content":"orphan result"}"#),
                ];
                for (nth, body) in bad {
                    conn.execute(
                        "UPDATE messages SET body = ?1 WHERE id = (SELECT id FROM messages WHERE session_id = 's' ORDER BY seq LIMIT 1 OFFSET ?2)",
                        rusqlite::params![body, nth],
                    )?;
                }
                Ok(())
            })
            .await
            .unwrap();
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
}
