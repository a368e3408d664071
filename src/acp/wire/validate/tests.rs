//! Unit and bounded property tests of the incoming-line validator.

use serde_json::{Value, json};

use super::*;

fn reply(line: &str) -> (Value, i64) {
    match classify(line.as_bytes().to_vec()) {
        Verdict::Reply(r) => {
            let v: Value = serde_json::from_str(&r).unwrap();
            (v["id"].clone(), v["error"]["code"].as_i64().unwrap())
        }
        other => panic!("{line}: expected a reply, got {other:?}"),
    }
}

#[test]
fn well_formed_messages_are_forwarded_unchanged() {
    for line in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}"#,
        r#"{"jsonrpc":"2.0","id":"a","method":"x"}"#,
        r#"{"jsonrpc":"2.0","id":null,"method":"x","params":null}"#,
        r#"{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}"#,
        r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":99,"error":{"code":-1,"message":"no"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"x","params":[1,2]}"#,
    ] {
        assert_eq!(
            classify(line.as_bytes().to_vec()),
            Verdict::Forward(line.to_string()),
            "{line}"
        );
    }
}

#[test]
fn unreadable_lines_are_parse_errors_with_a_null_id() {
    for line in [
        &b"\xff\xfe"[..],
        b"{this is not json",
        b"\0",
        b"{\"id\":1",
        b"\"unterminated",
    ] {
        let Verdict::Reply(r) = classify(line.to_vec()) else {
            panic!("{line:?}")
        };
        let v: Value = serde_json::from_str(&r).unwrap();
        assert_eq!(
            (v["id"].clone(), v["error"]["code"].clone()),
            (Value::Null, json!(-32700))
        );
    }
    let deep = "[".repeat(10_000) + &"]".repeat(10_000);
    assert_eq!(reply(&deep), (Value::Null, -32700));
}

#[test]
fn non_objects_are_invalid_requests_with_a_null_id() {
    for line in [
        "17",
        "\"s\"",
        "null",
        "true",
        "[]",
        r#"[{"jsonrpc":"2.0","id":1,"method":"x"}]"#,
    ] {
        assert_eq!(reply(line), (Value::Null, -32600), "{line}");
    }
}

#[test]
fn envelope_errors_are_answered_with_the_request_id() {
    for (line, id, code) in [
        (r#"{"id":7}"#, json!(7), -32600),
        (r#"{"jsonrpc":"1.0","id":8,"method":"initialize"}"#, json!(8), -32600),
        (r#"{"jsonrpc":2.0,"id":"s","method":"initialize"}"#, json!("s"), -32600),
        (r#"{"id":9,"method":"initialize"}"#, json!(9), -32600),
        (r#"{"jsonrpc":"2.0","id":10,"method":null}"#, json!(10), -32600),
        (r#"{"jsonrpc":"2.0","id":11,"method":123}"#, json!(11), -32600),
        (
            r#"{"jsonrpc":"2.0","id":12,"method":"x","result":1}"#,
            json!(12),
            -32600,
        ),
        (r#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#, json!(1.5), -32600),
        (
            r#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"x"}"#,
            json!(18446744073709551615u64),
            -32600,
        ),
        (
            r#"{"jsonrpc":"2.0","id":13,"method":"session/new","params":"not-an-object"}"#,
            json!(13),
            -32602,
        ),
        (
            r#"{"jsonrpc":"2.0","id":14,"method":"x","params":5}"#,
            json!(14),
            -32602,
        ),
        (r#"{"jsonrpc":"2.0","id":true,"method":"x"}"#, Value::Null, -32600),
        (r#"{"jsonrpc":"2.0","id":{},"method":"x"}"#, Value::Null, -32600),
        (r#"{}"#, Value::Null, -32600),
        (r#"{"jsonrpc":"2.0","method":7}"#, Value::Null, -32600),
    ] {
        assert_eq!(reply(line), (id, code), "{line}");
    }
}

#[test]
fn what_json_rpc_never_answers_is_ignored() {
    for line in [
        "",
        "   \r",
        r#"{"jsonrpc":"2.0","method":"x","params":"str"}"#,
        r#"{"jsonrpc":"2.0","id":{},"result":1}"#,
        r#"{"result":1}"#,
    ] {
        assert!(
            matches!(classify(line.as_bytes().to_vec()), Verdict::Ignore(_)),
            "{line}"
        );
    }
}

/// Random garbage: the validator never panics, every reply is one JSON object line, and a
/// reply carries the line's id whenever that id is a string or a number.
#[test]
fn random_lines_always_get_a_sane_verdict() {
    let mut rng = fastrand::Rng::with_seed(11);
    let pieces = [
        "{",
        "}",
        "[",
        "]",
        "\"jsonrpc\"",
        ":",
        "\"2.0\"",
        ",",
        "\"id\"",
        "1",
        "\"method\"",
        "\"x\"",
        "\"params\"",
        "null",
        "\"result\"",
        "\"error\"",
        "-",
        "1e999",
        "\\u0000",
        "\u{1F600}",
        " ",
    ];
    for _ in 0..5000 {
        let line: Vec<u8> = if rng.bool() {
            (0..rng.usize(0..24))
                .flat_map(|_| pieces[rng.usize(..pieces.len())].bytes())
                .collect()
        } else {
            (0..rng.usize(0..64)).map(|_| rng.u8(..)).collect()
        };
        check_verdict(&line);
    }
}

pub fn check_verdict(line: &[u8]) {
    let parsed: Option<Value> = serde_json::from_slice(line).ok();
    match classify(line.to_vec()) {
        Verdict::Forward(text) => {
            assert_eq!(text.as_bytes(), line);
            assert!(parsed.is_some_and(|v| v.is_object()));
        }
        Verdict::Reply(reply) => {
            assert!(!reply.contains('\n'));
            let v: Value = serde_json::from_str(&reply).unwrap();
            assert_eq!(v["jsonrpc"], "2.0");
            let id = parsed
                .as_ref()
                .and_then(|p| p.get("id"))
                .cloned()
                .unwrap_or(Value::Null);
            if id.is_string() || id.is_number() {
                assert_eq!(v["id"], id);
            } else {
                assert_eq!(v["id"], Value::Null);
            }
        }
        Verdict::Ignore(_) => {}
    }
}
