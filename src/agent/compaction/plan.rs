//! Deciding whether to compact and where to cut (pure). The history splits into a head (the
//! first exchange: the first user message up to and including the first answer without tool
//! calls), a middle that gets summarised, and a protected tail (at least `protect_last_n`
//! messages and about `target_ratio` of the threshold in tokens). Boundaries move so that no
//! tool result is separated from the assistant message that called it.

use std::collections::HashSet;

use super::CompactionPolicy;
use super::estimate::{estimate_tokens, message_tokens};
use crate::transcript::{Message, Role};

/// A `/compact` inside one long exchange keeps at least this many recent messages even when
/// `protect_last_n` is larger (Hermes caps its tail floor the same way).
const MANUAL_TAIL_FLOOR: usize = 8;
/// The middle must hold at least this many messages: replacing fewer saves nothing.
const MIN_MIDDLE_MESSAGES: usize = 2;

/// Where to cut the history, and the numbers the decision was based on.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// Identifies this compaction (`compactionId` on the wire, `meta.compaction.id` in history).
    pub id: String,
    /// `history[..head_end]` is kept verbatim (the first exchange).
    pub head_end: usize,
    /// `history[head_end..tail_start]` is summarised; `history[tail_start..]` is kept.
    pub tail_start: usize,
    /// The prompt size that triggered the compaction (an estimate for `/compact`).
    pub prompt_tokens: u64,
    pub threshold: u64,
    /// Token budget of the protected tail; pruning alone must leave this much headroom.
    pub tail_budget: u64,
    /// Estimated tokens of the whole history and of the middle.
    pub history_tokens: u64,
    pub middle_tokens: u64,
    /// Requested with `/compact` rather than triggered by the threshold.
    pub manual: bool,
    /// What the user asked the summary to concentrate on (`/compact <instructions>`).
    pub instructions: Option<String>,
}

impl Plan {
    /// The messages the summary replaces.
    pub fn middle<'a>(&self, history: &'a [Message]) -> &'a [Message] {
        &history[self.head_end..self.tail_start]
    }
}

/// Whether to compact before the next model call: `None` when the prompt is below the
/// threshold, or there is nothing between head and tail to summarise.
/// `prompt_tokens` is the projected size of the next prompt (see `ContextMeter`).
pub fn plan(history: &[Message], cfg: &CompactionPolicy, window: u64, prompt_tokens: u64) -> Option<Plan> {
    let threshold = cfg.threshold_tokens(window);
    // Whether automatic compaction is on at all is the caller's question (the session may
    // override `compression.enabled`).
    if prompt_tokens < threshold {
        return None;
    }
    build(history, cfg, window, prompt_tokens, cfg.protect_last_n)
}

/// The plan for `/compact`: the user wants it now, however short the conversation, so
/// everything but the last exchange (the last user message and what followed it) is
/// summarised — the first exchange and `protect_last_n` included. A conversation that is one
/// long exchange is cut inside it instead (its first message and at most 8 recent messages
/// kept). `None` when there is nothing to summarise. (Whether compaction is enabled is the
/// caller's check, because it has its own reply.)
pub fn plan_manual(history: &[Message], cfg: &CompactionPolicy, window: u64) -> Option<Plan> {
    before_last_exchange(history, cfg, window).or_else(|| {
        let floor = cfg.protect_last_n.min(MANUAL_TAIL_FLOOR);
        build(history, cfg, window, estimate_tokens(history), floor).map(|plan| Plan { manual: true, ..plan })
    })
}

/// Everything before the last exchange as the middle, when there is something before it.
fn before_last_exchange(history: &[Message], cfg: &CompactionPolicy, window: u64) -> Option<Plan> {
    let paired = paired_ids(history);
    // The last exchange starts at a user message; an earlier one if a call/result pair would
    // cross the cut (only possible in a history that was already damaged).
    let tail_start = (MIN_MIDDLE_MESSAGES..history.len())
        .rev()
        .filter(|&i| starts_exchange(&history[i]))
        .find(|&i| pairs_within(&history[..i], &paired))?;
    Some(Plan {
        id: format!("compaction_{}", uuid::Uuid::new_v4().simple()),
        head_end: 0,
        tail_start,
        prompt_tokens: estimate_tokens(history),
        threshold: cfg.threshold_tokens(window),
        tail_budget: cfg.tail_budget(window),
        history_tokens: estimate_tokens(history),
        middle_tokens: estimate_tokens(&history[..tail_start]),
        manual: true,
        instructions: None,
    })
}

/// Whether `message` is the user's own message, which starts an exchange (not a compaction
/// summary, nor the note a spent budget leaves).
fn starts_exchange(message: &Message) -> bool {
    message.role() == Role::User && !super::marker::is_compaction_summary(message) && !message.meta.budget_note
}

fn build(
    history: &[Message],
    cfg: &CompactionPolicy,
    window: u64,
    prompt_tokens: u64,
    tail_floor: usize,
) -> Option<Plan> {
    let tail_budget = cfg.tail_budget(window);
    let head_end = head_end(history, tail_budget / 2);
    let tail_start = tail_start(history, head_end, tail_floor, tail_budget)?;
    if tail_start < head_end + MIN_MIDDLE_MESSAGES {
        return None;
    }
    let history_tokens = estimate_tokens(history);
    Some(Plan {
        id: format!("compaction_{}", uuid::Uuid::new_v4().simple()),
        head_end,
        tail_start,
        prompt_tokens,
        threshold: cfg.threshold_tokens(window),
        tail_budget,
        history_tokens,
        middle_tokens: estimate_tokens(&history[head_end..tail_start]),
        manual: false,
        instructions: None,
    })
}

/// The end of the first exchange. When that exchange is itself large (a long first agentic
/// turn), only the first user message is kept so the rest can still be summarised.
fn head_end(history: &[Message], budget: u64) -> usize {
    let Some(first_user) = history.iter().position(|m| m.role() == Role::User) else {
        return 0;
    };
    let mut end = history.len();
    for (i, message) in history.iter().enumerate().skip(first_user + 1) {
        match message.role() {
            Role::Assistant if message.tool_calls.is_empty() => {
                end = i + 1;
                break;
            }
            Role::User => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    if end > first_user + 1 && estimate_tokens(&history[first_user + 1..end]) > budget {
        first_user + 1
    } else {
        end
    }
}

/// The start of the protected tail, moved back until no call/result pair crosses it.
fn tail_start(history: &[Message], head_end: usize, floor: usize, budget: u64) -> Option<usize> {
    let len = history.len();
    let mut start = len;
    let mut tokens = 0;
    for i in (head_end..len).rev() {
        let t = message_tokens(&history[i]);
        if len - start >= floor && tokens + t > budget {
            break;
        }
        tokens += t;
        start = i;
    }
    let paired = paired_ids(history);
    loop {
        // A tool result belongs with the assistant message before it.
        while start > head_end && start < len && history[start].role() == Role::Tool {
            start -= 1;
        }
        if start <= head_end {
            return None;
        }
        if pairs_within(&history[head_end..start], &paired) {
            return Some(start);
        }
        start -= 1;
    }
}

/// Call ids that have both a call and a result somewhere in the history (an orphan that was
/// already there must not block every cut).
fn paired_ids(history: &[Message]) -> HashSet<&str> {
    let calls: HashSet<&str> = history
        .iter()
        .flat_map(|m| m.tool_calls.iter().map(|c| c.id.as_str()))
        .collect();
    history
        .iter()
        .filter_map(|m| m.tool_call_id.as_deref())
        .filter(|id| calls.contains(id))
        .collect()
}

/// Whether every call in `slice` has its result in `slice` and every result its call.
fn pairs_within(slice: &[Message], paired: &HashSet<&str>) -> bool {
    let calls: HashSet<&str> = slice
        .iter()
        .flat_map(|m| m.tool_calls.iter().map(|c| c.id.as_str()))
        .filter(|id| paired.contains(id))
        .collect();
    let results: HashSet<&str> = slice
        .iter()
        .filter(|m| m.role() == Role::Tool)
        .filter_map(|m| m.tool_call_id.as_deref())
        .filter(|id| paired.contains(id))
        .collect();
    calls == results
}

/// Tool-call integrity of a history: the ids of results without a preceding call and of calls
/// without a following result. Empty for a history a provider accepts.
pub fn orphans(history: &[Message]) -> Vec<String> {
    let mut open: Vec<&str> = Vec::new();
    let mut seen_calls: HashSet<&str> = HashSet::new();
    let mut answered: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    for message in history {
        for call in &message.tool_calls {
            seen_calls.insert(&call.id);
            open.push(&call.id);
        }
        if message.role() == Role::Tool {
            let id = message.tool_call_id.as_deref().unwrap_or("");
            if !seen_calls.contains(id) {
                out.push(format!("result without call: {id}"));
            }
            answered.insert(id);
        }
    }
    for id in open {
        if !answered.contains(id) {
            out.push(format!("call without result: {id}"));
        }
    }
    out
}
