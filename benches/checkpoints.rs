//! Criterion bench of `/undo` checkpoints on generated projects. On 2 000 files (a mid-size
//! project): the first snapshot, an incremental one after 10 files changed, an unchanged
//! folder. On 10 000 files: the same three (incremental target ≤ 50 ms), the incremental
//! snapshot with a nested git repository of 1 000 files whose ref moved, and restoring a
//! checkpoint after 100 files changed (80 modified, 10 deleted, 10 created) through the local
//! file system. Last, a project of 10 000 files that is a git repository itself (10 000 loose
//! objects): the first snapshot, and an incremental one after a commit of 10 changed files (its
//! new object files are kept too).

use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{BatchSize, Criterion};
use hermes_acp::runtime::LocalFs;
use hermes_acp::session::checkpoints::{Shadow, restore, shadow_dir};

const PER_DIR: usize = 100;

fn file(root: &Path, i: usize) -> PathBuf {
    root.join(format!("src/m{:03}/f{:03}.rs", i / PER_DIR, i % PER_DIR))
}

/// `dirs` folders of `PER_DIR` source files each.
fn project(root: &Path, dirs: usize) {
    for d in 0..dirs {
        std::fs::create_dir_all(root.join(format!("src/m{d:03}"))).unwrap();
    }
    for i in 0..dirs * PER_DIR {
        std::fs::write(
            file(root, i),
            format!("// file {i}\npub fn f{i}() -> usize {{ {i} }}\n").repeat(8),
        )
        .unwrap();
    }
}

fn git(dir: &Path, args: &[&str]) {
    let status = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "b")
        .env("GIT_AUTHOR_EMAIL", "b@b")
        .env("GIT_COMMITTER_NAME", "b")
        .env("GIT_COMMITTER_EMAIL", "b@b")
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

/// A repository of 1 000 committed files.
fn nested_repository(dir: &Path) {
    for i in 0..1000 {
        let path = dir.join(format!("m{:02}/f{i:03}.txt", i / 100));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, format!("nested {i}\n")).unwrap();
    }
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["add", "."]);
    git(dir, &["commit", "-qm", "nested"]);
}

/// The first snapshot, an incremental one after 10 files changed, and an unchanged folder,
/// named `<what>_<label>`; returns the shadow repository (with its snapshots) for more.
fn snapshots(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    home: &Path,
    root: &Path,
    label: &str,
    round: &mut usize,
) -> Shadow {
    let shadow_path = shadow_dir(home, root);
    group.bench_function(format!("first_{label}"), |b| {
        b.iter_batched(
            || {
                let _ = std::fs::remove_dir_all(&shadow_path);
            },
            |()| Shadow::open(home, root).unwrap().snapshot("first").unwrap().commit,
            BatchSize::PerIteration,
        )
    });

    let shadow = Shadow::open(home, root).unwrap();
    shadow.snapshot("base").unwrap();
    let files = std::fs::read_dir(root.join("src")).unwrap().count() * PER_DIR;
    group.bench_function(format!("incremental_10_touched_{label}"), |b| {
        b.iter_batched(
            || {
                *round += 1;
                for i in 0..10 {
                    std::fs::write(file(root, i * (files / 10 - 3)), format!("// round {round}\n")).unwrap();
                }
            },
            |()| shadow.snapshot("incremental").unwrap().commit,
            BatchSize::PerIteration,
        )
    });

    group.bench_function(format!("unchanged_{label}"), |b| {
        b.iter(|| shadow.snapshot("unchanged").unwrap().commit)
    });
    shadow
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("checkpoints");
    group.sample_size(10).measurement_time(Duration::from_secs(20));
    let mut round = 0usize;

    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path().canonicalize().unwrap();
    project(&root, 20);
    snapshots(&mut group, home.path(), &root, "2k_files", &mut round);

    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path().canonicalize().unwrap();
    project(&root, 100);
    let shadow = snapshots(&mut group, home.path(), &root, "10k_files", &mut round);

    let nested = root.join("vendor/lib");
    nested_repository(&nested);
    shadow.snapshot("with nested").unwrap();
    group.bench_function("incremental_10_touched_10k_files_nested_repo_ref_moved", |b| {
        b.iter_batched(
            || {
                round += 1;
                for i in 0..10 {
                    std::fs::write(file(&root, i * 997), format!("// round {round}\n")).unwrap();
                }
                let branch = format!("b{}", round % 2);
                git(&nested, &["branch", "-f", &branch]);
            },
            |()| shadow.snapshot("incremental").unwrap().commit,
            BatchSize::PerIteration,
        )
    });
    std::fs::remove_dir_all(root.join("vendor")).unwrap();

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let checkpoint = shadow.snapshot("before undo").unwrap().commit;
    group.bench_function("undo_100_files_of_10k", |b| {
        b.iter_batched(
            || {
                for i in 0..80 {
                    std::fs::write(file(&root, i * 101), "changed\n").unwrap();
                }
                for i in 80..90 {
                    std::fs::remove_file(file(&root, i * 101)).unwrap();
                }
                for i in 0..10 {
                    std::fs::write(root.join(format!("src/new{i}.rs")), "new\n").unwrap();
                }
            },
            |()| {
                let done = runtime
                    .block_on(restore(home.path(), &root, &checkpoint, &LocalFs))
                    .unwrap();
                assert_eq!((done.restored.len(), done.failures.len()), (100, 0));
            },
            BatchSize::PerIteration,
        )
    });

    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path().canonicalize().unwrap();
    project(&root, 100);
    git(&root, &["init", "-q", "-b", "main"]);
    git(&root, &["add", "."]);
    git(&root, &["commit", "-qm", "base"]);
    let shadow_path = shadow_dir(home.path(), &root);
    group.bench_function("first_10k_files_own_repo", |b| {
        b.iter_batched(
            || {
                let _ = std::fs::remove_dir_all(&shadow_path);
            },
            |()| {
                Shadow::open(home.path(), &root)
                    .unwrap()
                    .snapshot("first")
                    .unwrap()
                    .commit
            },
            BatchSize::PerIteration,
        )
    });
    let shadow = Shadow::open(home.path(), &root).unwrap();
    shadow.snapshot("base").unwrap();
    group.bench_function("incremental_10_committed_10k_files_own_repo", |b| {
        b.iter_batched(
            || {
                round += 1;
                for i in 0..10 {
                    std::fs::write(file(&root, i * 997), format!("// round {round}\n")).unwrap();
                }
                git(&root, &["commit", "-qam", "ten"]);
            },
            |()| shadow.snapshot("incremental").unwrap().commit,
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
