//! Reading a web page without a search backend: fetched through the SSRF guard, decoded by its
//! declared charset, HTML turned into Markdown (`markdown/`, one streaming pass), text types
//! kept as text, and the result fitted to the model's budget Hermes' way (head + tail, the full
//! text saved to a file whose path the footer names). PDFs and other binaries are refused with a clear error: Hermes
//! reads PDFs only through a backend, and we add no PDF parser.

mod charset;
mod markdown;
mod window;

use std::path::{Path, PathBuf};
use std::time::Duration;

pub use markdown::html_to_markdown;
pub use window::{Fitted, fit_to_limit};

use super::{FetchError, FetchLimits, GuardedHttp};

/// What one fetch may take. 10 MB: far past any article (the biggest documentation pages are a
/// few MB of HTML), while a bigger body is a data dump that would only be windowed away; it
/// also bounds memory and conversion time. 30 s: a plain GET with no rendering, so a page
/// slower than that is stalled, and the turn should not hang on it.
const LIMITS: FetchLimits = FetchLimits {
    max_bytes: 10 * 1024 * 1024,
    timeout: Duration::from_secs(30),
};

/// A page as the model gets it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtractedPage {
    /// Where the redirects ended.
    pub url: String,
    /// The HTML `<title>`, whitespace collapsed (`None` for text or an untitled page).
    pub title: Option<String>,
    /// Markdown (or the text as served), head + tail with Hermes' footer when over the limit.
    pub content: String,
    /// The full text's length in characters.
    pub full_chars: usize,
    /// The full text, saved when `content` was cut.
    pub saved_to: Option<PathBuf>,
}

/// How a response body is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Html,
    Text,
}

/// Fetches `url` through `http` and returns its content within `char_limit` characters; the
/// full text goes to `save_dir` when it does not fit.
pub async fn extract(
    http: &GuardedHttp,
    url: &str,
    char_limit: usize,
    save_dir: &Path,
) -> Result<ExtractedPage, FetchError> {
    let fetched = http.get(url, LIMITS).await?;
    let final_url = fetched.url.to_string();
    let failed = |message: String| FetchError::Failed {
        url: final_url.clone(),
        message,
    };
    if fetched.status >= 400 {
        return Err(failed(format!("the server answered HTTP {}", fetched.status)));
    }
    let kind = kind_of(fetched.content_type.as_deref(), &fetched.body).map_err(failed)?;
    if fetched.truncated {
        tracing::info!(url = %final_url, "page over {} bytes; converting the first part", LIMITS.max_bytes);
    }
    let save_dir = save_dir.to_path_buf();
    let url_for_name = final_url.clone();
    // Parsing megabytes of HTML takes tens of milliseconds of CPU: off the async workers.
    let work = tokio::task::spawn_blocking(move || {
        let text = charset::decode(&fetched.body, fetched.content_type.as_deref(), kind == Kind::Html);
        let (title, mut text) = match kind {
            Kind::Html => markdown::convert(&text),
            Kind::Text => (None, text),
        };
        if fetched.truncated {
            text.push_str(&format!(
                "\n\n[... the page is longer than {} MB; only its first {} MB were read ...]",
                LIMITS.max_bytes >> 20,
                LIMITS.max_bytes >> 20
            ));
        }
        (title, fit_to_limit(&text, &url_for_name, char_limit, &save_dir))
    });
    let (title, fitted) = work
        .await
        .map_err(|e| failed(format!("converting the page failed: {e}")))?;
    Ok(ExtractedPage {
        url: final_url,
        title,
        content: fitted.content,
        full_chars: fitted.full_chars,
        saved_to: fitted.saved_to,
    })
}

/// HTML, text, or a refusal saying what the body is. Without a Content-Type the body decides:
/// markup is HTML, other valid UTF-8 without NULs is text.
fn kind_of(content_type: Option<&str>, body: &[u8]) -> Result<Kind, String> {
    let Some(raw) = content_type else {
        return sniff(body).ok_or_else(|| "the server sent binary data without a content type".to_string());
    };
    let mime = raw.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    match mime.as_str() {
        "text/html" | "application/xhtml+xml" => Ok(Kind::Html),
        "" => sniff(body).ok_or_else(|| "the server sent binary data without a content type".to_string()),
        "application/pdf" => Err(
            "it is a PDF (application/pdf); reading PDFs needs a web extraction backend (web.backend in config.yaml)"
                .to_string(),
        ),
        m if m.starts_with("text/")
            || m.ends_with("/json")
            || m.ends_with("+json")
            || m.ends_with("/xml")
            || m.ends_with("+xml")
            || m == "application/javascript"
            || m == "application/x-ndjson" =>
        {
            Ok(Kind::Text)
        }
        other => Err(format!(
            "it is {other}, not a web page or text; open it with another tool (vision_analyze for images)"
        )),
    }
}

fn sniff(body: &[u8]) -> Option<Kind> {
    let start = &body[..body.len().min(1024)];
    let lower = start.trim_ascii_start().to_ascii_lowercase();
    if lower.starts_with(b"<!doctype html") || lower.starts_with(b"<html") || lower.starts_with(b"<head") {
        return Some(Kind::Html);
    }
    let text = match std::str::from_utf8(start) {
        Ok(text) => text,
        // The 1 KB cut may split a character; only an error before the cut's last 3 bytes counts.
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&start[..e.valid_up_to()]).ok()?,
        Err(_) => return None,
    };
    (!text.contains('\0')).then_some(Kind::Text)
}

#[cfg(test)]
mod tests;
