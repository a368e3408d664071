//! Unit tests of keeping the folder's own objects: which names are object files; hard links
//! taken once (an unchanged object folder is not read again); the repository back after its
//! objects were deleted, after a pruning gc and after `.git` was deleted whole (`git fsck`
//! clean); another file system falling back to copies (both ways), and failing closed past the
//! limit; nothing put back over a file or through a symlink.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::*;
use crate::runtime::LocalFs;
use crate::session::checkpoints::{Limits, Shadow, restore};
use crate::session::checkpoints::{coverage, objects_back};

fn git(dir: &Path, args: &[&str]) -> String {
    String::from_utf8_lossy(&crate::session::checkpoints::test_git::git(dir, args))
        .trim()
        .to_string()
}

/// A session folder that is a repository: commit "one" packed, commit "two" loose.
fn project() -> (tempfile::TempDir, tempfile::TempDir, PathBuf) {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path().canonicalize().unwrap();
    git(&root, &["init", "-q", "-b", "main"]);
    std::fs::write(root.join("lib.rs"), "one\n").unwrap();
    git(&root, &["add", "."]);
    git(&root, &["commit", "-qm", "one"]);
    git(&root, &["gc", "-q"]);
    std::fs::write(root.join("lib.rs"), "two\n").unwrap();
    git(&root, &["commit", "-qam", "two"]);
    (home, work, root)
}

fn log(root: &Path) -> String {
    git(root, &["log", "--format=%s", "main"])
}

/// `git fsck` finds every object of every ref and reflog, and nothing broken.
fn fsck_clean(root: &Path) {
    let out = git(root, &["fsck", "--full", "--no-progress", "--no-dangling"]);
    assert!(!out.contains("missing") && !out.contains("broken"), "{out}");
}

/// Every file under `dir`, relative.
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            match entry.file_type().unwrap().is_dir() {
                true => stack.push(entry.path()),
                false => out.push(entry.path().strip_prefix(dir).unwrap().display().to_string()),
            }
        }
    }
    out.sort();
    out
}

async fn snapshot_then(root: &Path, home: &Path, damage: impl FnOnce(&Path)) {
    let before = log(root);
    let shadow = Shadow::open(home, root).unwrap();
    let snapshot = shadow.snapshot("before").unwrap();
    let covered = coverage::of_snapshot(root, &snapshot, Limits::default(), |_| None);
    assert!(covered.complete, "{covered:?}");
    damage(root);
    let done = restore(home, root, &snapshot.commit, &LocalFs).await.unwrap();
    assert!(done.failures.is_empty(), "{done:?}");
    assert_eq!(log(root), before, "every commit is back");
    fsck_clean(root);
    assert_eq!(git(root, &["status", "--porcelain"]), "");
}

#[test]
fn only_object_files_are_kept() {
    let loose = "0123456789abcdef0123456789abcdef012345";
    assert!(kept_file("objects/ab", loose));
    assert!(!kept_file("objects/ab", &format!("tmp_obj_{loose}")));
    assert!(!kept_file("objects/info", "packs"));
    let pack = format!("pack-{}", "a".repeat(40));
    for ext in ["pack", "idx", "rev", "bitmap", "mtimes", "promisor"] {
        assert!(kept_file("objects/pack", &format!("{pack}.{ext}")), "{ext}");
    }
    assert!(!kept_file("objects/pack", &format!("{pack}.keep")));
    assert!(!kept_file("objects/pack", "tmp_pack_x"));
    assert!(!kept_file("objects/pack", "multi-pack-index"));
    assert!(kept_file("lfs/objects/ab/cd", &"e".repeat(64)));
    assert!(!kept_file("lfs/objects/ab", &"e".repeat(64)));
    assert!(!kept_file("lfs/tmp", &"e".repeat(64)));
    let key = "SHA256E-s6--0a1b.txt";
    assert!(kept_file(&format!("annex/objects/Kq/Fm/{key}"), key));
    assert!(!kept_file(&format!("annex/objects/Kq/Fm/{key}"), &format!("{key}.map")));
    assert!(kept_dir("annex/objects/Kq/Fm", key) && !kept_dir("annex/objects", "../.."));
    assert!(kept_dir("objects", "pack") && kept_dir("objects", "0f") && !kept_dir("objects", "info"));
    assert!(!kept_dir("objects/pack", "0f") && !kept_dir("objects", "../x"));
}

static LINKS: AtomicUsize = AtomicUsize::new(0);

fn counted_link(from: &Path, to: &Path) -> std::io::Result<()> {
    LINKS.fetch_add(1, Ordering::SeqCst);
    std::fs::hard_link(from, to)
}

#[test]
fn object_files_are_hard_linked_once_and_unchanged_folders_not_read_again() {
    use std::os::unix::fs::MetadataExt;
    let (home, _work, root) = project();
    let (git_dir, shadow) = (root.join(".git"), home.path().join("shadow"));
    std::fs::create_dir_all(&shadow).unwrap();
    keep(&git_dir, &shadow, counted_link, COPY_LIMIT).unwrap();
    let kept = tree(&shadow.join(STORE));
    let first = LINKS.swap(0, Ordering::SeqCst);
    assert_eq!(first, kept.len());
    assert!(kept.iter().any(|p| p.ends_with(".pack")) && kept.iter().any(|p| p.ends_with(".idx")));
    for rel in &kept {
        let (a, b) = (git_dir.join(rel), shadow.join(STORE).join(rel));
        assert_eq!(
            a.metadata().unwrap().ino(),
            b.metadata().unwrap().ino(),
            "{rel} is a link"
        );
    }

    // Once the folders' times are in the past, an unchanged store costs no link and no read.
    let record = Record::load(&shadow.join(RECORD));
    let mut aged = record.clone();
    aged.scanned = (u32::MAX, 0);
    aged.save(&shadow.join(RECORD));
    keep(&git_dir, &shadow, counted_link, COPY_LIMIT).unwrap();
    assert_eq!(LINKS.swap(0, Ordering::SeqCst), 0);

    std::fs::write(root.join("lib.rs"), "three\n").unwrap();
    git(&root, &["commit", "-qam", "three"]);
    keep(&git_dir, &shadow, counted_link, COPY_LIMIT).unwrap();
    assert_eq!(LINKS.swap(0, Ordering::SeqCst), 3, "a blob, a tree and a commit");
    assert_eq!(tree(&shadow.join(STORE)).len(), kept.len() + 3);
}

#[tokio::test]
async fn deleted_objects_come_back_and_fsck_is_clean() {
    let (home, _work, root) = project();
    snapshot_then(&root, home.path(), |root| {
        std::fs::remove_dir_all(root.join(".git/objects")).unwrap();
    })
    .await;
}

#[tokio::test]
async fn a_commit_pruned_after_a_reset_comes_back() {
    let (home, _work, root) = project();
    snapshot_then(&root, home.path(), |root| {
        git(root, &["reset", "-q", "--hard", "HEAD~1"]);
        git(root, &["reflog", "expire", "--expire=now", "--all"]);
        git(root, &["gc", "-q", "--prune=now"]);
        assert_eq!(log(root), "one");
    })
    .await;
}

#[tokio::test]
async fn a_repository_deleted_whole_comes_back() {
    let (home, _work, root) = project();
    git(&root, &["gc", "-q"]);
    snapshot_then(&root, home.path(), |root| {
        std::fs::remove_dir_all(root.join(".git")).unwrap();
    })
    .await;
}

fn cross_device(_: &Path, _: &Path) -> std::io::Result<()> {
    Err(std::io::Error::from_raw_os_error(18))
}

#[tokio::test]
async fn another_file_system_falls_back_to_copies_within_the_limit() {
    use std::os::unix::fs::MetadataExt;
    let (home, _work, root) = project();
    let shadow = Shadow::open(home.path(), &root)
        .unwrap()
        .with_object_link(cross_device, COPY_LIMIT);
    let snapshot = shadow.snapshot("before").unwrap();
    assert_eq!(snapshot.objects_not_kept, None);
    let store = super::super::shadow_dir(home.path(), &root).join(STORE);
    let kept = tree(&store);
    assert!(!kept.is_empty());
    for rel in &kept {
        let (a, b) = (root.join(".git").join(rel), store.join(rel));
        assert_ne!(
            a.metadata().unwrap().ino(),
            b.metadata().unwrap().ino(),
            "{rel} is a copy"
        );
        assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
    }
    std::fs::remove_dir_all(root.join(".git/objects")).unwrap();
    let done = restore(home.path(), &root, &snapshot.commit, &LocalFs).await.unwrap();
    assert!(done.failures.is_empty(), "{done:?}");
    assert_eq!(log(&root), "two\none");
    fsck_clean(&root);
}

#[test]
fn copies_past_the_limit_make_the_coverage_incomplete() {
    let (home, _work, root) = project();
    let shadow = Shadow::open(home.path(), &root)
        .unwrap()
        .with_object_link(cross_device, 64);
    let snapshot = shadow.snapshot("before").unwrap();
    let why = snapshot.objects_not_kept.clone().unwrap();
    assert!(why.starts_with("the repository's objects cannot be kept: "), "{why}");
    assert!(why.contains("os error 18"), "{why}");
    let covered = coverage::of_snapshot(&root, &snapshot, Limits::default(), |_| None);
    assert!(!covered.complete);
    assert!(
        covered
            .reason
            .unwrap()
            .contains("the repository's objects cannot be kept")
    );
    assert!(covered.uncovered.contains(&root.join(".git/objects")));
    // Still incomplete at the next snapshot: what was not kept is tried again.
    let again = shadow.snapshot("again").unwrap();
    assert!(again.objects_not_kept.is_some());
}

#[test]
fn putting_back_never_writes_over_a_file_or_through_a_symlink() {
    let (home, work, root) = project();
    let shadow = home.path().join("shadow");
    std::fs::create_dir_all(&shadow).unwrap();
    keep(&root.join(".git"), &shadow, hard_link, COPY_LIMIT).unwrap();
    assert_eq!(objects_back::put_back(&root, &shadow, hard_link), Default::default());

    // A file the project has is never written over, whatever it holds.
    let loose = tree(&shadow.join(STORE))
        .into_iter()
        .find(|p| !p.starts_with("objects/pack"))
        .unwrap();
    let project_file = root.join(".git").join(&loose);
    std::fs::remove_file(&project_file).unwrap();
    std::fs::write(&project_file, "not an object").unwrap();
    assert_eq!(objects_back::put_back(&root, &shadow, hard_link), Default::default());
    assert_eq!(std::fs::read(&project_file).unwrap(), b"not an object");

    // `.git/objects` swapped for a symlink to a folder outside: nothing is written there.
    let outside = work.path().join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::remove_dir_all(root.join(".git/objects")).unwrap();
    std::os::unix::fs::symlink(&outside, root.join(".git/objects")).unwrap();
    let done = objects_back::put_back(&root, &shadow, hard_link);
    assert_eq!(done.count, 0);
    assert!(done.failures.iter().any(|f| f.contains("symbolic link")), "{done:?}");
    assert!(tree(&outside).is_empty());
}

#[test]
fn putting_back_copies_where_a_link_is_impossible() {
    use std::os::unix::fs::MetadataExt;
    let (home, _work, root) = project();
    let shadow = home.path().join("shadow");
    std::fs::create_dir_all(&shadow).unwrap();
    keep(&root.join(".git"), &shadow, hard_link, COPY_LIMIT).unwrap();
    let kept = tree(&shadow.join(STORE));
    std::fs::remove_dir_all(root.join(".git/objects")).unwrap();
    let done = objects_back::put_back(&root, &shadow, cross_device);
    assert_eq!((done.count, done.failures), (kept.len(), Vec::new()));
    for rel in &kept {
        let (a, b) = (root.join(".git").join(rel), shadow.join(STORE).join(rel));
        assert_ne!(
            a.metadata().unwrap().ino(),
            b.metadata().unwrap().ino(),
            "{rel} is a copy"
        );
    }
    assert_eq!(log(&root), "two\none");
    fsck_clean(&root);
}

#[tokio::test]
async fn lfs_and_annex_objects_and_the_alternates_list_come_back() {
    let (home, _work, root) = project();
    let lfs = format!(".git/lfs/objects/ab/cd/{}", "abcd".repeat(16));
    let key = "SHA256E-s5--0a1b.bin";
    let annex = format!(".git/annex/objects/Kq/Fm/{key}/{key}");
    let alternates = root.join(".git/objects/info/alternates");
    for (rel, content) in [(lfs.as_str(), "large"), (annex.as_str(), "annex")] {
        std::fs::create_dir_all(root.join(rel).parent().unwrap()).unwrap();
        std::fs::write(root.join(rel), content).unwrap();
    }
    std::fs::write(&alternates, "").unwrap();
    let snapshot = Shadow::open(home.path(), &root).unwrap().snapshot("before").unwrap();
    assert_eq!(snapshot.objects_not_kept, None);
    for gone in [".git/lfs", ".git/annex", ".git/objects"] {
        std::fs::remove_dir_all(root.join(gone)).unwrap();
    }
    let done = restore(home.path(), &root, &snapshot.commit, &LocalFs).await.unwrap();
    assert!(done.failures.is_empty(), "{done:?}");
    assert_eq!(std::fs::read_to_string(root.join(&lfs)).unwrap(), "large");
    assert_eq!(std::fs::read_to_string(root.join(&annex)).unwrap(), "annex");
    assert!(alternates.is_file());
    assert_eq!(log(&root), "two\none");
}
