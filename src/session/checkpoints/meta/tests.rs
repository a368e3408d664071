//! Unit tests of repository metadata: which files of a git directory are listed (refs,
//! reflogs, index, submodule and worktree state, the objects of nested repositories and
//! submodules, hooks and configuration; never the folder's own objects), and the keys that name
//! `.git` entries.

use super::*;

fn git(dir: &Path, args: &[&str]) {
    crate::session::checkpoints::test_git::git(dir, args);
}

/// A repository with two commits, a branch, a tag, a stash, packed refs, plus a submodule's
/// and a linked worktree's git directories.
fn repository(root: &Path) {
    git(root, &["init", "-q", "-b", "main"]);
    std::fs::write(root.join("a.txt"), "one").unwrap();
    git(root, &["add", "a.txt"]);
    git(root, &["commit", "-qm", "one"]);
    git(root, &["tag", "v1"]);
    git(root, &["pack-refs", "--all"]);
    std::fs::write(root.join("a.txt"), "two").unwrap();
    git(root, &["commit", "-qam", "two"]);
    git(root, &["branch", "feature"]);
    std::fs::write(root.join("a.txt"), "three").unwrap();
    git(root, &["stash", "-q"]);
    let sub = root.join(".git/modules/libs/sub");
    for dir in ["objects/ab", "hooks", "refs/heads"] {
        std::fs::create_dir_all(sub.join(dir)).unwrap();
    }
    std::fs::write(sub.join("HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::write(sub.join("config"), "[core]\n").unwrap();
    std::fs::write(sub.join("hooks/post-checkout"), "#!/bin/sh\n").unwrap();
    std::fs::write(sub.join("objects/ab/cd"), "object").unwrap();
    std::fs::write(sub.join("refs/heads/main"), "0000\n").unwrap();
    let worktree = root.join(".git/worktrees/wt");
    std::fs::create_dir_all(&worktree).unwrap();
    std::fs::write(worktree.join("HEAD"), "ref: refs/heads/feature\n").unwrap();
    std::fs::write(worktree.join("config.worktree"), "[core]\n").unwrap();
}

fn listed(root: &Path) -> (Vec<MetaFile>, Vec<LeftOut>) {
    listed_at(root, b".git")
}

fn listed_at(root: &Path, rel: &[u8]) -> (Vec<MetaFile>, Vec<LeftOut>) {
    let (mut files, mut left_out) = (Vec::new(), Vec::new());
    let dot_git = DotGit {
        path: rel.to_vec(),
        is_dir: true,
    };
    list(root, &dot_git, Limits::default(), &mut files, &mut left_out);
    (files, left_out)
}

#[test]
fn refs_reflogs_index_state_config_and_submodule_objects_are_listed_never_own_objects() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    repository(&root);
    let (files, left_out) = listed(&root);
    assert!(left_out.is_empty(), "{left_out:?}");
    let paths: Vec<String> = files
        .iter()
        .map(|f| String::from_utf8(f.path.clone()).unwrap())
        .collect();
    for wanted in [
        "%2Egit/HEAD",
        "%2Egit/ORIG_HEAD",
        "%2Egit/index",
        "%2Egit/packed-refs",
        "%2Egit/refs/heads/main",
        "%2Egit/refs/heads/feature",
        "%2Egit/refs/stash",
        "%2Egit/logs/HEAD",
        "%2Egit/logs/refs/stash",
        "%2Egit/modules/libs/sub/HEAD",
        "%2Egit/modules/libs/sub/refs/heads/main",
        "%2Egit/modules/libs/sub/objects/ab/cd",
        "%2Egit/worktrees/wt/HEAD",
    ] {
        assert!(paths.iter().any(|p| p == wanted), "{wanted} missing from {paths:?}");
    }
    for kept in [
        "%2Egit/modules/libs/sub/config",
        "%2Egit/modules/libs/sub/hooks/post-checkout",
        "%2Egit/worktrees/wt/config.worktree",
        "%2Egit/config",
    ] {
        assert!(paths.iter().any(|p| p == kept), "{kept} missing from {paths:?}");
    }
    for path in &paths {
        let rest = path.strip_prefix("%2Egit/").unwrap();
        assert_ne!(
            access(b".git", rest.as_bytes()),
            Access::Never,
            "{path} must not be listed"
        );
    }
    assert!(!paths.iter().any(|p| p.starts_with("%2Egit/objects")));
}

#[test]
fn a_nested_repository_keeps_its_objects_hooks_and_config() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let nested = root.join("vendor/lib");
    std::fs::create_dir_all(&nested).unwrap();
    repository(&nested);
    git(&nested, &["gc", "-q"]);
    std::fs::write(nested.join("loose.txt"), "a loose object").unwrap();
    git(&nested, &["add", "loose.txt"]);
    let (files, left_out) = listed_at(&root, b"vendor/lib/.git");
    assert!(left_out.is_empty(), "{left_out:?}");
    let paths: Vec<String> = files
        .iter()
        .map(|f| String::from_utf8(f.path.clone()).unwrap())
        .collect();
    let under = |prefix: &str| paths.iter().filter(|p| p.starts_with(prefix)).count();
    let key = "vendor%2Flib%2F%2Egit";
    assert!(under(&format!("{key}/objects/pack/")) >= 2, "pack and index: {paths:?}");
    assert_eq!(
        paths
            .iter()
            .filter(|p| p.starts_with(&format!("{key}/objects/")) && !p.contains("/pack/") && !p.contains("/info/"))
            .count(),
        1,
        "the blob added after gc: {paths:?}"
    );
    assert!(paths.contains(&format!("{key}/index")) && paths.contains(&format!("{key}/packed-refs")));
    assert!(paths.contains(&format!("{key}/config")), "{paths:?}");
}

#[test]
fn tree_paths_name_the_walk_path_they_stand_for() {
    assert_eq!(walk_path(b"files/src/a.rs").as_deref(), Some(&b"src/a.rs"[..]));
    assert_eq!(walk_path(b".git/%2Egit/HEAD").as_deref(), Some(&b".git/HEAD"[..]));
    assert_eq!(
        walk_path(b".git/vendor%2Flib%2F%2Egit/refs/heads/main").as_deref(),
        Some(&b"vendor/lib/.git/refs/heads/main"[..])
    );
    assert_eq!(walk_path(b".git/left-out"), None);
}

#[test]
fn keys_name_git_entries_and_nothing_else() {
    for rel in [".git", "vendor/lib/.git", "odd name/ü/.git"] {
        let key = encode_key(rel.as_bytes());
        assert!(!key.contains('/') && !key.contains('.'), "{key}");
        assert_eq!(decode_key(key.as_bytes()).unwrap(), rel.as_bytes());
    }
    assert_eq!(encode_key(b".git"), "%2Egit");
    for bad in [
        "excluded",
        "left-out",
        "%2E%2E%2F%2Egit",
        "%2Fabs%2F%2Egit",
        "sub%2Fnot-git",
    ] {
        assert_eq!(decode_key(bad.as_bytes()), None, "{bad}");
    }
    let own = |rest: &[u8]| access(b".git", rest);
    for never in [&b"objects/pack/x.pack"[..], b"lfs/objects/x", b"fsmonitor--daemon/x"] {
        assert_eq!(own(never), Access::Never);
    }
    for create_only in [
        &b"hooks/pre-commit"[..],
        b"config",
        b"modules/lib/config",
        b"worktrees/wt/config.worktree",
    ] {
        assert_eq!(own(create_only), Access::CreateOnly);
    }
    for free in [
        &b"refs/heads/hooks"[..],
        b"logs/HEAD",
        b"index",
        b"modules/lib/objects/ab/cd",
    ] {
        assert_eq!(own(free), Access::Free, "{}", String::from_utf8_lossy(free));
    }
    let nested = |rest: &[u8]| access(b"vendor/lib/.git", rest);
    assert_eq!(nested(b"objects/pack/x.pack"), Access::Free);
    assert_eq!(nested(b"lfs/objects/x"), Access::Free);
    assert_eq!(nested(b"hooks/pre-commit"), Access::CreateOnly);
    assert_eq!(nested(b"config"), Access::CreateOnly);
}
