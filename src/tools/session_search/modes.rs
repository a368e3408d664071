//! The four `session_search` shapes over our session database: discover (full-text search,
//! deduplicated by session lineage, top result with context and bookends, the rest compact),
//! scroll (a window around one message), read (a whole session, head + tail when long) and
//! browse (recent sessions). Content already in the live conversation — the current session
//! and the ancestors it was forked from — is left out unless it was compacted away.

use serde_json::{Value, json};

use super::shape;
use crate::store::{SearchOrder, Store, StoreError};

/// Rows fetched before deduplicating by session (a few sessions can own many hits).
const DISCOVER_SCAN_LIMIT: usize = 300;
/// Messages each side of a discovery match, and bookend messages at each end.
const DISCOVER_WINDOW: usize = 5;
const BOOKEND: usize = 3;
/// Per-message caps: window messages, bookends, and scroll/read messages.
const WINDOW_MAX_CHARS: usize = 4000;
const BOOKEND_MAX_CHARS: usize = 1200;
const COMPACT_MAX_CHARS: usize = 2000;
/// Characters of window text the fully hydrated discovery result may carry.
const FULL_RESULT_BUDGET: usize = 40_000;
/// Characters of message text one result may carry (the tool-result cap is 100,000).
const RESULT_BUDGET: usize = 60_000;
/// A read returns the first `READ_HEAD` and last `READ_TAIL` messages of a long session.
const READ_HEAD: usize = 20;
const READ_TAIL: usize = 10;

pub fn failure(error: impl Into<String>) -> Value {
    json!({"success": false, "error": error.into()})
}

fn db_error(e: StoreError) -> Value {
    failure(format!("Session database error: {e}"))
}

/// Discovery: `query` through FTS5.
pub async fn discover(
    store: &Store,
    current: &str,
    query: &str,
    roles: Vec<String>,
    limit: usize,
    order: SearchOrder,
) -> Result<Value, StoreError> {
    let live = store.session_lineage(current).await?;
    let mut results: Vec<Value> = Vec::new();
    let mut seen_roots: Vec<String> = Vec::new();

    // A query that names a session's title finds that session first (FTS covers messages only).
    let title = query.trim().trim_matches(|c| matches!(c, '`' | '\'' | '"'));
    if !title.is_empty()
        && let Some(id) = store
            .sessions_titled(title)
            .await?
            .into_iter()
            .find(|id| !live.contains(id))
        && let Some(entry) = title_entry(store, &id).await?
    {
        seen_roots.push(store.session_lineage(&id).await?.pop().unwrap_or(id));
        results.push(entry);
    }

    let hits = store.search_hits(query, roles, order, DISCOVER_SCAN_LIMIT).await?;
    let mut picked = Vec::new();
    for hit in hits {
        if seen_roots.len() >= limit {
            break;
        }
        // In the live context already, unless compaction took it out.
        if live.contains(&hit.session_id) && !hit.compacted {
            continue;
        }
        if !seen_roots.contains(&hit.lineage_root) {
            seen_roots.push(hit.lineage_root.clone());
            picked.push(hit);
        }
    }
    if results.is_empty() && picked.is_empty() {
        return Ok(json!({
            "success": true, "mode": "discover", "query": query, "detail": "adaptive",
            "results": [], "count": 0, "message": "No matching sessions found.",
        }));
    }
    let ids = picked.iter().map(|h| h.message_id).collect();
    let mut snippets = store.hit_snippets(query, ids).await?;
    for hit in picked {
        let Some(view) = store
            .message_view(&hit.session_id, hit.message_id, DISCOVER_WINDOW, BOOKEND)
            .await?
        else {
            continue;
        };
        let info = store.session_info(&hit.session_id).await?.unwrap_or_default();
        let full = results.is_empty();
        let bookends = |list: &[crate::store::FoundMessage]| -> Vec<Value> {
            if !full {
                return Vec::new();
            }
            list.iter()
                .filter(|m| !shape::is_compaction_summary(m))
                .map(|m| shape::message(m, None, Some(BOOKEND_MAX_CHARS)))
                .collect()
        };
        let window: Vec<_> = view
            .window
            .iter()
            .filter(|m| full || m.id == hit.message_id)
            .cloned()
            .collect();
        // The full result gets most of the budget; compact ones carry one message each.
        let window_cap = if full {
            shape::cap_within(&window, WINDOW_MAX_CHARS, FULL_RESULT_BUDGET)
        } else {
            COMPACT_MAX_CHARS
        };
        let mut entry = json!({
            "session_id": hit.session_id,
            "when": shape::when(info.created_at),
            "source": shape::SOURCE,
            "model": info.model.as_deref().unwrap_or("unknown"),
            "title": info.title,
            "cwd": info.cwd,
            "matched_role": hit.role,
            "match_message_id": hit.message_id,
            "snippet": snippets.remove(&hit.message_id).unwrap_or_default(),
            "bookend_start": bookends(&view.bookend_start),
            "messages": shape::messages(&window, Some(hit.message_id), Some(window_cap)),
            "bookend_end": bookends(&view.bookend_end),
            "messages_before": view.messages_before,
            "messages_after": view.messages_after,
            "detail": if full { "full" } else { "compact" },
        });
        if hit.lineage_root != hit.session_id {
            entry["parent_session_id"] = json!(hit.lineage_root);
        }
        results.push(entry);
    }
    Ok(json!({
        "success": true, "mode": "discover", "query": query, "detail": "adaptive",
        "count": results.len(), "results": results, "sessions_searched": seen_roots.len(),
    }))
}

/// A discovery result for a session whose title matched the query, anchored on its start.
async fn title_entry(store: &Store, id: &str) -> Result<Option<Value>, StoreError> {
    let Some(info) = store.session_info(id).await? else {
        return Ok(None);
    };
    let messages = store.session_messages(id).await?;
    let Some(first) = messages.first() else { return Ok(None) };
    let view = store
        .message_view(id, first.id, DISCOVER_WINDOW, BOOKEND)
        .await?
        .unwrap_or_default();
    let title = info.title.clone().unwrap_or_default();
    Ok(Some(json!({
        "session_id": id,
        "when": shape::when(info.created_at),
        "source": shape::SOURCE,
        "model": info.model.as_deref().unwrap_or("unknown"),
        "title": info.title,
        "cwd": info.cwd,
        "matched_role": "session_title",
        "match_message_id": first.id,
        "snippet": format!("Session title matched: {title}"),
        "bookend_start": [],
        "messages": shape::messages(&view.window, Some(first.id), Some(WINDOW_MAX_CHARS)),
        "bookend_end": shape::messages(&view.bookend_end, None, Some(BOOKEND_MAX_CHARS)),
        "messages_before": view.messages_before,
        "messages_after": view.messages_after,
        "detail": "full",
    })))
}

/// Scroll: `window` messages each side of `around` in `session_id`.
pub async fn scroll(
    store: &Store,
    current: &str,
    session_id: &str,
    around: i64,
    window: usize,
) -> Result<Value, StoreError> {
    let owner = store.message_owner(around).await?;
    let live = store.session_lineage(current).await?;
    let anchor_session = owner.as_ref().map_or(session_id, |o| o.session_id.as_str());
    let compacted = owner.as_ref().is_some_and(|o| !o.active && o.compacted);
    if live.iter().any(|s| s == anchor_session) && !compacted {
        return Ok(failure(
            "scroll rejected: anchor lives in the current session lineage (already in your active context)",
        ));
    }
    let Some(mut info) = store.session_info(session_id).await? else {
        return Ok(failure(format!("session_id not found: {session_id}")));
    };
    let mut view = store.message_view(session_id, around, window, 0).await?;
    let mut warning = None;
    // The model may pair a parent's id with a message of a session forked from it.
    if view.is_none()
        && let Some(owner) = &owner
        && owner.session_id != session_id
        && store.session_lineage(&owner.session_id).await?.last() == store.session_lineage(session_id).await?.last()
        && let Some(rebound) = store.message_view(&owner.session_id, around, window, 0).await?
    {
        warning = Some(format!(
            "around_message_id {around} lives in {} (same lineage as {session_id}); rebound transparently",
            owner.session_id
        ));
        info = store.session_info(&owner.session_id).await?.unwrap_or(info);
        view = Some(rebound);
    }
    let Some(view) = view else {
        return Ok(failure(format!(
            "around_message_id {around} not in session_id {session_id}"
        )));
    };
    let mut out = json!({
        "success": true,
        "mode": "scroll",
        "session_id": info.id,
        "around_message_id": around,
        "session_meta": shape::session_meta(&info),
        "window": window,
        "messages": shape::messages(&view.window, Some(around), Some(shape::cap_within(&view.window, WINDOW_MAX_CHARS, RESULT_BUDGET))),
        "messages_before": view.messages_before,
        "messages_after": view.messages_after,
    });
    if let Some(w) = warning {
        out["warning"] = json!(w);
    }
    Ok(out)
}

/// Read: a whole session, or its first and last messages when long.
pub async fn read(store: &Store, session_id: &str) -> Result<Value, StoreError> {
    let Some(info) = store.session_info(session_id).await? else {
        return Ok(failure(format!("session_id not found: {session_id}")));
    };
    let mut messages = store.session_messages(session_id).await?;
    let total = messages.len();
    let truncated = total > READ_HEAD + READ_TAIL;
    if truncated {
        messages.drain(READ_HEAD..total - READ_TAIL);
    }
    let mut out = json!({
        "success": true,
        "mode": "read",
        "session_id": session_id,
        "session_meta": shape::session_meta(&info),
        "message_count": total,
        "truncated": truncated,
        "messages": shape::messages(&messages, None, Some(shape::cap_within(&messages, WINDOW_MAX_CHARS, RESULT_BUDGET))),
    });
    if truncated {
        out["message"] = json!(format!(
            "Session has {total} messages; showing first {READ_HEAD} + last {READ_TAIL}. Pass around_message_id \
             (any id above) to scroll the middle."
        ));
    }
    Ok(out)
}

/// Browse: the most recent sessions other than this one.
pub async fn browse(store: &Store, current: &str, limit: usize) -> Result<Value, StoreError> {
    let sessions = store.recent_sessions(limit, vec![current.to_string()]).await?;
    let results: Vec<Value> = sessions.iter().map(shape::browse_row).collect();
    Ok(json!({
        "success": true,
        "mode": "browse",
        "results": results,
        "count": results.len(),
        "message": format!(
            "Showing {} most recent sessions. Pass a query= to search, or session_id+around_message_id to scroll.",
            results.len()
        ),
    }))
}

/// Turns a database failure into the tool's error result.
pub fn or_db_error(result: Result<Value, StoreError>) -> Value {
    result.unwrap_or_else(db_error)
}
