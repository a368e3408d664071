//! Bounded robustness properties: `assess` never panics or overflows the stack on random
//! bytes, random shell-ish text, deep nesting or huge input (no extra dependency: a seeded
//! `fastrand` generator keeps runs reproducible).

use super::super::{MAX_COMMAND_BYTES, Risk};
use super::table::run;

const SHELL_ALPHABET: &[&str] = &[
    "rm",
    " ",
    "-rf",
    "/",
    "$",
    "'",
    "\"",
    "`",
    "$(",
    ")",
    "(",
    "{",
    "}",
    ";",
    "|",
    "&",
    "&&",
    ">",
    "<",
    "<<",
    "\\",
    "\n",
    "x",
    "=",
    "*",
    "~",
    "sh -c ",
    "eval ",
    "find . -exec ",
    " \\;",
    "$'\\x72'",
    "if ",
    "then ",
    "fi",
    "<(",
    "${",
    "#",
    "make ",
    "bash x.sh",
    "npm run build",
    "tar xf a.tar ",
    "git -c a.b=c ",
    "cat .en? ",
    "{a,b}",
    "timeout --signal KILL 5 ",
    "LD_PRELOAD=x ",
];

/// Fail closed whatever the input: read-only implies harmless, harmless implies safe, and a
/// rule target exists only for a command that is not harmless or needs the network.
fn invariants(text: &str) {
    let a = run(text);
    assert!(!a.read_only || a.harmless, "{text:?}");
    assert!(!a.harmless || a.risk == Risk::Safe, "{text:?}");
    assert!(
        a.rule_targets.iter().all(|t| !t.harmless || t.network.is_some()),
        "{text:?}"
    );
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = fastrand::Rng::with_seed(7);
    for _ in 0..400 {
        let len = rng.usize(0..200);
        let bytes: Vec<u8> = (0..len).map(|_| rng.u8(..)).collect();
        let text = String::from_utf8_lossy(&bytes);
        invariants(&text);
    }
}

#[test]
fn random_shell_text_never_panics() {
    let mut rng = fastrand::Rng::with_seed(11);
    for _ in 0..600 {
        let n = rng.usize(1..40);
        let text: String = (0..n)
            .map(|_| SHELL_ALPHABET[rng.usize(..SHELL_ALPHABET.len())])
            .collect();
        invariants(&text);
    }
}

#[test]
fn deep_nesting_is_unknown_not_a_crash() {
    for (open, close) in [
        ("(", ")"),
        ("$(", ")"),
        ("{ ", "; }"),
        ("sh -c '", "'"),
        ("if true; then ", "; fi"),
    ] {
        let text = format!("{}rm f{}", open.repeat(5000), close.repeat(5000));
        assert_eq!(run(&text).risk, Risk::Unknown, "{open}…{close}");
    }
    // `eval eval … rm f` nests without brackets: the walk's own depth cap stops it.
    let text = format!("{}rm f", "eval ".repeat(200));
    assert_eq!(run(&text).risk, Risk::Unknown);
    let text = format!("{}rm f", "sh -c ".repeat(200));
    assert!(run(&text).risk >= Risk::Unknown);
}

#[test]
fn huge_input_is_unknown() {
    let text = "ls ".repeat(MAX_COMMAND_BYTES / 3 + 10);
    assert_eq!(run(&text).risk, Risk::Unknown);
    let long_list = "ls; ".repeat(2000);
    assert_eq!(run(&long_list).risk, Risk::Safe);
}

#[test]
fn nesting_just_under_the_cap_is_analysed() {
    for (open, close) in [("(", ")"), ("$(", ")"), ("{ ", "; }"), ("if true; then ", "; fi")] {
        let text = format!("{}rm f{}", open.repeat(30), close.repeat(30));
        assert_eq!(run(&text).risk, Risk::Destructive, "{open}…{close}");
    }
    let text = format!("echo {}rm f{}", "\"$(".repeat(15), ")\"".repeat(15));
    assert_eq!(run(&text).risk, Risk::Destructive);
}
