//! Fragments: part of a value is enough once it is at least 12 bytes' worth, at either edge
//! of a text or a line, and a value split across two results loses both sides.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use super::dumps::leak;
use super::*;

const KEY: &str = "sk-proj-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp";

fn set() -> SecretSet {
    SecretSet::builder().secret("OPENAI_API_KEY", KEY).build()
}

#[test]
fn a_fragment_at_either_edge_of_a_text_is_masked() {
    let set = set();
    let head = &KEY[..FRAGMENT_BYTES];
    let tail = &KEY[KEY.len() - 20..];
    assert_eq!(set.redact(head), "[REDACTED:OPENAI_API_KEY]");
    assert_eq!(set.redact(&format!("{head}\nmore")), "[REDACTED:OPENAI_API_KEY]\nmore");
    assert_eq!(set.redact(&format!("x {tail}")), "x [REDACTED:OPENAI_API_KEY]");
    let middle = &KEY[10..25];
    assert_eq!(set.redact(&format!("[{middle}]")), "[[REDACTED:OPENAI_API_KEY]]");
    // Reversed and encoded fragments too.
    let reversed: String = KEY[20..].chars().rev().collect();
    assert_eq!(set.redact(&reversed), "[REDACTED:OPENAI_API_KEY]");
    let hex = encode::hex(&KEY.as_bytes()[..14], false);
    assert_eq!(set.redact(&format!("{hex}\n")), "[REDACTED:OPENAI_API_KEY]\n");
}

#[test]
fn fewer_than_twelve_characters_are_not_a_match() {
    let set = set();
    let short = &KEY[5..5 + FRAGMENT_BYTES - 1];
    assert_eq!(set.redact(short), short);
    assert!(!set.contains_secret(short));
    assert!(set.contains_secret(&KEY[5..5 + FRAGMENT_BYTES]));
}

#[test]
fn a_value_split_across_two_results_loses_both_halves() {
    let set = set();
    let line = format!("OPENAI_API_KEY={KEY}\n");
    // `head -c N .env` then `tail -c +N+1 .env`, at every split point.
    for split in 1..line.len() {
        let (first, second) = line.split_at(split);
        let (a, b) = (set.redact(first), set.redact(second));
        let seen = format!("{a}{b}");
        assert!(!seen.contains(KEY), "split at {split}: {seen}");
        // What is left of the key on either side is shorter than a fragment.
        assert!(
            leak(KEY, &a).is_none() && leak(KEY, &b).is_none(),
            "split {split}: {a} | {b}"
        );
    }
    // A base64 copy split in two.
    let encoded = STANDARD.encode(line.as_bytes());
    let (first, second) = encoded.split_at(encoded.len() / 2);
    let seen = format!("{}\n{}", set.redact(first), set.redact(second));
    assert!(leak(KEY, &seen).is_none(), "{seen}");
    assert_eq!(seen.matches("[REDACTED:OPENAI_API_KEY]").count(), 2, "{seen}");
}

#[test]
fn partial_lines_at_line_edges_are_masked() {
    let set = set();
    // Lines cut short (`cut -c`, a terminal width) that hold part of the key at their edges.
    let text = format!(
        "line one ends with {}\nline two\n{} starts line three",
        &KEY[..15],
        &KEY[25..]
    );
    assert_eq!(
        set.redact(&text),
        "line one ends with [REDACTED:OPENAI_API_KEY]\nline two\n[REDACTED:OPENAI_API_KEY] starts line three"
    );
    // Broken by a newline alone, the pieces read as one run (whitespace never separates).
    let wrapped = format!("prefix {}\n{} suffix", &KEY[..15], &KEY[15..]);
    assert_eq!(set.redact(&wrapped), "prefix [REDACTED:OPENAI_API_KEY] suffix");
    // Line numbers between pieces (`cat -n` of `fold -w 8`): each piece chained to the next.
    let numbered: String = KEY
        .as_bytes()
        .chunks(8)
        .enumerate()
        .map(|(n, c)| format!("{:>6}\t{}\n", n + 1, std::str::from_utf8(c).unwrap()))
        .collect();
    let redacted = set.redact(&numbered);
    assert_eq!(redacted.matches("[REDACTED:OPENAI_API_KEY]").count(), 5, "{redacted}");
    assert!(leak(KEY, &redacted).is_none());
}

#[test]
fn two_values_side_by_side_keep_their_own_markers() {
    let other = "ghp_Mm1Nn2Bb3Vv4Cc5Xx6Zz7Ll8Kk9Jj0Hh1Gg";
    let set = SecretSet::builder()
        .secret("OPENAI_API_KEY", KEY)
        .secret("GITHUB_TOKEN", other)
        .build();
    assert_eq!(
        set.redact(&format!("{KEY} {other}\n{other}{KEY}")),
        "[REDACTED:OPENAI_API_KEY] [REDACTED:GITHUB_TOKEN]\n[REDACTED:GITHUB_TOKEN][REDACTED:OPENAI_API_KEY]"
    );
}

#[test]
fn redaction_is_idempotent_and_leaves_markers_alone() {
    let set = set();
    let once = set.redact(&format!("a {KEY} b {}", STANDARD.encode(KEY))).into_owned();
    assert_eq!(set.redact(&once), once);
    assert!(matches!(set.redact(&once), Cow::Borrowed(_)));
}
