//! The primitive on a real file system: writes land only below the root, through directories
//! that are directories; links on the way, a dangling link as the final name and non-directories
//! are refused with nothing written; modes, parents, deletes, moves and the `openat` walk.

use std::os::fd::AsFd;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};

use super::*;
use crate::runtime::file_io::test_support::names;

/// A project and a directory outside it, both canonical.
struct Fixture {
    _dir: tempfile::TempDir,
    project: PathBuf,
    outside: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();
    let (project, outside) = (base.join("project"), base.join("outside"));
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    Fixture {
        _dir: dir,
        project,
        outside,
    }
}

fn at(root: &Path, rel: &str) -> RootedPath {
    RootedPath::new(root, Path::new(rel)).unwrap()
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

#[test]
fn rooted_paths_hold_only_plain_names() {
    let root = Path::new("/p");
    assert!(RootedPath::new(root, Path::new("a/b.txt")).is_some());
    for bad in ["", "../x", "a/../b", "/abs", "./a"] {
        assert!(RootedPath::new(root, Path::new(bad)).is_none(), "{bad}");
    }
    let inside = RootedPath::within(root, Path::new("/p/src/main.rs"));
    assert_eq!((inside.root(), inside.rel()), (root, Path::new("src/main.rs")));
    let elsewhere = RootedPath::within(root, Path::new("/tmp/x"));
    assert_eq!(
        (elsewhere.root(), elsewhere.rel()),
        (Path::new("/"), Path::new("tmp/x"))
    );
    assert_eq!(elsewhere.full(), PathBuf::from("/tmp/x"));
    // The root itself is no file below it.
    assert_eq!(RootedPath::within(root, root).root(), Path::new("/"));
    assert!(matches!(split(Path::new("a/../b")), Err(BeneathError::BadPath(_))));
}

#[test]
fn file_modes_keep_set_or_flip_the_executable_bit() {
    assert_eq!(FileMode::Keep.bits(Some(0o640), 0o644), 0o640);
    assert_eq!(FileMode::Keep.bits(None, 0o644), 0o644);
    assert_eq!(FileMode::Exact(0o600).bits(Some(0o755), 0o644), 0o600);
    assert_eq!(FileMode::KeepExecutable(true).bits(Some(0o640), 0o644), 0o750);
    assert_eq!(FileMode::KeepExecutable(true).bits(None, 0o644), 0o755);
    assert_eq!(FileMode::KeepExecutable(false).bits(Some(0o755), 0o644), 0o644);
    assert_eq!(
        FileMode::Keep.bits(Some(0o104_755), 0o644),
        0o4755,
        "setuid is a permission bit, the type is not"
    );
}

#[test]
fn writes_create_parents_keep_modes_and_leave_no_temp_files() {
    let f = fixture();
    let root = Root::open(&f.project).unwrap();
    root.write(Path::new("a/b/c.txt"), b"deep", FileMode::Keep, Durability::Synced)
        .unwrap();
    assert_eq!(std::fs::read_to_string(f.project.join("a/b/c.txt")).unwrap(), "deep");
    // A new file gets what any new file in that directory gets (0o666 less the umask).
    std::fs::write(f.project.join("a/b/plain"), "").unwrap();
    assert_eq!(mode(&f.project.join("a/b/c.txt")), mode(&f.project.join("a/b/plain")));

    let script = f.project.join("run.sh");
    std::fs::write(&script, "old").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o754)).unwrap();
    write_beneath(&at(&f.project, "run.sh"), b"new", FileMode::Keep, Durability::Synced).unwrap();
    assert_eq!(
        (std::fs::read_to_string(&script).unwrap(), mode(&script)),
        ("new".into(), 0o754)
    );
    write_beneath(
        &at(&f.project, "run.sh"),
        b"x",
        FileMode::Exact(0o600),
        Durability::Unsynced,
    )
    .unwrap();
    assert_eq!(mode(&script), 0o600);
    write_beneath(
        &at(&f.project, "run.sh"),
        b"y",
        FileMode::KeepExecutable(true),
        Durability::Unsynced,
    )
    .unwrap();
    assert_eq!(mode(&script), 0o700);
    assert_eq!(names(&f.project), ["a", "run.sh"], "no staged file is left behind");

    let err = root
        .write(Path::new("a"), b"x", FileMode::Keep, Durability::Synced)
        .unwrap_err();
    assert!(matches!(err, BeneathError::IsDirectory(_)), "{err}");
    assert_eq!(
        err.to_string(),
        format!("{} is a directory", f.project.join("a").display())
    );
}

#[test]
fn a_symlinked_directory_on_the_way_is_refused_and_nothing_is_written() {
    let f = fixture();
    symlink(&f.outside, f.project.join("link")).unwrap();
    std::fs::write(f.outside.join("old.txt"), "outside").unwrap();
    let root = Root::open(&f.project).unwrap();
    let err = root
        .write(Path::new("link/new.txt"), b"pwned", FileMode::Keep, Durability::Synced)
        .unwrap_err();
    assert!(err.is_changed(), "{err:?}");
    assert_eq!(
        err.to_string(),
        format!(
            "the path changed while writing: {} is a symbolic link; nothing was written",
            f.project.join("link").display()
        )
    );
    // Deeper, creating parents, reading, deleting and moving through it: all refused.
    let deep = root.write(Path::new("link/a/b.txt"), b"x", FileMode::Keep, Durability::Synced);
    assert!(deep.unwrap_err().is_changed());
    let read = root.read(Path::new("link/old.txt")).unwrap_err();
    assert!(
        read.to_string().starts_with("the path changed while reading: "),
        "{read}"
    );
    let removed = root.remove(Path::new("link/old.txt"), Durability::Synced).unwrap_err();
    assert!(
        removed.to_string().starts_with("the path changed while deleting: "),
        "{removed}"
    );
    let moved = root.rename(
        Path::new("link/old.txt"),
        &root,
        Path::new("here.txt"),
        Durability::Synced,
    );
    assert!(
        moved
            .unwrap_err()
            .to_string()
            .starts_with("the path changed while moving: ")
    );
    std::fs::write(f.project.join("mine.txt"), "mine").unwrap();
    let moved_out = root.rename(
        Path::new("mine.txt"),
        &root,
        Path::new("link/mine.txt"),
        Durability::Synced,
    );
    assert!(moved_out.unwrap_err().is_changed());
    assert!(root.create_dirs(Path::new("link/sub")).unwrap_err().is_changed());

    assert_eq!(names(&f.outside), ["old.txt"]);
    assert_eq!(std::fs::read_to_string(f.outside.join("old.txt")).unwrap(), "outside");
    assert_eq!(names(&f.project), ["link", "mine.txt"]);
}

#[test]
fn a_file_where_a_directory_is_needed_is_refused() {
    let f = fixture();
    std::fs::write(f.project.join("blocker"), "file").unwrap();
    let err = write_beneath(
        &at(&f.project, "blocker/x.txt"),
        b"x",
        FileMode::Keep,
        Durability::Synced,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "the path changed while writing: {} is not a directory; nothing was written",
            f.project.join("blocker").display()
        )
    );
}

#[test]
fn a_symlink_as_the_final_name_is_never_followed() {
    let f = fixture();
    let missing = f.outside.join("created-by-the-link.txt");
    symlink(&missing, f.project.join("dangling")).unwrap();
    let err = write_beneath(&at(&f.project, "dangling"), b"x", FileMode::Keep, Durability::Synced).unwrap_err();
    assert!(matches!(err, BeneathError::FinalSymlink { .. }), "{err:?}");
    assert!(
        err.to_string().contains(&format!("(to {})", missing.display())),
        "{err}"
    );
    assert!(!missing.exists(), "the link's target is not created");
    assert!(
        std::fs::symlink_metadata(f.project.join("dangling"))
            .unwrap()
            .is_symlink()
    );

    // A link to an existing file: reading and writing refuse it too (a judged path has none).
    std::fs::write(f.outside.join("t.txt"), "target").unwrap();
    symlink(f.outside.join("t.txt"), f.project.join("live")).unwrap();
    assert!(read_beneath(&at(&f.project, "live")).unwrap_err().is_changed());
    assert!(write_beneath(&at(&f.project, "live"), b"x", FileMode::Keep, Durability::Synced).is_err());
    assert_eq!(std::fs::read_to_string(f.outside.join("t.txt")).unwrap(), "target");
    // Deleting the name removes the link, never its target.
    remove_beneath(&at(&f.project, "live"), Durability::Synced).unwrap();
    assert!(!f.project.join("live").exists() && f.outside.join("t.txt").exists());
}

#[test]
fn reads_deletes_and_missing_files() {
    let f = fixture();
    std::fs::create_dir_all(f.project.join("d")).unwrap();
    std::fs::write(f.project.join("d/a.txt"), "a").unwrap();
    assert_eq!(read_beneath(&at(&f.project, "d/a.txt")).unwrap().unwrap(), b"a");
    assert_eq!(read_beneath(&at(&f.project, "d/none")).unwrap(), None);
    assert_eq!(read_beneath(&at(&f.project, "no/such/file")).unwrap(), None);
    assert!(matches!(
        read_beneath(&at(&f.project, "d")),
        Err(BeneathError::IsDirectory(_))
    ));
    assert_eq!(mode_beneath(&at(&f.project, "d/none")).unwrap(), None);

    remove_beneath(&at(&f.project, "d/a.txt"), Durability::Synced).unwrap();
    assert!(!f.project.join("d/a.txt").exists());
    let missing = remove_beneath(&at(&f.project, "d/a.txt"), Durability::Synced).unwrap_err();
    assert_eq!(missing.kind(), std::io::ErrorKind::NotFound);
    let dir = remove_beneath(&at(&f.project, "d"), Durability::Synced).unwrap_err();
    assert!(matches!(dir, BeneathError::IsDirectory(_)));
    assert!(f.project.join("d").is_dir());
}

#[test]
fn moves_rename_between_directories_and_roots() {
    let f = fixture();
    let script = f.project.join("run.sh");
    std::fs::write(&script, "echo").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o751)).unwrap();
    rename_beneath(
        &at(&f.project, "run.sh"),
        &at(&f.project, "bin/run.sh"),
        Durability::Synced,
    )
    .unwrap();
    assert!(!script.exists());
    assert_eq!(mode(&f.project.join("bin/run.sh")), 0o751, "a rename keeps the inode");

    // Between two roots (an approved move out of the project).
    rename_beneath(
        &at(&f.project, "bin/run.sh"),
        &at(&f.outside, "x/run.sh"),
        Durability::Synced,
    )
    .unwrap();
    assert_eq!(std::fs::read_to_string(f.outside.join("x/run.sh")).unwrap(), "echo");

    // Only regular files move; a directory is never replaced.
    symlink("anything", f.project.join("link")).unwrap();
    let err = rename_beneath(&at(&f.project, "link"), &at(&f.project, "moved"), Durability::Synced).unwrap_err();
    assert!(matches!(err, BeneathError::FinalSymlink { .. }), "{err:?}");
    std::fs::write(f.project.join("f"), "f").unwrap();
    let err = rename_beneath(&at(&f.project, "f"), &at(&f.project, "bin"), Durability::Synced).unwrap_err();
    assert!(matches!(err, BeneathError::IsDirectory(_)), "{err:?}");
    let err = rename_beneath(&at(&f.project, "gone"), &at(&f.project, "g"), Durability::Synced).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
}

#[test]
fn modes_and_symlinks_for_a_restore() {
    let f = fixture();
    let root = Root::open(&f.project).unwrap();
    root.write(
        Path::new("s.sh"),
        b"#!/bin/sh\n",
        FileMode::Exact(0o644),
        Durability::Unsynced,
    )
    .unwrap();
    root.set_mode(Path::new("s.sh"), FileMode::KeepExecutable(true))
        .unwrap();
    assert_eq!(mode(&f.project.join("s.sh")), 0o755);
    assert_eq!(root.mode_of(Path::new("s.sh")).unwrap(), Some(0o755));
    root.symlink(Path::new("links/l"), std::ffi::OsStr::new("../s.sh"))
        .unwrap();
    assert_eq!(
        std::fs::read_link(f.project.join("links/l")).unwrap(),
        Path::new("../s.sh")
    );
    // Replacing a link swaps the link, and never writes through it.
    root.symlink(Path::new("links/l"), f.outside.join("nothing").as_os_str())
        .unwrap();
    assert_eq!(
        std::fs::read_link(f.project.join("links/l")).unwrap(),
        f.outside.join("nothing")
    );
    assert!(
        root.set_mode(Path::new("links/l"), FileMode::Exact(0o600))
            .unwrap_err()
            .is_changed()
    );
    assert_eq!(names(&f.outside), Vec::<String>::new());
    assert!(
        root.symlink(Path::new("links"), std::ffi::OsStr::new("x")).is_err(),
        "a directory stays"
    );
    assert_eq!(root.path(), f.project);
}

#[test]
fn the_openat_walk_alone_creates_and_refuses_like_the_fast_path() {
    // The walk is what runs without openat2 (other Unix systems, old kernels, seccomp).
    let f = fixture();
    let root = walk::open_root(&f.project).unwrap();
    let lookup = |create| walk::Lookup {
        root: root.as_fd(),
        root_path: &f.project,
        create,
        op: Op::Write,
    };
    let made = lookup(true).walk(Path::new("x/y/z"));
    assert!(made.is_ok());
    assert!(f.project.join("x/y/z").is_dir());
    let missing = lookup(false).walk(Path::new("q/r")).unwrap_err();
    assert_eq!(missing.kind(), std::io::ErrorKind::NotFound);
    symlink(&f.outside, f.project.join("x/out")).unwrap();
    let err = lookup(true).walk(Path::new("x/out/new")).unwrap_err();
    assert!(err.is_changed(), "{err}");
    assert!(err.to_string().contains("x/out is a symbolic link"), "{err}");
    assert_eq!(
        names(&f.outside),
        Vec::<String>::new(),
        "nothing created through the link"
    );
}

#[test]
fn the_path_based_fallback_does_the_same_operations() {
    use super::by_path::Root as PathRoot;
    let f = fixture();
    let root = PathRoot::open(&f.project).unwrap();
    assert_eq!(root.path(), f.project);
    root.write(Path::new("a/b.txt"), b"one", FileMode::Keep, Durability::Synced)
        .unwrap();
    assert_eq!(root.read(Path::new("a/b.txt")).unwrap().unwrap(), b"one");
    assert_eq!(root.read(Path::new("a/none")).unwrap(), None);
    assert!(root.mode_of(Path::new("a/b.txt")).unwrap().is_some());
    root.set_mode(Path::new("a/b.txt"), FileMode::Exact(0o444)).unwrap();
    assert!(
        std::fs::metadata(f.project.join("a/b.txt"))
            .unwrap()
            .permissions()
            .readonly()
    );
    root.rename(Path::new("a/b.txt"), &root, Path::new("c/d.txt"), Durability::Synced)
        .unwrap();
    root.create_dirs(Path::new("e/f")).unwrap();
    assert!(f.project.join("e/f").is_dir() && f.project.join("c/d.txt").is_file());
    assert!(root.create_dirs(Path::new("../x")).is_err());
    symlink(f.outside.join("t"), f.project.join("link")).unwrap();
    let err = root
        .write(Path::new("link"), b"x", FileMode::Keep, Durability::Synced)
        .unwrap_err();
    assert!(matches!(err, BeneathError::FinalSymlink { .. }), "{err:?}");
    assert!(!f.outside.join("t").exists() && f.project.join("link").is_symlink());
    root.remove(Path::new("link"), Durability::Synced).unwrap();
    assert!(!f.project.join("link").exists() && !f.project.join("link").is_symlink());
    assert!(matches!(
        root.remove(Path::new("e"), Durability::Synced),
        Err(BeneathError::IsDirectory(_))
    ));
}
