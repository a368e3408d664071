//! What the editor shows for a finished tool call beyond its raw result: the file changes it
//! made (diffs) or the command it ran with its output. Tools produce it, the ACP layer renders
//! it, and a tool result message keeps it (see `meta.rs`) so a replay renders the same card.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize, Serializer};

/// A file change a tool made (or proposes), with whole-file texts so the editor can render a diff.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileChange {
    #[serde(serialize_with = "lossy_path")]
    pub path: PathBuf,
    /// `None` when the file did not exist before.
    #[serde(default)]
    pub old_text: Option<String>,
    /// `None` when the file was deleted.
    #[serde(default)]
    pub new_text: Option<String>,
}

/// What the editor should show for a finished call, beyond the raw result.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum ToolDisplay {
    #[default]
    None,
    /// Files written, patched, added, deleted or moved.
    Changes(Vec<FileChange>),
    /// A shell command with its (already truncated) output.
    Terminal {
        command: String,
        output: String,
        exit_code: Option<i64>,
    },
}

/// Paths are stored as text; a path that is not UTF-8 is kept lossily rather than making the
/// whole message unsavable (it is only shown, never opened, from the history).
fn lossy_path<S: Serializer>(path: &Path, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&path.to_string_lossy())
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::ffi::OsStrExt;

    use super::*;

    #[test]
    fn a_path_that_is_not_utf8_is_stored_lossily_instead_of_failing() {
        let change = FileChange {
            path: PathBuf::from(std::ffi::OsStr::from_bytes(b"/w/caf\xe9.txt")),
            old_text: None,
            new_text: Some("x".into()),
        };
        let stored = serde_json::to_value(&change).unwrap();
        assert_eq!(stored["path"], "/w/caf\u{fffd}.txt");
    }
}
