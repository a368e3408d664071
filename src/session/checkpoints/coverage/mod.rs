//! What a snapshot covers, as the `Coverage` tools get back from `before_change`: complete
//! when nothing precious was left out (the own repository's objects included), else the paths left out (a bounded list) and one
//! sentence saying why; the repositories found, with where their hooks run from.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::CheckpointError;
use super::excludes::{Limits, MAX_LISTED};
use super::repos;
use super::shadow::{RepoFound, Snapshot};
use super::walk::{self, Why};
use crate::runtime::checkpoint::{Coverage, GitRepository};

/// The coverage of `snapshot` of `cwd`. `hooks` says where a repository's `core.hooksPath`
/// points, if set.
pub fn of_snapshot(
    cwd: &Path,
    snapshot: &Snapshot,
    limits: Limits,
    hooks: impl Fn(&RepoFound) -> Option<PathBuf>,
) -> Coverage {
    let objects = snapshot.objects_not_kept.as_ref().map(|_| cwd.join(".git/objects"));
    let uncovered: Vec<PathBuf> = objects
        .into_iter()
        .chain(snapshot.left_out.iter().map(|l| walk::absolute(cwd, &l.path)))
        .take(MAX_LISTED)
        .collect();
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    for left in snapshot.left_out.iter().filter(|l| l.why != Why::PastCount) {
        *counts.entry(left.why.describe()).or_default() += 1;
    }
    let mut reasons: Vec<String> = Vec::new();
    if snapshot.truncated {
        reasons.push(format!(
            "the folder has more than {} files, and those past the cap are not in the checkpoint",
            limits.max_files
        ));
    }
    if let Some(why) = &snapshot.objects_not_kept {
        reasons.push(why.clone());
    }
    if !counts.is_empty() {
        let parts: Vec<String> = counts.iter().map(|(why, n)| format!("{n} {why}")).collect();
        reasons.push(format!("paths left out of the checkpoint: {}", parts.join(", ")));
    }
    Coverage {
        complete: reasons.is_empty(),
        uncovered,
        nested_repos: repositories(&snapshot.repos, hooks),
        reason: (!reasons.is_empty()).then(|| reasons.join("; ")),
    }
}

/// The coverage when no snapshot could be taken: nothing is covered, `error` says why, and
/// the repositories that can be found without a walk (the one above the folder, the folder's
/// own) are still named.
pub fn of_failure(cwd: &Path, error: &CheckpointError, hooks: impl Fn(&RepoFound) -> Option<PathBuf>) -> Coverage {
    let mut found: Vec<RepoFound> = repos::enclosing(cwd)
        .map(|(work_tree, git_dir)| RepoFound { work_tree, git_dir })
        .into_iter()
        .collect();
    if let Some(git_dir) = repos::git_dir(&cwd.join(".git")) {
        found.push(RepoFound {
            work_tree: cwd.to_path_buf(),
            git_dir,
        });
    }
    Coverage {
        nested_repos: repositories(&found, hooks),
        ..Coverage::none(error.to_string())
    }
}

/// Where a repository's hooks run from when `core.hooksPath` is set (runs git).
pub fn hooks_of(repo: &RepoFound) -> Option<PathBuf> {
    repos::hooks_path(&repo.git_dir, &repo.work_tree)
}

/// The repositories with their hooks folders.
pub fn repositories(repos: &[RepoFound], hooks: impl Fn(&RepoFound) -> Option<PathBuf>) -> Vec<GitRepository> {
    repos
        .iter()
        .map(|r| GitRepository {
            work_tree: r.work_tree.clone(),
            git_dir: r.git_dir.clone(),
            hooks_path: hooks(r),
        })
        .collect()
}

#[cfg(test)]
mod tests;
