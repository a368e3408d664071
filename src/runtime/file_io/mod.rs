//! File plumbing shared by the edit tools (`write_file`, `patch`): preserving an existing
//! file's CRLF endings and UTF-8 BOM, the edit-approval round trip, and (in the submodules)
//! where an edit lands and how it is read and written (`site.rs`: the judged target, the
//! editor seam with a disk fallback), the disk primitive that writes below the judged root
//! through directory descriptors (`beneath/`), the whole-file write for paths of our own
//! (`atomic.rs`), the sensitive-path guards, the JSON/YAML/TOML syntax gate and unified diffs.

mod atomic;
pub mod beneath;
mod diff;
pub mod guards;
pub mod read_guards;
mod site;
mod syntax;

use std::io;
use std::path::Path;

use serde_json::Value;

pub use atomic::atomic_write;
pub use diff::unified_diff;
pub use guards::{
    GuardEnv, check_internal_content, check_sensitive_system_path, cross_profile_warning, real_path, write_denied_error,
};
pub use site::{EditSite, move_site, read_site, read_site_lossy, remove_site, site_mode, write_site};
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

/// Who carried out a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteRoute {
    /// The editor took it (its buffer may differ from what we sent, so callers may verify).
    Editor,
    /// Our atomic disk write: it either fully happened or returned an error.
    Disk,
}

/// Passes one file edit through the permission gate before anything is touched: the policy
/// allows the site's judged target, refuses it, or asks the user with the diff. On `Ok` the
/// caller writes that same site (never the path re-resolved). `Err` carries the message for
/// the model: a denial, a timeout (nobody answered) and a cancelled turn read differently.
pub async fn request_edit_approval(
    ctx: &ToolContext,
    tool: &'static str,
    site: &EditSite,
    old_text: Option<&str>,
    new_text: &str,
    arguments: &Value,
) -> Result<(), String> {
    if ctx.cancel.is_cancelled() {
        return Err(decision_error(ApprovalDecision::Cancelled).unwrap_or_default());
    }
    let mode = ctx.session.state.mode();
    if let Some(refusal) = mode.change_refusal("file edits are disabled") {
        return Err(ctx.session.tools.with_way_out(mode, refusal));
    }
    let decision = super::permission::gate_edit(ctx, site.judged.clone(), |reason| ApprovalRequest::Edit {
        tool,
        path: site.path.clone(),
        real_path: site.judged.real.clone(),
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

#[cfg(test)]
pub mod test_support;
// Unix only: the tests check file modes and symlinks. The swap races are tested through the
// edit tools (`tools/write_file/swap_tests.rs`).
#[cfg(all(test, unix))]
mod tests;
