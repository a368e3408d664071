//! Preparing a backend's page for the model as Hermes does before it windows it: the budget
//! clamped to Hermes' range, and inline base64 images turned into `[IMAGE: alt]` placeholders
//! (they are token bombs). The head + tail window and the saved full text are `net::page`'s
//! `fit_to_limit`, shared with the native path.

use std::sync::LazyLock;

use regex::Regex;

/// Hermes' clamp for any char budget.
pub fn clamp_limit(limit: i64) -> usize {
    limit.clamp(2_000, 500_000) as usize
}

static MD_IMAGE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"!\[(?P<alt>[^\]]*)\]\(\s*data:image/[^;]+;base64,[A-Za-z0-9+/=\s]+\)").unwrap());
static PAREN_IMAGE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\(\s*data:image/[^;]+;base64,[A-Za-z0-9+/=\s]+\)").unwrap());
static BARE_IMAGE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"data:image/[^;]+;base64,[A-Za-z0-9+/=]+").unwrap());

/// Inline base64 images → `[IMAGE: alt]` / `[IMAGE]`; real image links stay.
pub fn base64_images_to_placeholders(text: &str) -> String {
    if !text.contains("data:image/") {
        return text.to_string();
    }
    let out = MD_IMAGE.replace_all(text, |c: &regex::Captures| {
        let alt = c["alt"].trim();
        if alt.is_empty() {
            "[IMAGE]".to_string()
        } else {
            format!("[IMAGE: {alt}]")
        }
    });
    let out = PAREN_IMAGE.replace_all(&out, "[IMAGE]");
    BARE_IMAGE.replace_all(&out, "[IMAGE]").into_owned()
}
