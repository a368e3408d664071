//! What the editor asks of a session when it creates, loads, resumes or forks one, beside the
//! session's id: its cwd, the folders beside it (ACP `additionalDirectories`) and its own system
//! prompt (ACP `systemPrompt`). Checked here, before anything is created or changed, so a bad
//! request leaves no trace; kept in the session's preferences so `session/list` reports the
//! folders and a reload keeps the prompt.

use std::path::{Path, PathBuf};

use super::SessionError;
use super::records::check_cwd;
use crate::store::{ClientPrompt, SessionPreferences};

/// A session request's folders and prompt.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SessionSetup {
    pub cwd: PathBuf,
    /// The complete list of folders beside the cwd, in the editor's order (empty: none).
    pub additional_directories: Vec<PathBuf>,
    /// The editor's system prompt; `None` keeps the one the session has (load, resume, fork)
    /// or means none (new).
    pub system_prompt: Option<ClientPrompt>,
}

impl SessionSetup {
    /// A setup with only a cwd.
    pub fn in_folder(cwd: &Path) -> SessionSetup {
        SessionSetup {
            cwd: cwd.to_path_buf(),
            ..SessionSetup::default()
        }
    }

    /// Fails with a message naming the first unusable folder: the cwd or an additional one
    /// that is relative, missing or not a directory.
    pub(super) fn check(&self) -> Result<(), SessionError> {
        check_cwd(&self.cwd)?;
        for dir in &self.additional_directories {
            check_additional(dir)?;
        }
        Ok(())
    }

    /// The preferences with this request's folders and (when given) prompt.
    pub(super) fn apply_to(&self, mut preferences: SessionPreferences) -> SessionPreferences {
        let mut folders: Vec<String> = Vec::new();
        for dir in &self.additional_directories {
            let dir = dir.display().to_string();
            // The cwd or a folder named twice adds nothing.
            if Path::new(&dir) != self.cwd && !folders.contains(&dir) {
                folders.push(dir);
            }
        }
        preferences.additional_directories = folders;
        if let Some(prompt) = &self.system_prompt {
            preferences.system_prompt = Some(prompt.clone());
        }
        preferences
    }
}

fn check_additional(dir: &Path) -> Result<(), SessionError> {
    let shown = dir.display();
    if dir.as_os_str().is_empty() || !dir.is_absolute() {
        return Err(SessionError::InvalidValue(format!(
            "additionalDirectories: '{shown}' must be an absolute path"
        )));
    }
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(SessionError::InvalidValue(format!(
            "additionalDirectories: '{shown}' is not a directory"
        ))),
        Err(e) => Err(SessionError::InvalidValue(format!(
            "additionalDirectories: '{shown}' cannot be used: {e}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::ClientPromptMode;

    fn invalid(setup: &SessionSetup) -> String {
        match setup.check() {
            Err(SessionError::InvalidValue(message)) => message,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_additional_folder_must_be_an_existing_absolute_directory() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "x").unwrap();
        let mut setup = SessionSetup::in_folder(dir.path());
        setup.additional_directories = vec![dir.path().to_path_buf()];
        assert!(setup.check().is_ok());
        for (bad, expected) in [
            (dir.path().join("missing"), "cannot be used"),
            (file, "is not a directory"),
            (PathBuf::from("lib"), "must be an absolute path"),
        ] {
            setup.additional_directories = vec![dir.path().to_path_buf(), bad.clone()];
            let message = invalid(&setup);
            assert!(
                message.contains(expected) && message.contains(&*bad.to_string_lossy()),
                "{message}"
            );
        }
    }

    #[test]
    fn applied_folders_drop_the_cwd_and_repeats_and_a_missing_prompt_keeps_the_stored_one() {
        let stored = SessionPreferences {
            system_prompt: Some(ClientPrompt {
                mode: ClientPromptMode::Append,
                text: "kept".into(),
            }),
            additional_directories: vec!["/old".into()],
            ..Default::default()
        };
        let setup = SessionSetup {
            cwd: PathBuf::from("/app"),
            additional_directories: vec!["/lib".into(), "/app".into(), "/lib".into(), "/docs".into()],
            system_prompt: None,
        };
        let applied = setup.apply_to(stored.clone());
        assert_eq!(applied.additional_directories, ["/lib", "/docs"]);
        assert_eq!(applied.system_prompt, stored.system_prompt);
        // An empty list is the complete list: no folders beside the cwd.
        let applied = SessionSetup::in_folder(Path::new("/app")).apply_to(stored);
        assert!(applied.additional_directories.is_empty());
    }
}
