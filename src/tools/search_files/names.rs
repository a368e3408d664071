//! File-name search (`target: files`), like `rg --files --sortr=modified -g <glob>`: every
//! non-ignored, non-hidden file whose name matches the glob, newest first.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::SystemTime;

use ignore::WalkState;
use tokio_util::sync::CancellationToken;

use super::walk::{self, Batch, GlobFilter, Stopper};
use super::{SearchOutcome, SearchParams};
use crate::runtime::file_io::read_guards::DenyList;

pub(crate) fn search(params: &SearchParams, cancel: &CancellationToken) -> SearchOutcome {
    let glob = name_glob(&params.pattern);
    // Globs match relative to a directory: a file root is matched from its parent.
    let glob_root = if params.root.is_dir() {
        params.root.as_path()
    } else {
        params.root.parent().unwrap_or(&params.root)
    };
    let filter = match GlobFilter::new(glob_root, &glob) {
        Ok(filter) => filter,
        Err(e) => {
            return SearchOutcome::error(format!("Search failed: invalid glob '{glob}': {e}"));
        }
    };
    let walker = walk::walker(params);

    let found: Mutex<Vec<(PathBuf, SystemTime)>> = Mutex::new(Vec::new());
    let stopper = Stopper::new(cancel, params.deadline);
    walker.build_parallel().run(|| {
        let mut batch = Batch::new(&found);
        let (stopper, filter) = (&stopper, &filter);
        Box::new(move |entry| {
            if stopper.should_stop() {
                return WalkState::Quit;
            }
            let Ok(entry) = entry else {
                return WalkState::Continue;
            };
            if entry.file_type().is_some_and(|t| t.is_file()) && GlobFilter::allows(Some(filter), &entry, false) {
                let modified = entry
                    .metadata()
                    .ok()
                    .and_then(|m| m.modified().ok())
                    .unwrap_or(SystemTime::UNIX_EPOCH);
                batch.items.push((entry.into_path(), modified));
            }
            WalkState::Continue
        })
    });
    let warning = stopper.warning();

    let deny = DenyList::new(params.hermes_home.as_deref());
    let mut outcome = SearchOutcome {
        warning,
        ..SearchOutcome::default()
    };
    let mut files: Vec<(SystemTime, String)> = Vec::new();
    for (path, modified) in found.into_inner().unwrap_or_else(|p| p.into_inner()) {
        if walk::is_denied(&deny, &path) {
            outcome.omitted += 1;
        } else {
            files.push((modified, walk::display(params, &path)));
        }
    }
    // Newest first; equal times fall back to path order so paging is stable.
    files.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    outcome.total_count = files.len() as u64;
    outcome.truncated = files.len() > params.offset.saturating_add(params.limit);
    outcome.files = files
        .into_iter()
        .skip(params.offset)
        .take(params.limit)
        .map(|f| f.1)
        .collect();
    outcome
}

/// Hermes wraps a bare name so it matches at any depth and as a suffix: `main.rs` → `*main.rs`.
/// Patterns with a `/` or a leading `*` are used as given.
pub(crate) fn name_glob(pattern: &str) -> String {
    let pattern = pattern.trim();
    if pattern.is_empty() {
        "*".to_string()
    } else if !pattern.contains('/') && !pattern.starts_with('*') {
        format!("*{pattern}")
    } else {
        pattern.to_string()
    }
}
