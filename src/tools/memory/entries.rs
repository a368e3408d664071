//! One memory file (`HERMES_HOME/memories/MEMORY.md` or `USER.md`) as Hermes keeps it: entries
//! joined by `\n§\n`, a character budget for the whole file, and the add / replace / remove /
//! batch operations with Hermes' result and error shapes. Every mutation re-reads the file under
//! an exclusive `flock` on `<file>.lock` (other sessions and processes write too) and replaces
//! it atomically. A file edited by hand into a shape the tool would not write back unchanged is
//! backed up and left alone rather than silently rewritten (Hermes issue #26045).
//! Counting, wording and screening entries live in `format.rs`.

use std::cell::RefCell;
use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::format::preview;
pub use super::format::{
    ENTRY_DELIMITER, char_len, commas, failure, joined_len, parse_entries, percent, sanitize_entries,
};
use super::threats;
use crate::runtime::file_io::atomic_write;

/// Which memory store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The agent's own notes (`MEMORY.md`).
    Memory,
    /// What the agent knows about the user (`USER.md`).
    User,
}

impl Target {
    pub fn parse(raw: &str) -> Option<Target> {
        match raw {
            "memory" => Some(Target::Memory),
            "user" => Some(Target::User),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Target::Memory => "memory",
            Target::User => "user",
        }
    }

    pub fn file_name(self) -> &'static str {
        match self {
            Target::Memory => "MEMORY.md",
            Target::User => "USER.md",
        }
    }
}

/// Character budgets (Hermes' `memory.memory_char_limit` / `memory.user_char_limit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryLimits {
    pub memory_chars: usize,
    pub user_chars: usize,
}

impl Default for MemoryLimits {
    fn default() -> MemoryLimits {
        MemoryLimits {
            memory_chars: 2200,
            user_chars: 1375,
        }
    }
}

impl MemoryLimits {
    pub fn for_target(&self, target: Target) -> usize {
        match target {
            Target::Memory => self.memory_chars,
            Target::User => self.user_chars,
        }
    }
}

/// Where Hermes keeps the memory files.
pub fn memory_dir(hermes_home: &Path) -> PathBuf {
    hermes_home.join("memories")
}

/// An exclusive lock on `<file>.lock`, released on drop.
struct FileLock(#[allow(dead_code)] File);

impl FileLock {
    fn acquire(path: &Path) -> io::Result<FileLock> {
        let mut name = path.as_os_str().to_owned();
        name.push(".lock");
        let mut options = OpenOptions::new();
        options.create(true).append(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let file = options.open(PathBuf::from(name))?;
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            // SAFETY: flock on a descriptor we own; it stays open for the lock's lifetime and
            // closing it releases the lock.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        // Windows: no flock; writes stay atomic (no torn file), but two processes writing at
        // the same instant may lose one update.
        Ok(FileLock(file))
    }
}

/// One memory file and its budget.
pub struct MemoryFile {
    pub path: PathBuf,
    pub target: Target,
    pub limit: usize,
    /// A dry run ([`MemoryFile::planning`]): operations read the file and keep the entries they
    /// would write here instead of writing them.
    plan: Option<RefCell<Option<Vec<String>>>>,
}

impl MemoryFile {
    pub fn new(hermes_home: &Path, target: Target, limits: &MemoryLimits) -> MemoryFile {
        MemoryFile {
            path: memory_dir(hermes_home).join(target.file_name()),
            target,
            limit: limits.for_target(target),
            plan: None,
        }
    }

    /// The same file for a dry run: every operation checks and answers as it would, without
    /// locking, backing up or writing; [`MemoryFile::planned`] then holds what it would write.
    pub fn planning(hermes_home: &Path, target: Target, limits: &MemoryLimits) -> MemoryFile {
        MemoryFile {
            plan: Some(RefCell::new(None)),
            ..MemoryFile::new(hermes_home, target, limits)
        }
    }

    /// After a dry run: the entries the operation would have written (`None`: no change).
    pub fn planned(&self) -> Option<Vec<String>> {
        self.plan.as_ref().and_then(|p| p.borrow().clone())
    }

    /// The entries on disk (an unreadable or missing file has none).
    pub fn read(&self) -> Vec<String> {
        std::fs::read_to_string(&self.path)
            .map(|raw| parse_entries(&raw))
            .unwrap_or_default()
    }

    /// Runs `op` on the freshly read entries while holding the file lock. `op` returns the
    /// new entries to write (or `None` to write nothing) and the result. A dry run only reads.
    pub(super) fn locked(
        &self,
        check_drift: bool,
        op: impl FnOnce(Vec<String>) -> (Option<Vec<String>>, Value),
    ) -> Value {
        if let Some(plan) = &self.plan {
            let (new_entries, result) = op(self.read());
            *plan.borrow_mut() = new_entries;
            return result;
        }
        let dir = self.path.parent().unwrap_or(Path::new("."));
        if let Err(e) = std::fs::create_dir_all(dir) {
            return failure(format!("Failed to create memory directory {}: {e}", dir.display()));
        }
        // What the user told the agent about themselves is theirs alone.
        private(dir, 0o700);
        let _lock = match FileLock::acquire(&self.path) {
            Ok(lock) => lock,
            Err(e) => return failure(format!("Failed to lock memory file {}: {e}", self.path.display())),
        };
        if check_drift && let Some(backup) = self.detect_drift() {
            return self.drift_error(&backup);
        }
        let (new_entries, result) = op(self.read());
        if let Some(entries) = new_entries
            && let Err(e) = atomic_write(&self.path, entries.join(ENTRY_DELIMITER).as_bytes())
        {
            return failure(format!("Failed to write memory file {}: {e}", self.path.display()));
        }
        private(&self.path, 0o600);
        result
    }

    /// Whether the file holds text the tool would not write back byte for byte, or an entry
    /// bigger than the whole budget (free text appended by another writer). Backs it up and
    /// returns the backup's path.
    fn detect_drift(&self) -> Option<String> {
        let raw = std::fs::read_to_string(&self.path).ok()?;
        if raw.trim().is_empty() {
            return None;
        }
        let parsed: Vec<&str> = raw
            .split(ENTRY_DELIMITER)
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .collect();
        let biggest = parsed.iter().map(|e| char_len(e)).max().unwrap_or(0);
        if raw.trim() == parsed.join(ENTRY_DELIMITER) && biggest <= self.limit {
            return None;
        }
        let mut name = self.path.as_os_str().to_owned();
        name.push(format!(".bak.{}", chrono::Utc::now().timestamp()));
        let backup = PathBuf::from(name);
        Some(match std::fs::write(&backup, &raw) {
            Ok(()) => {
                private(&backup, 0o600);
                backup.display().to_string()
            }
            Err(_) => format!("{} (BACKUP FAILED — file unchanged on disk)", backup.display()),
        })
    }

    fn drift_error(&self, backup: &str) -> Value {
        json!({
            "success": false,
            "error": format!(
                "Refusing to write {}: file on disk has content that wouldn't round-trip through the memory tool \
                 (likely added by the patch tool, a shell append, a manual edit, or a concurrent session). A \
                 snapshot was saved to {backup}. Resolve the drift first — either rewrite the file as a clean \
                 §-delimited list of entries, or move the extra content out — then retry. This guard exists to \
                 prevent silent data loss (issue #26045).",
                self.target.file_name()
            ),
            "drift_backup": backup,
            "remediation": "Open the .bak file, integrate the missing entries into the memory tool one at a time via \
                            memory(action=add, content=...), then remove or rewrite the original file to a clean state.",
        })
    }

    fn usage(&self, entries: &[String]) -> String {
        format!("{}/{}", commas(joined_len(entries)), commas(self.limit))
    }

    fn shown(&self, entries: &[String]) -> Vec<String> {
        sanitize_entries(entries, self.target.file_name())
    }

    pub(super) fn success(&self, entries: &[String], message: &str) -> Value {
        let current = joined_len(entries);
        json!({
            "success": true,
            "done": true,
            "target": self.target.as_str(),
            "usage": format!("{}% — {}/{} chars", percent(current, self.limit), commas(current), commas(self.limit)),
            "entry_count": entries.len(),
            "message": message,
            "note": "Write saved. This update is complete — do not repeat it.",
        })
    }

    pub(super) fn with_entries(&self, error: String, entries: &[String], usage: bool) -> Value {
        let mut out = json!({"success": false, "error": error, "current_entries": self.shown(entries)});
        if usage {
            out["usage"] = json!(self.usage(entries));
        }
        out
    }

    /// Appends an entry.
    pub fn add(&self, content: &str) -> Value {
        let content = content.trim().to_string();
        if content.is_empty() {
            return failure("Content cannot be empty.");
        }
        if let Some(blocked) = threats::first_threat_message(&content) {
            return failure(blocked);
        }
        // Appending never rewrites existing text, so no drift check (as Hermes).
        self.locked(false, |mut entries| {
            if entries.contains(&content) {
                let result = self.success(&entries, "Entry already exists (no duplicate added).");
                return (None, result);
            }
            let mut next = entries.clone();
            next.push(content.clone());
            if joined_len(&next) > self.limit {
                let current = joined_len(&entries);
                let error = format!(
                    "Memory at {}/{} chars. Adding this entry ({} chars) would exceed the limit. Consolidate now: \
                     use 'replace' to merge overlapping entries into shorter ones or 'remove' stale or less important \
                     entries (see current_entries below), then retry this add — all in this turn.",
                    commas(current),
                    commas(self.limit),
                    char_len(&content)
                );
                return (None, self.with_entries(error, &entries, true));
            }
            entries.push(content.clone());
            let result = self.success(&entries, "Entry added.");
            (Some(entries), result)
        })
    }

    /// The single entry containing `old_text`, or the error result.
    fn find_one(&self, entries: &[String], old_text: &str, verb: &str) -> Result<usize, Value> {
        let matches: Vec<usize> = (0..entries.len()).filter(|&i| entries[i].contains(old_text)).collect();
        let Some(&first) = matches.first() else {
            let error = format!(
                "No entry matched '{old_text}'. Check current_entries below and retry with the exact text of the \
                 entry you want to {verb}."
            );
            return Err(self.with_entries(error, entries, false));
        };
        if matches.iter().any(|&i| entries[i] != entries[first]) {
            let previews: Vec<String> = matches.iter().map(|&i| preview(&entries[i], 80)).collect();
            return Err(json!({
                "success": false,
                "error": format!("Multiple entries matched '{old_text}'. Be more specific."),
                "matches": previews,
            }));
        }
        Ok(first)
    }

    /// Replaces the entry containing `old_text`.
    pub fn replace(&self, old_text: &str, new_content: &str) -> Value {
        let old_text = old_text.trim();
        let new_content = new_content.trim().to_string();
        if old_text.is_empty() {
            return failure("old_text cannot be empty.");
        }
        if new_content.is_empty() {
            return failure("new_content cannot be empty. Use 'remove' to delete entries.");
        }
        if let Some(blocked) = threats::first_threat_message(&new_content) {
            return failure(blocked);
        }
        self.locked(true, |mut entries| {
            let index = match self.find_one(&entries, old_text, "replace") {
                Ok(i) => i,
                Err(result) => return (None, result),
            };
            let mut next = entries.clone();
            next[index] = new_content.clone();
            let total = joined_len(&next);
            if total > self.limit {
                let error = format!(
                    "Replacement would put memory at {}/{} chars. Shorten the new content, or 'remove' other stale or \
                     less important entries to make room (see current_entries below), then retry — all in this turn.",
                    commas(total),
                    commas(self.limit)
                );
                return (None, self.with_entries(error, &entries, true));
            }
            entries[index] = new_content.clone();
            let result = self.success(&entries, "Entry replaced.");
            (Some(entries), result)
        })
    }

    /// Removes the entry containing `old_text`.
    pub fn remove(&self, old_text: &str) -> Value {
        let old_text = old_text.trim();
        if old_text.is_empty() {
            return failure("old_text cannot be empty.");
        }
        self.locked(true, |mut entries| match self.find_one(&entries, old_text, "remove") {
            Ok(index) => {
                entries.remove(index);
                let result = self.success(&entries, "Entry removed.");
                (Some(entries), result)
            }
            Err(result) => (None, result),
        })
    }

    /// The error for a replace/remove that came without `old_text`: the entries to pick from.
    pub fn missing_old_text(&self, action: &str) -> Value {
        let entries = self.read();
        let error = format!(
            "'{action}' needs old_text -- a short unique substring of the entry to {action}. None was provided. \
             Reissue the {action} with old_text set to part of one of the current_entries below."
        );
        self.with_entries(error, &entries, true)
    }
}

/// Sets `path`'s mode (memory files and their directory are private); a failure only logs.
#[cfg(unix)]
fn private(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    if let Err(e) = std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)) {
        tracing::debug!(path = %path.display(), error = %e, "could not restrict permissions");
    }
}

/// Windows has no mode bits; the user's profile is private by its ACL.
#[cfg(not(unix))]
fn private(_path: &Path, _mode: u32) {}
