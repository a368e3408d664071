//! Criterion bench of `/undo` checkpoints on a generated 10 000-file project: the first
//! snapshot (a fresh shadow repository), an incremental snapshot after 10 files changed
//! (target ≤ 50 ms), and restoring a checkpoint after 100 files changed (80 modified, 10
//! deleted, 10 created) through the local file system.

use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{BatchSize, Criterion};
use hermes_acp::session::checkpoints::{Shadow, restore, shadow_dir};
use hermes_acp::tools::LocalFs;

const DIRS: usize = 100;
const PER_DIR: usize = 100;

fn file(root: &Path, i: usize) -> PathBuf {
    root.join(format!("src/m{:03}/f{:03}.rs", i / PER_DIR, i % PER_DIR))
}

fn project(root: &Path) {
    for d in 0..DIRS {
        std::fs::create_dir_all(root.join(format!("src/m{d:03}"))).unwrap();
    }
    for i in 0..DIRS * PER_DIR {
        std::fs::write(
            file(root, i),
            format!("// file {i}\npub fn f{i}() -> usize {{ {i} }}\n").repeat(8),
        )
        .unwrap();
    }
}

fn bench(c: &mut Criterion) {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path().canonicalize().unwrap();
    project(&root);
    let shadow_path = shadow_dir(home.path(), &root);
    let mut group = c.benchmark_group("checkpoints");
    group.sample_size(10).measurement_time(Duration::from_secs(20));

    group.bench_function("first_10k_files", |b| {
        b.iter_batched(
            || {
                let _ = std::fs::remove_dir_all(&shadow_path);
            },
            |()| Shadow::open(home.path(), &root).unwrap().snapshot("first").unwrap(),
            BatchSize::PerIteration,
        )
    });

    let shadow = Shadow::open(home.path(), &root).unwrap();
    shadow.snapshot("base").unwrap();
    let mut round = 0usize;
    group.bench_function("incremental_10_touched", |b| {
        b.iter_batched(
            || {
                round += 1;
                for i in 0..10 {
                    std::fs::write(file(&root, i * 997), format!("// round {round}\n")).unwrap();
                }
            },
            |()| shadow.snapshot("incremental").unwrap(),
            BatchSize::PerIteration,
        )
    });

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let checkpoint = shadow.snapshot("before undo").unwrap();
    group.bench_function("undo_100_files", |b| {
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
                let (done, failed) = runtime
                    .block_on(restore(home.path(), &root, &checkpoint, &LocalFs))
                    .unwrap();
                assert_eq!((done.len(), failed.len()), (100, 0));
            },
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
