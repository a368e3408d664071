//! `model.pricing` from `config.yaml` (ours; Hermes has no such key, it prices from its own
//! table and provider APIs): USD per million input / output / cache-read / cache-write tokens.
//! Either one flat set of rates for `model.default`, or a mapping from model id to rates:
//!
//! ```yaml
//! model:
//!   default: my-model
//!   pricing: {input: 0.5, output: 1.5, cache_read: 0.05}
//! # or
//!   pricing:
//!     my-model: {input: 0.5, output: 1.5}
//!     other-model: {input: 2, output: 8}
//! ```
//!
//! Hermes' field names (`input_cost_per_million`, …) are accepted too. An entry without both
//! `input` and `output` is ignored: a cost is never guessed.

use crate::llm::pricing::{Pricing, PricingSettings};
use serde_yaml_ng::Value;

/// The keys of one rate, ours first, then Hermes' field name.
const INPUT: [&str; 2] = ["input", "input_cost_per_million"];
const OUTPUT: [&str; 2] = ["output", "output_cost_per_million"];
const CACHE_READ: [&str; 2] = ["cache_read", "cache_read_cost_per_million"];
const CACHE_WRITE: [&str; 2] = ["cache_write", "cache_write_cost_per_million"];

impl PricingSettings {
    /// Reads `model.pricing` tolerantly (the file is shared with Hermes): malformed entries are
    /// logged and skipped.
    pub fn parse(root: &Value) -> PricingSettings {
        let model = root.get("model").filter(|m| m.is_mapping());
        let Some(section) = model.and_then(|m| m.get("pricing")) else {
            return PricingSettings::default();
        };
        let for_model = model
            .and_then(|m| m.get("default").or_else(|| m.get("name")))
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string);
        let Some(map) = section.as_mapping() else {
            tracing::warn!("model.pricing is not a mapping; ignored");
            return PricingSettings::default();
        };
        let is_flat = [INPUT, OUTPUT, CACHE_READ, CACHE_WRITE]
            .iter()
            .flatten()
            .any(|key| map.contains_key(*key));
        if is_flat {
            return PricingSettings {
                flat: rates(section, "model.pricing"),
                for_model,
                models: Vec::new(),
            };
        }
        let models = map
            .iter()
            .filter_map(|(id, entry)| {
                let id = id.as_str()?.trim();
                let pricing = rates(entry, &format!("model.pricing.{id}"))?;
                Some((id.to_string(), pricing))
            })
            .collect();
        PricingSettings {
            flat: None,
            for_model,
            models,
        }
    }

    /// The configured rates of `model`, if any: its own entry, else the flat rates when they
    /// apply to it.
    pub fn rates_for(&self, model: &str) -> Option<Pricing> {
        if let Some((_, pricing)) = self.models.iter().find(|(id, _)| id == model) {
            return Some(*pricing);
        }
        match &self.for_model {
            Some(id) if id != model => None,
            _ => self.flat,
        }
    }
}

fn rates(entry: &Value, path: &str) -> Option<Pricing> {
    let rate = |keys: [&str; 2]| keys.iter().find_map(|k| entry.get(*k)).map(as_rate);
    let (input, output) = match (rate(INPUT), rate(OUTPUT)) {
        (Some(Some(input)), Some(Some(output))) => (input, output),
        _ => {
            tracing::warn!(
                path,
                "pricing needs `input` and `output` rates between 0 and 1000000 (USD per million tokens); ignored"
            );
            return None;
        }
    };
    let optional = |keys| match rate(keys) {
        Some(Some(value)) => Some(value),
        Some(None) => {
            tracing::warn!(
                path,
                "a cache rate is not a number between 0 and 1000000; the input rate applies"
            );
            None
        }
        None => None,
    };
    Some(Pricing {
        input,
        output,
        cache_read: optional(CACHE_READ),
        cache_write: optional(CACHE_WRITE),
    })
}

/// Above this (USD per million tokens, i.e. a dollar a token) a rate is a typo: such a rate
/// times a long session's tokens overflows to infinity, which JSON cannot carry.
const MAX_RATE: f64 = 1_000_000.0;

/// A rate: a non-negative finite number up to `MAX_RATE`, also when written as a string
/// (`"0.15"`).
fn as_rate(value: &Value) -> Option<f64> {
    let number = match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().trim_start_matches('$').parse().ok(),
        _ => None,
    }?;
    // `+ 0.0` turns `-0` into `0`: a cost is never shown as `-0.0000`.
    Some(number + 0.0).filter(|n| n.is_finite() && (0.0..=MAX_RATE).contains(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(yaml: &str) -> PricingSettings {
        PricingSettings::parse(&serde_yaml_ng::from_str(yaml).unwrap())
    }

    #[test]
    fn flat_rates_price_the_default_model() {
        let cfg = parse("model:\n  default: m1\n  pricing: {input: 2, output: \"8.5\", cache_read: 0.2}\n");
        let rates = cfg.rates_for("m1").unwrap();
        assert_eq!((rates.input, rates.output, rates.cache_read), (2.0, 8.5, Some(0.2)));
        assert_eq!(rates.cache_write, None);
        assert_eq!(cfg.rates_for("m2"), None, "another model is not priced by m1's rates");
        let any = parse("model:\n  pricing: {input_cost_per_million: 1, output_cost_per_million: 3}\n");
        assert_eq!(any.rates_for("whatever").unwrap().output, 3.0);
    }

    #[test]
    fn rates_by_model_and_bad_entries() {
        let cfg = parse(
            "model:\n  default: a\n  pricing:\n    a: {input: 1, output: 2}\n    b: {input: 3, output: 4, cache_write: 5}\n    c: {input: 1}\n    d: {input: -1, output: 2}\n",
        );
        assert_eq!(cfg.rates_for("b").unwrap().cache_write, Some(5.0));
        assert_eq!(cfg.rates_for("a").unwrap().output, 2.0);
        assert_eq!(cfg.rates_for("c"), None);
        assert_eq!(cfg.rates_for("d"), None);
        assert_eq!(parse("model: bare-id\n"), PricingSettings::default());
        assert_eq!(parse("model:\n  pricing: 3\n"), PricingSettings::default());
    }

    #[test]
    fn absurd_rates_are_ignored_not_priced() {
        let cfg = parse(
            "model:\n  pricing:\n    huge: {input: 1e300, output: 1}\n    inf: {input: .inf, output: 1}\n    nan: {input: .nan, output: 1}\n    snan: {input: \"NaN\", output: \"inf\"}\n    neg: {input: 1, output: \"-2\"}\n    text: {input: cheap, output: 1}\n    nested: {input: {a: 1}, output: 1}\n    zero: {input: -0.0, output: 0, cache_read: 1e300}\n",
        );
        for id in ["huge", "inf", "nan", "snan", "neg", "text", "nested"] {
            assert_eq!(cfg.rates_for(id), None, "{id}");
        }
        let zero = cfg.rates_for("zero").unwrap();
        assert!(zero.input.is_sign_positive(), "-0 is read as 0");
        assert_eq!(
            zero.cache_read, None,
            "an absurd cache rate falls back to the input rate"
        );
    }
}
