//! Numbering (B14), paging hints, clamps, budget and long-line cuts, big files.

use super::*;

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
    assert_eq!(
        value["hint"],
        "Use offset=7 to continue reading (showing 3-6 of 10 lines)"
    );
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
    assert_eq!(
        value["hint"],
        "Use offset=501 to continue reading (showing 1-500 of 2500 lines)"
    );
    // limit above the 2000 ceiling is clamped.
    let (value, _) = read(&ctx, json!({"path": "big.txt", "limit": 5000})).await;
    assert_eq!(
        value["hint"],
        "Use offset=2001 to continue reading (showing 1-2000 of 2500 lines)"
    );
    // offset < 1 → 1, limit < 1 → 1, numeric strings accepted, junk → default.
    let (value, _) = read(&ctx, json!({"path": "big.txt", "offset": 0, "limit": 0})).await;
    assert_eq!(value["content"], "1|line 1");
    let (value, _) = read(&ctx, json!({"path": "big.txt", "offset": "3", "limit": "abc"})).await;
    assert!(value["content"].as_str().unwrap().starts_with("3|line 3\n"));
    assert_eq!(
        value["hint"],
        "Use offset=503 to continue reading (showing 3-502 of 2500 lines)"
    );
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
    let (value, _) = read(
        &test_ctx(dir.path()),
        json!({"path": "wide.txt", "offset": 67, "limit": 1}),
    )
    .await;
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
        let chunk: String = (0..1000)
            .map(|i| format!("log line number {i:06} with some padding text\n"))
            .collect();
        while file.get_ref().metadata().unwrap().len() < 24 * 1024 * 1024 {
            file.write_all(chunk.as_bytes()).unwrap();
            file.flush().unwrap();
        }
    }
    let ctx = test_ctx(dir.path());
    // Fast because the file is not counted to its end: the total is an estimate (its speed
    // is measured in the `tools` bench, not asserted here).
    let (value, is_error) = read(&ctx, json!({"path": "huge.log", "limit": 10})).await;
    assert!(!is_error);
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
    use crate::tools::read_file::reader::{LineTotal, PageRequest, read_page};
    let text = b"abcdefghijklmnopqrstuvwxyz\nsecond\n";
    let req = PageRequest {
        offset: 1,
        limit: 10,
        max_chars: 10,
    };
    let page = read_page(&text[..], text.len() as u64, req, u64::MAX).unwrap();
    assert_eq!(page.content, "1|abcdefgh");
    assert!(page.first_line_clamped && page.budget_cut);
    assert_eq!(page.lines_shown, 1);
    assert_eq!(page.total, LineTotal::Exact(2));
    // Skipping deep into a buffer counts lines across reads exactly.
    let many: String = (1..=100_000).map(|n| format!("{n}\n")).collect();
    let req = PageRequest {
        offset: 99_999,
        limit: 5,
        max_chars: 1000,
    };
    let page = read_page(many.as_bytes(), many.len() as u64, req, u64::MAX).unwrap();
    assert_eq!(page.content, "99999|99999\n100000|100000");
    assert_eq!(page.total, LineTotal::Exact(100_000));
}

#[tokio::test]
async fn deep_offsets_cross_buffer_boundaries_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    // ~1.3 MB: many 64 KiB buffer refills before the page, last line unterminated.
    let mut text: String = (1..=150_000).map(|n| format!("row {n}\n")).collect();
    text.push_str("tail without newline");
    write(dir.path(), "rows.txt", text.as_bytes());
    let ctx = test_ctx(dir.path());
    let (value, _) = read(&ctx, json!({"path": "rows.txt", "offset": 149_999, "limit": 5})).await;
    assert_eq!(
        value["content"],
        "149999|row 149999\n150000|row 150000\n150001|tail without newline"
    );
    assert_eq!(value["total_lines"], 150_001);
    assert_eq!(value["truncated"], false);
    let (value, _) = read(&ctx, json!({"path": "rows.txt", "offset": 70_000, "limit": 2})).await;
    assert_eq!(value["content"], "70000|row 70000\n70001|row 70001");
    assert_eq!(value["total_lines"], 150_001);
    assert_eq!(
        value["hint"],
        "Use offset=70002 to continue reading (showing 70000-70001 of 150001 lines)"
    );
}
