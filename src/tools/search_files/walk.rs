//! Pieces shared by content and name search: the walker configured like rg's defaults, result
//! path display, the stop check (cancel / timeout), per-thread result batches, the credential
//! filter and Hermes' "Path not found" error with similar-path suggestions.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use ignore::overrides::{Override, OverrideBuilder};
use ignore::{DirEntry, WalkBuilder};
use tokio_util::sync::CancellationToken;

use super::{SearchOutcome, SearchParams};
use crate::runtime::file_io::read_guards::DenyList;
use crate::runtime::workspace::{expand_home, resolve_against};
use crate::sync::lock;

/// A walker over `params.root` (and `params.also`) with rg's default filters: hidden files skipped, .gitignore
/// honoured inside git repositories (rg's `require_git`), .ignore / .rgignore always, parent
/// ignore files and git's global/exclude files too, symlinks not followed. Like git, no
/// repository is looked for above a `GIT_CEILING_DIRECTORIES` entry: a root with no repository
/// beneath its ceiling reads no ignore file above itself.
pub(crate) fn walker(params: &SearchParams) -> WalkBuilder {
    let mut builder = WalkBuilder::new(&params.root);
    for more in params.also.iter().filter(|p| p.exists()) {
        builder.add(more);
    }
    builder
        // Global gitignore patterns resolve against the session cwd, never the process cwd.
        .current_dir(params.cwd.clone())
        .hidden(true)
        .parents(!outside_any_repository(&params.root, &params.git_ceilings))
        .ignore(true)
        .git_ignore(true)
        .git_global(true)
        .git_exclude(true)
        .require_git(true)
        .follow_links(false)
        .threads(0);
    builder.add_custom_ignore_filename(".rgignore");
    builder
}

/// The absolute paths in git's `GIT_CEILING_DIRECTORIES` (colon-separated; empty entries and
/// relative ones are ignored, as git does).
pub(crate) fn git_ceilings_from_env() -> Vec<PathBuf> {
    std::env::var_os("GIT_CEILING_DIRECTORIES")
        .map(|list| std::env::split_paths(&list).filter(|p| p.is_absolute()).collect())
        .unwrap_or_default()
}

/// True when no `.git` (or `.jj`, which the walker also takes for a repository) exists at
/// `root` or above it before a ceiling is reached. As in git, the ceiling itself is not looked
/// in, and `root` always is, even when it is a ceiling.
fn outside_any_repository(root: &Path, ceilings: &[PathBuf]) -> bool {
    for dir in root.ancestors() {
        if dir != root && ceilings.iter().any(|c| c == dir) {
            return true;
        }
        if dir.join(".git").exists() || dir.join(".jj").exists() {
            return false;
        }
    }
    false
}

/// A glob with rg's `--glob` syntax (no `/` → any depth, `!` negates), used as a *filter* on
/// top of the ignore rules. rg gives `--glob` precedence over every ignore rule, so `-g '*'`
/// would surface hidden and git-ignored files (even `.git/` internals); the spec promises
/// searches that respect .gitignore and skip hidden files, so the glob only narrows.
pub(crate) struct GlobFilter(Override);

impl GlobFilter {
    pub(crate) fn new(root: &Path, glob: &str) -> Result<GlobFilter, String> {
        let mut builder = OverrideBuilder::new(root);
        builder.add(glob).map_err(|e| e.to_string())?;
        builder.build().map(GlobFilter).map_err(|e| e.to_string())
    }

    /// Whether a walked file passes. An explicitly named root file is exempt when
    /// `exempt_root` (rg always searches a file it is given), as for content search.
    pub(crate) fn allows(filter: Option<&GlobFilter>, entry: &DirEntry, exempt_root: bool) -> bool {
        match filter {
            Some(_) if exempt_root && entry.depth() == 0 => true,
            Some(GlobFilter(globs)) => !globs.matched(entry.path(), false).is_ignore(),
            None => true,
        }
    }
}

/// How a result path is shown: relative to the session cwd when the model typed a relative
/// path (e.g. `src/main.rs`), absolute otherwise.
pub(crate) fn display(params: &SearchParams, path: &Path) -> String {
    match params
        .display_base
        .as_deref()
        .and_then(|base| path.strip_prefix(base).ok())
    {
        Some(rel) if rel.as_os_str().is_empty() => ".".to_string(),
        Some(rel) => rel.to_string_lossy().into_owned(),
        None => path.to_string_lossy().into_owned(),
    }
}

/// Decides when a walk must stop: the turn was cancelled or the search ran out of time.
pub(crate) struct Stopper<'a> {
    cancel: &'a CancellationToken,
    deadline: Instant,
    timed_out: AtomicBool,
}

impl<'a> Stopper<'a> {
    pub(crate) fn new(cancel: &'a CancellationToken, deadline: Instant) -> Stopper<'a> {
        Stopper {
            cancel,
            deadline,
            timed_out: AtomicBool::new(false),
        }
    }

    pub(crate) fn should_stop(&self) -> bool {
        if self.cancel.is_cancelled() {
            return true;
        }
        if Instant::now() >= self.deadline {
            self.timed_out.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    /// The warning for a search cut short by the timeout.
    pub(crate) fn warning(&self) -> Option<String> {
        self.timed_out.load(Ordering::Relaxed).then(|| {
            "Search timed out after 60s; the results (and totals) are partial. Narrow the path, \
             pattern or file_glob."
                .to_string()
        })
    }
}

/// Results collected by one walker thread, merged into the shared list when the thread ends
/// (one lock per thread instead of one per file).
pub(crate) struct Batch<'a, T> {
    pub items: Vec<T>,
    sink: &'a Mutex<Vec<T>>,
}

impl<'a, T> Batch<'a, T> {
    pub(crate) fn new(sink: &'a Mutex<Vec<T>>) -> Batch<'a, T> {
        Batch {
            items: Vec::new(),
            sink,
        }
    }
}

impl<T> Drop for Batch<'_, T> {
    fn drop(&mut self) {
        let mut shared = lock(self.sink);
        shared.append(&mut self.items);
    }
}

/// True when results in `path` must be withheld (credential stores, `.env` files).
pub(crate) fn is_denied(deny: &DenyList, path: &Path) -> bool {
    deny.may_block(path) && deny.check("", path).is_some()
}

/// Hermes' missing-root error: `Path not found: <p>` plus up to five entries of the parent
/// directory (its first 20) that share a substring or the first three letters.
pub(crate) fn path_not_found(raw: &str, cwd: &Path) -> SearchOutcome {
    let shown = expand_home(raw.trim()).to_string_lossy().into_owned();
    let (parent, base) = match shown.rfind('/') {
        Some(0) => ("/".to_string(), shown[1..].to_string()),
        Some(i) => (shown[..i].to_string(), shown[i + 1..].to_string()),
        None => (String::new(), shown.clone()),
    };
    let parent = if parent.is_empty() { ".".to_string() } else { parent };
    let mut message = format!("Path not found: {shown}");
    let parent_dir: PathBuf = resolve_against(cwd, &parent);
    if !base.is_empty()
        && let Ok(entries) = std::fs::read_dir(&parent_dir)
    {
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let query = base.to_lowercase();
        let prefix: String = query.chars().take(3).collect();
        let similar: Vec<String> = names
            .into_iter()
            .take(20)
            .filter(|name| {
                let lower = name.to_lowercase();
                lower.contains(&query) || query.contains(&lower) || lower.starts_with(&prefix)
            })
            .take(5)
            .map(|name| {
                if parent.ends_with('/') {
                    format!("{parent}{name}")
                } else {
                    format!("{parent}/{name}")
                }
            })
            .collect();
        if !similar.is_empty() {
            message.push_str(&format!(". Similar paths: {}", similar.join(", ")));
        }
    }
    SearchOutcome::error(message)
}
