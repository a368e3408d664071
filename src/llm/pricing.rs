//! What a turn cost: the model's rates (`model.pricing` in config.yaml first, else the built-in
//! table in `pricing_table`) applied to the tokens it used. Model ids are matched after
//! dropping what does not change the price: a `vendor/` prefix (OpenRouter), a `:variant`
//! suffix, a date suffix (`-20250929`, `-2024-08-06`) and `-latest`. A model found in neither
//! place has no cost: a number is never made up.

pub use super::pricing_settings::{Pricing, PricingSettings};
use crate::transcript::Usage;

use super::pricing_table::TABLE;

/// The only currency rates are written in.
pub const CURRENCY: &str = "USD";

/// Where a model's rates came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PriceSource {
    Configured,
    BuiltIn,
}

/// The rates of `model`: configured (exact id) beats built-in (normalised id).
pub fn rates(config: &PricingSettings, model: &str) -> Option<(Pricing, PriceSource)> {
    if let Some(pricing) = config.rates_for(model) {
        return Some((pricing, PriceSource::Configured));
    }
    builtin(model).map(|p| (p, PriceSource::BuiltIn))
}

/// The built-in rates of `model`, if the table knows it.
pub fn builtin(model: &str) -> Option<Pricing> {
    // OpenRouter's free variants cost nothing, whatever the model's paid price.
    if model.trim().to_ascii_lowercase().ends_with(":free") {
        return Some(Pricing {
            input: 0.0,
            output: 0.0,
            cache_read: Some(0.0),
            cache_write: Some(0.0),
        });
    }
    let id = normalise(model);
    TABLE
        .iter()
        .find(|(key, ..)| *key == id)
        .map(|&(_, input, output, cache_read, cache_write)| Pricing {
            input,
            output,
            cache_read,
            cache_write,
        })
}

/// `anthropic/claude-sonnet-4-5-20250929:beta` → `claude-sonnet-4-5`.
pub fn normalise(model: &str) -> String {
    let mut id = model.trim().to_ascii_lowercase();
    if let Some((_, last)) = id.rsplit_once('/') {
        id = last.to_string();
    }
    if let Some((head, _)) = id.split_once(':') {
        id = head.to_string();
    }
    if let Some(head) = id.strip_suffix("-latest") {
        id = head.to_string();
    }
    strip_date(&id).to_string()
}

/// Drops a trailing `-YYYYMMDD` or `-YYYY-MM-DD`.
fn strip_date(id: &str) -> &str {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if let Some((head, tail)) = id.rsplit_once('-')
        && tail.len() == 8
        && digits(tail)
        && tail.starts_with("20")
    {
        return head;
    }
    // `-2024-08-06`: three dash-separated groups of 4, 2 and 2 digits at the end.
    let parts: Vec<&str> = id.rsplitn(4, '-').collect();
    if let [day, month, year, head] = parts[..]
        && day.len() == 2
        && month.len() == 2
        && year.len() == 4
        && [day, month, year].iter().all(|p| digits(p))
        && year.starts_with("20")
    {
        return head;
    }
    id
}

/// What `usage` costs at `pricing`, in `CURRENCY`. `usage.input_tokens` is the whole prompt;
/// the cached parts reported beside it are charged at their own rates (the input rate when the
/// model has none).
pub fn cost(pricing: &Pricing, usage: &Usage) -> f64 {
    let uncached = usage
        .input_tokens
        // Saturating: a provider's counts are untrusted and their sum may not fit.
        .saturating_sub(usage.cache_read_tokens.saturating_add(usage.cache_write_tokens));
    let per_token = |tokens: u64, rate: f64| tokens as f64 * rate;
    let total = per_token(uncached, pricing.input)
        + per_token(usage.cache_read_tokens, pricing.cache_read.unwrap_or(pricing.input))
        + per_token(usage.cache_write_tokens, pricing.cache_write.unwrap_or(pricing.input))
        + per_token(usage.output_tokens, pricing.output);
    total / 1_000_000.0
}

/// What one turn of `model` cost, when its rates are known (and the amount is a number JSON can
/// carry: `usage_update.cost` cannot be infinite).
pub fn turn_cost(config: &PricingSettings, model: &str, usage: &Usage) -> Option<f64> {
    rates(config, model)
        .map(|(pricing, _)| cost(&pricing, usage))
        .filter(|amount| amount.is_finite() && *amount >= 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(input: u64, output: u64, read: u64, write: u64) -> Usage {
        Usage {
            input_tokens: input,
            output_tokens: output,
            reasoning_tokens: 0,
            cache_read_tokens: read,
            cache_write_tokens: write,
        }
    }

    #[test]
    fn ids_are_normalised() {
        assert_eq!(normalise("anthropic/claude-sonnet-4-5-20250929"), "claude-sonnet-4-5");
        assert_eq!(normalise("openai/gpt-4o-2024-08-06"), "gpt-4o");
        assert_eq!(normalise("GPT-4o-mini"), "gpt-4o-mini");
        assert_eq!(normalise("deepseek/deepseek-chat:free"), "deepseek-chat");
        assert_eq!(normalise("claude-3-5-haiku-latest"), "claude-3-5-haiku");
        assert_eq!(normalise("gpt-4.1-mini-2025-04-14"), "gpt-4.1-mini");
        assert_eq!(normalise("o3-mini"), "o3-mini", "no date to strip");
        assert_eq!(normalise("qwen-2-7b-12345678"), "qwen-2-7b-12345678", "not a 20xx date");
    }

    #[test]
    fn builtin_lookup_matches_exact_families_only() {
        assert_eq!(builtin("claude-opus-4-20250514").unwrap().input, 15.0);
        assert_eq!(builtin("anthropic/claude-opus-4-8").unwrap().input, 5.0);
        assert_eq!(builtin("gpt-4o-mini").unwrap().output, 0.6);
        assert_eq!(builtin("gpt-4o").unwrap().output, 10.0);
        // A different model of a known family is not priced like its neighbour.
        assert_eq!(builtin("o3-pro"), None);
        assert_eq!(builtin("claude-opus-4-1-20250805"), None);
        assert_eq!(builtin("mock-model"), None);
        assert_eq!(builtin("deepseek/deepseek-chat:free").unwrap().output, 0.0);
    }

    #[test]
    fn configured_beats_builtin() {
        let config = PricingSettings {
            flat: None,
            for_model: None,
            models: vec![(
                "gpt-4o".into(),
                Pricing {
                    input: 1.0,
                    output: 1.0,
                    cache_read: None,
                    cache_write: None,
                },
            )],
        };
        assert_eq!(rates(&config, "gpt-4o").unwrap().1, PriceSource::Configured);
        assert_eq!(rates(&config, "gpt-4o").unwrap().0.input, 1.0);
        assert_eq!(rates(&config, "openai/gpt-4o").unwrap().1, PriceSource::BuiltIn);
        assert_eq!(rates(&config, "unknown"), None);
        assert_eq!(turn_cost(&config, "unknown", &usage(1, 1, 0, 0)), None);
    }

    #[test]
    fn cost_charges_cached_tokens_at_their_rates() {
        let pricing = Pricing {
            input: 3.0,
            output: 15.0,
            cache_read: Some(0.3),
            cache_write: Some(3.75),
        };
        // 1M prompt tokens of which 600K read from cache and 100K written: 300K × 3 + 600K ×
        // 0.3 + 100K × 3.75 = 0.9 + 0.18 + 0.375; plus 200K output × 15 = 3.
        let amount = cost(&pricing, &usage(1_000_000, 200_000, 600_000, 100_000));
        assert!((amount - 4.455).abs() < 1e-9, "{amount}");
        let no_cache_rates = Pricing {
            cache_read: None,
            cache_write: None,
            ..pricing
        };
        let amount = cost(&no_cache_rates, &usage(1_000_000, 0, 600_000, 0));
        assert!((amount - 3.0).abs() < 1e-9, "cache reads at the input rate: {amount}");
        assert_eq!(cost(&pricing, &Usage::default()), 0.0);
    }

    #[test]
    fn huge_token_counts_never_make_an_infinite_cost() {
        let config = PricingSettings {
            flat: Some(Pricing {
                input: f64::MAX,
                output: 1.0,
                cache_read: None,
                cache_write: None,
            }),
            ..PricingSettings::default()
        };
        assert_eq!(turn_cost(&config, "m", &usage(u64::MAX, 0, 0, 0)), None);
        // Cached counts above the prompt (a confused provider) cost what they say, no underflow.
        let amount = turn_cost(
            &PricingSettings::default(),
            "gpt-4o",
            &usage(10, u64::MAX, u64::MAX, u64::MAX),
        );
        assert!(amount.is_some_and(f64::is_finite), "{amount:?}");
        // A turn's usage summed over its calls saturates instead of overflowing.
        let mut sum = usage(u64::MAX, u64::MAX, u64::MAX, 1);
        sum.add(&usage(1, 1, 1, u64::MAX));
        assert_eq!((sum.total(), sum.cache_write_tokens), (u64::MAX, u64::MAX));
    }
}
