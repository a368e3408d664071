//! Small pure helpers of the manager: cwd validation, the stored row of a new session, and
//! automatic titles.

use std::path::Path;

use super::SessionError;
use crate::session::SessionSettings;
use crate::store::{SessionRecord, now_ms};

pub(super) fn check_cwd(cwd: &Path) -> Result<(), SessionError> {
    if cwd.as_os_str().is_empty() || !cwd.is_absolute() {
        return Err(SessionError::InvalidCwd(cwd.display().to_string()));
    }
    // Fail here with a clear message rather than later with a misleading one (an MCP server
    // started in a missing directory reports its own binary as "No such file or directory").
    match std::fs::metadata(cwd) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(SessionError::InvalidValue(format!(
            "cwd '{}' is not a directory",
            cwd.display()
        ))),
        Err(e) => Err(SessionError::InvalidValue(format!(
            "cwd '{}' cannot be used: {e}",
            cwd.display()
        ))),
    }
}

pub(super) fn record_for(
    id: &str,
    s: &SessionSettings,
    provider: Option<String>,
    parent: Option<String>,
) -> SessionRecord {
    SessionRecord {
        id: id.to_string(),
        cwd: s.cwd.display().to_string(),
        title: s.title.clone(),
        // Titles are only ever set automatically (the first prompt's first line).
        title_source: s.title.as_ref().map(|_| "auto".to_string()),
        model: Some(s.model.clone()),
        provider,
        mode: Some(s.mode.id().to_string()),
        parent_session_id: parent,
        created_at: now_ms(),
        preferences: s.preferences.clone(),
        ..SessionRecord::default()
    }
}

/// A short title from the first line of a message: at most 60 characters, cut on a word.
pub fn title_from(text: &str) -> String {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    if line.chars().count() <= 60 {
        return line.to_string();
    }
    let cut: String = line.chars().take(60).collect();
    let cut = match cut.rfind(' ') {
        Some(pos) if pos > 30 => cut[..pos].to_string(),
        _ => cut,
    };
    format!("{}…", cut.trim_end())
}

#[cfg(test)]
mod tests {
    use super::{check_cwd, title_from};
    use crate::session::SessionError;

    #[test]
    fn cwd_must_be_an_existing_directory() {
        let dir = tempfile::tempdir().unwrap();
        assert!(check_cwd(dir.path()).is_ok());
        let file = dir.path().join("f");
        std::fs::write(&file, "x").unwrap();
        let missing = dir.path().join("missing");
        for (cwd, expected) in [(file, "is not a directory"), (missing, "cannot be used")] {
            match check_cwd(&cwd) {
                Err(SessionError::InvalidValue(m)) => assert!(m.contains(expected), "{m}"),
                other => panic!("{other:?}"),
            }
        }
        assert!(matches!(
            check_cwd(std::path::Path::new("rel")),
            Err(SessionError::InvalidCwd(_))
        ));
    }

    #[test]
    fn titles_are_short_first_lines() {
        assert_eq!(title_from("\n  Fix the parser  \nmore"), "Fix the parser");
        let long = "Please refactor the session manager so that it restores sessions lazily from the store";
        let t = title_from(long);
        assert!(t.ends_with('…') && t.chars().count() <= 61, "{t}");
    }
}
