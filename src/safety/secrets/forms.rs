//! Every spelling of one secret value the redactor looks for, and how much of each must show
//! before it counts. The spellings: the value itself (and its JSON-escaped text), lower and
//! upper case, reversed (`rev`), rot13 (`tr`), hex in both cases, hex of little-endian 16- and
//! 32-bit words (`od -x`, `hexdump`, `xxd -e`), octal bytes and words (`od -b`, `od`),
//! decimal bytes (`od -t u1`), binary (`xxd -b`), base64 and base64url in the three
//! alignments a value can have in a longer stream, base32 in its five.
//!
//! How much must show, and why: a run that pins down [`FRAGMENT_BYTES`] consecutive bytes of
//! the value (12 characters of the value, 24 hex digits, 16 base64 characters, …) or the
//! whole value when it is shorter. Twelve bytes of a random key are ≥ 70 bits: the chance
//! that ordinary output (build logs, hashes, base64 images) holds one of the ~3 000 windows
//! of 20 keys by accident is below 10⁻¹⁰ per megabyte, while a key split in two (two
//! commands, a line edge) still shows at least one side that long unless the split leaves
//! fewer than 12 characters on it. Windows that are not random (`000000000000`, `abababab…`)
//! are not secrets worth a false positive: a run must also show [`Form::min_distinct`]
//! distinct characters, except the literal value in full, which is always masked. And only a
//! value shaped like a generated credential (letters and digits, no spaces) is matched by its
//! fragments: the set also holds values that are secret only by where they were configured
//! (an MCP header such as `application/json`, a word under `*_PASSWORD`), whose pieces are
//! ordinary text; those are matched whole, in every spelling.

use super::encode;
use super::view;

/// Consecutive bytes of a value a fragment must pin down (or the whole value if shorter).
pub const FRAGMENT_BYTES: usize = 12;
/// Bytes a single piece must show to start a match; smaller pieces only extend one (a dump
/// with 6 or 8 bytes per line shows the value in pieces this big between offsets).
pub const PIECE_BYTES: usize = 6;
/// Fewest characters of a piece that only extends a match.
pub const MIN_EDGE: usize = 3;

/// One spelling of one secret, as it reads in the view (no whitespace).
#[derive(Debug)]
pub struct Form {
    /// Index of the secret in the set.
    pub secret: usize,
    pub text: Vec<u8>,
    /// Characters a match must cover (all of them when the form is shorter).
    pub min_run: usize,
    /// Characters one piece must cover to start a match.
    pub min_piece: usize,
    /// Fewest characters of a piece that only extends a match (a line's first or last few):
    /// one byte's worth, and at least [`MIN_EDGE`].
    pub min_edge: usize,
    /// Distinct characters a match must show (0: no check).
    pub min_distinct: usize,
    /// The literal value: a whole match is always a secret, however plain it looks.
    pub literal: bool,
}

/// What an encoding does to length and to the variety of characters.
#[derive(Clone, Copy)]
enum Alphabet {
    /// The value's own characters, transformed one by one.
    Text,
    Hex,
    Octal,
    Decimal,
    Binary,
    Base64,
    Base32,
}

impl Alphabet {
    /// Characters per byte as a fraction.
    fn ratio(self) -> (usize, usize) {
        match self {
            Alphabet::Text => (1, 1),
            Alphabet::Hex => (2, 1),
            Alphabet::Octal => (3, 1),
            Alphabet::Decimal => (5, 2),
            Alphabet::Binary => (8, 1),
            Alphabet::Base64 => (4, 3),
            Alphabet::Base32 => (8, 5),
        }
    }

    fn chars_for(self, bytes: usize) -> usize {
        let (num, den) = self.ratio();
        (bytes * num).div_ceil(den)
    }

    /// Distinct characters a run of it must show: a small alphabet shows fewer; binary is
    /// always two.
    fn min_distinct(self) -> usize {
        match self {
            Alphabet::Text | Alphabet::Hex | Alphabet::Base64 | Alphabet::Base32 => 6,
            Alphabet::Octal | Alphabet::Decimal => 4,
            Alphabet::Binary => 0,
        }
    }
}

/// Whether pieces of `value` are as telling as the whole: a generated credential mixes
/// letters and digits and has no spaces; a word or a phrase does not.
fn fragments_tell(value: &str) -> bool {
    !value.contains(char::is_whitespace)
        && value.chars().any(|c| c.is_ascii_digit())
        && value.chars().any(|c| c.is_ascii_alphabetic())
}

/// Every distinct spelling of `value` (the secret numbered `secret`).
pub fn forms_of(secret: usize, value: &str) -> Vec<Form> {
    let bytes = value.as_bytes();
    let fragments = fragments_tell(value);
    let mut spellings: Vec<(Alphabet, String, bool)> = vec![(Alphabet::Text, value.to_string(), true)];
    // The spelling inside JSON text, for callers that only have the encoded form.
    let escaped = serde_json::to_string(value).unwrap_or_default();
    let escaped = escaped.trim_matches('"');
    if escaped != value {
        spellings.push((Alphabet::Text, escaped.to_string(), true));
    }
    let text_forms = [
        value.to_lowercase(),
        value.to_uppercase(),
        value.chars().rev().collect(),
        encode::rot13(value),
    ];
    spellings.extend(text_forms.into_iter().map(|t| (Alphabet::Text, t, false)));
    let mut encoded = vec![
        (Alphabet::Hex, encode::hex(bytes, false)),
        (Alphabet::Hex, encode::hex(bytes, true)),
        (Alphabet::Octal, encode::octal_bytes(bytes)),
        (Alphabet::Decimal, encode::decimal_bytes(bytes)),
        (Alphabet::Binary, encode::binary(bytes)),
    ];
    for offset in 0..2 {
        encoded.push((Alphabet::Hex, encode::hex_words(bytes, 2, offset)));
        encoded.push((Alphabet::Octal, encode::octal_words(bytes, offset)));
    }
    for offset in 0..4 {
        encoded.push((Alphabet::Hex, encode::hex_words(bytes, 4, offset)));
    }
    for offset in 0..3 {
        encoded.push((Alphabet::Base64, encode::base64(bytes, offset, false)));
        encoded.push((Alphabet::Base64, encode::base64(bytes, offset, true)));
    }
    for offset in 0..5 {
        encoded.push((Alphabet::Base32, encode::base32(bytes, offset)));
    }
    spellings.extend(encoded.into_iter().map(|(a, t)| (a, t, false)));

    let mut forms: Vec<Form> = Vec::new();
    for (alphabet, spelling, literal) in spellings {
        // The view has no whitespace, so neither may a form (a value with spaces inside).
        let text = view::strip(spelling.as_bytes());
        // Encodings of a value shorter than their group have no stable characters.
        if text.len() < alphabet.chars_for(PIECE_BYTES).min(alphabet.chars_for(bytes.len())) {
            continue;
        }
        if let Some(same) = forms.iter_mut().find(|f| f.text == text) {
            same.literal |= literal;
            continue;
        }
        let min_run = match fragments {
            true => alphabet.chars_for(FRAGMENT_BYTES).min(text.len()),
            false => text.len(),
        };
        forms.push(Form {
            secret,
            min_piece: alphabet.chars_for(PIECE_BYTES).min(min_run),
            min_edge: alphabet.chars_for(1).max(MIN_EDGE),
            min_run,
            min_distinct: alphabet.min_distinct(),
            text,
            literal,
        });
    }
    forms
}

/// Where seeds start in a form so that every piece of at least `min_piece` characters holds
/// one whole seed: seeds of `width` every `stride` characters, `width + stride - 1 = min_piece`.
pub fn seed_layout(form: &Form) -> (usize, usize) {
    let width = (form.min_piece / 2 + 1).min(form.min_piece);
    let stride = form.min_piece - width + 1;
    (width, stride)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_has_every_spelling_once_with_thresholds_in_its_alphabet() {
        let forms = forms_of(0, "sk-proj-Ab3dEf6hIj9kLm2nOp5q");
        let texts: Vec<String> = forms
            .iter()
            .map(|f| String::from_utf8_lossy(&f.text).into_owned())
            .collect();
        for expected in [
            "sk-proj-Ab3dEf6hIj9kLm2nOp5q",
            "q5pOn2mLk9jIh6fEd3bA-jorp-ks",
            "fx-cebw-No3qRs6uVw9xYz2aBc5d",
        ] {
            assert!(texts.iter().any(|t| t == expected), "{expected} missing");
        }
        let hex = forms.iter().find(|f| f.text.starts_with(b"736b2d")).unwrap();
        assert_eq!((hex.min_run, hex.min_piece), (24, 12));
        let plain = &forms[0];
        assert!(plain.literal);
        assert_eq!((plain.min_run, plain.min_piece), (12, 6));
        assert_eq!(seed_layout(plain), (4, 3));
        let distinct: std::collections::HashSet<&Vec<u8>> = forms.iter().map(|f| &f.text).collect();
        assert_eq!(distinct.len(), forms.len());
    }

    #[test]
    fn a_value_that_is_not_credential_shaped_must_show_whole() {
        for value in [
            "application/json",
            "correct horse battery staple 9",
            "onlylettersinthisvalue",
        ] {
            let forms = forms_of(0, value);
            assert!(forms.iter().all(|f| f.min_run == f.text.len()), "{value}");
        }
    }

    #[test]
    fn a_short_value_must_show_whole() {
        let forms = forms_of(0, "hunter22");
        assert!(forms.iter().all(|f| f.min_run == f.text.len().min(f.min_run)));
        assert_eq!(forms[0].min_run, 8);
        assert_eq!(forms[0].min_piece, 6);
    }
}
