//! Hermes' truncate-and-store for pages a backend returned (`_truncate_with_footer`): a page
//! within the budget goes back whole; a longer one as about 75 % head and 25 % tail cut at line
//! breaks, with a footer saying how much is shown, where the full text was saved
//! (`HERMES_HOME/cache/web/<host>-<hash>.md`) and which `read_file` call reads the middle.
//! Inline base64 images become `[IMAGE: alt]` placeholders first: they are token bombs.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

use crate::text::thousands;

/// The stored copy is capped too, so a pathological page cannot fill the disk.
const MAX_STORED_CHARS: usize = 2_000_000;

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

/// The text the model gets for one page, and whether it was cut.
pub fn truncate_with_footer(content: &str, url: &str, limit: usize, cache_dir: Option<&Path>) -> (String, bool) {
    let chars: Vec<char> = content.chars().collect();
    let total = chars.len();
    if total <= limit {
        return (content.to_string(), false);
    }
    let head_budget = limit * 3 / 4;
    let tail_budget = limit - head_budget;
    let mut head: String = chars[..head_budget].iter().collect();
    let mut tail: String = chars[total - tail_budget..].iter().collect();
    // Cut at line breaks when one is near, so no line is sliced in half.
    if let Some(nl) = head.rfind('\n')
        && head[..nl].chars().count() * 2 > head_budget
    {
        head.truncate(nl);
    }
    if let Some(nl) = tail.find('\n')
        && tail[..nl].chars().count() * 2 < tail_budget
    {
        tail = tail[nl + 1..].to_string();
    }
    let (head_chars, tail_chars) = (head.chars().count(), tail.chars().count());
    let stored = cache_dir.and_then(|dir| store_full_text(dir, url, &chars));
    let mut footer = vec![
        String::new(),
        format!("{} [TRUNCATED] {}", "─".repeat(8), "─".repeat(8)),
        format!(
            "Showing {} chars (head) + {} chars (tail) of {} total clean characters.",
            thousands(head_chars as u64),
            thousands(tail_chars as u64),
            thousands(total as u64)
        ),
    ];
    match stored {
        Some(path) => {
            let path = path.display();
            let middle_start = head.matches('\n').count() + 2;
            footer.push(format!("Full text saved to: {path}"));
            footer.push(format!(
                "To read the omitted middle: read_file path=\"{path}\" offset={middle_start} limit=200  (the file is the complete page; raise/lower offset to page through it)."
            ));
        }
        None => footer.push(
            "Full text could not be stored; re-run web_extract on a more specific URL or use browser_navigate for the complete page."
                .to_string(),
        ),
    }
    footer.push("─".repeat(29));
    let text = format!(
        "{head}\n\n[... middle omitted — see footer ...]\n\n{tail}\n{}",
        footer.join("\n")
    );
    (text, true)
}

/// Writes the full page to `<dir>/<host>-<hash>.md` (private to the user); `None` on failure
/// (storing is best effort: the cut text still goes back).
fn store_full_text(dir: &Path, url: &str, chars: &[char]) -> Option<PathBuf> {
    let host = (url::Url::parse(url).ok())
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_else(|| "page".to_string());
    let slug: String = (host.chars().map(|c| {
        if c.is_ascii_alphanumeric() || "._-".contains(c) {
            c
        } else {
            '-'
        }
    }))
    .take(60)
    .collect();
    let slug = match slug.trim_matches('-') {
        "" => "page".to_string(),
        s => s.to_string(),
    };
    let path = dir.join(format!("{slug}-{:010x}.md", fnv1a(url.as_bytes()) & 0xff_ffff_ffff));
    let mut text: String = chars.iter().take(MAX_STORED_CHARS).collect();
    if chars.len() > MAX_STORED_CHARS {
        text.push_str(&format!(
            "\n\n[... stored copy truncated at {} chars of {}; re-extract a more specific URL for the rest ...]",
            thousands(MAX_STORED_CHARS as u64),
            thousands(chars.len() as u64)
        ));
    }
    let written = std::fs::create_dir_all(dir).and_then(|()| write_private(&path, &text));
    match written {
        Ok(()) => Some(path),
        Err(e) => {
            tracing::debug!(url, error = %e, "could not store the full web_extract text");
            None
        }
    }
}

fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    std::io::Write::write_all(&mut options.open(path)?, text.as_bytes())
}

/// A stable name for a URL's file (Hermes uses sha256; any stable hash names the file).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}
