//! `session/list`: the stored sessions with history, newest first, each with a title (its own,
//! else one made from its first message, else the folder's name) — ours and, when Hermes'
//! `state.db` has ACP sessions we have not continued yet, those too, in one order.

use std::path::Path;

use super::records::title_from;
use super::{LIST_PAGE_SIZE, SessionError, SessionManager, SessionSummary};
use crate::store::hermes::HermesSession;
use crate::store::{SessionRecord, iso8601};

/// How many of our sessions the merged list reads at most (far more than anyone keeps).
const MERGE_READ_LIMIT: usize = 100_000;

/// One entry before it becomes a summary: sorted by time, then id.
struct Entry {
    id: String,
    cwd: String,
    additional_directories: Vec<String>,
    title: Option<String>,
    preview: Option<String>,
    updated_at: i64,
}

impl SessionManager {
    /// Sessions with history, newest first.
    pub async fn list(
        &self,
        cwd: Option<&Path>,
        cursor: Option<String>,
    ) -> Result<(Vec<SessionSummary>, Option<String>), SessionError> {
        let cwd = cwd.map(|c| c.display().to_string());
        let hermes: Vec<HermesSession> = (self.services.hermes_sessions.list().await.into_iter())
            .filter(|s| cwd.as_ref().is_none_or(|c| *c == s.cwd))
            .collect();
        if hermes.is_empty() {
            // Only ours: the store pages in SQL.
            let page = self.store().list_sessions(cwd, cursor, LIST_PAGE_SIZE).await?;
            let entries = page.sessions.into_iter().map(Entry::from).map(summary).collect();
            return Ok((entries, page.next_cursor));
        }
        let ours = self.store().list_sessions(cwd, None, MERGE_READ_LIMIT).await?.sessions;
        let mut entries: Vec<Entry> = ours.into_iter().map(Entry::from).collect();
        // A Hermes session continued here is ours now (same id); ours is the newer copy.
        let known: std::collections::HashSet<String> = entries.iter().map(|e| e.id.clone()).collect();
        entries.extend(hermes.into_iter().filter(|s| !known.contains(&s.id)).map(Entry::from));
        entries.sort_by(|a, b| b.updated_at.cmp(&a.updated_at).then_with(|| a.id.cmp(&b.id)));
        let start = match cursor {
            // An unknown cursor is an empty page, as for the store's own paging.
            Some(c) => match entries.iter().position(|e| e.id == c) {
                Some(i) => i + 1,
                None => return Ok((Vec::new(), None)),
            },
            None => 0,
        };
        let rest = entries.len().saturating_sub(start);
        let page: Vec<SessionSummary> = entries
            .into_iter()
            .skip(start)
            .take(LIST_PAGE_SIZE)
            .map(summary)
            .collect();
        let next = (rest > LIST_PAGE_SIZE)
            .then(|| page.last().map(|s| s.id.clone()))
            .flatten();
        Ok((page, next))
    }
}

impl From<SessionRecord> for Entry {
    fn from(r: SessionRecord) -> Entry {
        Entry {
            id: r.id,
            cwd: r.cwd,
            additional_directories: r.preferences.additional_directories,
            title: r.title,
            preview: r.preview,
            updated_at: r.updated_at,
        }
    }
}

impl From<HermesSession> for Entry {
    fn from(s: HermesSession) -> Entry {
        Entry {
            id: s.id,
            cwd: s.cwd,
            additional_directories: Vec::new(),
            title: s.title,
            preview: s.preview,
            updated_at: s.updated_at,
        }
    }
}

fn summary(e: Entry) -> SessionSummary {
    SessionSummary {
        title: e
            .title
            .or_else(|| e.preview.as_deref().map(title_from).filter(|t| !t.is_empty()))
            .unwrap_or_else(|| {
                Path::new(&e.cwd)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "New thread".into())
            }),
        updated_at: iso8601(e.updated_at),
        cwd: e.cwd,
        additional_directories: e.additional_directories,
        id: e.id,
    }
}
