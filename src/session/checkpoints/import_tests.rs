//! Unit tests of importing: a first import, an incremental one (changed, new and vanished
//! paths), a full rebuild over an unrelated tip, awkward path names quoted, and the delta.

use super::*;
use crate::session::checkpoints::index_file::StatData;

struct Store {
    _dir: tempfile::TempDir,
    git: Git,
    root: PathBuf,
}

fn store() -> Store {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("work");
    std::fs::create_dir(&root).unwrap();
    let git = Git::new(dir.path().join("shadow"), root.clone());
    git.init_bare().unwrap();
    Store { _dir: dir, git, root }
}

fn wanted(root: &std::path::Path, name: &[u8], content: &[u8]) -> Wanted {
    let abs = root.join(super::super::walk::path_from_bytes(name));
    std::fs::write(&abs, content).unwrap();
    let meta = std::fs::symlink_metadata(&abs).unwrap();
    let mut path = b"files/".to_vec();
    path.extend_from_slice(name);
    Wanted {
        path,
        abs,
        stat: StatData::of(&meta),
        mode: 0o100644,
    }
}

fn listing(git: &Git, commit: &str) -> Vec<Vec<u8>> {
    let out = git.run(&["ls-tree", "-r", "-z", "--name-only", commit]).unwrap();
    out.split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .map(<[u8]>::to_vec)
        .collect()
}

fn tip(git: &Git) -> String {
    std::fs::read_to_string(git.git_dir.join("refs/hermes/checkpoints"))
        .unwrap()
        .trim()
        .to_string()
}

#[test]
fn imports_chain_on_the_ref_and_carry_only_what_changed() {
    let s = store();
    let mut names: Vec<&[u8]> = vec![b"a.txt", b"gone.txt", b"with space"];
    #[cfg(unix)]
    names.extend([b"quote\"back\\slash".as_slice(), b"new\nline", b"\xff\xfe bytes"]);
    let mut files: Vec<Wanted> = names.iter().map(|n| wanted(&s.root, n, n)).collect();
    let mut cache = Cache::default();
    let first = delta(&cache, &files, true);
    assert_eq!(first.changed.len(), files.len());
    let (one, failed) = import(&s.git, None, &files, first, "one", &mut cache).unwrap();
    assert!(failed.is_empty());
    assert_eq!(tip(&s.git), one);
    let mut expected: Vec<Vec<u8>> = files.iter().map(|w| w.path.clone()).collect();
    expected.sort();
    assert_eq!(listing(&s.git, &one), expected);
    assert_eq!(cache.commit.as_deref(), Some(one.as_str()));
    cache.walked = (u32::MAX, 0);
    assert!(delta(&cache, &files, false).is_empty(), "nothing changed");

    files[0] = wanted(&s.root, b"a.txt", b"changed content");
    files.remove(1);
    files.push(wanted(&s.root, b"new.txt", b"new"));
    let second = delta(&cache, &files, false);
    assert_eq!(second.changed.len(), 2);
    assert_eq!(second.removed, [b"files/gone.txt".to_vec()]);
    let (two, _) = import(&s.git, Some(&one), &files, second, "two", &mut cache).unwrap();
    let diff = s.git.run(&["diff-tree", "-r", "--name-status", &one, &two]).unwrap();
    assert_eq!(
        String::from_utf8(diff).unwrap(),
        "M\tfiles/a.txt\nD\tfiles/gone.txt\nA\tfiles/new.txt\n"
    );
    let parent = s.git.text(&["rev-parse", &format!("{two}^")]).unwrap();
    assert_eq!(parent, one);
    let blob = s.git.run(&["cat-file", "blob", &format!("{two}:files/a.txt")]).unwrap();
    assert_eq!(blob, b"changed content");
}

#[test]
fn a_full_rebuild_replaces_the_whole_tree_and_unreadable_files_are_left_out() {
    let s = store();
    let mut cache = Cache::default();
    let old = vec![wanted(&s.root, b"old.txt", b"old")];
    let (one, _) = import(&s.git, None, &old, delta(&cache, &old, true), "one", &mut cache).unwrap();
    let mut files = vec![wanted(&s.root, b"kept.txt", b"kept")];
    let mut missing = wanted(&s.root, b"vanishes.txt", b"x");
    std::fs::remove_file(&missing.abs).unwrap();
    missing.stat.size = 1;
    files.push(missing);
    let (two, failed) = import(
        &s.git,
        Some(&one),
        &files,
        delta(&Cache::default(), &files, true),
        "two",
        &mut cache,
    )
    .unwrap();
    assert_eq!(failed, [1]);
    assert_eq!(listing(&s.git, &two), [b"files/kept.txt".to_vec()]);
    assert!(!cache.entries.contains_key(b"files/vanishes.txt".as_slice()));
}
