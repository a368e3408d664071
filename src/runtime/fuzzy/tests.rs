//! Fuzzy matcher tests: each strategy has a fixture that no earlier strategy matches (4 and 6
//! are subsumed by line-trimmed, as in Hermes, so they are exercised directly), plus
//! uniqueness, replace_all, repairs and the miss hints.

use super::strategies::{self, Haystack};
use super::*;

fn replace(content: &str, old: &str, new: &str) -> Replacement {
    find_and_replace(content, old, new, false).unwrap_or_else(|e| panic!("no match: {e}"))
}

/// Asserts that no strategy before `expected` matches, then that the chain picks `expected`.
fn check(content: &str, old: &str, new: &str, expected: Strategy, result: &str) {
    let hay = Haystack::new(content);
    for earlier in Strategy::ALL.iter().take_while(|s| **s != expected) {
        assert!(
            earlier.find(&hay, old).is_empty(),
            "{} matched before {}",
            earlier.name(),
            expected.name()
        );
    }
    let done = replace(content, old, new);
    assert_eq!(done.strategy, expected);
    assert_eq!(done.content, result);
    assert_eq!(done.count, 1);
}

#[test]
fn exact() {
    check(
        "fn a() {}\nfn b() {}\n",
        "fn b() {}",
        "fn c() {}",
        Strategy::Exact,
        "fn a() {}\nfn c() {}\n",
    );
}

#[test]
fn line_trimmed_and_reindents_to_the_file() {
    check(
        "    let x = 1;  \n    let y = 2;\n",
        "let x = 1;\nlet y = 2;",
        "let x = 10;\nlet y = 20;",
        Strategy::LineTrimmed,
        "    let x = 10;\n    let y = 20;\n",
    );
}

#[test]
fn whitespace_normalized() {
    check(
        "let  x =\t1;\nz\n",
        "let x = 1;",
        "let x = 2;",
        Strategy::WhitespaceNormalized,
        "let x = 2;\nz\n",
    );
}

#[test]
fn indentation_flexible_matches_alone_and_is_subsumed_by_line_trimmed() {
    let content = "if a:\n        do()\n";
    let hay = Haystack::new(content);
    let old = "if a:\n    do()";
    assert_eq!(strategies::indentation_flexible(&hay, old), [(0, content.len() - 1)]);
    // Equal after stripping the left means equal after stripping both sides: strategy 2 always
    // gets there first, exactly as in Hermes' chain.
    assert_eq!(
        strategies::line_trimmed(&hay, old),
        strategies::indentation_flexible(&hay, old)
    );
    assert!(strategies::indentation_flexible(&hay, "if a:\n    do() # x").is_empty());
}

#[test]
fn escape_normalized() {
    check("a\nb\n", "a\\nb", "a\nc", Strategy::EscapeNormalized, "a\nc\n");
}

#[test]
fn trimmed_boundary_matches_alone_and_is_subsumed_by_line_trimmed() {
    let content = "  start\n  mid  \n  end\n";
    let hay = Haystack::new(content);
    assert_eq!(
        strategies::trimmed_boundary(&hay, "start\n  mid  \nend"),
        [(0, content.len() - 1)]
    );
    // The middle line must match exactly.
    assert!(strategies::trimmed_boundary(&hay, "start\nmid\nend").is_empty());
    assert_eq!(
        strategies::line_trimmed(&hay, "start\n  mid  \nend"),
        [(0, content.len() - 1)]
    );
}

#[test]
fn unicode_normalized_keeps_the_files_characters() {
    check(
        "say \u{201c}hi\u{201d} \u{2014} ok\n",
        "say \"hi\" -- ok",
        "say \"bye\" -- ok",
        Strategy::UnicodeNormalized,
        "say \u{201c}bye\u{201d} \u{2014} ok\n",
    );
    // Compatibility forms (NFKC): a ligature and a non-breaking space.
    check(
        "of\u{fb01}ce\u{a0}hours\n",
        "office hours",
        "office time",
        Strategy::UnicodeNormalized,
        "of\u{fb01}ce\u{a0}time\n",
    );
}

#[test]
fn block_anchor() {
    check(
        "fn f() {\n    let a = 1;\n    let b = 2;\n}\n",
        "fn f() {\n    let a = 1;\n    let c = 3;\n}",
        "fn f() {\n    let a = 1;\n    let c = 4;\n}",
        Strategy::BlockAnchor,
        "fn f() {\n    let a = 1;\n    let c = 4;\n}\n",
    );
}

#[test]
fn block_anchor_rejects_a_dissimilar_middle() {
    let hay = Haystack::new("fn f() {\n    zzzzzzzzzz\n}\n");
    assert!(strategies::block_anchor(&hay, "fn f() {\n    let a = 1;\n}").is_empty());
    assert_eq!(strategies::block_anchor(&hay, "fn f() {\n    zzzzzzzzzy\n}").len(), 1);
}

#[test]
fn context_aware() {
    check(
        "def handler(request):\n    return render(request)\n\nclass Other:\n    pass\n",
        "def handler(request):\n    return render(req)",
        "def handler(request):\n    return render(request, ctx)",
        Strategy::ContextAware,
        "def handler(request):\n    return render(request, ctx)\n\nclass Other:\n    pass\n",
    );
}

#[test]
fn several_matches_need_replace_all() {
    let err = find_and_replace("x = 1\ny\nx = 1\n", "x = 1", "x = 2", false).unwrap_err();
    assert!(err.starts_with(
        "Found 2 matches for old_string. Provide more context to make it unique, or use replace_all=True."
    ));
    assert!(err.contains("  L1: x = 1\n  L3: x = 1"));
    let done = find_and_replace("x = 1\ny\nx = 1\n", "x = 1", "x = 2", true).unwrap();
    assert_eq!((done.content.as_str(), done.count), ("x = 2\ny\nx = 2\n", 2));
}

#[test]
fn replace_all_never_applies_approximate_matches() {
    let content = "fn f() {\n    a();\n}\nfn f() {\n    a();\n}\n";
    let err = find_and_replace(content, "fn f() {\n    b();\n}", "fn g() {}", true).unwrap_err();
    assert!(err.starts_with("Found 2 approximate matches via the '"), "{err}");
}

#[test]
fn overlapping_line_windows_are_ambiguous_but_replace_all_is_safe() {
    let content = "  a\n  a\n  a\n";
    assert!(
        find_and_replace(content, "a\na", "b", false)
            .unwrap_err()
            .starts_with("Found 2 matches")
    );
    assert_eq!(
        find_and_replace(content, "a\na", "b", true).unwrap().content,
        "  b\n  a\n"
    );
}

#[test]
fn argument_errors() {
    assert_eq!(
        find_and_replace("abc", "", "x", false).unwrap_err(),
        "old_string cannot be empty"
    );
    assert_eq!(
        find_and_replace("abc", "b", "b", false).unwrap_err(),
        "old_string and new_string are identical"
    );
}

#[test]
fn a_miss_offers_the_closest_sections() {
    let content = "def foo():\n    return 1\n";
    let old = "class Foo:\n    pass";
    assert_eq!(find_and_replace(content, old, "x", false).unwrap_err(), NO_MATCH);
    let hint = did_you_mean(old, content);
    assert!(
        hint.starts_with("\n\nDid you mean one of these sections?\n   1| def foo():\n   2|     return 1"),
        "{hint}"
    );
    assert_eq!(did_you_mean("zzzzzz", content), "");
}

#[test]
fn a_whitespace_only_difference_is_diagnosed() {
    let hint = did_you_mean("  value = compute()\n", "\tvalue = compute()\nother\n");
    assert!(hint.contains("file has: →value = compute()"), "{hint}");
    assert!(hint.contains("you sent: ··value = compute()"));
}

#[test]
fn escape_drift_blocks_non_exact_matches() {
    // Only the similarity strategy matches `it\'s` against `it's`; new_string keeps the stray
    // backslash, so writing it would corrupt the file.
    let err = find_and_replace("say  it's\n", "say it\\'s", "say it\\'s not", false).unwrap_err();
    assert!(err.starts_with("Escape-drift detected"), "{err}");
    // The same sequences are fine when the file really has them (exact match).
    let done = find_and_replace("s = 'it\\'s'\n", "'it\\'s'", "'it\\'s ok'", false).unwrap();
    assert_eq!(done.content, "s = 'it\\'s ok'\n");
}

#[test]
fn tabs_sent_as_escapes_become_real_tabs_where_the_file_uses_them() {
    let done = replace("\tone\n\ttwo\n", "\tone", "\\tuno");
    assert_eq!(done.content, "\tuno\n\ttwo\n");
}

#[test]
fn exact_match_in_a_large_file_is_found_by_substring_search() {
    let mut content = "let filler = 0;\n".repeat(150_000);
    content.push_str("let needle = 1;\n");
    content.push_str(&"let tail = 2;\n".repeat(10_000));
    let done = replace(&content, "let needle = 1;", "let needle = 2;");
    assert_eq!(done.strategy, Strategy::Exact);
    assert_eq!(done.content.len(), content.len());
    assert!(done.content.contains("let needle = 2;\nlet tail"));
}

#[test]
fn context_aware_scales_with_distinct_lines() {
    // 20k mostly repeated lines: similarity is computed per distinct line, not per window.
    let mut content = String::new();
    for i in 0..20_000 {
        content.push_str(if i % 2 == 0 { "}\n" } else { "\n" });
    }
    content.push_str("target_function(argument_one)\nreturn value_of_it\n");
    let done = replace(&content, "target_function(argument_1)\nreturn value_of_itt", "done()");
    assert_eq!(done.strategy, Strategy::ContextAware);
    assert!(done.content.ends_with("}\n\ndone()\n"));
}
