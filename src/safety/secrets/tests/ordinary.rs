//! No false positives: what commands print every day goes through untouched (borrowed, not
//! even copied) with many secrets known, including hashes of the secrets themselves.

use std::fmt::Write as _;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use sha2::{Digest, Sha256};

use super::dumps;
use super::*;

/// Sixty secrets of the usual shapes (provider keys, hex and base62 tokens, passwords).
fn many_secrets() -> (SecretSet, Vec<String>) {
    let mut rng = fastrand::Rng::with_seed(19);
    let mut values = vec![
        "sk-proj-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp".to_string(),
        "sk-ant-api03-Kk1Jj2Hh3Gg4Ff5Ee6Dd7Cc8Bb9Aa0".to_string(),
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".to_string(),
        "correct-horse-battery-staple".to_string(),
    ];
    for i in 0..56 {
        let len = 12 + i % 40;
        values.push(match i % 3 {
            0 => (0..len).map(|_| rng.alphanumeric()).collect(),
            1 => (0..len)
                .map(|_| char::from_digit(rng.u32(0..16), 16).unwrap())
                .collect(),
            _ => format!("ghp_{}", (0..36).map(|_| rng.alphanumeric()).collect::<String>()),
        });
    }
    let set = values
        .iter()
        .enumerate()
        .fold(SecretSet::builder(), |b, (i, v)| b.secret(&format!("K{i}"), v))
        .build();
    (set, values)
}

const CARGO: &str = "   Compiling proc-macro2 v1.0.86
   Compiling unicode-ident v1.0.12
   Compiling serde v1.0.204 (/home/dev/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde-1.0.204)
   Compiling hermes-acp v0.1.0 (/home/dev/src/hermes-acp)
warning: unused variable: `secret`
  --> src/safety/secrets/mod.rs:42:9
   |
42 |     let secret = value.trim();
   |         ^^^^^^ help: if this is intentional, prefix it with an underscore: `_secret`
   |
   = note: `#[warn(unused_variables)]` on by default

error[E0308]: mismatched types
    Finished `dev` profile [unoptimized + debuginfo] target(s) in 12.34s
     Running unittests src/lib.rs (target/debug/deps/hermes_acp-3f2a9c0e1d7b4a65)
test safety::secrets::tests::values_become_named_markers ... ok
test result: ok. 1532 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 4.21s
";

const GIT_LOG: &str = "commit 16b51cb8e2f0a4c7d93e1b5a6f8c0d2e4b7a9c31
Author: Ada Lovelace <ada@example.com>
Date:   Mon Mar 3 10:00:00 2025 +0100

    Manifest: sha256 of the musl archive built from this tree

commit e31e8f0c2b9d7a6e5f4c3b2a1d0e9f8c7b6a5d4e
Merge: aca6281 1ab828b
Author: Grace Hopper <grace@example.com>
Date:   Sun Mar 2 18:30:12 2025 +0000

    Tests for two start-up claims (sk-proj keys, ghp_ tokens, AKIA ids are masked)

 src/safety/secrets/mod.rs | 154 +++++++++++++++-----
 2 files changed, 120 insertions(+), 34 deletions(-)
";

fn ordinary_outputs(values: &[String]) -> Vec<(String, String)> {
    let mut rng = fastrand::Rng::with_seed(5);
    // A PNG: signature, IHDR, then noise, as `base64 -w 76 image.png` prints it.
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0\0\0\x01\0\x08\x06\0\0\0".to_vec();
    png.extend((0..6000).map(|_| rng.u8(..)));
    let image = dumps::base64_wrapped(&png, 76);
    let mut sums = String::new();
    for (i, value) in values.iter().enumerate() {
        let digest = Sha256::digest(value.as_bytes());
        let _ = writeln!(sums, "{}  key-{i}.txt", encode::hex(&digest, false));
        let _ = writeln!(sums, "{}  key-{i}.b64", STANDARD.encode(digest));
    }
    let random: Vec<u8> = (0..4096).map(|_| rng.u8(..)).collect();
    let prose = "The agent redacts every tool result before the model sees it. Keys such as \
                 sk-proj-… or ghp_… are masked by pattern; values from .env by value. Run \
                 `cargo test --release -- --nocapture` and `git log --stat -5` as usual.\n"
        .repeat(20);
    let numbers: String = (0..2000u64).map(|n| format!("{} ", n * 7919 % 100_003)).collect();
    vec![
        ("cargo".into(), CARGO.repeat(10)),
        ("git log".into(), GIT_LOG.repeat(10)),
        ("base64 image".into(), image),
        ("sha256 sums of the secrets".into(), sums),
        ("xxd of random bytes".into(), dumps::xxd(&random, 16)),
        ("od -c of random bytes".into(), dumps::od_c(&random)),
        ("hexdump -C".into(), dumps::hexdump_c(&random)),
        ("prose".into(), prose),
        ("numbers".into(), numbers),
        (
            "json log".into(),
            r#"{"level":"info","msg":"served","path":"/api/v1/items/42","ms":12,"trace":"4bf92f3577b34da6a3ce929d0e0e4736"}"#
                .repeat(50),
        ),
    ]
}

#[test]
fn everyday_output_is_left_exactly_as_it_was() {
    let (set, values) = many_secrets();
    for (what, text) in ordinary_outputs(&values) {
        let redacted = set.redact(&text);
        assert!(matches!(redacted, Cow::Borrowed(_)), "{what} changed:\n{redacted}");
        assert!(!set.contains_secret(&text), "{what}");
    }
}

#[test]
fn a_value_secret_only_by_where_it_was_configured_is_masked_whole_only() {
    let set = SecretSet::builder()
        .secret("MCP_SERVERS_WEB_HEADERS_ACCEPT", "application/json")
        .secret("DB_PASSWORD", "correct-horse-battery-staple")
        .build();
    assert_eq!(
        set.redact("Accept: application/json"),
        "Accept: [REDACTED:MCP_SERVERS_WEB_HEADERS_ACCEPT]"
    );
    let ordinary = "Content-Type: application/xml; see correct-horse-battery docs";
    assert!(matches!(set.redact(ordinary), Cow::Borrowed(_)));
    // Whole, it is still caught in any spelling.
    let reversed: String = "correct-horse-battery-staple".chars().rev().collect();
    assert_eq!(set.redact(&reversed), "[REDACTED:DB_PASSWORD]");
}

#[test]
fn a_plain_looking_value_is_masked_whole_but_not_by_its_fragments() {
    let set = SecretSet::builder()
        .secret("PIN", "00000000000000000000000000000042")
        .secret("PATTERN", "abababababababab12")
        .build();
    assert_eq!(set.redact("pin=00000000000000000000000000000042"), "pin=[REDACTED:PIN]");
    assert_eq!(set.redact("x abababababababab12 y"), "x [REDACTED:PATTERN] y");
    let dump = dumps::xxd(&[0u8; 64], 16);
    assert!(matches!(set.redact(&dump), Cow::Borrowed(_)), "{dump}");
    assert!(matches!(set.redact("abababababababab1 ab12"), Cow::Borrowed(_)));
}
