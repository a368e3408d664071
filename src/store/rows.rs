//! The one session row type and its one mapper: every query that reads `sessions` selects
//! [`SESSION_COLUMNS`] and maps them with [`row_to_record`], so a column added to the table
//! is added once. Also the patch type for the columns that change after creation.

/// A session row: what `session/list`, restore and session search read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SessionRecord {
    pub id: String,
    pub cwd: String,
    pub title: Option<String>,
    /// Who set the title: `auto` (derived from the first prompt) is all this agent writes.
    pub title_source: Option<String>,
    pub model: Option<String>,
    pub provider: Option<String>,
    pub mode: Option<String>,
    pub parent_session_id: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub message_count: i64,
    /// First user message text (for titles when none is set).
    pub preview: Option<String>,
    /// The session's own choices among the editor's toggles (the `settings` column).
    pub preferences: SessionPreferences,
}

/// Per-session choices the user made in the editor that override config.yaml, stored as JSON
/// in the `settings` column so a new one needs no migration. Unset fields follow the config.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct SessionPreferences {
    /// Automatic context compaction on or off (`None`: `compression.enabled`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_compact: Option<bool>,
    /// The reasoning level id the user picked (`thought_level`; `None`:
    /// `agent.reasoning_effort`). Kept as text: the store does not know the LLM layer's levels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_effort: Option<String>,
    /// The editor's system prompt for this session (ACP `systemPrompt`), kept so a restart
    /// and `session/load` without one keep it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<ClientPrompt>,
    /// The session's folders beside its cwd (ACP `additionalDirectories`): absolute paths in
    /// the editor's order, as the last `session/new`, `load`, `resume` or `fork` gave them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub additional_directories: Vec<String>,
}

/// Instructions the editor gave for a session's system prompt.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClientPrompt {
    pub mode: ClientPromptMode,
    /// The text blocks joined by blank lines.
    pub text: String,
}

/// How the editor's instructions combine with the agent's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientPromptMode {
    /// Added after the agent's own instructions.
    Append,
    /// In place of the agent's persona and style (its operating rules stay).
    Override,
}

impl SessionPreferences {
    /// Reads the column; text this version cannot read (a newer or damaged row) is logged and
    /// counts as no preferences, so the session still loads.
    fn from_column(id: &str, text: Option<String>) -> SessionPreferences {
        let Some(text) = text else {
            return SessionPreferences::default();
        };
        serde_json::from_str(&text).unwrap_or_else(|e| {
            tracing::warn!(session = id, error = %e, "unreadable session preferences; using the config's defaults");
            SessionPreferences::default()
        })
    }

    pub(super) fn to_column(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".to_string())
    }
}

#[cfg(test)]
impl SessionRecord {
    /// A fresh row for tests: this id and cwd, created now.
    pub(crate) fn for_test(id: &str, cwd: &str) -> SessionRecord {
        SessionRecord {
            id: id.into(),
            cwd: cwd.into(),
            created_at: super::now_ms(),
            ..Default::default()
        }
    }
}

/// Fields to change on a session row; `None` leaves a column as it is.
#[derive(Debug, Clone, Default)]
pub struct SessionPatch {
    pub cwd: Option<String>,
    pub title: Option<(String, &'static str)>,
    pub model: Option<String>,
    pub mode: Option<String>,
    pub preferences: Option<SessionPreferences>,
}

/// One page of `list_sessions`.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionsPage {
    pub sessions: Vec<SessionRecord>,
    pub next_cursor: Option<String>,
}

pub(super) const SESSION_COLUMNS: &str = "id, cwd, title, title_source, model, provider, mode, parent_session_id, created_at, updated_at, message_count, settings, \
     (SELECT content FROM messages m WHERE m.session_id = sessions.id AND m.role = 'user' ORDER BY seq LIMIT 1)";

pub(super) fn row_to_record(row: &rusqlite::Row<'_>) -> rusqlite::Result<SessionRecord> {
    let id: String = row.get(0)?;
    Ok(SessionRecord {
        preferences: SessionPreferences::from_column(&id, row.get(11)?),
        id,
        cwd: row.get(1)?,
        title: row.get(2)?,
        title_source: row.get(3)?,
        model: row.get(4)?,
        provider: row.get(5)?,
        mode: row.get(6)?,
        parent_session_id: row.get(7)?,
        created_at: row.get(8)?,
        updated_at: row.get(9)?,
        message_count: row.get(10)?,
        preview: row.get(12)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preferences_read_rows_of_earlier_versions_and_round_trip_new_fields() {
        let old = SessionPreferences::from_column("s", Some(r#"{"auto_compact":false}"#.into()));
        assert_eq!(old.auto_compact, Some(false));
        assert_eq!((old.system_prompt, old.additional_directories.len()), (None, 0));
        let new = SessionPreferences {
            system_prompt: Some(ClientPrompt {
                mode: ClientPromptMode::Override,
                text: "Answer in French.".into(),
            }),
            additional_directories: vec!["/work/lib".into()],
            ..Default::default()
        };
        let column = new.to_column();
        assert_eq!(
            column,
            r#"{"system_prompt":{"mode":"override","text":"Answer in French."},"additional_directories":["/work/lib"]}"#
        );
        assert_eq!(SessionPreferences::from_column("s", Some(column)), new);
        // Nothing set writes nothing.
        assert_eq!(SessionPreferences::default().to_column(), "{}");
    }
}
