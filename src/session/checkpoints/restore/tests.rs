//! Unit tests of restoring: bytes, modes (through the editor too), symlinks, created files
//! removed, a nested repository and its refs after `reset --hard` and `clean -fdx`, and whole
//! (objects, configuration) after a pruning gc or deletion; git configuration and hooks only
//! recreated, never written over; files the
//! checkpoint could not see left alone, nothing written through a symlinked folder.

use std::sync::Mutex;

use futures::future::BoxFuture;

use super::*;
use crate::runtime::LocalFs;
use crate::session::checkpoints::{Limits, Shadow};

/// Takes text writes like an editor would: it saves the buffer into the existing file, or a
/// new file with default permissions, recording the paths.
#[derive(Default)]
struct Editor(Mutex<Vec<PathBuf>>);

impl FileSystem for Editor {
    fn read_text<'a>(&'a self, _path: &'a Path) -> BoxFuture<'a, Option<std::io::Result<String>>> {
        Box::pin(async { None })
    }
    fn write_text<'a>(&'a self, path: &'a Path, content: &'a str) -> BoxFuture<'a, Option<std::io::Result<()>>> {
        Box::pin(async move {
            self.0.lock().unwrap().push(path.to_path_buf());
            Some(std::fs::write(path, content))
        })
    }
}

fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::symlink_metadata(path).unwrap().permissions().mode() & 0o777
}

fn chmod(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Every file under `dir` with its bytes and mode, sorted; `skip` names folders left out.
fn files(dir: &Path, skip: &[&str]) -> Vec<(PathBuf, Vec<u8>, u32)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if skip.iter().any(|s| path.ends_with(s)) {
                continue;
            }
            if entry.file_type().unwrap().is_dir() {
                stack.push(path);
            } else {
                out.push((path.clone(), std::fs::read(&path).unwrap_or_default(), mode_of(&path)));
            }
        }
    }
    out.sort();
    out
}

fn git(dir: &Path, args: &[&str]) {
    crate::session::checkpoints::test_git::git(dir, args);
}

fn folder() -> (tempfile::TempDir, tempfile::TempDir, PathBuf) {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path().canonicalize().unwrap();
    (home, work, root)
}

#[tokio::test]
async fn every_kind_of_change_is_put_back_exactly() {
    let (home, _work, root) = folder();
    std::fs::write(root.join("text.txt"), "one\r\ntwo\n").unwrap();
    std::fs::write(root.join("run.sh"), "#!/bin/sh\n").unwrap();
    chmod(&root.join("run.sh"), 0o755);
    std::fs::write(root.join("data.bin"), [0u8, 1, 2, 255]).unwrap();
    std::os::unix::fs::symlink("text.txt", root.join("link")).unwrap();
    let commit = Shadow::open(home.path(), &root)
        .unwrap()
        .snapshot("before")
        .unwrap()
        .commit;

    std::fs::write(root.join("text.txt"), "changed").unwrap();
    chmod(&root.join("run.sh"), 0o644);
    std::fs::remove_file(root.join("data.bin")).unwrap();
    std::fs::remove_file(root.join("link")).unwrap();
    std::fs::create_dir_all(root.join("new/deep")).unwrap();
    std::fs::write(root.join("new/deep/file.txt"), "new").unwrap();

    let editor = Editor::default();
    let mut done = restore(home.path(), &root, &commit, &editor).await.unwrap();
    assert!(done.failures.is_empty() && done.kept.is_empty(), "{done:?}");
    done.restored.sort_by(|a, b| a.path.cmp(&b.path));
    let got: Vec<(&str, ChangeKind)> = done.restored.iter().map(|r| (r.path.as_str(), r.kind)).collect();
    assert_eq!(
        got,
        [
            ("data.bin", ChangeKind::Deleted),
            ("link", ChangeKind::Deleted),
            ("new/deep/file.txt", ChangeKind::Created),
            ("run.sh", ChangeKind::Modified),
            ("text.txt", ChangeKind::Modified),
        ]
    );
    assert_eq!(std::fs::read(root.join("text.txt")).unwrap(), b"one\r\ntwo\n");
    assert_eq!(std::fs::read(root.join("data.bin")).unwrap(), [0u8, 1, 2, 255]);
    assert_eq!(std::fs::read_link(root.join("link")).unwrap(), Path::new("text.txt"));
    assert!(!root.join("new/deep/file.txt").exists());
    assert_eq!(mode_of(&root.join("run.sh")), 0o755);
    // Text went to the editor (the mode-only change of run.sh too); binary never did.
    let written = editor.0.lock().unwrap().clone();
    assert!(written.contains(&root.join("text.txt")) && !written.contains(&root.join("data.bin")));

    // Nothing left to restore: a second run changes nothing.
    let again = restore(home.path(), &root, &commit, &LocalFs).await.unwrap();
    assert!(again.restored.is_empty(), "{again:?}");
}

#[tokio::test]
async fn modes_come_back_through_the_editor_whatever_mode_it_leaves() {
    let (home, _work, root) = folder();
    for name in ["build.sh", "gone.sh", "plain.txt"] {
        std::fs::write(root.join(name), format!("# {name}\n")).unwrap();
    }
    chmod(&root.join("build.sh"), 0o755);
    chmod(&root.join("gone.sh"), 0o755);
    let commit = Shadow::open(home.path(), &root)
        .unwrap()
        .snapshot("before")
        .unwrap()
        .commit;
    chmod(&root.join("build.sh"), 0o644);
    std::fs::write(root.join("build.sh"), "rewritten\n").unwrap();
    std::fs::remove_file(root.join("gone.sh")).unwrap();
    chmod(&root.join("plain.txt"), 0o755);

    let editor = Editor::default();
    let done = restore(home.path(), &root, &commit, &editor).await.unwrap();
    assert!(done.failures.is_empty(), "{done:?}");
    assert_eq!(editor.0.lock().unwrap().len(), 3, "all three went through the editor");
    assert_eq!(std::fs::read_to_string(root.join("build.sh")).unwrap(), "# build.sh\n");
    assert_eq!(mode_of(&root.join("build.sh")), 0o755);
    assert_eq!(mode_of(&root.join("gone.sh")) & 0o100, 0o100, "recreated executable");
    assert_eq!(mode_of(&root.join("plain.txt")), 0o644);
}

#[tokio::test]
async fn a_nested_repository_comes_back_with_its_refs_after_reset_and_clean() {
    let (home, _work, root) = folder();
    let lib = root.join("vendor/lib");
    std::fs::create_dir_all(&lib).unwrap();
    git(&lib, &["init", "-q", "-b", "main"]);
    std::fs::write(lib.join(".gitignore"), "*.log\n").unwrap();
    std::fs::write(lib.join("lib.rs"), "one\n").unwrap();
    git(&lib, &["add", "."]);
    git(&lib, &["commit", "-qm", "one"]);
    std::fs::write(lib.join("lib.rs"), "two\n").unwrap();
    git(&lib, &["commit", "-qam", "two"]);
    std::fs::write(lib.join("lib.rs"), "three, uncommitted\n").unwrap();
    std::fs::create_dir_all(lib.join("scratch")).unwrap();
    std::fs::write(lib.join("scratch/notes.txt"), "untracked\n").unwrap();
    std::fs::write(lib.join("build.log"), "ignored\n").unwrap();
    let before = files(&root, &["objects"]);
    let commit = Shadow::open(home.path(), &root)
        .unwrap()
        .snapshot("before")
        .unwrap()
        .commit;

    git(&lib, &["reset", "-q", "--hard", "HEAD~1"]);
    git(&lib, &["clean", "-qfdx"]);
    assert!(!lib.join("build.log").exists() && !lib.join("scratch").exists());
    let done = restore(home.path(), &root, &commit, &LocalFs).await.unwrap();
    assert!(done.failures.is_empty() && done.kept.is_empty(), "{done:?}");
    let paths: Vec<&str> = done.restored.iter().map(|r| r.path.as_str()).collect();
    for wanted in [
        "vendor/lib/.git/refs/heads/main",
        "vendor/lib/.git/ORIG_HEAD",
        "vendor/lib/build.log",
    ] {
        assert!(paths.contains(&wanted), "{wanted} in {paths:?}");
    }
    assert_eq!(
        files(&root, &["objects"]),
        before,
        "work tree, refs, reflog and index as before"
    );
}

/// The commit subjects of the repository at `dir`, newest first.
fn log(dir: &Path) -> String {
    let out = crate::session::checkpoints::test_git::git(dir, &["log", "--format=%s"]);
    String::from_utf8_lossy(&out).trim().to_string()
}

#[tokio::test]
async fn a_nested_repository_comes_back_whole_after_a_pruning_gc_and_after_deletion() {
    let (home, _work, root) = folder();
    let lib = root.join("vendor/lib");
    std::fs::create_dir_all(&lib).unwrap();
    git(&lib, &["init", "-q", "-b", "main"]);
    git(
        &lib,
        &["config", "remote.origin.url", "https://example.invalid/lib.git"],
    );
    std::fs::write(lib.join("lib.rs"), "one\n").unwrap();
    git(&lib, &["add", "."]);
    git(&lib, &["commit", "-qm", "one"]);
    git(&lib, &["gc", "-q"]);
    std::fs::write(lib.join("lib.rs"), "two\n").unwrap();
    git(&lib, &["commit", "-qam", "two"]);
    // Bytes only: a restore writes objects with the umask's permissions, not git's 0444.
    let bytes = || -> Vec<(PathBuf, Vec<u8>)> { files(&root, &[]).into_iter().map(|(p, b, _)| (p, b)).collect() };
    let before = bytes();
    let commit = Shadow::open(home.path(), &root)
        .unwrap()
        .snapshot("before")
        .unwrap()
        .commit;

    // Commit "two" unreachable, then pruned: only the checkpoint holds it.
    git(&lib, &["reset", "-q", "--hard", "HEAD~1"]);
    git(&lib, &["reflog", "expire", "--expire=now", "--all"]);
    git(&lib, &["gc", "-q", "--prune=now"]);
    assert_eq!(log(&lib), "one");
    let done = restore(home.path(), &root, &commit, &LocalFs).await.unwrap();
    assert!(done.failures.is_empty() && done.kept.is_empty(), "{done:?}");
    assert_eq!(bytes(), before, "objects, packs, refs and reflogs as before");
    assert_eq!(log(&lib), "two\none");

    // The whole clone deleted: it comes back with its configuration and hooks.
    std::fs::remove_dir_all(&lib).unwrap();
    let done = restore(home.path(), &root, &commit, &LocalFs).await.unwrap();
    assert!(done.failures.is_empty() && done.kept.is_empty(), "{done:?}");
    assert_eq!(bytes(), before);
    assert_eq!(log(&lib), "two\none");
}

#[tokio::test]
async fn git_configuration_and_hooks_are_recreated_where_missing_never_written_over() {
    let (home, _work, root) = folder();
    git(&root, &["init", "-q", "-b", "main"]);
    std::fs::write(root.join(".git/hooks/pre-commit"), "#!/bin/sh\nexit 0\n").unwrap();
    chmod(&root.join(".git/hooks/pre-commit"), 0o755);
    let config = std::fs::read(root.join(".git/config")).unwrap();
    let commit = Shadow::open(home.path(), &root)
        .unwrap()
        .snapshot("before")
        .unwrap()
        .commit;

    let changed = "[core]\n\tfsmonitor = ./run-me\n";
    std::fs::write(root.join(".git/config"), changed).unwrap();
    std::fs::remove_file(root.join(".git/hooks/pre-commit")).unwrap();
    std::fs::write(root.join(".git/hooks/post-checkout"), "#!/bin/sh\n").unwrap();
    let done = restore(home.path(), &root, &commit, &LocalFs).await.unwrap();
    assert!(done.failures.is_empty(), "{done:?}");
    assert_eq!(done.kept, [".git/config", ".git/hooks/post-checkout"]);
    assert_eq!(
        std::fs::read_to_string(root.join(".git/config")).unwrap(),
        changed,
        "not written over"
    );
    assert!(root.join(".git/hooks/post-checkout").exists(), "not removed");
    assert_eq!(
        std::fs::read(root.join(".git/hooks/pre-commit")).unwrap(),
        b"#!/bin/sh\nexit 0\n"
    );
    assert_eq!(
        mode_of(&root.join(".git/hooks/pre-commit")) & 0o100,
        0o100,
        "recreated executable"
    );

    std::fs::remove_file(root.join(".git/config")).unwrap();
    let done = restore(home.path(), &root, &commit, &LocalFs).await.unwrap();
    assert!(done.failures.is_empty(), "{done:?}");
    assert_eq!(std::fs::read(root.join(".git/config")).unwrap(), config, "recreated");

    // A repository the turn created goes whole, its hooks and configuration too.
    let clone = root.join("vendor/new");
    std::fs::create_dir_all(&clone).unwrap();
    git(&clone, &["init", "-q", "-b", "main"]);
    let done = restore(home.path(), &root, &commit, &LocalFs).await.unwrap();
    assert!(done.failures.is_empty(), "{done:?}");
    assert!(!done.kept.iter().any(|k| k.starts_with("vendor/")), "{done:?}");
    assert_eq!(files(&root.join("vendor"), &[]), []);
}

#[tokio::test]
async fn files_the_checkpoint_could_not_see_are_left_alone() {
    let (home, _work, root) = folder();
    std::fs::write(root.join("big.bin"), vec![b'x'; 64]).unwrap();
    std::fs::create_dir_all(root.join("node_modules/pkg")).unwrap();
    let limits = Limits {
        max_files: 100,
        max_file_bytes: 16,
    };
    let commit = Shadow::open(home.path(), &root)
        .unwrap()
        .with_limits(limits)
        .snapshot("before")
        .unwrap()
        .commit;
    // Shrunk under the cap, and a new file in a regenerable folder.
    std::fs::write(root.join("big.bin"), "small").unwrap();
    std::fs::write(root.join("node_modules/pkg/index.js"), "js").unwrap();
    std::fs::write(root.join("made.txt"), "new").unwrap();
    let done = restore(home.path(), &root, &commit, &LocalFs).await.unwrap();
    assert_eq!(done.kept, ["big.bin"]);
    assert!(root.join("big.bin").exists() && root.join("node_modules/pkg/index.js").exists());
    assert!(!root.join("made.txt").exists());
}

#[tokio::test]
async fn a_folder_swapped_for_a_symlink_is_put_back_and_nothing_lands_outside() {
    let (home, _work, root) = folder();
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir(root.join("sub")).unwrap();
    std::fs::write(root.join("sub/file.txt"), "inside\n").unwrap();
    let commit = Shadow::open(home.path(), &root)
        .unwrap()
        .snapshot("before")
        .unwrap()
        .commit;
    std::fs::remove_dir_all(root.join("sub")).unwrap();
    std::os::unix::fs::symlink(outside.path(), root.join("sub")).unwrap();
    let done = restore(home.path(), &root, &commit, &Editor::default()).await.unwrap();
    assert!(done.failures.is_empty(), "{done:?}");
    assert!(std::fs::symlink_metadata(root.join("sub")).unwrap().is_dir());
    assert_eq!(std::fs::read_to_string(root.join("sub/file.txt")).unwrap(), "inside\n");
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
}

#[tokio::test]
async fn permission_bits_come_back_private_files_stay_private() {
    let (home, _work, root) = folder();
    for name in ["a.txt", "b.txt", "c.txt", ".env", "key.pem"] {
        std::fs::write(root.join(name), format!("{name}\n")).unwrap();
        chmod(&root.join(name), 0o644);
    }
    chmod(&root.join(".env"), 0o600);
    chmod(&root.join("key.pem"), 0o400);
    let shadow = Shadow::open(home.path(), &root).unwrap();
    let commit = shadow.snapshot("before").unwrap().commit;
    // Deleted (comes back through the editor, which creates files with default permissions),
    // loosened, and everything else made group-writable.
    std::fs::remove_file(root.join(".env")).unwrap();
    chmod(&root.join("key.pem"), 0o644);
    for name in ["a.txt", "b.txt", "c.txt"] {
        chmod(&root.join(name), 0o664);
    }
    let done = restore(home.path(), &root, &commit, &Editor::default()).await.unwrap();
    assert!(done.failures.is_empty(), "{done:?}");
    assert_eq!(mode_of(&root.join(".env")), 0o600);
    assert_eq!(mode_of(&root.join("key.pem")), 0o400);
    for name in ["a.txt", "b.txt", "c.txt"] {
        assert_eq!(mode_of(&root.join(name)), 0o644, "{name}");
    }
    let mut paths: Vec<&str> = done.restored.iter().map(|r| r.path.as_str()).collect();
    paths.sort();
    assert_eq!(paths, [".env", "a.txt", "b.txt", "c.txt", "key.pem"]);
}
