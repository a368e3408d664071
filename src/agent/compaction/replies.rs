//! The user-facing texts of compaction, worded as Hermes words them ("compression") (reference §1.13): the
//! `/compact` replies and the compaction lines of `/context`.

use super::CompactionOutcome;
use super::CompactionPolicy;
use crate::text::thousands;

/// `/compact` on an empty conversation.
pub const NOTHING_TO_COMPACT: &str = "Nothing to compress — conversation is empty.";

/// `/compact` when there is nothing before the last exchange (ours; Hermes would report
/// "A -> A messages").
pub fn too_short(messages: usize) -> String {
    format!("Nothing to compress yet — all {messages} messages belong to the last exchange.")
}

/// `/compact` success: `Context compressed: A -> B messages\n~X -> ~Y tokens`.
pub fn compacted(outcome: &CompactionOutcome) -> String {
    let mut text = format!(
        "Context compressed: {} -> {} messages\n~{} -> ~{} tokens",
        outcome.messages_before,
        outcome.messages_after,
        thousands(outcome.tokens_before),
        thousands(outcome.tokens_after)
    );
    if outcome.used_fallback {
        text.push_str("\n(The summary model was unavailable; a basic summary was built locally.)");
    }
    text
}

/// `/compact` failure.
pub fn failed(error: &dyn std::fmt::Display) -> String {
    format!("Compression failed: {error}")
}

/// The `/context` lines after `Context usage: …`: how far the threshold is, then the tip (or
/// that automatic compaction is off, which `/compact` does not need). `used` is the estimated
/// prompt size, `window` the context window, `automatic` whether compaction runs by itself.
pub fn context_lines(cfg: &CompactionPolicy, used: u64, window: u64, automatic: bool) -> String {
    let threshold = cfg.threshold_tokens(window);
    let percent = threshold as f64 * 100.0 / window.max(1) as f64;
    let first = if used < threshold {
        format!(
            "Compression: ~{} tokens until threshold (~{}, {percent:.0}%).",
            thousands(threshold - used),
            thousands(threshold)
        )
    } else {
        format!(
            "Compression: due now (threshold ~{}, {percent:.0}%). Run /compact.",
            thousands(threshold)
        )
    };
    let second = if automatic {
        "Tip: run /compact to compress manually before the threshold."
    } else {
        "Automatic compression is off for this session (the auto_compact option); /compact still works."
    };
    format!("{first}\n{second}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_lines_match_hermes() {
        let cfg = CompactionPolicy {
            threshold_ratio: 0.80,
            ..CompactionPolicy::default()
        };
        assert_eq!(
            context_lines(&cfg, 25_000, 100_000, true),
            "Compression: ~55,000 tokens until threshold (~80,000, 80%).\nTip: run /compact to compress manually before the threshold."
        );
        assert_eq!(
            context_lines(&cfg, 90_000, 100_000, false),
            "Compression: due now (threshold ~80,000, 80%). Run /compact.\nAutomatic compression is off for this session (the auto_compact option); /compact still works."
        );
        assert!(context_lines(&CompactionPolicy::default(), 0, 256_000, true).contains("(~192,000, 75%)"));
    }

    #[test]
    fn compact_reply() {
        let outcome = CompactionOutcome {
            id: "c".into(),
            history: Vec::new(),
            summary: None,
            used_fallback: false,
            fallback_reason: None,
            messages_before: 4,
            messages_after: 1,
            tokens_before: 40_000,
            tokens_after: 12,
        };
        assert_eq!(
            compacted(&outcome),
            "Context compressed: 4 -> 1 messages\n~40,000 -> ~12 tokens"
        );
        assert_eq!(failed(&"boom"), "Compression failed: boom");
    }
}
