//! Unit tests of the shadow repository: snapshots, changes, byte-identical restore inputs,
//! exclusions and the project's own `.git` left alone.

use super::*;

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
        std::fs::read_to_string(dir.join("info/exclude"))
            .unwrap()
            .contains("node_modules/")
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
    let first = shadow.snapshot("one").unwrap();
    assert_eq!(shadow.snapshot("two").unwrap(), first, "no change, no new commit");

    std::fs::write(root.join("edit.txt"), "after\n").unwrap();
    std::fs::remove_file(root.join("gone.bin")).unwrap();
    std::fs::create_dir(root.join("new")).unwrap();
    std::fs::write(root.join("new/file.txt"), "new").unwrap();
    let tree = shadow.current_tree(&first).unwrap();
    let mut changes = shadow.changes(&first, &tree).unwrap();
    changes.sort_by(|a, b| a.path.cmp(&b.path));
    let kinds: Vec<(&str, ChangeKind)> = changes.iter().map(|c| (c.path.as_str(), c.kind)).collect();
    assert_eq!(
        kinds,
        [
            ("edit.txt", ChangeKind::Modified),
            ("gone.bin", ChangeKind::Deleted),
            ("new/file.txt", ChangeKind::Created)
        ]
    );
    assert_eq!(shadow.count_changes(&first, &tree).unwrap(), 3);
    // The checkpoint's bytes, exactly (CRLF kept, binary intact).
    let blobs = shadow.blobs(&[&changes[0].old_blob, &changes[1].old_blob]).unwrap();
    assert_eq!(blobs[0], b"before\r\n");
    assert_eq!(blobs[1], [0u8, 159, 146, 150]);
    assert_eq!(changes[0].old_mode, 0o100644);
    let second = shadow.snapshot("three").unwrap();
    assert_ne!(second, first);
}

#[test]
fn excluded_ignored_and_oversize_files_stay_out_and_the_project_git_is_untouched() {
    let (home, _work, root) = setup();
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .args(args)
            .current_dir(&root)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap()
            .status
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"]);
    std::fs::write(root.join(".gitignore"), "ignored/\n").unwrap();
    std::fs::write(root.join(".gitattributes"), "* text=auto eol=crlf\n").unwrap();
    for dir in ["node_modules", "ignored", "src"] {
        std::fs::create_dir(root.join(dir)).unwrap();
        std::fs::write(root.join(dir).join("a.txt"), "x\n").unwrap();
    }
    std::fs::write(root.join(".env"), "SECRET=1").unwrap();
    std::fs::write(root.join("big.dat"), vec![b'x'; MAX_FILE_BYTES as usize + 1]).unwrap();
    let before = snapshot_of(&root.join(".git"));
    let shadow = Shadow::open(home.path(), &root).unwrap();
    let commit = shadow.snapshot("one").unwrap();
    let out = shadow.git.run(&["ls-tree", "-r", "--name-only", &commit]).unwrap();
    let names = String::from_utf8(out).unwrap();
    assert_eq!(
        names.lines().collect::<Vec<_>>(),
        [".gitattributes", ".gitignore", "src/a.txt"]
    );
    // Stored as on disk despite the project's eol=crlf attribute.
    let blob = shadow
        .git
        .run(&["cat-file", "blob", &format!("{commit}:src/a.txt")])
        .unwrap();
    assert_eq!(blob, b"x\n");
    assert_eq!(
        snapshot_of(&root.join(".git")),
        before,
        "the project's .git is not touched"
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
