//! Tests for `read_file`: schema, numbering (B14), paging hints, budget and line cuts,
//! refusals, suggestions, the editor overlay and workspace-relative paths.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::ReadFileTool;
use crate::tools::approver::AllowAll;
use crate::tools::{FileSystem, LocalFs, SessionToolState, Tool, ToolContext, ToolDisplay, Workspace};

fn ctx_with_fs(dir: &Path, fs: Arc<dyn FileSystem>) -> ToolContext {
    ToolContext {
        session_id: "s".into(),
        call_id: "c".into(),
        workspace: Arc::new(Workspace::new(dir.to_path_buf())),
        cancel: CancellationToken::new(),
        approver: Arc::new(AllowAll),
        fs,
        state: Arc::new(SessionToolState::default()),
    }
}

fn test_ctx(dir: &Path) -> ToolContext {
    ctx_with_fs(dir, Arc::new(LocalFs))
}

async fn read(ctx: &ToolContext, args: Value) -> (Value, bool) {
    let out = ReadFileTool.run(ctx, args).await;
    assert_eq!(out.display, ToolDisplay::None);
    (serde_json::from_str(&out.content).expect("result is JSON"), out.is_error)
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

#[test]
fn schema_matches_hermes() {
    assert_eq!(ReadFileTool.name(), "read_file");
    assert_eq!(
        ReadFileTool.parameters(),
        json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "Path to the file to read (absolute, relative, or ~/path)"},
                "offset": {"type": "integer", "description": "Line number to start reading from (1-indexed, default: 1)", "default": 1, "minimum": 1},
                "limit": {"type": "integer", "description": "Maximum number of lines to read (default: 500, max: 2000)", "default": 500, "maximum": 2000}
            },
            "required": ["path"]
        })
    );
    assert!(ReadFileTool.description().contains("LINE_NUM|CONTENT"));
}

#[tokio::test]
async fn trailing_newline_adds_no_phantom_line_b14() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "hi.txt", b"hi there\n");
    let (value, is_error) = read(&test_ctx(dir.path()), json!({"path": "hi.txt"})).await;
    assert!(!is_error);
    assert_eq!(
        value.to_string(),
        r#"{"content":"1|hi there","total_lines":1,"file_size":9,"truncated":false,"is_binary":false,"is_image":false}"#
    );
}

#[tokio::test]
async fn last_line_without_newline_is_counted_and_crlf_bom_are_clean() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", b"a\nb");
    write(dir.path(), "w.txt", b"\xEF\xBB\xBFfirst\r\nsecond\r\n");
    let ctx = test_ctx(dir.path());
    let (value, _) = read(&ctx, json!({"path": "a.txt"})).await;
    assert_eq!(value["content"], "1|a\n2|b");
    assert_eq!(value["total_lines"], 2);
    let (value, _) = read(&ctx, json!({"path": "w.txt"})).await;
    assert_eq!(value["content"], "1|first\n2|second");
    assert_eq!(value["total_lines"], 2);
}

#[tokio::test]
async fn offset_and_limit_page_with_a_continue_hint() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "ten.txt", numbered(1..=10).as_bytes());
    let ctx = test_ctx(dir.path());
    let (value, _) = read(&ctx, json!({"path": "ten.txt", "offset": 3, "limit": 4})).await;
    assert_eq!(value["content"], "3|line 3\n4|line 4\n5|line 5\n6|line 6");
    assert_eq!(value["truncated"], true);
    assert_eq!(value["total_lines"], 10);
    assert_eq!(value["hint"], "Use offset=7 to continue reading (showing 3-6 of 10 lines)");
    assert!(value.get("next_offset").is_none());

    // The last page: no hint, not truncated.
    let (value, _) = read(&ctx, json!({"path": "ten.txt", "offset": 7, "limit": 4})).await;
    assert_eq!(value["content"], "7|line 7\n8|line 8\n9|line 9\n10|line 10");
    assert_eq!(value["truncated"], false);
    assert!(value.get("hint").is_none());
}

#[tokio::test]
async fn defaults_and_clamps_follow_hermes() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "big.txt", numbered(1..=2500).as_bytes());
    let ctx = test_ctx(dir.path());
    // Defaults: offset 1, limit 500.
    let (value, _) = read(&ctx, json!({"path": "big.txt"})).await;
    assert_eq!(value["hint"], "Use offset=501 to continue reading (showing 1-500 of 2500 lines)");
    // limit above the 2000 ceiling is clamped.
    let (value, _) = read(&ctx, json!({"path": "big.txt", "limit": 5000})).await;
    assert_eq!(value["hint"], "Use offset=2001 to continue reading (showing 1-2000 of 2500 lines)");
    // offset < 1 → 1, limit < 1 → 1, numeric strings accepted, junk → default.
    let (value, _) = read(&ctx, json!({"path": "big.txt", "offset": 0, "limit": 0})).await;
    assert_eq!(value["content"], "1|line 1");
    let (value, _) = read(&ctx, json!({"path": "big.txt", "offset": "3", "limit": "abc"})).await;
    assert!(value["content"].as_str().unwrap().starts_with("3|line 3\n"));
    assert_eq!(value["hint"], "Use offset=503 to continue reading (showing 3-502 of 2500 lines)");
    let (value, _) = read(&ctx, json!({"path": "big.txt", "offset": 2.9, "limit": 1.5})).await;
    assert_eq!(value["content"], "2|line 2");
}

#[tokio::test]
async fn offset_past_the_end_and_empty_files_explain_themselves() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "three.txt", numbered(1..=3).as_bytes());
    write(dir.path(), "empty.txt", b"");
    let ctx = test_ctx(dir.path());
    let (value, is_error) = read(&ctx, json!({"path": "three.txt", "offset": 9})).await;
    assert!(!is_error);
    assert_eq!(value["content"], "");
    assert_eq!(
        value["hint"],
        "Note: offset 9 is beyond the end of the file (3 lines total). Retry with offset <= 3."
    );
    let (value, _) = read(&ctx, json!({"path": "empty.txt"})).await;
    assert_eq!(
        value.to_string(),
        r#"{"content":"","total_lines":0,"file_size":0,"truncated":false,"hint":"File is empty (0 bytes).","is_binary":false,"is_image":false}"#
    );
}

#[tokio::test]
async fn character_budget_cuts_on_a_line_boundary_with_next_offset() {
    let dir = tempfile::tempdir().unwrap();
    let line = "x".repeat(1500);
    let text: String = (0..300).map(|_| format!("{line}\n")).collect();
    write(dir.path(), "wide.txt", text.as_bytes());
    let (value, is_error) = read(&test_ctx(dir.path()), json!({"path": "wide.txt"})).await;
    assert!(!is_error);
    let content = value["content"].as_str().unwrap();
    assert!(content.chars().count() <= 100_000);
    // Each numbered line is "N|" + 1500 chars (plus a separator): 66 of them fit in 100 000.
    let shown = content.split('\n').count();
    assert_eq!(shown, 66);
    assert!(content.ends_with(&line), "cut on a line boundary");
    assert_eq!(value["truncated"], true);
    assert_eq!(value["truncated_by"], "bytes");
    assert_eq!(value["next_offset"], 67);
    assert_eq!(
        value["hint"],
        "Output truncated at the 100,000-char read budget after 66 line(s) (showing lines 1-66 of 300). Use offset=67 to continue."
    );
    // Continuing from next_offset picks up exactly where the cut happened.
    let (value, _) = read(&test_ctx(dir.path()), json!({"path": "wide.txt", "offset": 67, "limit": 1})).await;
    assert!(value["content"].as_str().unwrap().starts_with("67|x"));
}

#[tokio::test]
async fn long_lines_are_clamped_at_2000_characters() {
    let dir = tempfile::tempdir().unwrap();
    let long = "é".repeat(3000);
    write(dir.path(), "long.txt", format!("{long}\nshort\n").as_bytes());
    let (value, _) = read(&test_ctx(dir.path()), json!({"path": "long.txt"})).await;
    let expected = format!("1|{}... [truncated]\n2|short", "é".repeat(2000));
    assert_eq!(value["content"], expected);
    assert_eq!(value["total_lines"], 2);
}

#[tokio::test]
async fn binary_content_and_binary_extensions_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "blob.bin2", b"abc\x00def\n");
    write(dir.path(), "img.png", b"not really a png");
    let ctx = test_ctx(dir.path());
    let (value, is_error) = read(&ctx, json!({"path": "blob.bin2"})).await;
    assert!(is_error);
    assert_eq!(value["is_binary"], true);
    assert_eq!(value["file_size"], 8);
    assert_eq!(
        value["error"],
        "Binary file - cannot display as text. Use appropriate tools to handle this file type."
    );
    let (value, is_error) = read(&ctx, json!({"path": "img.png"})).await;
    assert!(is_error);
    assert_eq!(
        value,
        json!({"error": "Cannot read binary file 'img.png' (.png). Use vision_analyze for images, or terminal to inspect binary files."})
    );
}

#[tokio::test]
async fn device_paths_and_fifos_are_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = test_ctx(dir.path());
    for device in ["/dev/zero", "/dev/urandom", "/dev/stdin", "/dev/fd/0"] {
        let (value, is_error) = read(&ctx, json!({"path": device})).await;
        assert!(is_error);
        assert_eq!(
            value["error"],
            format!("Cannot read '{device}': this is a device file that would block or produce infinite output.")
        );
    }
    // A symlink to a device is caught through its target.
    let link = dir.path().join("zero-link");
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    let (value, _) = read(&ctx, json!({"path": "zero-link"})).await;
    assert!(value["error"].as_str().unwrap().contains("device file"));

    // A FIFO with no writer would block open(); it must be refused by stat alone.
    let fifo = dir.path().join("pipe");
    let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    let started = Instant::now();
    let (value, is_error) = tokio::time::timeout(Duration::from_secs(5), read(&ctx, json!({"path": "pipe"})))
        .await
        .expect("reading a FIFO must not block");
    assert!(is_error);
    assert!(value["error"].as_str().unwrap().contains("not a regular file"));
    assert!(started.elapsed() < Duration::from_secs(5));

    let (value, is_error) = read(&ctx, json!({"path": "."})).await;
    assert!(is_error);
    assert!(value["error"].as_str().unwrap().contains("is a directory"));
}

#[tokio::test]
async fn missing_files_suggest_similar_names() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["config.yaml", "main.rs", "README.md", "zzz.txt"] {
        write(dir.path(), &format!("src/{name}"), b"x\n");
    }
    let ctx = test_ctx(dir.path());
    let (value, is_error) = read(&ctx, json!({"path": "src/config.yml"})).await;
    assert!(is_error);
    assert_eq!(value["error"], "File not found: src/config.yml");
    assert_eq!(value["similar_files"][0], "src/config.yaml");
    assert_eq!(value["content"], "");
    assert_eq!(value["is_binary"], false);
    // A typo is found by edit distance.
    let (value, _) = read(&ctx, json!({"path": "src/mian.rs"})).await;
    assert_eq!(value["similar_files"][0], "src/main.rs");
    assert!(!value["similar_files"].as_array().unwrap().iter().any(|v| v == "src/zzz.txt"));
    // Nothing similar: no similar_files key at all.
    let (value, _) = read(&ctx, json!({"path": "src/qqqqqqqq"})).await;
    assert!(value.get("similar_files").is_none());
    // A missing directory is just "not found".
    let (value, _) = read(&ctx, json!({"path": "nope/file.txt"})).await;
    assert_eq!(value["error"], "File not found: nope/file.txt");
}

#[tokio::test]
async fn relative_paths_resolve_against_the_session_workspace() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "nested/deep/file.txt", b"workspace copy\n");
    let ctx = test_ctx(dir.path());
    let (value, _) = read(&ctx, json!({"path": "nested/deep/file.txt"})).await;
    assert_eq!(value["content"], "1|workspace copy");
    let (value, _) = read(&ctx, json!({"path": "./nested/../nested/deep/file.txt"})).await;
    assert_eq!(value["content"], "1|workspace copy");
    let absolute = dir.path().join("nested/deep/file.txt");
    let (value, _) = read(&ctx, json!({"path": absolute.to_str().unwrap()})).await;
    assert_eq!(value["content"], "1|workspace copy");
}

/// Serves one path from "the editor", like an unsaved buffer.
struct EditorFs {
    path: PathBuf,
    text: String,
}

impl FileSystem for EditorFs {
    fn read_text<'a>(&'a self, path: &'a Path) -> BoxFuture<'a, Option<std::io::Result<String>>> {
        Box::pin(async move { (path == self.path).then(|| Ok(self.text.clone())) })
    }

    fn write_text<'a>(&'a self, _: &'a Path, _: &'a str) -> BoxFuture<'a, Option<std::io::Result<()>>> {
        Box::pin(async { None })
    }
}

#[tokio::test]
async fn editor_buffers_win_over_the_disk_inside_the_workspace() {
    let dir = tempfile::tempdir().unwrap();
    let on_disk = write(dir.path(), "doc.txt", b"saved text\n");
    let fs = Arc::new(EditorFs { path: on_disk.clone(), text: "unsaved edit\nline two\n".into() });
    let ctx = ctx_with_fs(dir.path(), fs);
    let (value, is_error) = read(&ctx, json!({"path": "doc.txt"})).await;
    assert!(!is_error);
    assert_eq!(value["content"], "1|unsaved edit\n2|line two");
    assert_eq!(value["file_size"], 22);

    // An unsaved new buffer that is not on disk yet is readable too.
    let unsaved = dir.path().join("new.txt");
    let ctx = ctx_with_fs(dir.path(), Arc::new(EditorFs { path: unsaved, text: "fresh\n".into() }));
    let (value, _) = read(&ctx, json!({"path": "new.txt"})).await;
    assert_eq!(value["content"], "1|fresh");

    // Outside the workspace the editor is not asked.
    let other = tempfile::tempdir().unwrap();
    let outside = write(other.path(), "x.txt", b"disk\n");
    let ctx = ctx_with_fs(dir.path(), Arc::new(EditorFs { path: outside.clone(), text: "editor\n".into() }));
    let (value, _) = read(&ctx, json!({"path": outside.to_str().unwrap()})).await;
    assert_eq!(value["content"], "1|disk");
}

#[tokio::test]
async fn env_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".env", b"SECRET=1\n");
    write(dir.path(), ".env.example", b"SECRET=\n");
    let ctx = test_ctx(dir.path());
    let (value, is_error) = read(&ctx, json!({"path": ".env"})).await;
    assert!(is_error);
    assert!(value["error"].as_str().unwrap().contains("secret-bearing environment file"));
    let (value, is_error) = read(&ctx, json!({"path": ".env.example"})).await;
    assert!(!is_error);
    assert_eq!(value["content"], "1|SECRET=");
}

#[tokio::test]
async fn missing_path_argument_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let (value, is_error) = read(&test_ctx(dir.path()), json!({"offset": 2})).await;
    assert!(is_error);
    assert_eq!(value, json!({"error": "read_file: missing required field 'path'"}));
}

#[tokio::test]
async fn notebooks_are_extracted_to_text() {
    let dir = tempfile::tempdir().unwrap();
    let nb = json!({"cells": [
        {"cell_type": "markdown", "source": ["# Title\n", "text"]},
        {"cell_type": "code", "source": "print(1)\n"}
    ]});
    write(dir.path(), "n.ipynb", nb.to_string().as_bytes());
    let (value, _) = read(&test_ctx(dir.path()), json!({"path": "n.ipynb"})).await;
    assert_eq!(
        value["content"],
        "1|# ── Markdown cell 1 ──\n2|# Title\n3|text\n4|\n5|# ── Code cell 1 ──\n6|print(1)"
    );
    assert_eq!(value["extracted_document"], true);
    assert_eq!(value["total_lines"], 6);
}

#[tokio::test]
async fn huge_files_stream_the_first_page_and_estimate_the_total() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.log");
    {
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        let chunk: String = (0..1000).map(|i| format!("log line number {i:06} with some padding text\n")).collect();
        while file.get_ref().metadata().unwrap().len() < 24 * 1024 * 1024 {
            file.write_all(chunk.as_bytes()).unwrap();
            file.flush().unwrap();
        }
    }
    let ctx = test_ctx(dir.path());
    let started = Instant::now();
    let (value, is_error) = read(&ctx, json!({"path": "huge.log", "limit": 10})).await;
    let elapsed = started.elapsed();
    assert!(!is_error);
    assert!(elapsed < Duration::from_secs(2), "first page took {elapsed:?}");
    assert_eq!(value["content"].as_str().unwrap().lines().count(), 10);
    assert_eq!(value["truncated"], true);
    assert_eq!(value["total_lines_estimated"], true);
    let total = value["total_lines"].as_u64().unwrap();
    let size = value["file_size"].as_u64().unwrap();
    let per_line = format!("log line number {:06} with some padding text\n", 0).len() as u64;
    let exact = size / per_line;
    assert!(total.abs_diff(exact) < exact / 10, "estimate {total} vs {exact}");
    assert!(value["hint"].as_str().unwrap().contains(" of ~"));
    assert!(value["_hint"].is_null(), "limit 10 is a targeted read");
    let (value, _) = read(&ctx, json!({"path": "huge.log"})).await;
    assert!(value["_hint"].as_str().unwrap().starts_with("This file is large ("));
}

#[test]
fn a_first_line_over_the_budget_is_hard_cut() {
    use super::reader::{LineTotal, PageRequest, read_page};
    let text = b"abcdefghijklmnopqrstuvwxyz\nsecond\n";
    let req = PageRequest { offset: 1, limit: 10, max_chars: 10 };
    let page = read_page(&text[..], text.len() as u64, req, u64::MAX).unwrap();
    assert_eq!(page.content, "1|abcdefgh");
    assert!(page.first_line_clamped && page.budget_cut);
    assert_eq!(page.lines_shown, 1);
    assert_eq!(page.total, LineTotal::Exact(2));
    // Skipping deep into a buffer counts lines across reads exactly.
    let many: String = (1..=100_000).map(|n| format!("{n}\n")).collect();
    let req = PageRequest { offset: 99_999, limit: 5, max_chars: 1000 };
    let page = read_page(many.as_bytes(), many.len() as u64, req, u64::MAX).unwrap();
    assert_eq!(page.content, "99999|99999\n100000|100000");
    assert_eq!(page.total, LineTotal::Exact(100_000));
}
