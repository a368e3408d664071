//! The `session_search` tool: recall from past sessions in our own database (FTS5 over message
//! text). The shape is inferred from the arguments as in Hermes' `tools/session_search_tool.py`:
//! `session_id` + `around_message_id` scrolls, `session_id` alone reads, `query` discovers, and
//! nothing browses recent sessions. No LLM calls: every shape returns stored messages.

mod modes;
mod shape;
#[cfg(test)]
mod tests;

use futures::future::BoxFuture;
use serde_json::{Value, json};

use crate::runtime::describe::{self, Presentation, ToolEffect};
use crate::runtime::{Tool, ToolContext, ToolOutput};
use crate::store::SearchOrder;

const DESCRIPTION: &str = "Search past sessions stored in the local session DB, or scroll inside one. FTS5-backed \
retrieval over the SQLite message store. No LLM calls — every shape returns actual messages from the DB.\n\n\
SOURCE-FIRST LIMIT\n\n  This tool searches past conversation history only. It is not evidence about the current \
contents of files, repositories or live systems: inspect those directly first when accessible, and use session_search \
as secondary context for what was previously said and done.\n\n\
FOUR CALLING SHAPES\n\n\
  1) DISCOVERY — pass `query`:\n     session_search(query=\"auth refactor\", limit=3)\n     Runs FTS5, dedupes hits by \
session lineage, and returns the top N sessions. The top-ranked result carries full context; lower-ranked results stay \
compact. Every result carries:\n       - session_id, title, when, source, cwd\n       - snippet: FTS5-highlighted match \
excerpt\n       - detail: `full` or `compact`\n       - bookend_start/bookend_end: the first/last 3 user+assistant \
messages for the full result; empty lists for compact results\n       - messages: ±5 messages around the FTS5 match for \
the full result; only the flagged anchor message for compact results\n       - match_message_id, messages_before, \
messages_after\n     Scroll a compact result when another session looks more promising.\n\n\
  2) SCROLL — pass `session_id` + `around_message_id`:\n     session_search(session_id=\"...\", around_message_id=12345, \
window=10)\n     Returns a window of ±`window` messages centered on the anchor. No FTS5, no bookends — just the slice.\n\
       - To scroll FORWARD: pass messages[-1].id back as around_message_id.\n       - To scroll BACKWARD: pass \
messages[0].id back as around_message_id.\n       - The boundary message appears in both windows — orientation \
marker.\n       - When messages_before or messages_after is < window, you're at the start or end of the session.\n\n\
  3) READ — pass `session_id` only (no around_message_id):\n     session_search(session_id=\"...\")\n     Dumps the \
whole session by id (first 20 + last 10 messages when large).\n\n\
  4) BROWSE — no args:\n     session_search()\n     Returns recent sessions chronologically: titles, previews, \
timestamps. Use when the user asks \"what was I working on\" without naming a topic.\n\n\
FTS5 SYNTAX\n\n  AND is the default — multi-word queries require all terms. Use OR explicitly for broader recall (`alpha \
OR beta OR gamma`), quoted phrases for exact match (`\"docker networking\"`), boolean (`python NOT java`), or prefix \
wildcards (`deploy*`).\n\n\
WHEN TO USE\n\n  Reach for this on questions about past conversations themselves, such as \"what did we do about X\", \
\"where did we leave Y\", or \"find the session where Z\".";

/// The `session_search` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct SessionSearchTool;

/// An integer argument given as a number or a numeric string (models send both).
fn int_arg(args: &Value, key: &str) -> Option<i64> {
    match args.get(key)? {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn str_arg<'a>(args: &'a Value, key: &str) -> Option<&'a str> {
    args.get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// Splits a pasted `@session:<profile>/<id>` link into `(profile, id)`.
fn split_link(raw: &str) -> (Option<&str>, &str) {
    let raw = raw.strip_prefix("@session:").unwrap_or(raw);
    match raw.split_once('/') {
        Some((profile, id)) if !id.is_empty() => (Some(profile).filter(|p| !p.is_empty()), id),
        _ => (None, raw),
    }
}

async fn run(ctx: &ToolContext, args: &Value) -> Value {
    let Some(store) = ctx.services.store.as_ref() else {
        return modes::failure("Session search is not available: the session database is not configured.");
    };
    let current = ctx.session.session_id.as_str();
    let (link_profile, session_id) = match str_arg(args, "session_id") {
        Some(raw) => {
            let (profile, id) = split_link(raw);
            (profile, Some(id))
        }
        None => (None, None),
    };
    if let Some(profile) = str_arg(args, "profile").or(link_profile) {
        return modes::failure(format!(
            "profile '{profile}': cross-profile session access is not supported; this agent searches its own \
             session database only. Retry without profile."
        ));
    }
    if let Some(session_id) = session_id {
        if args.get("around_message_id").is_some_and(|v| !v.is_null()) {
            let Some(around) = int_arg(args, "around_message_id") else {
                return modes::failure("scroll requires integer around_message_id");
            };
            let window = int_arg(args, "window").unwrap_or(5).clamp(1, 20) as usize;
            return modes::or_db_error(modes::scroll(store, current, session_id, around, window).await);
        }
        return modes::or_db_error(modes::read(store, session_id).await);
    }
    let limit = int_arg(args, "limit").unwrap_or(3).clamp(1, 10) as usize;
    let Some(query) = str_arg(args, "query") else {
        return modes::or_db_error(modes::browse(store, current, limit).await);
    };
    let roles: Vec<String> = str_arg(args, "role_filter")
        .map(|raw| {
            raw.split(',')
                .map(|r| r.trim().to_lowercase())
                .filter(|r| !r.is_empty())
                .collect()
        })
        .filter(|roles: &Vec<String>| !roles.is_empty())
        .unwrap_or_else(|| vec!["user".to_string(), "assistant".to_string()]);
    let order = match str_arg(args, "sort").map(str::to_lowercase).as_deref() {
        Some("newest") => SearchOrder::Newest,
        Some("oldest") => SearchOrder::Oldest,
        _ => SearchOrder::Relevance,
    };
    modes::or_db_error(modes::discover(store, current, query, roles, limit, order).await)
}

impl Tool for SessionSearchTool {
    fn name(&self) -> &'static str {
        "session_search"
    }

    fn description(&self) -> String {
        DESCRIPTION.to_string()
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "description": "Search query (discovery shape). Keywords, phrases, or boolean expressions to find in past sessions. Omit to browse recent sessions. Ignored when session_id + around_message_id are set (scroll shape)."
                },
                "limit": {
                    "type": "integer",
                    "description": "Discovery shape only. Max sessions to return (default 3, max 10). Bump to 5–10 when the topic likely spans several sessions and you want to pick the right one to scroll into.",
                    "default": 3
                },
                "sort": {
                    "type": "string",
                    "enum": ["newest", "oldest"],
                    "description": "Discovery shape only. Temporal bias on top of FTS5 ranking. Omit to keep relevance-only ordering (suitable for exploratory recall — \"what do we know about X\"). Set 'newest' for recency-shaped questions (\"where did we leave X\"). Set 'oldest' for origin-shaped questions (\"how did X start\"). Ignored in scroll and browse shapes."
                },
                "session_id": {
                    "type": "string",
                    "description": "Scroll shape. Session to read inside. Use the session_id returned from a prior discovery call. Must be paired with around_message_id."
                },
                "around_message_id": {
                    "type": "integer",
                    "description": "Scroll shape. Message id to center the window on. From a discovery result use match_message_id, or any id seen in a prior window. To scroll forward pass the last window message's id; to scroll backward pass the first."
                },
                "window": {
                    "type": "integer",
                    "description": "Scroll shape only. Messages to return on each side of the anchor (anchor itself always included). Clamped to [1, 20]. Default 5.",
                    "default": 5
                },
                "role_filter": {
                    "type": "string",
                    "description": "Optional. Comma-separated roles to include. Discovery defaults to 'user,assistant' (tool output is usually noise). Pass 'user,assistant,tool' to include tool output (debugging tool behaviour) or 'tool' to search tool output only."
                },
                "profile": {
                    "type": "string",
                    "description": "Optional. Read sessions from another Hermes profile's database (read-only). Omit to use the current profile."
                }
            },
            "required": []
        })
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(async move {
            let value = run(ctx, &args).await;
            if value.get("success").and_then(Value::as_bool) == Some(false) {
                ToolOutput::json_error(value)
            } else {
                ToolOutput::json(value)
            }
        })
    }

    fn effect(&self, _args: &Value) -> ToolEffect {
        ToolEffect::ReadOnly
    }

    fn present(&self, args: &Value, cwd: &std::path::Path) -> Presentation {
        Presentation {
            title: match describe::arg(args, "query") {
                Some(q) => format!(
                    "Search past sessions for \u{201c}{}\u{201d}",
                    describe::first_line(q, 80)
                ),
                None => "List recent sessions".into(),
            },
            ..describe::generic_presentation(self.name(), args, cwd)
        }
    }
}
