//! `session/list`: the stored sessions with history, newest first, each with a title (its own,
//! else one made from its first message, else the folder's name).

use std::path::Path;

use super::records::title_from;
use super::{LIST_PAGE_SIZE, SessionError, SessionManager, SessionSummary};
use crate::store::iso8601;

impl SessionManager {
    /// Sessions with history, newest first.
    pub async fn list(
        &self,
        cwd: Option<&Path>,
        cursor: Option<String>,
    ) -> Result<(Vec<SessionSummary>, Option<String>), SessionError> {
        let page = self
            .store()
            .list_sessions(cwd.map(|c| c.display().to_string()), cursor, LIST_PAGE_SIZE)
            .await?;
        let summaries = page
            .sessions
            .into_iter()
            .map(|r| SessionSummary {
                title: r
                    .title
                    .clone()
                    .or_else(|| r.preview.as_deref().map(title_from).filter(|t| !t.is_empty()))
                    .unwrap_or_else(|| {
                        Path::new(&r.cwd)
                            .file_name()
                            .map(|n| n.to_string_lossy().into_owned())
                            .unwrap_or_else(|| "New thread".into())
                    }),
                updated_at: iso8601(r.updated_at),
                cwd: r.cwd,
                id: r.id,
            })
            .collect();
        Ok((summaries, page.next_cursor))
    }
}
