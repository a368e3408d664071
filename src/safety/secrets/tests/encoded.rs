//! Encoded forms: every spelling, every alignment, split by any whitespace, as the tools
//! print them around a value (the whole `.env` line, so the value sits at every offset).

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE};

use super::dumps::{self, leak};
use super::*;

const KEYS: [(&str, &str); 3] = [
    ("OPENAI_API_KEY", "sk-proj-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp"),
    ("DEPLOY_TOKEN", "dotenv-Qw3rTy7uI0oP4aS8dF2gH6jK"),
    // No recognisable prefix; `/` makes base64url differ from base64.
    ("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
];

fn set() -> SecretSet {
    KEYS.iter()
        .fold(SecretSet::builder(), |b, (n, v)| b.secret(n, v))
        .build()
}

/// The `.env` line with `shift` extra bytes before it, so the value lands at every offset of
/// every encoding's group.
fn line(name: &str, value: &str, shift: usize) -> Vec<u8> {
    format!("{}{name}={value}\n", &"#####"[..shift]).into_bytes()
}

/// Redacts `printed` and checks that nothing of `value` is left and its marker is there.
fn check(set: &SecretSet, name: &str, value: &str, how: &str, printed: &str) {
    let redacted = set.redact(printed);
    assert!(
        redacted.contains(&format!("[REDACTED:{name}]")),
        "{how}: nothing masked in\n{printed}"
    );
    if let Some(run) = leak(value, &redacted) {
        panic!("{how}: {run:?} of {name} left in\n{redacted}");
    }
}

/// What the tools print for the `.env` line of `name` shifted by `shift` bytes.
fn spellings(name: &str, value: &str, shift: usize) -> Vec<(&'static str, String)> {
    let bytes = line(name, value, shift);
    let text = String::from_utf8(bytes.clone()).unwrap();
    vec![
        ("plain", text.clone()),
        ("rev", text.chars().rev().collect()),
        ("rot13", encode::rot13(&text)),
        ("upper", text.to_uppercase()),
        ("lower", text.to_lowercase()),
        ("hex", bytes.iter().map(|b| format!("{b:02x}")).collect()),
        ("HEX", bytes.iter().map(|b| format!("{b:02X}")).collect()),
        ("base64", STANDARD.encode(&bytes)),
        ("base64url", URL_SAFE.encode(&bytes)),
        ("base32", encode::base32(&bytes, 0)),
        ("xxd", dumps::xxd(&bytes, 16)),
        ("xxd -c 8", dumps::xxd(&bytes, 8)),
        ("xxd -b", dumps::xxd_bits(&bytes)),
        ("hexdump -C", dumps::hexdump_c(&bytes)),
        ("od -c", dumps::od_c(&bytes)),
        ("od -x", dumps::od_words(&bytes, 16)),
        ("xxd -e", dumps::xxd_e(&bytes)),
        ("od", dumps::od_words(&bytes, 8)),
        ("od -b", dumps::od_bytes(&bytes, 8)),
        ("od -t u1", dumps::od_bytes(&bytes, 10)),
    ]
}

#[test]
fn each_spelling_in_every_alignment_is_masked() {
    let set = set();
    for (name, value) in KEYS {
        for shift in 0..5 {
            for (how, printed) in spellings(name, value, shift) {
                check(&set, name, value, &format!("{how} (shift {shift})"), &printed);
            }
        }
    }
}

#[test]
fn the_leak_check_sees_every_spelling_before_redaction() {
    // Dumps with fewer than 12 bytes a line never show a 12-byte run, masked or not.
    let narrow = ["xxd -c 8", "xxd -b", "base32"];
    for (name, value) in KEYS {
        for shift in 0..5 {
            for (how, printed) in spellings(name, value, shift) {
                if !narrow.contains(&how) {
                    assert!(leak(value, &printed).is_some(), "{how} (shift {shift}) not seen");
                }
            }
        }
    }
}

#[test]
fn any_whitespace_between_the_characters_is_masked_with_them() {
    let set = set();
    for (name, value) in KEYS {
        let bytes = line(name, value, 1);
        let spaced: String = value.chars().flat_map(|c| [c, ' ']).collect();
        let tabbed: String = value.chars().flat_map(|c| [c, '\t', '\t']).collect();
        let cases = [
            ("fold -w 5", dumps::fold(value, 5)),
            ("fold -w 1", dumps::fold(value, 1)),
            ("base64 -w 10", dumps::base64_wrapped(&bytes, 10)),
            ("base64 -w 3", dumps::base64_wrapped(&bytes, 3)),
            ("xxd -p -c 5", dumps::fold(&encode::hex(&bytes, false), 10)),
            ("spaces", spaced),
            ("tabs", tabbed),
            ("crlf", dumps::fold(value, 7).replace('\n', "\r\n")),
            ("json escapes", dumps::fold(value, 6).replace('\n', "\\n")),
        ];
        for (how, printed) in cases {
            check(&set, name, value, how, &format!("before\n{printed}\nafter"));
        }
    }
}

#[test]
fn the_text_around_a_masked_form_is_kept() {
    let set = set();
    let folded = dumps::fold(KEYS[1].1, 5);
    let text = format!("$ fold -w 5 x\n{folded}\n$ echo done");
    let redacted = set.redact(&text);
    assert_eq!(redacted, "$ fold -w 5 x\n[REDACTED:DEPLOY_TOKEN]\n$ echo done");
    let hex = encode::hex(KEYS[0].1.as_bytes(), false);
    assert_eq!(
        set.redact(&format!("key: {hex} (hex)")),
        "key: [REDACTED:OPENAI_API_KEY] (hex)"
    );
    assert_eq!(
        set.redact(&format!("rev: {}.", KEYS[2].1.chars().rev().collect::<String>())),
        "rev: [REDACTED:AWS_SECRET_ACCESS_KEY]."
    );
}

#[test]
fn a_dump_loses_the_value_in_every_column_down_to_the_line_edges() {
    let set = set();
    let bytes = line("DEPLOY_TOKEN", KEYS[1].1, 0);
    let dump = dumps::od_c(&bytes);
    let redacted = set.redact(&dump);
    // "d o t" ends the first line and "4 a S 8 …" starts the third: both edges go.
    assert_eq!(
        redacted,
        "0000000   D   E   P   L   O   Y   _   T   O   K   E   N   =   [REDACTED:DEPLOY_TOKEN]\n\
         0000020   [REDACTED:DEPLOY_TOKEN]\n\
         0000040   [REDACTED:DEPLOY_TOKEN]  \\n\n\
         0000055\n"
    );
    let dump = dumps::xxd(&bytes, 16);
    let redacted = set.redact(&dump);
    let first = redacted.lines().next().unwrap();
    assert!(!first.contains("dot") && !first.contains("646f74"), "{redacted}");
    assert!(
        first.starts_with("00000000: 4445 504c 4f59 5f54 4f4b 454e 3d"),
        "{redacted}"
    );
}
