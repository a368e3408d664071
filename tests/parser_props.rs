//! Bounded property tests (deterministic seeds, a few thousand inputs each) for the parsers that
//! read untrusted text: the incoming-line framing and validator, the patch fuzzy matcher, the
//! V4A parser, the SSE parsers and config.yaml reading. Each must return (Ok or Err), never
//! panic. The `fuzz/` targets explore the same entry points without bounds; every crash they
//! find becomes a case in `regressions` below.

use std::panic::{AssertUnwindSafe, catch_unwind};

use hermes_acp::acp::wire::validate::{Verdict, classify};
use hermes_acp::config::file::ConfigFile;
use hermes_acp::llm::anthropic::sse::SseParser;
use hermes_acp::llm::openai::parse_chunk;
use hermes_acp::llm::responses::ResponsesParser;
use hermes_acp::runtime::fuzzy::find_and_replace;
use hermes_acp::tools::patch::v4a;

const CASES: usize = 3000;

/// Random text built from `tokens` (the grammar's interesting pieces) and random characters.
fn text(rng: &mut fastrand::Rng, tokens: &[&str], max_parts: usize) -> String {
    let mut out = String::new();
    for _ in 0..rng.usize(0..=max_parts) {
        match rng.u8(0..10) {
            0 => out.push(rng.char(..)),
            1 => out.push(char::from(rng.u8(0..128))),
            _ => out.push_str(tokens[rng.usize(..tokens.len())]),
        }
    }
    out
}

/// Runs `check` on `input`, naming the input when it panics.
fn no_panic<T: std::fmt::Debug>(what: &str, input: T, check: impl FnOnce(&T)) {
    if catch_unwind(AssertUnwindSafe(|| check(&input))).is_err() {
        panic!("{what} panicked on {input:?}");
    }
}

#[test]
fn the_line_validator_never_panics_and_forwards_only_objects() {
    let mut rng = fastrand::Rng::with_seed(1);
    let tokens = [
        "{",
        "}",
        "[",
        "]",
        "\"jsonrpc\":",
        "\"2.0\"",
        "2.0",
        ",",
        "\"id\":",
        "7",
        "\"x\"",
        "null",
        "\"method\":",
        "\"params\":",
        "\"result\":",
        "\"error\":",
        "1e400",
        "-0",
        "\"\\ud800\"",
        "\u{0}",
        "\u{feff}",
    ];
    for _ in 0..CASES {
        let mut line = text(&mut rng, &tokens, 30).into_bytes();
        if rng.u8(0..8) == 0 {
            line.push(0xff);
        }
        no_panic("classify", line, |line| {
            if let Verdict::Forward(text) = classify(line.clone()) {
                assert!(serde_json::from_str::<serde_json::Value>(&text).unwrap().is_object());
            }
        });
    }
}

#[test]
fn the_fuzzy_matcher_never_panics_and_an_exact_hit_is_replaced() {
    let mut rng = fastrand::Rng::with_seed(2);
    let tokens = [
        "fn ",
        "main",
        "()",
        " {",
        "}\n",
        "\n",
        "    ",
        "\t",
        "  ",
        "\\n",
        "\\t",
        "\"",
        "'",
        "\u{201c}",
        "\u{2018}",
        "\u{00a0}",
        "é",
        "e\u{301}",
        "\r\n",
        "let x = 1;",
        "// c",
        "…",
        "\u{2014}",
    ];
    for _ in 0..CASES {
        let content = text(&mut rng, &tokens, 40);
        let old = if rng.bool() && !content.is_empty() {
            // A slice of the content (on char boundaries), perhaps re-indented or re-quoted.
            let chars: Vec<char> = content.chars().collect();
            let a = rng.usize(..chars.len());
            let b = rng.usize(a..=chars.len());
            let s: String = chars[a..b].iter().collect();
            match rng.u8(0..3) {
                0 => s,
                1 => s.replace("    ", "\t"),
                _ => s.replace('"', "\u{201c}"),
            }
        } else {
            text(&mut rng, &tokens, 8)
        };
        let new = text(&mut rng, &tokens, 6);
        let replace_all = rng.bool();
        no_panic(
            "find_and_replace",
            (content, old, new, replace_all),
            |(c, o, n, all)| {
                let result = find_and_replace(c, o, n, *all);
                if !o.is_empty() && o != n && c.contains(o.as_str()) && (*all || c.matches(o.as_str()).count() == 1) {
                    let r = result.unwrap_or_else(|e| panic!("exact match missed: {e}"));
                    assert!(r.count >= 1);
                }
            },
        );
    }
}

#[test]
fn the_v4a_parser_never_panics() {
    let mut rng = fastrand::Rng::with_seed(3);
    let tokens = [
        "*** Begin Patch\n",
        "*** End Patch\n",
        "*** Update File: a.rs\n",
        "*** Add File: b.rs\n",
        "*** Delete File: c.rs\n",
        "*** Move to: d.rs\n",
        "@@ fn main\n",
        "@@\n",
        "+added\n",
        "-removed\n",
        " context\n",
        "*** End of File\n",
        "\n",
        "+",
        "-",
        " ",
        "***",
        "../",
        "/abs\n",
    ];
    for _ in 0..CASES {
        let patch = text(&mut rng, &tokens, 30);
        no_panic("v4a::parse", patch, |p| {
            let _ = v4a::parse(p);
            let _ = v4a::header_paths(p);
        });
    }
}

#[test]
fn the_openai_chunk_parser_never_panics() {
    let mut rng = fastrand::Rng::with_seed(4);
    let tokens = [
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"choices\"",
        "\"delta\"",
        "\"content\"",
        "\"tool_calls\"",
        "\"index\"",
        "\"function\"",
        "\"arguments\"",
        "\"name\"",
        "\"id\"",
        "\"finish_reason\"",
        "\"usage\"",
        "\"error\"",
        "\"message\"",
        "\"reasoning_content\"",
        "0",
        "-1",
        "18446744073709551616",
        "null",
        "\"x\"",
        "true",
    ];
    for _ in 0..CASES {
        let data = text(&mut rng, &tokens, 40);
        no_panic("parse_chunk", data, |d| {
            let _ = parse_chunk(d, "mock");
        });
    }
}

#[test]
fn the_anthropic_sse_parser_never_panics_across_a_stream() {
    let mut rng = fastrand::Rng::with_seed(5);
    let events = [
        "",
        "message",
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
        "ping",
        "error",
        "unknown",
    ];
    let tokens = [
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"type\"",
        "\"index\"",
        "\"content_block\"",
        "\"delta\"",
        "\"text\"",
        "\"text_delta\"",
        "\"tool_use\"",
        "\"input_json_delta\"",
        "\"partial_json\"",
        "\"thinking\"",
        "\"usage\"",
        "\"input_tokens\"",
        "\"output_tokens\"",
        "\"stop_reason\"",
        "\"message\"",
        "\"id\"",
        "\"name\"",
        "0",
        "1",
        "4294967296",
        "-1",
        "null",
        "\"x\"",
    ];
    for _ in 0..CASES / 10 {
        let stream: Vec<(String, String)> = (0..rng.usize(1..12))
            .map(|_| {
                (
                    events[rng.usize(..events.len())].to_string(),
                    text(&mut rng, &tokens, 24),
                )
            })
            .collect();
        no_panic("SseParser::feed", stream, |stream| {
            let mut parser = SseParser::new("mock", "KEY");
            let mut out = Vec::new();
            for (event, data) in stream {
                let _ = parser.feed(event, data, &mut out);
            }
        });
    }
}

/// A random JSON value drawn from the shapes Responses events use (and wrong ones).
fn responses_value(rng: &mut fastrand::Rng, depth: u32) -> serde_json::Value {
    use serde_json::json;
    let keys: Vec<&str> = "type item item_id output_index summary_index delta arguments id call_id name \
        encrypted_content summary content text phase response usage input_tokens output_tokens \
        input_tokens_details cached_tokens status error code message incomplete_details reason"
        .split_whitespace()
        .collect();
    let strings: Vec<&str> = "function_call message reasoning output_text summary_text commentary fc_1 fc_2 \
        call_1 rs_tmp_1 rs_1 incomplete content_filter rate_limit_exceeded {\"a\": _"
        .split_whitespace()
        .collect();
    match rng.u8(0..if depth > 2 { 4 } else { 6 }) {
        0 => json!(null),
        1 => json!(rng.i64(-2..5)),
        2 | 3 => json!(strings[rng.usize(..strings.len())]),
        4 => serde_json::Value::Array((0..rng.usize(0..3)).map(|_| responses_value(rng, depth + 1)).collect()),
        _ => serde_json::Value::Object(
            (0..rng.usize(0..5))
                .map(|_| {
                    (
                        keys[rng.usize(..keys.len())].to_string(),
                        responses_value(rng, depth + 1),
                    )
                })
                .collect(),
        ),
    }
}

#[test]
fn the_responses_sse_parser_never_panics_across_a_stream() {
    let mut rng = fastrand::Rng::with_seed(8);
    let kinds: Vec<String> = "output_item.added output_item.done output_text.delta reasoning_summary_text.delta \
        function_call_arguments.delta function_call_arguments.done completed incomplete failed created"
        .split_whitespace()
        .map(|kind| format!("response.{kind}"))
        .chain(["error".to_string()])
        .collect();
    for _ in 0..CASES {
        let stream: Vec<String> = (0..rng.usize(1..12))
            .map(|_| {
                let mut value = responses_value(&mut rng, 0);
                if let Some(object) = value.as_object_mut() {
                    object.insert("type".into(), kinds[rng.usize(..kinds.len())].clone().into());
                }
                let text = value.to_string();
                // Now and then a cut or garbled payload.
                match rng.u8(0..10) {
                    0 => text.chars().take(rng.usize(0..=text.len())).collect(),
                    _ => text,
                }
            })
            .collect();
        no_panic("ResponsesParser::feed", stream, |stream| {
            let mut parser = ResponsesParser::new("mock", "KEY", "http://issuer");
            let mut out = Vec::new();
            for data in stream {
                let _ = parser.feed("", data, &mut out);
            }
        });
    }
}

#[test]
fn config_yaml_reading_never_panics() {
    let mut rng = fastrand::Rng::with_seed(6);
    let tokens = [
        "model:\n",
        "  provider: ",
        "custom\n",
        "  base_url: ",
        "http://x\n",
        "  default: ",
        "m\n",
        "providers:\n",
        "  - ",
        "fallback_providers:\n",
        "custom_providers:\n",
        "  name: ",
        "api_key: ",
        "prompt_cache_ttl: ",
        "5m\n",
        "1h\n",
        "[",
        "]",
        "{",
        "}",
        ": ",
        "- ",
        "&a ",
        "*a\n",
        "!!str ",
        "---\n",
        "'",
        "\"",
        "~\n",
        "123\n",
        "\t",
        "    ",
        "\n",
    ];
    for _ in 0..CASES {
        let yaml = text(&mut rng, &tokens, 30);
        no_panic("ConfigFile::parse", yaml, |y| {
            let _ = ConfigFile::parse(y);
        });
    }
}

/// Inputs the fuzzers once crashed on (none so far; add each new one here), and hostile depth.
#[test]
fn regressions() {
    let deep = "[".repeat(100_000);
    assert!(matches!(classify(deep.clone().into_bytes()), Verdict::Reply(_)));
    assert!(parse_chunk(&deep, "mock").is_err());
    // YAML scanning of unclosed flow sequences is superlinear (about 3 s for 10 000 levels in a
    // debug build); config.yaml is the user's own file, so only a modest depth is checked here.
    assert!(ConfigFile::parse(&deep[..1000]).is_err());
}
