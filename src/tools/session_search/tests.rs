//! Tests of `session_search` over an in-memory database filled through the Store API: each
//! shape, exclusion of the live conversation, FTS syntax that must never error, and argument
//! validation.

use std::sync::Arc;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::*;
use crate::runtime::approver::AllowAll;
use crate::runtime::{SessionScope, ToolServices};
use crate::store::{SessionRecord, Store, now_ms};
use crate::transcript::{Message, ToolCall};

fn ctx(store: Option<Store>, session: &str) -> ToolContext {
    let session = SessionScope::local(session, std::env::temp_dir(), Arc::new(AllowAll));
    ToolContext::new(
        Arc::new(session),
        Arc::new(ToolServices {
            hermes_home: None,
            store,
            ..Default::default()
        }),
        "call-1",
        CancellationToken::new(),
    )
}

async fn session(store: &Store, id: &str, title: Option<&str>, parent: Option<&str>, messages: Vec<Message>) {
    let record = SessionRecord {
        id: id.into(),
        cwd: format!("/work/{id}"),
        title: title.map(str::to_string),
        model: Some("mock-model".into()),
        parent_session_id: parent.map(str::to_string),
        created_at: now_ms(),
        ..Default::default()
    };
    store.create_session(record, vec![]).await.unwrap();
    store.append_messages(id, messages).await.unwrap();
    // updated_at has millisecond resolution; keep the sessions' order unambiguous.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
}

/// old (titled) → other → current, each mentioning the zebra.
async fn fixture() -> Store {
    let store = Store::open_in_memory().unwrap();
    let mut call = Message::assistant("");
    call.tool_calls.push(ToolCall {
        id: "c1".into(),
        name: "terminal".into(),
        arguments: r#"{"command":"cargo test"}"#.into(),
    });
    let result = Message::tool_result(&call.tool_calls[0], "test zebra_crossing ... FAILED".into(), false);
    let mut old = vec![Message::user("the zebra crossing test fails on CI"), call, result];
    for i in 0..10 {
        old.push(Message::assistant(format!("step {i} of the investigation")));
    }
    old.push(Message::assistant("fixed: the zebra fixture used a stale clock"));
    old.push(Message::user("thanks, ship it"));
    session(&store, "old", Some("Fix zebra flake"), None, old).await;
    session(
        &store,
        "other",
        None,
        None,
        vec![Message::user("zebra stripes in the logo"), Message::assistant("ok")],
    )
    .await;
    session(
        &store,
        "current",
        None,
        None,
        vec![Message::user("what about the zebra again?")],
    )
    .await;
    store
}

async fn search(store: &Store, args: Value) -> (Value, bool) {
    let out = SessionSearchTool.run(&ctx(Some(store.clone()), "current"), args).await;
    (serde_json::from_str(&out.content).unwrap(), out.is_error)
}

fn ids(results: &Value) -> Vec<&str> {
    results
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["session_id"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn discovery_hydrates_the_top_result_and_skips_the_current_session() {
    let store = fixture().await;
    let (r, err) = search(&store, json!({"query": "zebra", "sort": "oldest"})).await;
    assert!(!err, "{r}");
    assert_eq!(r["mode"], "discover");
    assert_eq!(ids(&r["results"]), ["old", "other"]);
    let top = &r["results"][0];
    assert_eq!(top["detail"], "full");
    assert_eq!(top["matched_role"], "user");
    assert_eq!(top["title"], "Fix zebra flake");
    assert_eq!(top["cwd"], "/work/old");
    assert!(top["snippet"].as_str().unwrap().contains(">>>zebra<<<"));
    let window = top["messages"].as_array().unwrap();
    assert_eq!(window.len(), 6, "anchor + 5 after");
    assert_eq!(window[0]["anchor"], true);
    assert_eq!(window[1]["tool_calls"][0]["function"]["name"], "terminal");
    assert_eq!(window[2]["tool_name"], "terminal");
    assert_eq!(top["messages_before"], 0);
    assert_eq!(top["messages_after"], 14);
    // The bookends are the closing exchange (the opening one is already in the window).
    assert_eq!(top["bookend_start"], json!([]));
    let end: Vec<&str> = top["bookend_end"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert_eq!(
        end,
        [
            "step 9 of the investigation",
            "fixed: the zebra fixture used a stale clock",
            "thanks, ship it"
        ]
    );
    let second = &r["results"][1];
    assert_eq!(second["detail"], "compact");
    assert_eq!(second["messages"].as_array().unwrap().len(), 1);
    assert_eq!(second["bookend_end"], json!([]));
    assert_eq!(r["count"], 2);

    let (r, _) = search(&store, json!({"query": "zebra", "limit": 1})).await;
    assert_eq!(r["results"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn role_filter_sort_and_titles() {
    let store = fixture().await;
    let (r, _) = search(&store, json!({"query": "zebra_crossing FAILED", "role_filter": "tool"})).await;
    assert_eq!(ids(&r["results"]), ["old"]);
    assert_eq!(r["results"][0]["matched_role"], "tool");
    let (r, _) = search(&store, json!({"query": "zebra_crossing FAILED"})).await;
    assert_eq!(r["count"], 0);
    assert_eq!(r["message"], "No matching sessions found.");

    let (r, _) = search(&store, json!({"query": "zebra", "sort": "newest"})).await;
    assert_eq!(ids(&r["results"]), ["other", "old"]);

    let (r, _) = search(&store, json!({"query": "'fix ZEBRA flake'"})).await;
    assert_eq!(r["results"][0]["matched_role"], "session_title");
    assert_eq!(r["results"][0]["session_id"], "old");
    assert_eq!(r["results"][0]["snippet"], "Session title matched: Fix zebra flake");
}

#[tokio::test]
async fn fts_special_characters_never_error() {
    let store = fixture().await;
    for query in [
        "\"foo OR",
        "a*b",
        "NEAR(",
        "zebra OR",
        "NOT zebra",
        "(zebra",
        "col:zebra",
        "\"",
        "*",
        "zeb*",
    ] {
        let (r, err) = search(&store, json!({"query": query})).await;
        assert!(!err, "{query}: {r}");
        assert_eq!(r["success"], true, "{query}");
    }
    let (r, _) = search(&store, json!({"query": "zeb*"})).await;
    assert_eq!(r["count"], 2, "prefix search still works");
}

#[tokio::test]
async fn compacted_rows_of_the_current_session_are_discoverable() {
    let store = fixture().await;
    store
        .call_blocking(|c| {
            Ok(c.execute(
                "UPDATE messages SET active = 0, compacted = 1 WHERE session_id = 'current'",
                [],
            )?)
        })
        .unwrap();
    let (r, _) = search(&store, json!({"query": "again"})).await;
    assert_eq!(ids(&r["results"]), ["current"]);
}

#[tokio::test]
async fn forks_are_one_lineage_and_the_parents_of_the_current_session_are_live() {
    let store = fixture().await;
    session(
        &store,
        "fork",
        None,
        Some("other"),
        vec![Message::user("zebra stripes in the logo"), Message::user("more zebra")],
    )
    .await;
    let (r, _) = search(&store, json!({"query": "stripes"})).await;
    assert_eq!(r["count"], 1, "the fork and its parent are one result: {r}");
    // From inside the fork, its parent's text is already in context.
    let out = SessionSearchTool
        .run(&ctx(Some(store.clone()), "fork"), json!({"query": "stripes"}))
        .await;
    let r: Value = serde_json::from_str(&out.content).unwrap();
    assert_eq!(r["count"], 0, "{r}");
}

#[tokio::test]
async fn scroll_returns_a_window_and_refuses_the_live_session() {
    let store = fixture().await;
    let (found, _) = search(&store, json!({"query": "stale clock"})).await;
    let anchor = found["results"][0]["match_message_id"].as_i64().unwrap();
    let (r, err) = search(
        &store,
        json!({"session_id": "old", "around_message_id": anchor, "window": 1}),
    )
    .await;
    assert!(!err, "{r}");
    assert_eq!(r["mode"], "scroll");
    assert_eq!(r["window"], 1);
    let msgs = r["messages"].as_array().unwrap();
    assert_eq!(msgs.len(), 3);
    assert_eq!(msgs[1]["id"], anchor);
    assert_eq!(msgs[1]["anchor"], true);
    assert_eq!(r["messages_before"], 13);
    assert_eq!(r["messages_after"], 1);
    assert_eq!(r["session_meta"]["title"], "Fix zebra flake");
    // String ids and out-of-range windows are accepted and clamped.
    let (r, _) = search(
        &store,
        json!({"session_id": "old", "around_message_id": anchor.to_string(), "window": 99}),
    )
    .await;
    assert_eq!(r["window"], 20);

    let (current, _) = search(&store, json!({"session_id": "current"})).await;
    let live_id = current["messages"][0]["id"].as_i64().unwrap();
    let (r, err) = search(&store, json!({"session_id": "current", "around_message_id": live_id})).await;
    assert!(err);
    assert!(r["error"].as_str().unwrap().starts_with("scroll rejected"));

    let (r, _) = search(&store, json!({"session_id": "other", "around_message_id": anchor})).await;
    assert_eq!(
        r["error"],
        format!("around_message_id {anchor} not in session_id other")
    );
    let (r, _) = search(&store, json!({"session_id": "old", "around_message_id": "soon"})).await;
    assert_eq!(r["error"], "scroll requires integer around_message_id");
}

#[tokio::test]
async fn read_returns_head_and_tail_of_long_sessions() {
    let store = fixture().await;
    let (r, _) = search(&store, json!({"session_id": "other"})).await;
    assert_eq!(r["mode"], "read");
    assert_eq!(r["truncated"], false);
    assert_eq!(r["message_count"], 2);
    assert_eq!(r["messages"][0]["content"], "zebra stripes in the logo");
    let long: Vec<Message> = (0..40).map(|i| Message::user(format!("line {i}"))).collect();
    session(&store, "long", None, None, long).await;
    let (r, _) = search(&store, json!({"session_id": "@session:long"})).await;
    assert_eq!(r["truncated"], true);
    let msgs = r["messages"].as_array().unwrap();
    assert_eq!(msgs.len(), 30);
    assert_eq!(msgs[19]["content"], "line 19");
    assert_eq!(msgs[20]["content"], "line 30");
    assert!(r["message"].as_str().unwrap().starts_with("Session has 40 messages"));
    let (r, err) = search(&store, json!({"session_id": "nope"})).await;
    assert!(err);
    assert_eq!(r["error"], "session_id not found: nope");
}

#[tokio::test]
async fn browse_lists_recent_sessions_without_the_current_one() {
    let store = fixture().await;
    let (r, err) = search(&store, json!({})).await;
    assert!(!err);
    assert_eq!(r["mode"], "browse");
    assert_eq!(ids(&r["results"]), ["other", "old"]);
    assert_eq!(r["results"][1]["preview"], "the zebra crossing test fails on CI");
    assert_eq!(r["results"][1]["message_count"], 15);
    let (r, _) = search(&store, json!({"limit": 1, "query": "  "})).await;
    assert_eq!(ids(&r["results"]), ["other"]);
}

#[tokio::test]
async fn unavailable_store_and_profiles_are_clear_errors() {
    let out = SessionSearchTool.run(&ctx(None, "s"), json!({"query": "x"})).await;
    assert!(out.is_error);
    assert!(out.content.contains("session database is not configured"));
    let store = fixture().await;
    let (r, err) = search(&store, json!({"query": "zebra", "profile": "work"})).await;
    assert!(err);
    assert!(r["error"].as_str().unwrap().starts_with("profile 'work'"));
    let (r, _) = search(&store, json!({"session_id": "@session:work/old"})).await;
    assert!(r["error"].as_str().unwrap().starts_with("profile 'work'"));
    assert_eq!(SessionSearchTool.parameters()["required"], json!([]));
}

#[tokio::test]
async fn huge_messages_are_cut_to_fit_the_result_limit() {
    let store = fixture().await;
    let big: Vec<Message> = (0..40)
        .map(|i| Message::user(format!("{i} {}", "word ".repeat(2000))))
        .collect();
    session(&store, "huge", None, None, big).await;
    let (r, _) = search(&store, json!({"session_id": "huge"})).await;
    let text = r.to_string();
    assert!(
        text.chars().count() < crate::runtime::output::MAX_RESULT_CHARS,
        "{} chars",
        text.len()
    );
    assert_eq!(r["messages"][0]["content_truncated"], true);
    assert_eq!(r["messages"][0]["original_content_chars"], 10_002);
    let anchor = r["messages"][5]["id"].as_i64().unwrap();
    let (r, _) = search(
        &store,
        json!({"session_id": "huge", "around_message_id": anchor, "window": 20}),
    )
    .await;
    assert!(r.to_string().chars().count() < crate::runtime::output::MAX_RESULT_CHARS);
    let (r, _) = search(&store, json!({"query": "word", "limit": 10})).await;
    assert!(r.to_string().chars().count() < crate::runtime::output::MAX_RESULT_CHARS);
}
