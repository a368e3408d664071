//! What every `skill_manage` action works with: the skills tree (with whether the guard scans
//! what is written and the secrets kept out of it), the outcome an action returns, the walk
//! below a skill folder, and the rollback of a refused write.

use std::fs::FileType;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Value, json};

use super::paths::SkillsRoot;
use crate::runtime::FileChange;
use crate::runtime::file_io::atomic_write;
use crate::safety::secrets::SecretSet;

/// What an action did: the result object, and the files it changed (for the card's diff).
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub result: Value,
    pub changes: Vec<FileChange>,
}

impl Outcome {
    pub fn fail(error: impl Into<String>) -> Outcome {
        Outcome::from(json!({"success": false, "error": error.into()}))
    }

    pub fn success(&self) -> bool {
        self.result.get("success").and_then(Value::as_bool) == Some(true)
    }

    pub fn with_change(mut self, path: &Path, old_text: Option<String>, new_text: Option<String>) -> Outcome {
        self.changes.push(FileChange {
            path: path.to_path_buf(),
            old_text,
            new_text,
        });
        self
    }
}

impl From<Value> for Outcome {
    fn from(result: Value) -> Outcome {
        Outcome {
            result,
            changes: Vec::new(),
        }
    }
}

/// The skills tree, whether the guard scans what is written, and the secrets kept out of it.
pub struct Skills {
    pub root: SkillsRoot,
    pub guard: bool,
    pub secrets: Arc<SecretSet>,
}

impl Skills {
    /// `text` with the known secret values and their encoded forms masked.
    pub fn redact(&self, text: &str) -> String {
        self.secrets.redact(text).into_owned()
    }
}

/// Puts back what a refused write replaced (or removes what it created).
pub fn restore(path: &Path, original: Option<&str>) {
    let restored = match original {
        Some(text) => atomic_write(path, text.as_bytes()),
        None => std::fs::remove_file(path),
    };
    if let Err(e) = restored {
        tracing::warn!(path = %path.display(), "could not roll back a refused skill write: {e}");
    }
}

/// Every entry below `dir` that is not a directory, with its type, unsorted. Types are the
/// entries' own (links are not followed), so a symlinked folder is listed, never entered; an
/// unreadable or missing folder adds nothing. The listing offered on a wrong path and the
/// guard's scan walk a skill the same way.
pub(super) fn entries_below(dir: &Path) -> Vec<(PathBuf, FileType)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(current) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&current) else {
            continue;
        };
        for entry in entries.flatten() {
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => stack.push(entry.path()),
                Ok(kind) => out.push((entry.path(), kind)),
                Err(_) => {}
            }
        }
    }
    out
}
