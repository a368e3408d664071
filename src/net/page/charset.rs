//! Bytes to text: a byte-order mark first, then the `charset=` of the Content-Type, then (for
//! HTML) a `<meta charset>` or `<meta http-equiv>` declaration in the first kilobyte (where the
//! HTML standard's prescan looks), else UTF-8 with invalid bytes replaced.

use encoding_rs::{Encoding, UTF_8};

/// How far into an HTML body a `<meta>` charset declaration is looked for (the standard's 1024).
const META_PRESCAN: usize = 1024;

/// `body` decoded; `content_type` is the response header, `html` whether to look for `<meta>`.
pub(super) fn decode(body: &[u8], content_type: Option<&str>, html: bool) -> String {
    let declared = content_type
        .and_then(charset_param)
        .and_then(|label| Encoding::for_label(label.as_bytes()));
    // A document cannot describe itself as UTF-16 in ASCII, so such a meta is wrong: the
    // standard maps it to UTF-8 (`output_encoding`), as it does for a declared x-user-defined.
    let meta = || (html.then(|| meta_charset(body)).flatten()).map(Encoding::output_encoding);
    let encoding = declared.or_else(meta).unwrap_or(UTF_8);
    // `decode` lets a BOM override the label, as browsers do.
    encoding.decode(body).0.into_owned()
}

/// The `charset` parameter of a Content-Type value, unquoted.
fn charset_param(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches(['"', '\'']))
    })
}

/// The encoding a `<meta>` in the first kilobyte declares: `<meta charset="x">` or the
/// `charset=` inside `<meta http-equiv="Content-Type" content="...">`.
fn meta_charset(body: &[u8]) -> Option<&'static Encoding> {
    let head = body[..body.len().min(META_PRESCAN)].to_ascii_lowercase();
    let mut rest = head.as_slice();
    while let Some(start) = find(rest, b"<meta") {
        let tag = &rest[start..];
        let end = tag.iter().position(|&b| b == b'>').unwrap_or(tag.len());
        let tag = &tag[..end];
        if let Some(at) = find(tag, b"charset") {
            let value = tag[at + b"charset".len()..].trim_ascii_start();
            if let Some(value) = value.strip_prefix(b"=") {
                let value = value.trim_ascii_start();
                let value = value
                    .strip_prefix(b"\"")
                    .or_else(|| value.strip_prefix(b"'"))
                    .unwrap_or(value);
                let len = (value.iter())
                    .position(|b| !(b.is_ascii_alphanumeric() || b"-_.:".contains(b)))
                    .unwrap_or(value.len());
                if let Some(encoding) = Encoding::for_label(&value[..len]) {
                    return Some(encoding);
                }
            }
        }
        rest = &rest[start + end..];
    }
    None
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_wins_then_the_meta_then_utf8() {
        let latin1 = b"<p>caf\xe9</p>";
        assert_eq!(
            decode(latin1, Some("text/html; charset=ISO-8859-1"), true),
            "<p>café</p>"
        );
        assert_eq!(
            decode(latin1, Some("text/html; charset=\"latin1\""), true),
            "<p>café</p>"
        );
        let meta = b"<html><head><META charset='windows-1252'></head><p>caf\xe9</p>";
        assert!(decode(meta, Some("text/html"), true).ends_with("<p>café</p>"));
        let equiv =
            b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=Shift_JIS\"><p>\x93\xfa\x96\x7b</p>";
        assert!(decode(equiv, None, true).ends_with("<p>日本</p>"));
        // Plain text does not read HTML declarations; unknown bytes are replaced, never fatal.
        assert_eq!(
            decode(b"<meta charset=latin1>\xe9", None, false),
            "<meta charset=latin1>\u{fffd}"
        );
        assert_eq!(decode(b"caf\xc3\xa9", None, true), "café");
    }

    #[test]
    fn a_bom_overrides_the_label_and_a_utf16_meta_means_utf8() {
        assert_eq!(
            decode(b"\xef\xbb\xbfcaf\xc3\xa9", Some("text/plain; charset=latin1"), false),
            "café"
        );
        assert_eq!(
            decode(b"<meta charset=utf-16>caf\xc3\xa9", None, true),
            "<meta charset=utf-16>café"
        );
    }
}
