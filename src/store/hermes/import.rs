//! Continuing a Hermes session here: its history is copied into our own database under the same
//! id, with Hermes' times, the first time the session is opened. Hermes' `state.db` is never
//! written; from then on the session lives in ours.

use rusqlite::params;

use super::HermesSession;
use crate::store::{SessionRecord, Store, StoreError};
use crate::transcript::Message;

impl Store {
    /// Copies a Hermes session and its messages into this store (same id, Hermes' start and
    /// last-message times, `model`). Does nothing when the id is already here.
    pub async fn import_hermes_session(
        &self,
        session: &HermesSession,
        model: String,
        messages: Vec<Message>,
    ) -> Result<(), StoreError> {
        let record = SessionRecord {
            id: session.id.clone(),
            cwd: session.cwd.clone(),
            title: session.title.clone(),
            title_source: session.title.as_ref().map(|_| "hermes".to_string()),
            model: Some(model),
            provider: None,
            created_at: session.started_at,
            ..SessionRecord::default()
        };
        let updated_at = session.updated_at;
        self.call(move |conn| {
            let tx = conn.transaction()?;
            let exists: bool = tx.query_row(
                "SELECT EXISTS(SELECT 1 FROM sessions WHERE id = ?1)",
                [&record.id],
                |r| r.get(0),
            )?;
            if exists {
                return Ok(());
            }
            super::super::sessions::insert_session(&tx, &record)?;
            super::super::sessions::insert_messages(&tx, &record.id, &messages)?;
            // Listed where Hermes had it, not as "just now".
            tx.execute(
                "UPDATE sessions SET updated_at = ?2 WHERE id = ?1",
                params![record.id, updated_at],
            )?;
            tx.commit()?;
            Ok(())
        })
        .await
    }
}
