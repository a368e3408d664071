//! Where the image comes from, as Hermes' resolver reads it: a `data:` URL (base64 only), an
//! http(s) URL fetched through the SSRF guard, or a local path (`file://` accepted) resolved
//! against the session cwd and refused by the same read denylist as `read_file`. Every source is
//! capped at Hermes' 50 MB ingest budget (resizing happens after, so a 30 MB photo still works).

use std::path::{Path, PathBuf};
use std::time::Duration;

use base64::Engine;

use super::picture::{ImageKind, Unsupported};
use crate::net::{FetchError, FetchLimits};
use crate::runtime::ToolContext;
use crate::runtime::file_io::read_guards as guards;

/// Hermes' raw-bytes ingest budget (`_MAX_INGEST_BYTES`).
pub const MAX_INGEST_BYTES: usize = 50 * 1024 * 1024;

/// Where the model's `image_url` points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Data(String),
    Http(String),
    /// Resolved against the session cwd.
    File(PathBuf),
}

/// An image read from its source, its type checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub bytes: Vec<u8>,
    pub kind: ImageKind,
}

/// Why the image could not be read. The texts follow Hermes' where it has one.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SourceError {
    #[error("image_url is required")]
    Missing,
    #[error("Unrecognized image source scheme. Use an http(s) URL, a local file path, a file:// URI, or a data: URL.")]
    UnsupportedScheme,
    #[error("data: URL must be base64-encoded")]
    DataNotBase64,
    #[error("invalid base64 in data: URL: {0}")]
    DataInvalid(String),
    #[error("image exceeds size limit ({} MB)", MAX_INGEST_BYTES / (1024 * 1024))]
    TooLarge,
    #[error("image file not found: '{0}'")]
    NotFound(String),
    #[error("'{0}' is not a regular file")]
    NotAFile(String),
    #[error("cannot read '{path}': {message}")]
    Read { path: String, message: String },
    /// The read denylist or a device path (the message is the guard's).
    #[error("{0}")]
    Refused(String),
    #[error("{0}")]
    Fetch(#[from] FetchError),
    #[error("fetching {url} failed: HTTP {status}")]
    Status { url: String, status: u16 },
    #[error(
        "This is an SVG, which vision models cannot read directly. Convert the SVG to PNG first, then re-run vision_analyze on the PNG."
    )]
    Svg,
    #[error("Image format BMP is not supported by the vision API. Convert it to PNG or JPEG and try again.")]
    Bmp,
    #[error("source is not a recognized image (PNG, JPEG, GIF or WebP)")]
    NotAnImage,
}

impl Source {
    /// Classifies what the model wrote; paths resolve against `cwd` (`~` expanded).
    pub fn parse(raw: &str, cwd: &Path) -> Result<Source, SourceError> {
        let s = raw.trim();
        if s.is_empty() {
            return Err(SourceError::Missing);
        }
        let lower = s.to_ascii_lowercase();
        if lower.starts_with("data:") {
            return Ok(Source::Data(s.to_string()));
        }
        if lower.starts_with("http://") || lower.starts_with("https://") {
            return Ok(Source::Http(s.to_string()));
        }
        let path = match lower.strip_prefix("file://") {
            Some(_) => &s["file://".len()..],
            None if has_scheme(s) => return Err(SourceError::UnsupportedScheme),
            None => s,
        };
        Ok(Source::File(crate::runtime::workspace::resolve_against(cwd, path)))
    }

    /// The local path, for the card's location.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Source::File(path) => Some(path),
            _ => None,
        }
    }
}

/// `scheme://` at the start (a bare `C:\x.png` has no `//`).
fn has_scheme(s: &str) -> bool {
    let Some((scheme, _)) = s.split_once("://") else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
}

/// Reads the image (not cancel-aware itself: the caller races it with the call's token).
pub async fn load(ctx: &ToolContext, source: &Source, download_timeout: Duration) -> Result<Loaded, SourceError> {
    let bytes = match source {
        Source::Data(url) => decode_data_url(url)?,
        Source::Http(url) => download(ctx, url, download_timeout).await?,
        Source::File(path) => {
            let (path, home) = (path.clone(), ctx.services.hermes_home.clone());
            tokio::task::spawn_blocking(move || read_local(&path, home.as_deref()))
                .await
                .map_err(|e| SourceError::Read {
                    path: String::new(),
                    message: e.to_string(),
                })??
        }
    };
    checked(bytes)
}

/// The magic bytes decide; a declared type or a file name never does.
pub fn checked(bytes: Vec<u8>) -> Result<Loaded, SourceError> {
    if bytes.len() > MAX_INGEST_BYTES {
        return Err(SourceError::TooLarge);
    }
    match ImageKind::detect(&bytes) {
        Ok(kind) => Ok(Loaded { bytes, kind }),
        Err(Unsupported::Svg) => Err(SourceError::Svg),
        Err(Unsupported::Bmp) => Err(SourceError::Bmp),
        Err(Unsupported::Unknown) => Err(SourceError::NotAnImage),
    }
}

/// The bytes of a base64 `data:` URL (its declared type is ignored: the bytes are sniffed).
pub fn decode_data_url(url: &str) -> Result<Vec<u8>, SourceError> {
    let (header, payload) = url.split_once(',').unwrap_or((url, ""));
    if !header.to_ascii_lowercase().contains(";base64") {
        return Err(SourceError::DataNotBase64);
    }
    // Checked on the encoded length first, so a huge payload is never decoded.
    if payload.len() / 4 * 3 > MAX_INGEST_BYTES {
        return Err(SourceError::TooLarge);
    }
    base64::engine::general_purpose::STANDARD
        .decode(payload.trim())
        .map_err(|e| SourceError::DataInvalid(e.to_string()))
}

async fn download(ctx: &ToolContext, url: &str, timeout: Duration) -> Result<Vec<u8>, SourceError> {
    let limits = FetchLimits {
        // One byte more than allowed tells "exactly at the cap" from "over it".
        max_bytes: MAX_INGEST_BYTES + 1,
        timeout,
    };
    let fetched = ctx.services.http.get(url, limits).await?;
    if fetched.status >= 400 {
        return Err(SourceError::Status {
            url: fetched.url.to_string(),
            status: fetched.status,
        });
    }
    if fetched.truncated {
        return Err(SourceError::TooLarge);
    }
    Ok(fetched.body)
}

/// `read_file`'s guards (device paths, the Hermes credential stores, `.env` files), then a
/// regular file of at most the ingest budget.
pub fn read_local(path: &Path, hermes_home: Option<&Path>) -> Result<Vec<u8>, SourceError> {
    let shown = path.display().to_string();
    if guards::is_blocked_device(path) {
        return Err(SourceError::Refused(format!(
            "Cannot read '{shown}': this is a device file that would block or produce infinite output."
        )));
    }
    if let Some(message) = guards::read_block_error(&shown, path, hermes_home) {
        return Err(SourceError::Refused(message));
    }
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(SourceError::NotFound(shown)),
        Err(e) => return Err(read_error(&shown, &e)),
    };
    // FIFOs, sockets and devices are refused before anything opens them.
    if !meta.is_file() {
        return Err(SourceError::NotAFile(shown));
    }
    if meta.len() > MAX_INGEST_BYTES as u64 {
        return Err(SourceError::TooLarge);
    }
    std::fs::read(path).map_err(|e| read_error(&shown, &e))
}

fn read_error(shown: &str, e: &std::io::Error) -> SourceError {
    SourceError::Read {
        path: shown.to_string(),
        message: e.to_string(),
    }
}
