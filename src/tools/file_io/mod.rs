//! File plumbing shared by the edit tools (`write_file`, `patch`): reading through the editor
//! seam with a disk fallback, atomic disk writes that keep the file's mode, preserving an
//! existing file's CRLF endings and UTF-8 BOM, the edit-approval round trip, and (in the
//! submodules) the sensitive-path guards, the JSON/YAML/TOML syntax gate and unified diffs.

mod atomic;
mod diff;
mod guards;
mod syntax;

use std::io;
use std::path::{Path, PathBuf};

use serde_json::Value;

pub use atomic::{atomic_write, delete_file, move_file};
pub use diff::unified_diff;
pub use guards::{
    GuardEnv, check_internal_content, check_sensitive_system_path, cross_profile_warning, real_path, write_denied_error,
};
pub use syntax::{lint_report, syntax_gate};

use super::{ApprovalDecision, ApprovalRequest, ToolContext};

/// The UTF-8 byte order mark some Windows editors put at the start of text files.
pub const UTF8_BOM: char = '\u{feff}';

/// The error Hermes gives the model when the user refuses an edit.
pub const EDIT_DENIED: &str = "Edit approval denied by ACP client; file was not modified.";

/// Splits a leading BOM off `text`: `(text without it, whether it was there)`.
pub fn strip_bom(text: &str) -> (&str, bool) {
    match text.strip_prefix(UTF8_BOM) {
        Some(rest) => (rest, true),
        None => (text, false),
    }
}

/// The file's line ending judged from its first 4 KiB: CRLF if any CRLF appears there, LF if
/// only LF does, `None` for text without a line break (a new or single-line file).
pub fn detect_line_ending(sample: &str) -> Option<&'static str> {
    let mut end = sample.len().min(4096);
    while !sample.is_char_boundary(end) {
        end -= 1;
    }
    let head = &sample[..end];
    if head.contains("\r\n") {
        Some("\r\n")
    } else if head.contains('\n') {
        Some("\n")
    } else {
        None
    }
}

/// Converts every line ending (CRLF, lone CR, LF) in `text` to `target`.
pub fn normalize_line_endings(text: &str, target: &str) -> String {
    let lf = if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text.to_string()
    };
    if target == "\r\n" { lf.replace('\n', "\r\n") } else { lf }
}

/// Applies the existing file's conventions to content about to replace it: a CRLF file stays
/// CRLF (models send LF), and a BOM stays when the new content has none. `old_raw` is the file
/// as read, BOM included.
pub fn preserve_conventions(old_raw: Option<&str>, new: impl Into<String>) -> String {
    // Taking `new` by value lets the common case (LF, no BOM) hand the text through uncopied.
    let new = new.into();
    let Some(old) = old_raw else { return new };
    let mut out = if detect_line_ending(old) == Some("\r\n") {
        normalize_line_endings(&new, "\r\n")
    } else {
        new
    };
    if strip_bom(old).1 && !strip_bom(&out).1 {
        out.insert(0, UTF8_BOM);
    }
    out
}

/// The target checks both edit tools run first, in Hermes' order: sensitive system paths and
/// the Hermes config file, then (unless `cross_profile`) another profile's scoped directories.
pub fn check_edit_target(env: &GuardEnv, raw: &str, resolved: &Path, cross_profile: bool) -> Result<(), String> {
    check_sensitive_system_path(env, raw, resolved)?;
    match cross_profile_warning(env, resolved) {
        Some(warning) if !cross_profile => Err(warning),
        _ => Ok(()),
    }
}

/// Reads a text file: first the editor's view (unsaved buffers), then the disk. `Ok(None)`
/// means the file does not exist; a file that is not UTF-8 is an `InvalidData` error.
pub async fn read_text(ctx: &ToolContext, path: &Path) -> io::Result<Option<String>> {
    match ctx.session.fs.read_text(path).await {
        Some(Ok(text)) => return Ok(Some(text)),
        Some(Err(e)) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Some(Err(e)) => {
            // The editor could not serve it (e.g. not a buffer it knows): the disk decides.
            tracing::debug!(path = %path.display(), error = %e, "editor read failed; using disk");
        }
        None => {}
    }
    let owned = path.to_path_buf();
    blocking(move || read_disk(&owned)).await
}

/// Reads a text file from disk. `Ok(None)` when it does not exist.
pub fn read_disk(path: &Path) -> io::Result<Option<String>> {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    if meta.is_dir() {
        return Err(io::Error::other(format!("{} is a directory", path.display())));
    }
    let bytes = std::fs::read(path)?;
    String::from_utf8(bytes).map(Some).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is not valid UTF-8 text", path.display()),
        )
    })
}

/// Like [`read_text`] but a non-UTF-8 file is decoded lossily: for callers that only show
/// the old text (write_file replaces the whole file anyway).
pub async fn read_text_lossy(ctx: &ToolContext, path: &Path) -> io::Result<Option<String>> {
    match read_text(ctx, path).await {
        Err(e) if e.kind() == io::ErrorKind::InvalidData => {
            let owned = path.to_path_buf();
            blocking(move || std::fs::read(&owned).map(|b| Some(String::from_utf8_lossy(&b).into_owned()))).await
        }
        other => other,
    }
}

/// Who carried out a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteRoute {
    /// The editor took it (its buffer may differ from what we sent, so callers may verify).
    Editor,
    /// Our atomic disk write: it either fully happened or returned an error.
    Disk,
}

/// Writes a whole file: through the editor when it handles writes, else atomically to disk.
/// Parent directories are created first either way.
pub async fn write_text(ctx: &ToolContext, path: &Path, content: String) -> io::Result<WriteRoute> {
    let parent = path.parent().map(Path::to_path_buf);
    if let Some(parent) = parent {
        blocking(move || std::fs::create_dir_all(&parent)).await?;
    }
    if let Some(result) = ctx.session.fs.write_text(path, &content).await {
        return result.map(|()| WriteRoute::Editor);
    }
    let owned = path.to_path_buf();
    blocking(move || atomic_write(&owned, content.as_bytes())).await?;
    Ok(WriteRoute::Disk)
}

/// Passes one file edit through the permission gate before anything is touched: the target is
/// resolved to what it really is (symlinks followed), and the policy allows it, refuses it, or
/// asks the user with the diff. `Err` carries the message for the model: a denial, a timeout
/// (nobody answered) and a cancelled turn read differently.
pub async fn request_edit_approval(
    ctx: &ToolContext,
    tool: &'static str,
    path: &Path,
    old_text: Option<&str>,
    new_text: &str,
    arguments: &Value,
) -> Result<(), String> {
    if ctx.cancel.is_cancelled() {
        return Err(decision_error(ApprovalDecision::Cancelled).unwrap_or_default());
    }
    if ctx.session.state.is_read_only() {
        return Err(format!(
            "Read-only mode: file edits are disabled. {}",
            crate::safety::policy::READ_ONLY_NOTE
        ));
    }
    let target = super::permission::edit_target(ctx, path);
    let real_path = target.real.clone();
    let decision = super::permission::gate_edit(ctx, target, |reason| ApprovalRequest::Edit {
        tool,
        path: path.to_path_buf(),
        real_path,
        reason,
        old_text: old_text.map(str::to_string),
        new_text: new_text.to_string(),
        arguments: arguments.clone(),
    })
    .await;
    match decision_error(decision) {
        Some(message) => Err(message),
        // The turn may have been cancelled while the answer was in flight: still write nothing.
        None if ctx.cancel.is_cancelled() => Err(decision_error(ApprovalDecision::Cancelled).unwrap_or_default()),
        None => Ok(()),
    }
}

/// The model-facing error for a decision that does not allow the edit.
pub fn decision_error(decision: ApprovalDecision) -> Option<String> {
    match decision {
        d if d.is_allowed() => None,
        ApprovalDecision::TimedOut => Some(
            "Edit approval request timed out with no answer from the ACP client (the user did not \
             respond); file was not modified."
                .to_string(),
        ),
        ApprovalDecision::Cancelled => Some(
            "Edit cancelled: the turn was cancelled before the edit was approved; file was not modified.".to_string(),
        ),
        _ => Some(EDIT_DENIED.to_string()),
    }
}

/// The path as text for results and messages.
pub fn display_path(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Runs blocking file work off the async executor.
pub async fn blocking<T: Send + 'static>(job: impl FnOnce() -> io::Result<T> + Send + 'static) -> io::Result<T> {
    tokio::task::spawn_blocking(job)
        .await
        .map_err(|e| io::Error::other(format!("file task failed: {e}")))?
}

/// The target of a write: `path` itself, or what it points at when it is a symlink, so the
/// atomic rename replaces the file and keeps the link.
pub fn write_target(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
        _ => path.to_path_buf(),
    }
}

#[cfg(test)]
pub mod test_support;
// Unix only: the tests check file modes and symlinks.
#[cfg(all(test, unix))]
mod tests;
