//! Unit tests of importing: a first import, an incremental one (changed, new and vanished
//! paths, a record inline), a full rebuild over an earlier tip, awkward path names quoted, and
//! a file that vanished before it could be read.

use super::*;

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

#[test]
fn imports_chain_on_the_ref_and_carry_only_what_changed() {
    let s = store();
    let mut names: Vec<&[u8]> = vec![b"a.txt", b"gone.txt", b"with space"];
    #[cfg(unix)]
    names.extend([b"quote\"back\\slash".as_slice(), b"new\nline", b"\xff\xfe bytes"]);
    let files: Vec<Wanted> = names.iter().map(|n| wanted(&s.root, n, n)).collect();
    let mut expected: Vec<Vec<u8>> = files.iter().map(|w| w.path.clone()).collect();
    let mut cache = Cache::default();
    let first = Changes {
        changed: files,
        full: true,
        inline: vec![(b".git/left-out".to_vec(), b"big.bin\0".to_vec())],
        ..Changes::default()
    };
    let (one, failed) = import(&s.git, None, first, "one", &mut cache).unwrap();
    assert!(failed.is_empty());
    expected.push(b".git/left-out".to_vec());
    expected.sort();
    assert_eq!(listing(&s.git, &one), expected);
    assert_eq!(cache.commit.as_deref(), Some(one.as_str()));
    assert_eq!(cache.entries.len(), names.len());
    assert_eq!(cache.records[b".git/left-out".as_slice()], b"big.bin\0");

    let second = Changes {
        changed: vec![
            wanted(&s.root, b"a.txt", b"changed content"),
            wanted(&s.root, b"new.txt", b"new"),
        ],
        removed: vec![b"files/gone.txt".to_vec()],
        ..Changes::default()
    };
    let (two, _) = import(&s.git, Some(&one), second, "two", &mut cache).unwrap();
    let diff = s.git.run(&["diff-tree", "-r", "--name-status", &one, &two]).unwrap();
    assert_eq!(
        String::from_utf8(diff).unwrap(),
        "M\tfiles/a.txt\nD\tfiles/gone.txt\nA\tfiles/new.txt\n"
    );
    assert_eq!(s.git.text(&["rev-parse", &format!("{two}^")]).unwrap(), one);
    let blob = s.git.run(&["cat-file", "blob", &format!("{two}:files/a.txt")]).unwrap();
    assert_eq!(blob, b"changed content");
    let cached = &cache.entries[b"files/a.txt".as_slice()];
    assert_eq!(
        s.git.text(&["rev-parse", &format!("{two}:files/a.txt")]).unwrap(),
        cached.oid
    );
    assert!(!cache.entries.contains_key(b"files/gone.txt".as_slice()));
}

#[test]
fn a_full_rebuild_replaces_the_whole_tree_and_unreadable_files_are_left_out() {
    let s = store();
    let mut cache = Cache::default();
    let old = Changes {
        changed: vec![wanted(&s.root, b"old.txt", b"old")],
        full: true,
        ..Changes::default()
    };
    let (one, _) = import(&s.git, None, old, "one", &mut cache).unwrap();
    let mut missing = wanted(&s.root, b"vanishes.txt", b"x");
    std::fs::remove_file(&missing.abs).unwrap();
    missing.stat.size = 1;
    let rebuild = Changes {
        changed: vec![wanted(&s.root, b"kept.txt", b"kept"), missing],
        full: true,
        ..Changes::default()
    };
    let (two, failed) = import(&s.git, Some(&one), rebuild, "two", &mut cache).unwrap();
    assert_eq!(failed, [b"files/vanishes.txt".to_vec()]);
    assert_eq!(listing(&s.git, &two), [b"files/kept.txt".to_vec()]);
    assert_eq!(cache.entries.len(), 1);
}
