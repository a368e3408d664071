//! Criterion benches of the disk side of an edit, the price of writing through directory
//! descriptors (`file_io::beneath`) instead of by path:
//! - one 4 KiB file three directories deep, replaced by a temp file renamed over it: by path
//!   (what `atomic_write` did before) vs below the project root (`openat2` + `renameat`), each
//!   with and without fsync (fsync dominates and varies with the file system);
//! - `write_file` end to end through `Tool::run` (guards, read, approval, write) for scale.
//!
//! Run: `cargo bench --bench edits` (`TMPDIR=/dev/shm` to take the disk out). On the loaded
//! 2-core dev VM, tmpfs: 40.5 µs by path vs 41.1 µs below the root unsynced, 53 vs 48 µs
//! synced (noise); ext4: 1.92 vs 1.93 ms unsynced. `write_file` end to end: ~1.0 ms.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use criterion::Criterion;
use hermes_acp::runtime::approver::AllowAll;
use hermes_acp::runtime::file_io::GuardEnv;
use hermes_acp::runtime::file_io::beneath::{Durability, FileMode, RootedPath, write_beneath};
use hermes_acp::runtime::{SessionScope, Tool, ToolContext};
use hermes_acp::tools::write_file::WriteFileTool;
use serde_json::json;
use tokio_util::sync::CancellationToken;

const REL: &str = "src/module/inner/file.rs";

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let dir = tempfile::tempdir().expect("temp dir");
    let project = dir.path().canonicalize().expect("canonical temp dir");
    fs::create_dir_all(project.join("src/module/inner")).expect("fixture");
    let bytes = vec![b'x'; 4096];
    let target = project.join(REL);
    let rooted = RootedPath::new(&project, Path::new(REL)).expect("plain relative path");

    let mut group = c.benchmark_group("edit_disk_write");
    for (name, durability) in [("synced", Durability::Synced), ("unsynced", Durability::Unsynced)] {
        let synced = durability == Durability::Synced;
        group.bench_function(format!("by_path_{name}"), |b| {
            b.iter(|| write_by_path(&target, &bytes, synced))
        });
        group.bench_function(format!("beneath_{name}"), |b| {
            b.iter(|| write_beneath(&rooted, &bytes, FileMode::Keep, durability).expect("write"))
        });
    }
    group.finish();

    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let session = SessionScope::local("bench", project.clone(), Arc::new(AllowAll));
    let ctx = ToolContext::new(
        Arc::new(session),
        Default::default(),
        "bench-call",
        CancellationToken::new(),
    );
    let tool = WriteFileTool::with_guard(GuardEnv::with_home(&project.join("home")));
    let content = "x".repeat(4096);
    c.bench_function("write_file_tool_4k", |b| {
        b.iter(|| {
            let out = rt.block_on(tool.run(&ctx, json!({"path": REL, "content": content})));
            assert!(!out.is_error, "{}", out.content);
        })
    });
    c.final_summary();
}

/// The path-based atomic write the edit tools used before: temp file beside the target, its
/// mode copied, fsync, rename.
fn write_by_path(target: &Path, bytes: &[u8], synced: bool) {
    let parent = target.parent().expect("parent");
    fs::create_dir_all(parent).expect("parents");
    let permissions = fs::metadata(target).ok().map(|m| m.permissions());
    let staged = parent.join(format!(".file.rs.hermes-tmp.{:08x}", fastrand::u32(..)));
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&staged)
        .expect("temp");
    file.write_all(bytes).expect("write");
    if let Some(permissions) = permissions {
        file.set_permissions(permissions).expect("mode");
    }
    if synced {
        file.sync_all().expect("fsync");
    }
    drop(file);
    fs::rename(&staged, target).expect("rename");
    if synced {
        fs::File::open(parent).and_then(|d| d.sync_all()).expect("dir fsync");
    }
}
