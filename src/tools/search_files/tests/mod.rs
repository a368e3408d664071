//! Tests for `search_files`: shared helpers; the cases live in `modes` and `filters`.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::SearchFilesTool;
use crate::runtime::approver::AllowAll;
use crate::runtime::file_io::read_guards::DenyList;
use crate::runtime::{SessionScope, Tool, ToolContext, ToolDisplay};

fn test_ctx(dir: &Path) -> ToolContext {
    let session = SessionScope::local("s", dir.to_path_buf(), Arc::new(AllowAll));
    ToolContext::new(Arc::new(session), Default::default(), "c", CancellationToken::new())
}

/// Runs a search; returns the JSON part, the trailing hint (if any) and is_error.
async fn search(ctx: &ToolContext, args: Value) -> (Value, Option<String>, bool) {
    let out = SearchFilesTool.run(ctx, args).await;
    assert_eq!(out.display, ToolDisplay::None);
    let (json_part, hint) = match out.content.split_once("\n\n[Hint: ") {
        Some((j, h)) => (j.to_string(), Some(format!("[Hint: {h}"))),
        None => (out.content.clone(), None),
    };
    (
        serde_json::from_str(&json_part).expect("result is JSON"),
        hint,
        out.is_error,
    )
}

/// A content search of `root` for `pattern` as the tool builds it, files only, no ceiling.
fn params(root: &Path, pattern: &str) -> super::SearchParams {
    super::SearchParams {
        pattern: pattern.to_string(),
        names: false,
        raw_path: ".".to_string(),
        root: root.to_path_buf(),
        also: Vec::new(),
        display_base: Some(root.to_path_buf()),
        cwd: root.to_path_buf(),
        file_glob: None,
        limit: 50,
        offset: 0,
        mode: super::OutputMode::FilesOnly,
        context: 0,
        deadline: std::time::Instant::now() + Duration::from_secs(30),
        hermes_home: None,
        git_ceilings: Vec::new(),
    }
}

fn write(dir: &Path, name: &str, content: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

fn set_mtime(dir: &Path, name: &str, secs_ago: u64) {
    let file = std::fs::File::options().write(true).open(dir.join(name)).unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(secs_ago))
        .unwrap();
}

mod filters;
mod modes;
