//! Configured prices: what one model costs and the rates the user set (`model.pricing` in
//! `config.yaml`, read by `config`).

/// What one model costs, in USD per million tokens. Cache rates, when absent, are charged at
/// the input rate (an upper bound, never an invented discount).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pricing {
    pub input: f64,
    pub output: f64,
    pub cache_read: Option<f64>,
    pub cache_write: Option<f64>,
}

/// The configured rates.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PricingSettings {
    /// Flat rates: they price `for_model` (`model.default`), or every model when that is unset.
    pub flat: Option<Pricing>,
    pub for_model: Option<String>,
    /// Rates by model id (`model.pricing.<id>`).
    pub models: Vec<(String, Pricing)>,
}
