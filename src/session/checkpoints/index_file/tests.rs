//! Unit tests of the index reader against indexes git itself wrote: versions 2, 3 (an
//! intent-to-add entry carries extended flags) and 4 (prefix-compressed paths).

use super::*;

fn git(dir: &Path, args: &[&str]) -> Vec<u8> {
    crate::session::checkpoints::test_git::git(dir, args)
}

fn listed(dir: &Path) -> Vec<Vec<u8>> {
    git(dir, &["ls-files", "-z", "--cached"])
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .map(<[u8]>::to_vec)
        .collect()
}

#[test]
fn every_index_version_git_writes_reads_back_as_git_lists_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q"]);
    let long = "d".repeat(200);
    for path in [
        "a.txt",
        "src/lib.rs",
        "src/main.rs",
        "src/nested/deep.rs",
        "zz",
        &format!("{long}/x"),
    ] {
        let file = root.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, path).unwrap();
    }
    std::fs::write(root.join("new.txt"), "intent").unwrap();
    git(root, &["add", "a.txt", "src", "zz", &long]);
    git(root, &["add", "-N", "new.txt"]);
    for version in ["3", "4", "2"] {
        if version == "2" {
            git(root, &["rm", "-q", "--cached", "new.txt"]);
        }
        git(root, &["update-index", "--index-version", version]);
        let entries = read(&root.join(".git/index")).unwrap();
        let paths: Vec<Vec<u8>> = entries.iter().map(|e| e.path.clone()).collect();
        assert_eq!(paths, listed(root), "version {version}");
        let lib = entries.iter().find(|e| e.path == b"src/lib.rs").unwrap();
        assert_eq!(lib.mode, 0o100644);
        let meta = std::fs::symlink_metadata(root.join("src/lib.rs")).unwrap();
        assert!(lib.stat.same_file_state(&StatData::of(&meta)), "version {version}");
    }
}

#[test]
fn tracked_folders_are_found_by_prefix_and_a_missing_index_is_empty() {
    let entry = |p: &str| IndexEntry {
        path: p.as_bytes().to_vec(),
        stat: StatData::default(),
        mode: 0o100644,
    };
    let entries = [
        entry("build.rs"),
        entry("build/gen.sh"),
        entry("dist-old/x"),
        entry("src/a"),
    ];
    assert!(tracks_under(&entries, b"build"));
    assert!(!tracks_under(&entries, b"dist"));
    assert!(!tracks_under(&entries, b"src/a"));
    assert!(tracks_under(&entries, b"src"));
    assert!(read(Path::new("/nonexistent/index")).unwrap().is_empty());
    assert!(parse(b"JUNK", 20).is_err());
}
