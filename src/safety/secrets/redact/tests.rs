//! Tests for secret redaction: every kind of secret, idempotence, and ordinary text that
//! must stay intact.

use super::*;

const OPENAI: &str = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z";
const ANTHROPIC: &str = "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe";
const OPENROUTER: &str = "sk-or-v1-0123456789abcdef0123456789abcdef0123456789abcdef";

#[test]
fn provider_keys_keep_a_recognisable_prefix() {
    assert_eq!(redact(&format!("key {OPENAI} end")), "key sk-proj-…[REDACTED] end");
    assert_eq!(redact(ANTHROPIC), "sk-ant-…[REDACTED]");
    assert_eq!(redact(OPENROUTER), "sk-or-…[REDACTED]");
    assert_eq!(redact("sk-abcdefghijklmnop1234567890"), "sk-…[REDACTED]");
    // Idempotent: a second pass leaves the mask alone.
    assert_eq!(redact(&redact(ANTHROPIC)), "sk-ant-…[REDACTED]");
}

#[test]
fn vendor_tokens_are_masked() {
    let cases = [
        ("ghp_1234567890abcdefghijABCDEFGHIJklmnop", "ghp_…[REDACTED]"),
        ("gho_1234567890abcdefghijABCDEFGHIJklmnop", "gho_…[REDACTED]"),
        (
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
            "github_pat_…[REDACTED]",
        ),
        ("AKIAIOSFODNN7EXAMPLE", "AKIA…[REDACTED]"),
        ("xoxb-123456789012-abcdefghijkl", "xoxb-…[REDACTED]"),
        ("AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "AIza…[REDACTED]"),
    ];
    for (secret, masked) in cases {
        assert_eq!(redact(&format!("x {secret} y")), format!("x {masked} y"), "{secret}");
    }
}

#[test]
fn bearer_tokens_and_jwts_are_masked() {
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    assert_eq!(
        redact(&format!("Authorization: Bearer {jwt}")),
        "Authorization: Bearer eyJ…[REDACTED]"
    );
    assert_eq!(
        redact("curl -H 'Authorization: Bearer abcdef1234567890'"),
        "curl -H 'Authorization: Bearer [REDACTED]'"
    );
    assert_eq!(
        redact(r#"{"Authorization": "Basic dXNlcjpwYXNzd29yZA=="}"#),
        r#"{"Authorization": "Basic [REDACTED]"}"#
    );
    assert_eq!(redact("x-api-key: 0123456789abcdef"), "x-api-key: [REDACTED]");
    assert_eq!(redact("Authorization: Bearer $TOKEN"), "Authorization: Bearer $TOKEN");
}

#[test]
fn aws_secret_and_secret_named_assignments_keep_their_name() {
    assert_eq!(
        redact("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        "aws_secret_access_key = [REDACTED]"
    );
    assert_eq!(redact("DB_PASSWORD=hunter2"), "DB_PASSWORD=[REDACTED]");
    assert_eq!(
        redact("export MY_API_KEY=\"abc def\""),
        "export MY_API_KEY=\"[REDACTED]\""
    );
    assert_eq!(redact("CLIENT_SECRET='s3cr3t'"), "CLIENT_SECRET='[REDACTED]'");
    assert_eq!(redact("HF_TOKEN=hfx0123456789abcdefXYZ"), "HF_TOKEN=[REDACTED]");
    assert_eq!(redact(r#"{"api_key": "abc123"}"#), r#"{"api_key": "[REDACTED]"}"#);
    assert_eq!(redact(r#"{"token": "Zq8xW2vL9mN4bR7t"}"#), r#"{"token": "[REDACTED]"}"#);
    assert_eq!(redact(r#"{"clientSecret":"abc"}"#), r#"{"clientSecret":"[REDACTED]"}"#);
    // JSON-escaped inside a tool result, and an assignment inside a non-secret value.
    assert_eq!(
        redact(r#"{"output": "{\"password\": \"hunter2\"}\nSECRET_KEY=xyz\n"}"#),
        r#"{"output": "{\"password\": \"[REDACTED]\"}\nSECRET_KEY=[REDACTED]\n"}"#
    );
    assert_eq!(
        redact("postgres://app:S3cretPass@db:5432/app"),
        "postgres://app:[REDACTED]@db:5432/app"
    );
}

#[test]
fn private_key_blocks_are_masked_even_when_cut_short() {
    let pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7\nabcDEF==\n-----END RSA PRIVATE KEY-----";
    assert_eq!(
        redact(&format!("before\n{pem}\nafter")),
        "before\n-----BEGIN RSA PRIVATE KEY-----[REDACTED]-----END RSA PRIVATE KEY-----\nafter"
    );
    let json =
        r#"{"content": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1r\n-----END OPENSSH PRIVATE KEY-----\n"}"#;
    assert_eq!(
        redact(json),
        r#"{"content": "-----BEGIN OPENSSH PRIVATE KEY-----[REDACTED]-----END OPENSSH PRIVATE KEY-----\n"}"#
    );
    let cut = redact("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n[output truncated]");
    assert_eq!(cut, "-----BEGIN PRIVATE KEY-----[REDACTED][output truncated]");
    assert_eq!(
        redact("-----BEGIN PUBLIC KEY-----\nMIIB\n"),
        "-----BEGIN PUBLIC KEY-----\nMIIB\n"
    );
}

#[test]
fn ordinary_text_is_left_intact() {
    let samples = [
        "commit 3f2a9c1d4e5b6a7980c1d2e3f4a5b6c7d8e9f0a1\nAuthor: Dev <dev@example.com>",
        "id 550e8400-e29b-41d4-a716-446655440000 ok",
        r#"{"max_tokens": 4096, "total_tokens": 120, "token": "Hello", "logprob": -0.1}"#,
        "tests: pass=12 fail=0",
        "password: string;",
        "let token = get_token();",
        "secret_key = settings.SECRET_KEY",
        "API_KEY=$OPENAI_API_KEY",
        "api_key = os.environ[\"OPENAI_API_KEY\"]",
        "the task-manager-service-handler runs",
        "PWD=/home/dev/project",
        "KEYBOARD_LAYOUT=us secretary=Ann author=me",
        "sk-learn-classifier-module-name",
        "https://example.com/path?page=2",
        "a short note about keys and tokens",
    ];
    for sample in samples {
        assert_eq!(redact(sample), sample, "{sample}");
    }
}

#[test]
fn text_without_triggers_is_returned_as_is() {
    // Its speed is the render bench's business, not a test's.
    let big = "plain output line without anything interesting\n".repeat(20_000);
    assert_eq!(redact(&big), big);
}

#[test]
fn tokens_right_after_a_json_escape_are_masked() {
    let encoded = r#"{"output":"a\nsk-abcdefghijklmnop1234567890\nghp_1234567890abcdefghijABCDEFGHIJklmnop\tAKIAIOSFODNN7EXAMPLE"}"#;
    assert_eq!(
        redact(encoded),
        r#"{"output":"a\nsk-…[REDACTED]\nghp_…[REDACTED]\tAKIA…[REDACTED]"}"#
    );
}

#[test]
fn aws_secret_values_next_to_their_name_are_masked_even_when_encoded() {
    let secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    assert_eq!(
        redact(&format!("AWS_SECRET_ACCESS_KEY={secret}")),
        "AWS_SECRET_ACCESS_KEY=[REDACTED]"
    );
    let encoded = format!(r#"{{"output":"x\nAWS_SECRET_ACCESS_KEY={secret}\n"}}"#);
    assert!(!redact(&encoded).contains(secret), "{}", redact(&encoded));
    assert!(!redact(&format!("export AWS_SECRET_ACCESS_KEY='{secret}'")).contains(secret));
}
