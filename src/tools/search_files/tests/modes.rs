//! Schema, output modes, densified results, context lines, paging and errors.

use super::*;

#[test]
fn schema_matches_hermes() {
    assert_eq!(SearchFilesTool.name(), "search_files");
    assert_eq!(
        SearchFilesTool.parameters(),
        json!({
            "type": "object",
            "properties": {
                "pattern": {"type": "string", "description": "Regex pattern for content search, or glob pattern (e.g., '*.py') for file search"},
                "target": {"type": "string", "enum": ["content", "files"], "description": "'content' searches inside file contents, 'files' searches for files by name", "default": "content"},
                "path": {"type": "string", "description": "Directory or file to search in (default: current working directory, plus any additional project folders)", "default": "."},
                "file_glob": {"type": "string", "description": "Filter files by pattern in grep mode (e.g., '*.py' to only search Python files)"},
                "limit": {"type": "integer", "description": "Maximum number of results to return (default: 50)", "default": 50},
                "offset": {"type": "integer", "description": "Skip first N results for pagination (default: 0)", "default": 0},
                "output_mode": {"type": "string", "enum": ["content", "files_only", "count"], "description": "Output format for grep mode: 'content' shows matching lines with line numbers, 'files_only' lists file paths, 'count' shows match counts per file", "default": "content"},
                "context": {"type": "integer", "description": "Number of context lines before and after each match (grep mode only)", "default": 0}
            },
            "required": ["pattern"]
        })
    );
    assert!(
        SearchFilesTool
            .description()
            .starts_with("Search file contents or find files by name.")
    );
}

#[tokio::test]
async fn content_mode_lists_matches_sorted_by_path() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "b.rs", "fn beta() {}\n// todo later\n");
    write(dir.path(), "a/a.rs", "fn alpha() {}\r\n");
    let (value, hint, is_error) = search(&test_ctx(dir.path()), json!({"pattern": "fn \\w+"})).await;
    assert!(!is_error && hint.is_none());
    assert_eq!(
        value,
        json!({"total_count": 2, "matches": [
            {"path": "a/a.rs", "line": 1, "content": "fn alpha() {}"},
            {"path": "b.rs", "line": 1, "content": "fn beta() {}"}
        ]})
    );
    // Explicit "grep" alias, absolute path → absolute result paths.
    let root = dir.path().to_str().unwrap();
    let (value, _, _) = search(
        &test_ctx(dir.path()),
        json!({"pattern": "todo", "target": "grep", "path": root}),
    )
    .await;
    assert_eq!(value["matches"][0]["path"], format!("{root}/b.rs"));
    assert_eq!(value["matches"][0]["line"], 2);
}

#[tokio::test]
async fn five_or_more_matches_are_densified() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "x.py", "hit 1\nmiss\nhit 2   \n");
    write(dir.path(), "y.py", "hit 3\nhit 4\nhit 5\n");
    let (value, _, _) = search(&test_ctx(dir.path()), json!({"pattern": "hit"})).await;
    assert_eq!(
        value,
        json!({
            "total_count": 5,
            "matches_format": "path-grouped: each file path on its own line, followed by indented '<line>: <content>' rows for matches in that file",
            "matches_text": "x.py\n  1: hit 1\n  3: hit 2\ny.py\n  1: hit 3\n  2: hit 4\n  3: hit 5"
        })
    );
}

#[tokio::test]
async fn files_only_and_count_modes() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "one.txt", "needle\nneedle\nhay\n");
    write(dir.path(), "two.txt", "needle\n");
    write(dir.path(), "three.txt", "hay\n");
    let ctx = test_ctx(dir.path());
    let (value, _, _) = search(&ctx, json!({"pattern": "needle", "output_mode": "files_only"})).await;
    assert_eq!(value, json!({"total_count": 2, "files": ["one.txt", "two.txt"]}));
    let (value, _, _) = search(&ctx, json!({"pattern": "needle", "output_mode": "count"})).await;
    assert_eq!(value, json!({"total_count": 3, "counts": {"one.txt": 2, "two.txt": 1}}));
    // Unknown output modes fall back to content, like Hermes.
    let (value, _, _) = search(&ctx, json!({"pattern": "needle", "output_mode": "bogus"})).await;
    assert_eq!(value["total_count"], 3);
    assert_eq!(value["matches"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn context_lines_surround_matches() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "c.txt", "one\ntwo\nTARGET\nfour\nfive\nsix\nseven\n");
    let (value, _, _) = search(&test_ctx(dir.path()), json!({"pattern": "TARGET", "context": 1})).await;
    assert_eq!(
        value,
        json!({"total_count": 3, "matches": [
            {"path": "c.txt", "line": 2, "content": "two"},
            {"path": "c.txt", "line": 3, "content": "TARGET"},
            {"path": "c.txt", "line": 4, "content": "four"}
        ]})
    );
    // Context is ignored by files_only / count.
    let (value, _, _) = search(
        &test_ctx(dir.path()),
        json!({"pattern": "TARGET", "context": 2, "output_mode": "count"}),
    )
    .await;
    assert_eq!(value["counts"], json!({"c.txt": 1}));
}

#[tokio::test]
async fn offset_and_limit_page_through_matches_with_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "m1\nm2\nm3\nm4\n");
    write(dir.path(), "b.txt", "m5\nm6\nm7\n");
    let ctx = test_ctx(dir.path());
    let (value, hint, _) = search(&ctx, json!({"pattern": "m\\d", "offset": 3, "limit": 3})).await;
    assert_eq!(value["total_count"], 7);
    assert_eq!(value["truncated"], true);
    assert_eq!(
        value["matches"],
        json!([
            {"path": "a.txt", "line": 4, "content": "m4"},
            {"path": "b.txt", "line": 1, "content": "m5"},
            {"path": "b.txt", "line": 2, "content": "m6"}
        ])
    );
    assert_eq!(
        hint.as_deref(),
        Some(
            "[Hint: Results truncated. Use offset=6 to see more, or narrow with a more specific pattern or file_glob.]"
        )
    );
    let (value, hint, _) = search(&ctx, json!({"pattern": "m\\d", "offset": 6, "limit": 3})).await;
    assert_eq!(value["matches"], json!([{"path": "b.txt", "line": 3, "content": "m7"}]));
    assert!(value.get("truncated").is_none() && hint.is_none());
    // offset < 0 → 0, limit < 1 → 1.
    let (value, _, _) = search(&ctx, json!({"pattern": "m\\d", "offset": -5, "limit": 0})).await;
    assert_eq!(value["matches"], json!([{"path": "a.txt", "line": 1, "content": "m1"}]));
    let (value, _, _) = search(
        &ctx,
        json!({"pattern": "m", "output_mode": "files_only", "offset": 1, "limit": 1}),
    )
    .await;
    assert_eq!(value, json!({"total_count": 2, "files": ["b.txt"]}));
}

#[tokio::test]
async fn invalid_regex_and_missing_paths_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "src/main.rs", "x\n");
    write(dir.path(), "srcs.txt", "x\n");
    let ctx = test_ctx(dir.path());
    let (value, _, is_error) = search(&ctx, json!({"pattern": "foo("})).await;
    assert!(is_error);
    assert_eq!(value["total_count"], 0);
    assert!(
        value["error"]
            .as_str()
            .unwrap()
            .starts_with("Search failed: regex parse error")
    );

    let (value, _, is_error) = search(&ctx, json!({"pattern": "x", "path": "sr"})).await;
    assert!(is_error);
    assert_eq!(
        value,
        json!({"total_count": 0, "error": "Path not found: sr. Similar paths: ./src, ./srcs.txt"})
    );
    let (value, _, _) = search(&ctx, json!({"pattern": "x", "path": "nowhere/at/all"})).await;
    assert_eq!(value["error"], "Path not found: nowhere/at/all");

    let (value, _, is_error) = search(&ctx, json!({"path": "."})).await;
    assert!(is_error);
    assert_eq!(
        value,
        json!({"error": "search_files: missing required field 'pattern'"})
    );
}

#[tokio::test]
async fn a_single_file_root_and_newline_patterns() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "f.txt", "start\nend\nother\n");
    let ctx = test_ctx(dir.path());
    let (value, _, _) = search(&ctx, json!({"pattern": "other", "path": "f.txt", "file_glob": "*.py"})).await;
    assert_eq!(
        value["matches"],
        json!([{"path": "f.txt", "line": 3, "content": "other"}])
    );
    let (value, _, _) = search(&ctx, json!({"pattern": "*.txt", "target": "files", "path": "f.txt"})).await;
    assert_eq!(value["files"], json!(["f.txt"]));
    let (value, _, _) = search(&ctx, json!({"pattern": "*.py", "target": "files", "path": "f.txt"})).await;
    assert_eq!(value, json!({"total_count": 0}));
    // `\n` switches to multi-line matching (like rg -U) and says so.
    let (value, _, is_error) = search(&ctx, json!({"pattern": "start\\nend"})).await;
    assert!(!is_error);
    assert_eq!(
        value["matches"],
        json!([
            {"path": "f.txt", "line": 1, "content": "start"},
            {"path": "f.txt", "line": 2, "content": "end"}
        ])
    );
    assert!(value["warning"].as_str().unwrap().contains("multiline mode"));
    assert!(crate::tools::search_files::content::has_regex_newline("a\\nb"));
    assert!(!crate::tools::search_files::content::has_regex_newline("a\\\\nb"));
    assert!(crate::tools::search_files::content::has_regex_newline("a\\\\\\nb"));
}

#[tokio::test]
async fn a_cancelled_turn_stops_the_search() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "needle\n");
    let ctx = test_ctx(dir.path());
    ctx.cancel.cancel();
    let out = SearchFilesTool.run(&ctx, json!({"pattern": "needle"})).await;
    assert!(out.is_error);
    assert!(out.content.contains("cancelled"));
}
