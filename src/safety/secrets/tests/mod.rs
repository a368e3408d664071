//! Tests for the secret set (redaction by value) and the child-environment filter; the
//! encoded forms (`encoded.rs`), fragments (`fragments.rs`) and false positives on everyday
//! output (`ordinary.rs`) have their own files, sharing the tool-output fakes of `dumps.rs`.

mod dumps;
mod encoded;
mod fragments;
mod ordinary;

use std::ffi::OsString;

use super::fixtures::AWS_SECRET_KEY;
use super::*;

const OPENAI: &str = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z";

fn set() -> SecretSet {
    SecretSet::builder()
        .secret("OPENAI_API_KEY", OPENAI)
        .env_var("AWS_SECRET_ACCESS_KEY", AWS_SECRET_KEY)
        .env_var("PATH", "/usr/local/bin:/usr/bin")
        .secret("model.api_key", "changeme")
        .secret("x", "short")
        .secret("quoted", "pa\"ss\\word-123")
        .build()
}

#[test]
fn values_become_named_markers_anywhere_in_the_text() {
    let set = set();
    assert_eq!(set.len(), 3, "PATH, placeholders and short values are not secrets");
    let text = format!("a\\n{OPENAI}\nAWS_SECRET_ACCESS_KEY={AWS_SECRET_KEY}x{OPENAI}");
    assert_eq!(
        set.redact(&text),
        "a\\n[REDACTED:OPENAI_API_KEY]\nAWS_SECRET_ACCESS_KEY=[REDACTED:AWS_SECRET_ACCESS_KEY]x[REDACTED:OPENAI_API_KEY]"
    );
    assert_eq!(set.redact("model.api_key=changeme"), "model.api_key=changeme");
    assert!(matches!(set.redact("nothing here"), Cow::Borrowed(_)));
}

#[test]
fn json_encoded_values_are_found_too() {
    let set = set();
    let json = serde_json::json!({"output": format!("{OPENAI}\npa\"ss\\word-123")}).to_string();
    let redacted = set.redact(&json);
    assert_eq!(redacted, r#"{"output":"[REDACTED:OPENAI_API_KEY]\n[REDACTED:QUOTED]"}"#);
    assert!(serde_json::from_str::<serde_json::Value>(&redacted).is_ok());
    assert!(set.contains_secret(&json));
    assert!(!set.contains_secret(&redacted));
}

#[test]
fn overlapping_values_prefer_the_longest() {
    let set = SecretSet::builder()
        .secret("SHORT", "abcdefgh12")
        .secret("LONG", "abcdefgh1234567")
        .build();
    assert_eq!(
        set.redact("abcdefgh1234567 abcdefgh12"),
        "[REDACTED:LONG] [REDACTED:SHORT]"
    );
}

#[test]
fn secret_names_table() {
    let secret = [
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "GITHUB_TOKEN",
        "GH_TOKEN",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_ACCESS_KEY_ID",
        "AWS_SESSION_TOKEN",
        "DB_PASSWORD",
        "PGPASSWORD",
        "CLIENT_SECRET",
        "MY_SECRET_THING",
        "STRIPE_APIKEY",
        "GITLAB_PAT",
        "GOOGLE_APPLICATION_CREDENTIALS",
        "_HERMES_FORCE_OPENAI_API_KEY",
        "model.api_key",
        "npm-auth-token",
    ];
    let harmless = [
        "PATH",
        "HOME",
        "USER",
        "LANG",
        "LC_ALL",
        "TERM",
        "SHELL",
        "TMPDIR",
        "PWD",
        "CARGO_HOME",
        "RUSTUP_TOOLCHAIN",
        "NODE_OPTIONS",
        "VIRTUAL_ENV",
        "SSH_AUTH_SOCK",
        "AWS_REGION",
        "AWS_PROFILE",
        "TOKENIZERS_PARALLELISM",
        "KEYBOARD_LAYOUT",
        "GPG_KEY_ID",
        "MAX_TOKENS_HINT",
        "PASSWORD_STORE_DIR",
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "SECRETS_PATH",
    ];
    for name in secret {
        assert!(is_secret_name(name), "{name} should be secret");
    }
    for name in harmless {
        assert!(!is_secret_name(name), "{name} should be harmless");
    }
}

fn os(pairs: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
    pairs.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect()
}

#[test]
fn child_env_drops_credentials_and_resolved_keys_and_honours_passthrough() {
    let vars = os(&[
        ("PATH", "/bin"),
        ("HOME", "/home/u"),
        ("CARGO_HOME", "/c"),
        ("OPENAI_API_KEY", OPENAI),
        ("GITHUB_TOKEN", "ghp_x"),
        ("AWS_SECRET_ACCESS_KEY", AWS_SECRET_KEY),
        ("AWS_REGION", "eu-west-1"),
        ("INNOCENT_NAME", OPENAI),
        ("NPM_TOKEN", "npm_abcdefgh"),
    ]);
    let policy = ChildEnvPolicy {
        passthrough: ["NPM_TOKEN", "OPENAI_API_KEY"].map(String::from).into(),
        protected_names: ["OPENAI_API_KEY".to_string()].into(),
        protected_values: [OPENAI.to_string()].into(),
    };
    let env = ChildEnv::new(vars, &policy);
    let names: Vec<&str> = env.vars().iter().map(|(k, _)| k.to_str().unwrap()).collect();
    assert_eq!(names, ["AWS_REGION", "CARGO_HOME", "HOME", "NPM_TOKEN", "PATH"]);
    assert_eq!(
        env.removed(),
        [
            "AWS_SECRET_ACCESS_KEY",
            "GITHUB_TOKEN",
            "INNOCENT_NAME",
            "OPENAI_API_KEY"
        ]
    );
    let blanked = env.blanked();
    assert!(blanked.contains(&("INNOCENT_NAME".to_string(), String::new())));
    assert!(blanked.contains(&("ANTHROPIC_API_KEY".to_string(), String::new())));
    assert!(!blanked.iter().any(|(k, _)| k == "PATH" || k == "NPM_TOKEN"));
}

#[test]
fn the_default_child_env_is_the_process_env_without_secret_names() {
    let env = ChildEnv::default();
    assert!(env.vars().iter().all(|(k, _)| !is_secret_name(k.to_str().unwrap())));
    assert!(env.vars().iter().any(|(k, _)| k == "PATH"));
}
