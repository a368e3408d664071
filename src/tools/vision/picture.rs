//! The image itself: its type from its first bytes (never from a name or a declared type), and
//! the `data:` URL sent to the vision model — the exact bytes when they fit the provider's
//! limits, else downscaled and re-encoded as JPEG until they do (Hermes' numbers and steps).

use std::io::Cursor;

use base64::Engine;
use image::{DynamicImage, GenericImageView, ImageFormat, ImageReader, RgbImage};

/// Anthropic refuses an image over 5 MB of base64 or 8000 px a side; Hermes aims under both.
pub const ANTHROPIC_LIMITS: Limits = Limits {
    resize_above: 4 * 1024 * 1024,
    target: 4 * 1024 * 1024,
    max_side: Some(7900),
};

/// OpenAI-compatible servers take up to 20 MB; past that Hermes shrinks to 5 MB.
pub const OPENAI_LIMITS: Limits = Limits {
    resize_above: MAX_DATA_URL,
    target: 5 * 1024 * 1024,
    max_side: None,
};

/// No provider takes a larger image (Hermes' hard ceiling, on the `data:` URL's length).
pub const MAX_DATA_URL: usize = 20 * 1024 * 1024;

/// Re-encoding stops shrinking at this side (Hermes' floor).
const MIN_SIDE: u32 = 64;
/// Halvings tried after the first size (Hermes: five rounds in all).
const ROUNDS: usize = 5;
const JPEG_QUALITIES: [u8; 3] = [85, 70, 50];
/// Decoding refuses images whose pixels would need more memory than this (decompression bombs).
const MAX_DECODE_ALLOC: u64 = 512 * 1024 * 1024;

/// The formats every vision provider accepts (Anthropic's list; OpenAI's is wider).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    Png,
    Jpeg,
    Gif,
    Webp,
}

/// What the first bytes say when they are not an image we can send.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unsupported {
    Svg,
    Bmp,
    Unknown,
}

impl ImageKind {
    /// The type the magic bytes announce.
    pub fn detect(bytes: &[u8]) -> Result<ImageKind, Unsupported> {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Ok(ImageKind::Png)
        } else if bytes.starts_with(b"\xff\xd8\xff") {
            Ok(ImageKind::Jpeg)
        } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
            Ok(ImageKind::Gif)
        } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
            Ok(ImageKind::Webp)
        } else if bytes.starts_with(b"BM") {
            Err(Unsupported::Bmp)
        } else if bytes[..bytes.len().min(4096)]
            .to_ascii_lowercase()
            .windows(4)
            .any(|w| w == b"<svg")
        {
            Err(Unsupported::Svg)
        } else {
            Err(Unsupported::Unknown)
        }
    }

    pub fn mime(self) -> &'static str {
        match self {
            ImageKind::Png => "image/png",
            ImageKind::Jpeg => "image/jpeg",
            ImageKind::Gif => "image/gif",
            ImageKind::Webp => "image/webp",
        }
    }

    fn format(self) -> ImageFormat {
        match self {
            ImageKind::Png => ImageFormat::Png,
            ImageKind::Jpeg => ImageFormat::Jpeg,
            ImageKind::Gif => ImageFormat::Gif,
            ImageKind::Webp => ImageFormat::WebP,
        }
    }
}

/// When an image must shrink, and to what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// A `data:` URL longer than this is re-encoded.
    pub resize_above: usize,
    /// Re-encoding aims at a `data:` URL no longer than this.
    pub target: usize,
    /// The longest side allowed, when the provider has one.
    pub max_side: Option<u32>,
}

/// The image as it is sent.
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared {
    pub data_url: String,
    /// `(width, height)` when it had to be re-encoded.
    pub resized: Option<(u32, u32)>,
}

/// Why an image could not be prepared.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PictureError {
    #[error("the image could not be decoded for resizing: {0}")]
    Decode(String),
    #[error(
        "Image too large for vision API: base64 payload is {mb:.1} MB (limit {limit} MB) even after resizing. Compress the image manually and try again."
    )]
    TooLarge { mb: f64, limit: usize },
}

/// The `data:` URL of `bytes`, within `limits`. CPU-heavy when it re-encodes: run it off the
/// async threads.
pub fn prepare(bytes: &[u8], kind: ImageKind, limits: &Limits) -> Result<Prepared, PictureError> {
    let over_bytes = data_url_len(kind.mime(), bytes.len()) > limits.resize_above;
    let over_side = match limits.max_side {
        // Only the header is read for this.
        Some(max) => dimensions(bytes, kind).is_some_and(|(w, h)| w.max(h) > max),
        None => false,
    };
    if !over_bytes && !over_side {
        return Ok(Prepared {
            data_url: data_url(kind.mime(), bytes),
            resized: None,
        });
    }
    let image = decode(bytes, kind)?;
    let (data_url, size) = shrink(image, limits);
    if data_url.len() > MAX_DATA_URL {
        return Err(PictureError::TooLarge {
            mb: data_url.len() as f64 / (1024.0 * 1024.0),
            limit: MAX_DATA_URL / (1024 * 1024),
        });
    }
    Ok(Prepared {
        data_url,
        resized: Some(size),
    })
}

/// `data:<mime>;base64,<bytes>`.
pub fn data_url(mime: &str, bytes: &[u8]) -> String {
    format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

fn data_url_len(mime: &str, bytes: usize) -> usize {
    "data:;base64,".len() + mime.len() + bytes.div_ceil(3) * 4
}

fn reader(bytes: &[u8], kind: ImageKind) -> ImageReader<Cursor<&[u8]>> {
    let mut reader = ImageReader::with_format(Cursor::new(bytes), kind.format());
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(MAX_DECODE_ALLOC);
    reader.limits(limits);
    reader
}

fn dimensions(bytes: &[u8], kind: ImageKind) -> Option<(u32, u32)> {
    reader(bytes, kind).into_dimensions().ok()
}

fn decode(bytes: &[u8], kind: ImageKind) -> Result<DynamicImage, PictureError> {
    reader(bytes, kind)
        .decode()
        .map_err(|e| PictureError::Decode(e.to_string()))
}

/// RGB for JPEG, transparent pixels laid on white (dropping alpha would show them black).
fn flatten(image: &DynamicImage) -> RgbImage {
    if !image.color().has_alpha() {
        return image.to_rgb8();
    }
    let rgba = image.to_rgba8();
    RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let [r, g, b, a] = rgba.get_pixel(x, y).0;
        let over_white = |c: u8| ((c as u32 * a as u32 + 255 * (255 - a as u32)) / 255) as u8;
        image::Rgb([over_white(r), over_white(g), over_white(b)])
    })
}

/// Fits the longest side first, then tries the JPEG qualities at each size, halving between
/// rounds; returns the first encoding under the target, else the last (smallest) one. Pixels
/// are flattened only at the size being encoded, and resizing goes through `DynamicImage`
/// (compiled, optimised, in the image crate rather than instantiated here).
fn shrink(mut image: DynamicImage, limits: &Limits) -> (String, (u32, u32)) {
    if let Some(max) = limits.max_side
        && image.width().max(image.height()) > max
    {
        let scale = max as f64 / image.width().max(image.height()) as f64;
        image = resized(&image, scale);
    }
    let mut best = String::new();
    for round in 0..ROUNDS {
        if round > 0 {
            let smaller = resized(&image, 0.5);
            if smaller.dimensions() == image.dimensions() {
                break;
            }
            image = smaller;
        }
        let rgb = flatten(&image);
        for quality in JPEG_QUALITIES {
            let mut jpeg = Vec::new();
            let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, quality);
            if rgb.write_with_encoder(encoder).is_err() {
                continue;
            }
            best = data_url("image/jpeg", &jpeg);
            if best.len() <= limits.target {
                return (best, rgb.dimensions());
            }
        }
    }
    (best, image.dimensions())
}

fn resized(image: &DynamicImage, scale: f64) -> DynamicImage {
    // Never upscaled; a thin side stops at the floor (or its own size when smaller).
    let side = |v: u32| ((v as f64 * scale).round() as u32).max(MIN_SIDE).min(v);
    image.resize_exact(
        side(image.width()),
        side(image.height()),
        image::imageops::FilterType::Triangle,
    )
}
