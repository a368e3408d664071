//! Unit tests of repository metadata: which files of a git directory are listed (refs,
//! reflogs, index, submodule and worktree state; never objects, hooks or configuration), and
//! the keys that name `.git` entries.

use super::*;

fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
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
    let (mut files, mut left_out) = (Vec::new(), Vec::new());
    let dot_git = DotGit {
        path: b".git".to_vec(),
        is_dir: true,
    };
    list(root, &dot_git, Limits::default(), &mut files, &mut left_out);
    (files, left_out)
}

#[test]
fn refs_reflogs_index_and_state_are_listed_never_objects_hooks_or_config() {
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
        "%2Egit/worktrees/wt/HEAD",
    ] {
        assert!(paths.iter().any(|p| p == wanted), "{wanted} missing from {paths:?}");
    }
    for path in &paths {
        let rest = path.strip_prefix("%2Egit/").unwrap();
        assert!(!protected(rest.as_bytes()), "{path} must not be listed");
    }
    assert!(
        !paths
            .iter()
            .any(|p| p.contains("objects") || p.contains("hooks") || p.ends_with("config"))
    );
    assert!(!paths.iter().any(|p| p.ends_with("config.worktree")));
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
    assert!(protected(b"hooks/pre-commit") && protected(b"config") && protected(b"objects/pack/x.pack"));
    assert!(protected(b"modules/lib/config") && protected(b"worktrees/wt/config.worktree"));
    assert!(!protected(b"refs/heads/hooks") && !protected(b"logs/HEAD") && !protected(b"index"));
}
