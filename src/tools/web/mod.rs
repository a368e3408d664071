//! The web tools: `web_search` and `web_extract` with Hermes' backends (chosen once at start
//! from `web:` in config.yaml and the credentials in the environment), the same request shapes
//! and the same result JSON; `web_extract` also works with no backend by fetching pages itself
//! through the SSRF guard.

pub mod backends;
mod extract;
mod native;
mod render;
mod search;
mod settings;
mod truncate;
mod urls;

pub use backends::{BackendName, ExtractRoute, WebBackends};
pub use extract::WebExtractTool;
pub use search::WebSearchTool;
pub use settings::{DEFAULT_EXTRACT_CHAR_LIMIT, Variables, WebSettings};

#[cfg(test)]
mod tests;
