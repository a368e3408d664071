//! Unit tests of the shadow repository: snapshots, changes, byte-identical restore inputs,
//! what is left out and what is not (ignored files, nested repositories as files, repository
//! metadata), and the project's own `.git` left alone.

use super::*;
use crate::session::checkpoints::MAX_FILE_BYTES;

fn setup() -> (tempfile::TempDir, tempfile::TempDir, PathBuf) {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path().canonicalize().unwrap();
    (home, work, root)
}

#[test]
fn the_shadow_lives_under_hermes_home_keyed_by_the_folder() {
    let (home, _work, root) = setup();
    let shadow = Shadow::open(home.path(), &root).unwrap();
    let dir = shadow_dir(home.path(), &root);
    assert!(dir.starts_with(home.path().join("checkpoints")));
    assert_eq!(dir.file_name().unwrap().len(), 16);
    assert!(dir.join("HEAD").is_file());
    assert_eq!(
        std::fs::read(dir.join("HERMES_WORKDIR")).unwrap(),
        root.as_os_str().as_encoded_bytes()
    );
    assert!(
        std::fs::read_to_string(dir.join("info/attributes"))
            .unwrap()
            .contains("-text")
    );
    assert_eq!(shadow.work_tree(), root);
    // Nothing appears in the project.
    assert_eq!(std::fs::read_dir(&root).unwrap().count(), 0);
}

#[test]
fn an_unchanged_folder_reuses_the_last_snapshot_and_changes_are_listed() {
    let (home, _work, root) = setup();
    std::fs::write(root.join("keep.txt"), "keep").unwrap();
    std::fs::write(root.join("edit.txt"), "before\r\n").unwrap();
    std::fs::write(root.join("gone.bin"), [0u8, 159, 146, 150]).unwrap();
    let shadow = Shadow::open(home.path(), &root).unwrap();
    let first = shadow.snapshot("one").unwrap().commit;
    assert_eq!(
        shadow.snapshot("two").unwrap().commit,
        first,
        "no change, no new commit"
    );

    std::fs::write(root.join("edit.txt"), "after\n").unwrap();
    std::fs::remove_file(root.join("gone.bin")).unwrap();
    std::fs::create_dir(root.join("new")).unwrap();
    std::fs::write(root.join("new/file.txt"), "new").unwrap();
    let now = shadow.current().unwrap();
    let mut changes = shadow.changes(&first, &now, true).unwrap();
    changes.sort_by(|a, b| a.path.cmp(&b.path));
    let kinds: Vec<(&str, ChangeKind)> = changes
        .iter()
        .map(|c| (std::str::from_utf8(&c.path).unwrap(), c.kind))
        .collect();
    assert_eq!(
        kinds,
        [
            ("files/edit.txt", ChangeKind::Modified),
            ("files/gone.bin", ChangeKind::Deleted),
            ("files/new/file.txt", ChangeKind::Created)
        ]
    );
    assert_eq!(shadow.count_changes(&first, &now).unwrap(), 3);
    // The checkpoint's bytes, exactly (CRLF kept, binary intact).
    let blobs = shadow.blobs(&[&changes[0].old_blob, &changes[1].old_blob]).unwrap();
    assert_eq!(blobs[0], b"before\r\n");
    assert_eq!(blobs[1], [0u8, 159, 146, 150]);
    assert_eq!(changes[0].old_mode, 0o100644);
    assert_eq!(
        shadow.snapshot("three").unwrap().commit,
        now,
        "the folder as compared is the snapshot"
    );
}

fn git_in(dir: &Path, args: &[&str]) {
    crate::session::checkpoints::test_git::git(dir, args);
}

/// The snapshot's file paths (under `files/`, given without it), and its metadata paths
/// (under `.git/`), apart.
fn tree_paths(shadow: &Shadow, commit: &str) -> (Vec<String>, Vec<String>) {
    let out = shadow.git.run(&["ls-tree", "-r", "--name-only", commit]).unwrap();
    let (files, metadata): (Vec<String>, Vec<String>) = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .partition(|p| p.starts_with("files/"));
    let files = files.iter().map(|f| f["files/".len()..].to_string()).collect();
    assert!(metadata.iter().all(|p| p.starts_with(".git/")), "{metadata:?}");
    (files, metadata)
}

#[test]
fn ignored_files_are_in_regenerable_and_oversize_ones_out_and_the_project_git_is_untouched() {
    let (home, _work, root) = setup();
    git_in(&root, &["init", "-q"]);
    std::fs::write(root.join(".gitignore"), "ignored/\n.env\n").unwrap();
    std::fs::write(root.join(".gitattributes"), "* text=auto eol=crlf\n").unwrap();
    for dir in ["node_modules", "ignored", "src"] {
        std::fs::create_dir(root.join(dir)).unwrap();
        std::fs::write(root.join(dir).join("a.txt"), "x\n").unwrap();
    }
    std::fs::write(root.join(".env"), "SECRET=1").unwrap();
    std::fs::write(root.join("big.dat"), vec![b'x'; MAX_FILE_BYTES as usize + 1]).unwrap();
    let before = snapshot_of(&root.join(".git"));
    let shadow = Shadow::open(home.path(), &root).unwrap();
    let snapshot = shadow.snapshot("one").unwrap();
    let (files, metadata) = tree_paths(&shadow, &snapshot.commit);
    assert_eq!(
        files,
        [".env", ".gitattributes", ".gitignore", "ignored/a.txt", "src/a.txt"]
    );
    assert!(metadata.contains(&".git/%2Egit/HEAD".to_string()), "{metadata:?}");
    assert!(metadata.contains(&".git/left-out".to_string()), "{metadata:?}");
    assert_eq!(snapshot.left_out.len(), 1);
    assert_eq!(snapshot.left_out[0].path, b"big.dat");
    let records = shadow.records(&snapshot.commit).unwrap().unwrap();
    assert_eq!(records.excluded, [b"node_modules".to_vec()]);
    assert_eq!(records.left_out, [b"big.dat".to_vec()]);
    assert_eq!(records.cutoff, None);
    // Stored as on disk despite the project's eol=crlf attribute.
    let blob = shadow
        .git
        .run(&["cat-file", "blob", &format!("{}:files/src/a.txt", snapshot.commit)])
        .unwrap();
    assert_eq!(blob, b"x\n");
    assert_eq!(
        snapshot_of(&root.join(".git")),
        before,
        "the project's .git is not touched"
    );
}

#[test]
fn a_nested_repository_is_stored_as_files_with_its_refs_and_objects() {
    let (home, _work, root) = setup();
    let lib = root.join("vendor/lib");
    std::fs::create_dir_all(&lib).unwrap();
    git_in(&lib, &["init", "-q", "-b", "main"]);
    std::fs::write(lib.join("lib.rs"), "fn a() {}\n").unwrap();
    git_in(&lib, &["add", "lib.rs"]);
    git_in(&lib, &["commit", "-qm", "one"]);
    std::fs::write(lib.join("notes.txt"), "untracked\n").unwrap();
    let shadow = Shadow::open(home.path(), &root).unwrap();
    let snapshot = shadow.snapshot("one").unwrap();
    let (files, metadata) = tree_paths(&shadow, &snapshot.commit);
    assert_eq!(files, ["vendor/lib/lib.rs", "vendor/lib/notes.txt"]);
    for wanted in ["HEAD", "index", "refs/heads/main", "logs/HEAD"] {
        let path = format!(".git/vendor%2Flib%2F%2Egit/{wanted}");
        assert!(metadata.contains(&path), "{path} in {metadata:?}");
    }
    // Its objects and configuration too: only this snapshot holds them once the clone is
    // deleted.
    for wanted in ["objects/", "config"] {
        let path = format!(".git/vendor%2Flib%2F%2Egit/{wanted}");
        assert!(metadata.iter().any(|p| p.starts_with(&path)), "{path} in {metadata:?}");
    }
    let repos: Vec<&Path> = snapshot.repos.iter().map(|r| r.git_dir.as_path()).collect();
    assert_eq!(repos, [lib.join(".git").as_path()]);

    // Moving a ref alone is a change.
    git_in(&lib, &["branch", "topic"]);
    let now = shadow.current().unwrap();
    let changed: Vec<String> = shadow
        .changes(&snapshot.commit, &now, true)
        .unwrap()
        .iter()
        .map(|c| String::from_utf8(c.path.clone()).unwrap())
        .collect();
    assert!(
        changed.contains(&".git/vendor%2Flib%2F%2Egit/refs/heads/topic".to_string()),
        "{changed:?}"
    );
    assert_eq!(
        shadow.count_changes(&snapshot.commit, &now).unwrap(),
        0,
        "metadata is not counted"
    );
}

/// Every file under `dir` with its bytes.
fn snapshot_of(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in ignore::WalkBuilder::new(dir).standard_filters(false).build().flatten() {
        if entry.file_type().is_some_and(|t| t.is_file()) {
            out.push((entry.path().to_path_buf(), std::fs::read(entry.path()).unwrap()));
        }
    }
    out.sort();
    out
}

#[test]
fn a_missing_git_and_a_failing_call_are_told_apart() {
    use super::super::git::GitError;
    let mut git = Git::new(PathBuf::from("/nonexistent"), PathBuf::from("/"));
    let err = git.run(&["rev-parse", "HEAD"]).unwrap_err();
    assert!(
        matches!(err, GitError::Failed { ref stderr, .. } if !stderr.is_empty()),
        "{err}"
    );
    git.program = PathBuf::from("/nonexistent/bin/git");
    let err = git.run(&["--version"]).unwrap_err();
    assert!(matches!(err, GitError::Missing), "{err}");
    assert_eq!(err.to_string(), "git is not installed (no `git` on PATH)");
}

#[test]
fn the_root_and_home_are_refused() {
    let home = tempfile::tempdir().unwrap();
    assert!(matches!(
        Shadow::open(home.path(), Path::new("/")),
        Err(CheckpointError::TooBroad(_))
    ));
}
