//! Tests of the `todo` tool: replace and merge semantics, normalisation, summary counts.

use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::*;
use crate::runtime::SessionScope;
use crate::runtime::approver::AllowAll;

fn test_ctx(dir: &Path) -> ToolContext {
    let session = SessionScope::local("s1", dir.to_path_buf(), Arc::new(AllowAll));
    ToolContext::new(
        Arc::new(session),
        Default::default(),
        "call-1",
        CancellationToken::new(),
    )
}

async fn call(ctx: &ToolContext, args: Value) -> (Value, bool) {
    let out = TodoTool.run(ctx, args).await;
    (serde_json::from_str(&out.content).unwrap(), out.is_error)
}

#[tokio::test]
async fn reading_an_empty_list_returns_zero_counts() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = test_ctx(dir.path());
    let (result, is_error) = call(&ctx, json!({})).await;
    assert!(!is_error);
    assert_eq!(
        result,
        json!({"todos": [], "summary": {"total": 0, "pending": 0, "in_progress": 0, "completed": 0, "cancelled": 0}})
    );
}

#[tokio::test]
async fn replace_writes_the_whole_list_with_summary_counts() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = test_ctx(dir.path());
    call(
        &ctx,
        json!({"todos": [{"id": "old", "content": "gone", "status": "pending"}]}),
    )
    .await;
    let todos = json!([
        {"id": "1", "content": "Plan", "status": "completed"},
        {"id": "2", "content": "Build", "status": "in_progress"},
        {"id": "3", "content": "Test", "status": "pending"},
        {"id": "4", "content": "Skip", "status": "cancelled"},
    ]);
    let (result, _) = call(&ctx, json!({"todos": todos, "merge": false})).await;
    assert_eq!(result["todos"], todos);
    assert_eq!(
        result["summary"],
        json!({"total": 4, "pending": 1, "in_progress": 1, "completed": 1, "cancelled": 1})
    );
    let (count, second) = ctx
        .session
        .state
        .with_slot(|list: &mut TodoList| (list.items().len(), list.items()[1].status));
    assert_eq!(count, 4);
    assert_eq!(second, TodoStatus::InProgress);
}

#[tokio::test]
async fn merge_updates_by_id_keeps_order_and_appends_new_items() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = test_ctx(dir.path());
    call(
        &ctx,
        json!({"todos": [
            {"id": "a", "content": "First", "status": "in_progress"},
            {"id": "b", "content": "Second", "status": "pending"},
        ]}),
    )
    .await;
    let (result, _) = call(
        &ctx,
        json!({"merge": true, "todos": [
            {"id": "a", "status": "completed"},
            {"id": "c", "content": "Third", "status": "pending"},
            {"id": "b", "content": "Second, reworded", "status": "bogus"},
            {"content": "no id is skipped", "status": "pending"},
        ]}),
    )
    .await;
    assert_eq!(
        result["todos"],
        json!([
            {"id": "a", "content": "First", "status": "completed"},
            {"id": "b", "content": "Second, reworded", "status": "pending"},
            {"id": "c", "content": "Third", "status": "pending"},
        ])
    );
    assert_eq!(result["summary"]["total"], 3);
    assert_eq!(result["summary"]["completed"], 1);
}

#[tokio::test]
async fn replace_normalises_items_and_collapses_duplicate_ids() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = test_ctx(dir.path());
    let (result, _) = call(
        &ctx,
        json!({"todos": [
            {"id": "x", "content": "early", "status": "pending"},
            {"id": " 7 ", "content": "  spaced  ", "status": " In_Progress "},
            {"id": "x", "content": "late", "status": "weird"},
            {"status": "completed"},
            "not an object",
        ]}),
    )
    .await;
    assert_eq!(
        result["todos"],
        json!([
            {"id": "7", "content": "spaced", "status": "in_progress"},
            {"id": "x", "content": "late", "status": "pending"},
            {"id": "?", "content": "(no description)", "status": "completed"},
            {"id": "?", "content": "(invalid item)", "status": "pending"},
        ])
    );
}

#[tokio::test]
async fn todos_sent_as_a_json_string_are_accepted_and_bad_types_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = test_ctx(dir.path());
    let (result, is_error) = call(
        &ctx,
        json!({"todos": "[{\"id\":\"1\",\"content\":\"x\",\"status\":\"pending\"}]"}),
    )
    .await;
    assert!(!is_error);
    assert_eq!(result["summary"]["pending"], 1);

    let (result, is_error) = call(&ctx, json!({"todos": "not json"})).await;
    assert!(is_error);
    assert_eq!(
        result["error"],
        "todos must be a list of objects, got unparseable string"
    );

    let (result, is_error) = call(&ctx, json!({"todos": {"id": "1"}})).await;
    assert!(is_error);
    assert_eq!(result["error"], "todos must be a list, got dict");
    // A failed call leaves the list alone.
    assert_eq!(ctx.session.state.with_slot(|list: &mut TodoList| list.items().len()), 1);
}

#[tokio::test]
async fn empty_list_clears_and_long_content_is_capped() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = test_ctx(dir.path());
    let long = "y".repeat(MAX_CONTENT_CHARS + 50);
    let (result, _) = call(
        &ctx,
        json!({"todos": [{"id": "1", "content": long, "status": "pending"}]}),
    )
    .await;
    let content = result["todos"][0]["content"].as_str().unwrap();
    assert_eq!(content.chars().count(), MAX_CONTENT_CHARS);
    assert!(content.ends_with(TRUNCATION_MARKER));
    let (result, _) = call(&ctx, json!({"todos": []})).await;
    assert_eq!(result["summary"]["total"], 0);
}

#[test]
fn schema_matches_hermes() {
    let tool = TodoTool;
    assert_eq!(tool.name(), "todo");
    let params = tool.parameters();
    assert_eq!(params["required"], json!([]));
    assert_eq!(params["properties"]["merge"]["default"], json!(false));
    let item = &params["properties"]["todos"]["items"];
    assert_eq!(item["required"], json!(["id", "content", "status"]));
    assert_eq!(
        item["properties"]["status"]["enum"],
        json!(["pending", "in_progress", "completed", "cancelled"])
    );
    assert!(tool.description().contains("merge=true: update existing items by id"));
}
