//! Unit tests of the walk: nested repositories walked as folders, `.git` entries set aside,
//! regenerable folders skipped unless tracked, precious ignored files kept, what is left out
//! listed, the count cap's cutoff, symlinks recorded and not followed.

use super::*;

fn git(dir: &Path, args: &[&str]) {
    crate::session::checkpoints::test_git::git(dir, args);
}

fn write(root: &Path, rel: &str, content: &[u8]) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

fn paths(scan: &Scan) -> Vec<String> {
    scan.files
        .iter()
        .map(|f| String::from_utf8(f.path.clone()).unwrap())
        .collect()
}

fn text(paths: &[Vec<u8>]) -> Vec<String> {
    paths.iter().map(|p| String::from_utf8(p.clone()).unwrap()).collect()
}

#[test]
fn nested_repositories_ignored_files_and_tracked_output_folders_are_walked() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    git(&root, &["init", "-q"]);
    write(&root, ".gitignore", b".env\ndata/\n*.log\ndist/\n");
    write(&root, ".env", b"KEY=1");
    write(&root, "data/local.db", b"db");
    write(&root, "app.log", b"log");
    // A committed dist/ is source; an untracked node_modules/ is output.
    write(&root, "dist/action.js", b"js");
    git(&root, &["add", "-f", "dist/action.js"]);
    write(&root, "node_modules/x/index.js", b"js");
    write(&root, "vendor/lib/src.rs", b"rs");
    git(&root.join("vendor/lib"), &["init", "-q"]);
    write(&root, "vendor/lib/target/debug/bin", b"bin");
    write(&root, "env/pyvenv.cfg", b"home = /usr");
    write(&root, "env/lib/site.py", b"py");
    write(&root, "config/env/settings", b"kept: not a virtualenv");
    write(&root, ".hg/store/data", b"hg");
    #[cfg(unix)]
    std::os::unix::fs::symlink("vendor", root.join("link")).unwrap();

    let scan = scan(&root, None, Limits::default());
    let mut expected = vec![
        ".env",
        ".gitignore",
        "app.log",
        "config/env/settings",
        "data/local.db",
        "dist/action.js",
        "vendor/lib/src.rs",
    ];
    #[cfg(unix)]
    expected.insert(6, "link");
    assert_eq!(paths(&scan), expected);
    assert_eq!(text(&scan.excluded), ["env", "node_modules", "vendor/lib/target"]);
    let dot_gits: Vec<(String, bool)> = scan
        .dot_gits
        .iter()
        .map(|d| (String::from_utf8(d.path.clone()).unwrap(), d.is_dir))
        .collect();
    assert_eq!(dot_gits, [(".git".into(), true), ("vendor/lib/.git".into(), true)]);
    assert_eq!(
        scan.left_out,
        [LeftOut {
            path: b".hg".to_vec(),
            why: Why::ForeignVcs
        }]
    );
    #[cfg(unix)]
    assert_eq!(scan.files.iter().find(|f| f.path == b"link").unwrap().mode, 0o120000);
    assert!(scan.cutoff.is_none());
}

#[test]
fn big_files_and_files_past_the_count_cap_are_listed_with_the_cutoff() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    for name in ["a/1", "a/2", "b", "c/1", "c/2"] {
        write(&root, name, b"x");
    }
    write(&root, "a/big", &[b'x'; 64]);
    write(&root, "a/.GIT/HEAD", b"not a repository");
    let limits = Limits {
        max_files: 3,
        max_file_bytes: 16,
    };
    let scan = scan(&root, None, limits);
    // The cap counts every file in walk order, the big one too.
    assert_eq!(paths(&scan), ["a/1", "a/2"]);
    let left: Vec<(String, Why)> = scan
        .left_out
        .iter()
        .map(|l| (String::from_utf8(l.path.clone()).unwrap(), l.why))
        .collect();
    assert_eq!(
        left,
        [
            ("a/.GIT".into(), Why::Unstorable),
            ("a/big".into(), Why::TooBig),
            ("b".into(), Why::PastCount)
        ]
    );
    assert_eq!(scan.cutoff.as_deref(), Some(b"a/big".as_slice()));
}

#[test]
fn the_checkpoint_store_is_never_walked_and_the_order_is_folder_by_folder() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    write(&root, "home/checkpoints/abc/objects/x", b"x");
    write(&root, "home/config.yaml", b"y");
    write(&root, "a.txt", b"z");
    write(&root, "a/b", b"z");
    let scan = scan(&root, Some(&root.join("home/checkpoints")), Limits::default());
    assert_eq!(paths(&scan), ["a/b", "a.txt", "home/config.yaml"]);
    assert_eq!(walk_order(b"a/b", b"a.txt"), Ordering::Less);
    assert_eq!(walk_order(b"a.txt", b"a/b"), Ordering::Greater);
    assert_eq!(walk_order(b"m/z", b"n"), Ordering::Less);
}

#[test]
fn a_large_folder_is_read_in_parallel_and_kept_in_walk_order() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let mut expected = Vec::new();
    for d in 0..21 {
        for f in 0..100 {
            let rel = format!("d{d:02}/f{f:03}");
            write(&root, &rel, b"x");
            expected.push(rel);
        }
    }
    assert!(expected.len() >= PARALLEL_FROM);
    let scan = scan(&root, None, Limits::default());
    assert_eq!(paths(&scan), expected);
    assert!(scan.files.iter().all(|f| f.stat.size == 1 && f.mode == 0o100644));
}
