//! Tests for `read_file`: shared helpers; the cases live in `paging` and `sources`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
#[cfg(unix)] // Only `sources` (Unix only) uses it.
use std::time::Duration;

#[cfg(unix)] // Only `sources` (Unix only) uses it.
use futures::future::BoxFuture;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::ReadFileTool;
use crate::runtime::approver::AllowAll;
use crate::runtime::{FileSystem, LocalFs, SessionScope, Tool, ToolContext, ToolDisplay};

fn ctx_with_fs(dir: &Path, fs: Arc<dyn FileSystem>) -> ToolContext {
    let mut session = SessionScope::local("s", dir.to_path_buf(), Arc::new(AllowAll));
    session.fs = fs;
    ToolContext::new(Arc::new(session), Default::default(), "c", CancellationToken::new())
}

fn test_ctx(dir: &Path) -> ToolContext {
    ctx_with_fs(dir, Arc::new(LocalFs))
}

async fn read(ctx: &ToolContext, args: Value) -> (Value, bool) {
    let out = ReadFileTool.run(ctx, args).await;
    assert_eq!(out.display, ToolDisplay::None);
    (
        serde_json::from_str(&out.content).expect("result is JSON"),
        out.is_error,
    )
}

fn write(dir: &Path, name: &str, content: &[u8]) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, content).unwrap();
    path
}

fn numbered(range: std::ops::RangeInclusive<usize>) -> String {
    range.map(|n| format!("line {n}\n")).collect()
}

mod paging;
// Unix only: device files, FIFOs and symlinks.
#[cfg(unix)]
mod sources;
