//! Fitting a long page into the model's budget the way Hermes' `web_extract` does: pages within
//! `char_limit` characters are returned whole; longer ones become about 75% head and 25% tail,
//! cut on line boundaries when a boundary is near, with Hermes' "middle omitted" marker and a
//! footer saying how much is shown and the `read_file` call that pages through the full text,
//! which is saved (private, atomically) as `<host slug>-<sha256(url)[:10]>.md`, Hermes' name.

use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The most of a page written to disk (Hermes' `MAX_STORED_TEXT_CHARS`): more than any paging
/// session reads, and a bound on what one fetch can write.
const MAX_STORED_CHARS: usize = 2_000_000;

/// A page fitted to the budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fitted {
    /// What the model sees: the whole text, or head + marker + tail + footer.
    pub content: String,
    /// The text's length in characters.
    pub full_chars: usize,
    /// Where the full text was saved, when it was cut and saving worked.
    pub saved_to: Option<PathBuf>,
}

/// `text` (the page at `url`) within `char_limit` characters, the full text saved under
/// `save_dir` when it had to be cut. Saving is best effort: on failure the footer says so.
pub fn fit_to_limit(text: &str, url: &str, char_limit: usize, save_dir: &Path) -> Fitted {
    let full_chars = text.chars().count();
    if full_chars <= char_limit {
        return Fitted {
            content: text.to_string(),
            full_chars,
            saved_to: None,
        };
    }
    let (head, tail) = head_and_tail(text, full_chars, char_limit);
    let saved_to = match store(text, full_chars, url, save_dir) {
        Ok(path) => Some(path),
        Err(error) => {
            tracing::warn!(url, dir = %save_dir.display(), %error, "could not save the full page text");
            None
        }
    };
    let (head_chars, tail_chars) = (head.chars().count(), tail.chars().count());
    let rule = "─".repeat(8);
    let mut footer = vec![
        String::new(),
        format!("{rule} [TRUNCATED] {rule}"),
        format!(
            "Showing {} chars (head) + {} chars (tail) of {} total clean characters.",
            thousands(head_chars),
            thousands(tail_chars),
            thousands(full_chars)
        ),
    ];
    match &saved_to {
        Some(path) => {
            let path = path.display();
            // read_file is 1-indexed and the head's last line was shown: the gap starts after it.
            let middle_start_line = head.matches('\n').count() + 2;
            footer.push(format!("Full text saved to: {path}"));
            footer.push(format!(
                "To read the omitted middle: read_file path=\"{path}\" offset={middle_start_line} limit=200  (the file is the complete page; raise/lower offset to page through it)."
            ));
        }
        None => footer.push(
            "Full text could not be stored; re-run web_extract on a more specific URL or use browser_navigate for the complete page."
                .to_string(),
        ),
    }
    footer.push("─".repeat(29));
    let content = format!(
        "{head}\n\n[... middle omitted — see footer ...]\n\n{tail}\n{}",
        footer.join("\n")
    );
    Fitted {
        content,
        full_chars,
        saved_to,
    }
}

/// The first ~75% and last ~25% of `char_limit` characters of `text` (`total` characters long),
/// the head cut back to its last newline and the tail forward past its first one when that
/// loses under half of the part. Always on character boundaries.
fn head_and_tail(text: &str, total: usize, char_limit: usize) -> (&str, &str) {
    let head_budget = char_limit * 3 / 4;
    let tail_budget = char_limit - head_budget;
    let byte_at = |chars: usize| text.char_indices().nth(chars).map_or(text.len(), |(i, _)| i);
    let mut head = &text[..byte_at(head_budget)];
    let mut tail = &text[byte_at(total - tail_budget)..];
    if let Some(nl) = head.rfind('\n')
        && 2 * head[..nl].chars().count() > head_budget
    {
        head = &head[..nl];
    }
    if let Some(nl) = tail.find('\n')
        && 2 * tail[..nl].chars().count() < tail_budget
    {
        tail = &tail[nl + 1..];
    }
    (head, tail)
}

/// Writes the full text (capped) to `save_dir/<slug>-<hash>.md`, 0600, replacing atomically.
fn store(text: &str, total: usize, url: &str, save_dir: &Path) -> std::io::Result<PathBuf> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(save_dir)?;
    let path = save_dir.join(file_name(url));
    // The temporary file is created 0600 in the same directory, so the rename is atomic and the
    // text is never readable by others, not even half-written.
    let mut file = tempfile::NamedTempFile::new_in(save_dir)?;
    if total > MAX_STORED_CHARS {
        let cut = text.char_indices().nth(MAX_STORED_CHARS).map_or(text.len(), |(i, _)| i);
        file.write_all(&text.as_bytes()[..cut])?;
        write!(
            file,
            "\n\n[... stored copy truncated at {} chars of {}; re-extract a more specific URL for the rest ...]",
            thousands(MAX_STORED_CHARS),
            thousands(total)
        )?;
    } else {
        file.write_all(text.as_bytes())?;
    }
    file.persist(&path).map_err(|e| e.error)?;
    Ok(path)
}

/// Hermes' cache file name: the host made filename-safe (60 characters at most, `page` when
/// there is none) and the first 10 hex digits of the URL's SHA-256.
fn file_name(url: &str) -> String {
    let host = url::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_string));
    let host = host.unwrap_or_else(|| "page".to_string()).replace(':', "_");
    let slug: String = (host.chars())
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '-'
            }
        })
        .take(60)
        .collect();
    let slug = slug.trim_matches('-');
    let slug = if slug.is_empty() { "page" } else { slug };
    let digest = Sha256::digest(url.as_bytes());
    let hex: String = digest.iter().take(5).map(|b| format!("{b:02x}")).collect();
    format!("{slug}-{hex}.md")
}

/// `1234567` as `1,234,567` (Python's `{:,}`, which Hermes' footer uses).
fn thousands(n: usize) -> String {
    crate::text::thousands(n as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_whole_and_nothing_is_saved() {
        let dir = tempfile::tempdir().unwrap();
        let fitted = fit_to_limit("héllo", "https://example.com/", 5, dir.path());
        assert_eq!(
            fitted,
            Fitted {
                content: "héllo".into(),
                full_chars: 5,
                saved_to: None
            }
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn long_text_keeps_head_and_tail_on_line_and_char_boundaries() {
        // Multi-byte characters everywhere: a byte-based cut would panic or split one.
        let text: String = (0..400).map(|i| format!("é line {i:03} ✓\n")).collect();
        let dir = tempfile::tempdir().unwrap();
        let save_dir = dir.path().join("cache/web");
        let url = "https://Docs.Example.com:8443/a?b=c";
        let fitted = fit_to_limit(&text, url, 1000, &save_dir);
        assert_eq!(fitted.full_chars, text.chars().count());
        let path = fitted.saved_to.clone().unwrap();
        assert_eq!(path, save_dir.join(file_name(url)));
        assert!(file_name(url).starts_with("docs.example.com-"), "{}", file_name(url));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }
        let (head, rest) = fitted
            .content
            .split_once("\n\n[... middle omitted — see footer ...]\n\n")
            .unwrap();
        assert!(head.starts_with("é line 000 ✓\né line 001"));
        assert!(head.ends_with('✓'), "head cut on a line end: {head:?}");
        // Lines are 13 characters: the 750-character head ends inside line 58 and snaps back.
        assert_eq!(head.chars().count(), 57 * 13 - 1);
        let (tail, footer) = rest.split_once("\n\n──────── [TRUNCATED] ────────\n").unwrap();
        assert!(
            tail.starts_with("é line") && tail.ends_with("é line 399 ✓\n"),
            "{tail:?}"
        );
        assert!(tail.chars().count() <= 250);
        let lines = head.matches('\n').count() + 2;
        assert_eq!(
            footer,
            format!(
                "Showing {} chars (head) + {} chars (tail) of 5,200 total clean characters.\nFull text saved to: {p}\nTo read the omitted middle: read_file path=\"{p}\" offset={lines} limit=200  (the file is the complete page; raise/lower offset to page through it).\n{}",
                head.chars().count(),
                tail.chars().count(),
                "─".repeat(29),
                p = path.display()
            )
        );
        // The read_file offset lands on the first line the head did not show.
        let first_hidden = text.lines().nth(lines - 1).unwrap();
        assert!(!head.contains(first_hidden) && head.lines().last() == text.lines().nth(lines - 2));
    }

    #[test]
    fn a_failed_save_is_said_in_the_footer() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("not-a-dir");
        std::fs::write(&file, "").unwrap();
        let fitted = fit_to_limit(&"x".repeat(3000), "https://example.com/", 2000, &file);
        assert_eq!(fitted.saved_to, None);
        assert!(fitted.content.contains("Full text could not be stored"));
        let shown = fitted.content.split("──").next().unwrap();
        assert_eq!(shown.matches('x').count(), 2000);
    }

    #[test]
    fn names_and_numbers_match_hermes() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(2_000_000), "2,000,000");
        // sha256("https://example.com/") starts 0f115db062.
        assert_eq!(file_name("https://example.com/"), "example.com-0f115db062.md");
        assert!(file_name("http://[::1]:8080/").starts_with("__1-"));
    }
}
