//! A session's running account of what its model calls cost and how close it is to the
//! provider's rate limits: the last rate limits seen (for `usage_update._meta.rateLimits`), which
//! buckets are already known to be low (so the user is told once per crossing, not on every
//! request), the last turn's cost and the session's total (for `usage_update.cost` and
//! `/context`). Kept in memory with the live session: token usage is not stored either.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};

use super::rate_limits::{RateLimits, clock};
use crate::sync::Part;

/// One session's meter (shared by its turns): a part of the session's state.
#[derive(Debug, Default)]
pub struct UsageMeter {
    state: Part<MeterState>,
}

/// What the meter has seen, as the session's state holds it.
#[derive(Debug, Default)]
pub struct MeterState {
    limits: Option<RateLimits>,
    /// Buckets below `LOW_SHARE` when last seen (already announced).
    low: BTreeSet<&'static str>,
    last_turn: Option<f64>,
    total: f64,
    priced_turns: u32,
    unpriced_turns: u32,
}

/// The session's spending as `/context` and `usage_update` show it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spend {
    /// The last turn's cost; `None` when its model has no known price.
    pub last_turn: Option<f64>,
    /// The sum over the turns whose price is known; `None` before the first such turn.
    pub session: Option<f64>,
    /// Turns that used tokens at a price we do not know (left out of `session`).
    pub unpriced_turns: u32,
}

impl UsageMeter {
    /// The meter over `state`, a part of a session's state.
    pub fn on(state: Part<MeterState>) -> UsageMeter {
        UsageMeter { state }
    }

    /// Takes a response's rate limits; returns the notices to show, one per bucket that just
    /// went below its low mark (a bucket that recovers is announced again next time it drops).
    pub fn observe(&self, limits: &RateLimits, now: DateTime<Utc>) -> Vec<String> {
        self.state.with(|state| {
            state.limits = Some(*limits);
            let mut notices = Vec::new();
            for (name, bucket) in limits.buckets() {
                let Some(bucket) = bucket else { continue };
                if !bucket.is_low() {
                    // Only a bucket that says how much is left can re-arm its notice.
                    if bucket.remaining.is_some() {
                        state.low.remove(name);
                    }
                    continue;
                }
                if state.low.insert(name) {
                    let (left, limit) = (bucket.remaining.unwrap_or(0), bucket.limit.unwrap_or(0));
                    // A reset already past (a skewed clock, a bogus header) tells the user nothing.
                    let resets = bucket
                        .reset
                        .filter(|when| *when > now)
                        .map(|when| format!(", resets at {}", clock(when, now)))
                        .unwrap_or_default();
                    notices.push(format!(
                        "rate limit nearly used up: {left} of {limit} {name} left{resets}"
                    ));
                }
            }
            notices
        })
    }

    /// The rate limits of the last response that named any.
    pub fn rate_limits(&self) -> Option<RateLimits> {
        self.state.with(|state| state.limits)
    }

    /// Adds a finished turn: its cost, or `None` when its model has no known price.
    pub fn record_turn(&self, cost: Option<f64>) {
        self.state.with(|state| {
            // An amount JSON cannot carry (infinite, NaN), a negative one, or one that would make
            // the total infinite counts as unpriced: `usage_update.cost` must stay a number.
            let total = state.total;
            let cost = cost.filter(|amount| amount.is_finite() && *amount >= 0.0 && (total + amount).is_finite());
            state.last_turn = cost;
            match cost {
                Some(amount) => {
                    state.total += amount;
                    state.priced_turns += 1;
                }
                None => state.unpriced_turns += 1,
            }
        });
    }

    pub fn spend(&self) -> Spend {
        self.state.with(|state| Spend {
            last_turn: state.last_turn,
            session: (state.priced_turns > 0).then_some(state.total),
            unpriced_turns: state.unpriced_turns,
        })
    }
}

impl Spend {
    /// `/context`'s cost line for a session on `model`.
    pub fn describe(&self, model: &str) -> String {
        let currency = super::pricing::CURRENCY;
        let last = match self.last_turn {
            Some(amount) => format!("last turn {}", money(amount, currency)),
            None if self.session.is_none() && self.unpriced_turns == 0 => "no turns yet".to_string(),
            None => format!("last turn unknown (no price for {model}: set model.pricing in config.yaml)"),
        };
        let session = match self.session {
            Some(amount) if self.unpriced_turns > 0 => format!(
                ", session {} (+{} turn(s) without a price)",
                money(amount, currency),
                self.unpriced_turns
            ),
            Some(amount) => format!(", session {}", money(amount, currency)),
            None => String::new(),
        };
        format!("Cost: {last}{session}")
    }
}

/// An amount as `/context` shows it: cents for most, more digits for sub-cent turns.
pub fn money(amount: f64, currency: &str) -> String {
    if amount != 0.0 && amount.abs() < 0.01 {
        format!("{amount:.6} {currency}")
    } else {
        format!("{amount:.4} {currency}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::rate_limits::Bucket;

    fn limits(remaining: u64) -> RateLimits {
        RateLimits {
            requests: Some(Bucket {
                limit: Some(100),
                remaining: Some(remaining),
                reset: DateTime::from_timestamp(1_795_503_720, 0),
            }),
            ..RateLimits::default()
        }
    }

    #[test]
    fn a_low_bucket_is_announced_once_per_crossing() {
        let meter = UsageMeter::default();
        let now = DateTime::from_timestamp(1_795_503_600, 0).unwrap();
        assert!(meter.observe(&limits(50), now).is_empty());
        assert_eq!(
            meter.observe(&limits(9), now),
            vec!["rate limit nearly used up: 9 of 100 requests left, resets at 07:02 UTC".to_string()]
        );
        assert!(meter.observe(&limits(8), now).is_empty(), "still low: no second notice");
        assert!(meter.observe(&limits(10), now).is_empty(), "10 % is not below 10 %");
        assert_eq!(meter.observe(&limits(3), now).len(), 1, "a new crossing");
        assert_eq!(meter.rate_limits(), Some(limits(3)));
    }

    #[test]
    fn turns_add_up_and_unknown_prices_stay_unknown() {
        let meter = UsageMeter::default();
        assert_eq!(meter.spend().session, None);
        meter.record_turn(None);
        assert_eq!(meter.spend().session, None, "no made-up zero");
        meter.record_turn(Some(0.25));
        meter.record_turn(Some(0.5));
        let spend = meter.spend();
        assert_eq!(
            (spend.last_turn, spend.session, spend.unpriced_turns),
            (Some(0.5), Some(0.75), 1)
        );
        assert_eq!(money(0.75, "USD"), "0.7500 USD");
        assert_eq!(
            spend.describe("m"),
            "Cost: last turn 0.5000 USD, session 0.7500 USD (+1 turn(s) without a price)"
        );
        assert_eq!(UsageMeter::default().spend().describe("m"), "Cost: no turns yet");
        assert_eq!(money(0.00042, "USD"), "0.000420 USD");
    }

    #[test]
    fn a_cost_json_cannot_carry_is_never_recorded() {
        let meter = UsageMeter::default();
        meter.record_turn(Some(f64::MAX));
        meter.record_turn(Some(f64::MAX));
        meter.record_turn(Some(f64::NAN));
        meter.record_turn(Some(-1.0));
        let spend = meter.spend();
        assert_eq!((spend.session, spend.unpriced_turns), (Some(f64::MAX), 3));
        assert!(spend.last_turn.is_none(), "{spend:?}");
        // serde_json writes a non-finite float as `null`: `usage_update.cost.amount` would be.
        let json = serde_json::to_string(&spend.session).unwrap();
        assert!(!json.contains("null"), "{json}");
    }

    #[test]
    fn a_reset_in_the_past_is_not_announced_as_a_time() {
        let meter = UsageMeter::default();
        let now = DateTime::from_timestamp(1_795_503_600, 0).unwrap();
        let mut stale = limits(1);
        stale.requests.as_mut().unwrap().reset = DateTime::from_timestamp(1_000_000_000, 0);
        assert_eq!(
            meter.observe(&stale, now),
            vec!["rate limit nearly used up: 1 of 100 requests left".to_string()]
        );
    }
}
