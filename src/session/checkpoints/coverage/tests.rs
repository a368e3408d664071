//! Unit tests of coverage reporting: complete for a folder with ignored files and a nested
//! repository; incomplete, with the paths and the reason, for a file over the size cap, a
//! folder past the count cap, and no git at all.

use super::*;
use crate::session::checkpoints::Shadow;
use crate::session::checkpoints::git::{Git, GitError};

fn git(dir: &Path, args: &[&str]) {
    crate::session::checkpoints::test_git::git(dir, args);
}

fn folder() -> (tempfile::TempDir, tempfile::TempDir, PathBuf) {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path().canonicalize().unwrap();
    (home, work, root)
}

fn no_hooks(_: &RepoFound) -> Option<PathBuf> {
    None
}

#[test]
fn ignored_files_and_a_nested_repository_leave_the_coverage_complete() {
    let (home, _work, root) = folder();
    git(&root, &["init", "-q"]);
    std::fs::write(root.join(".gitignore"), ".env\n").unwrap();
    std::fs::write(root.join(".env"), "KEY=1").unwrap();
    std::fs::create_dir_all(root.join("vendor/lib")).unwrap();
    git(&root.join("vendor/lib"), &["init", "-q"]);
    git(&root.join("vendor/lib"), &["config", "core.hooksPath", ".husky"]);
    let snapshot = Shadow::open(home.path(), &root).unwrap().snapshot("one").unwrap();
    let coverage = of_snapshot(&root, &snapshot, Limits::default(), hooks_of);
    assert!(coverage.complete, "{coverage:?}");
    assert_eq!(coverage.reason, None);
    assert!(coverage.uncovered.is_empty());
    let found: Vec<(PathBuf, Option<PathBuf>)> = coverage
        .nested_repos
        .iter()
        .map(|r| (r.git_dir.clone(), r.hooks_path.clone()))
        .collect();
    assert_eq!(
        found,
        [
            (root.join(".git"), None),
            (root.join("vendor/lib/.git"), Some(root.join("vendor/lib/.husky")))
        ]
    );
}

#[test]
fn a_file_over_the_size_cap_is_reported_with_its_path() {
    let (home, _work, root) = folder();
    std::fs::write(root.join("small.txt"), "x").unwrap();
    std::fs::write(root.join("dump.sql"), vec![b'x'; 64]).unwrap();
    let limits = Limits {
        max_files: 100,
        max_file_bytes: 16,
    };
    let shadow = Shadow::open(home.path(), &root).unwrap().with_limits(limits);
    let snapshot = shadow.snapshot("one").unwrap();
    let coverage = of_snapshot(&root, &snapshot, limits, no_hooks);
    assert!(!coverage.complete);
    assert_eq!(coverage.uncovered, [root.join("dump.sql")]);
    assert_eq!(
        coverage.reason.as_deref(),
        Some("paths left out of the checkpoint: 1 over the size cap")
    );
}

#[test]
fn a_folder_past_the_count_cap_is_reported_and_bounded() {
    let (home, _work, root) = folder();
    for i in 0..5 {
        std::fs::write(root.join(format!("f{i}")), "x").unwrap();
    }
    let limits = Limits {
        max_files: 2,
        max_file_bytes: 1024,
    };
    let shadow = Shadow::open(home.path(), &root).unwrap().with_limits(limits);
    let snapshot = shadow.snapshot("one").unwrap();
    assert!(snapshot.truncated);
    let coverage = of_snapshot(&root, &snapshot, limits, no_hooks);
    assert!(!coverage.complete);
    assert_eq!(coverage.uncovered, [root.join("f2")]);
    assert_eq!(
        coverage.reason.as_deref(),
        Some("the folder has more than 2 files, and those past the cap are not in the checkpoint")
    );
}

#[test]
fn without_git_nothing_is_covered_and_the_reason_says_so() {
    let (_home, _work, root) = folder();
    git(&root, &["init", "-q"]);
    let mut missing = Git::new(root.join("shadow"), root.clone());
    missing.program = PathBuf::from("/nonexistent/bin/git");
    let error = CheckpointError::from(missing.init_bare().unwrap_err());
    assert!(matches!(error, CheckpointError::Git(GitError::Missing)));
    let coverage = of_failure(&root, &error, no_hooks);
    assert!(!coverage.complete);
    assert_eq!(
        coverage.reason.as_deref(),
        Some("git is not installed (no `git` on PATH)")
    );
    assert_eq!(coverage.nested_repos.len(), 1);
    assert_eq!(coverage.nested_repos[0].git_dir, root.join(".git"));

    let too_broad = CheckpointError::TooBroad("the session folder is the home directory".into());
    let coverage = of_failure(&root, &too_broad, no_hooks);
    assert_eq!(
        coverage.reason.as_deref(),
        Some("the session folder is the home directory")
    );
}
