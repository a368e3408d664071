//! Secret redaction for every tool result before the model and the editor see it: provider
//! keys (`sk-…`, `sk-ant-…`, `sk-or-…`), GitHub, AWS, Slack and Google tokens, JWTs,
//! `Authorization` credentials, PEM private keys, database URL passwords, and values assigned
//! to secret-named keys (`API_KEY=…`, `"token": "…"`, `password: "…"`). A known token keeps a
//! short recognisable prefix (`sk-ant-…[REDACTED]`); other values become `[REDACTED]`.
//!
//! Results are usually JSON text, so masks never contain quotes, backslashes or newlines, and
//! the patterns also understand JSON-escaped quotes (`\"token\": \"…\"`). Runs on every result,
//! so a single cheap pre-check guards the regexes, which are compiled once.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::{Captures, Regex};

pub mod logs;
pub mod text;

pub use text::{redact_content, redact_text};

/// What replaces a secret value.
pub const MASK: &str = "[REDACTED]";

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| panic!("invalid redaction pattern {pattern:?}: {e}"))
}

/// Nothing below can match text without one of these.
static GATE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"sk-|gh[pousr]_|github_pat_|AKIA|ASIA|xox[abprs]-|AIza|eyJ|PRIVATE KEY|://|(?i:key|secret|token|pass|pw|auth|bearer|credential)",
    )
});

static PRIVATE_KEY: LazyLock<Regex> = LazyLock::new(|| {
    // A block cut short (truncated output) loses its END line; mask the key body anyway.
    re(r"-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----(?:[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----)|[A-Za-z0-9+/=\s\\]*)")
});

static TOKENS: LazyLock<Regex> = LazyLock::new(|| {
    // A token may follow a JSON escape (`\nsk-…` in encoded text), where there is no word
    // boundary between the escape's letter and the token: the escape is kept as group 1.
    re(concat!(
        r"(?:(\\[nrt])|\b)(?:",
        r"sk-[A-Za-z0-9_-]{20,}",
        r"|gh[pousr]_[A-Za-z0-9]{20,}",
        r"|github_pat_[A-Za-z0-9_]{20,}",
        r"|(?:AKIA|ASIA)[A-Z0-9]{16}\b",
        r"|xox[abprs]-[A-Za-z0-9-]{10,}",
        r"|AIza[A-Za-z0-9_-]{30,}",
        r"|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
        r")",
    ))
});

/// `Authorization: Bearer …` (also JSON `"Authorization": "Bearer …"`) and API-key headers.
static AUTH_HEADER: LazyLock<Regex> = LazyLock::new(|| {
    re(concat!(
        r#"(?i)(\b(?:proxy-)?authorization\\*"?[ \t]*[:=][ \t]*\\*"?[ \t]*(?:(?:bearer|basic|token|digest)[ \t]+)?)"#,
        r#"|(\b(?:x-api-key|x-goog-api-key|api-key|x-auth-token|x-access-token)\\*"?[ \t]*:[ \t]*\\*"?[ \t]*)"#,
    ))
});
static CREDENTIAL: LazyLock<Regex> = LazyLock::new(|| re(r#"^[^\s"'\\,;]+"#));

static DB_URL: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)(\b(?:postgres(?:ql)?|mysql|mongodb(?:\+srv)?|redis|amqp)://[^:\s/@]*:)([^@\s/]+)(@)"));

/// The key part of `NAME=value`, `NAME = "value"`, `"name": "value"` (quotes may be
/// JSON-escaped). The value is parsed separately so a non-secret key never swallows text
/// that holds a secret assignment of its own (`"output": "API_KEY=…"`).
static ASSIGNMENT_KEY: LazyLock<Regex> =
    LazyLock::new(|| re(r#"(\\*["']?)\b([A-Za-z_][A-Za-z0-9_.-]*)(\\*["']?)([ \t]*)([=:])([ \t]*)"#));
static ASSIGNMENT_VALUE: LazyLock<Regex> =
    LazyLock::new(|| re(r#"^(?:\\*"[^"\\\n]*\\*"|'[^'\n]*'|[^\s"'\\`,;&=][^\s"'\\`,;&]*)"#));
static ATTRIBUTE_PATH: LazyLock<Regex> = LazyLock::new(|| re(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$"));

/// Keeps the vendor prefix of a recognised token.
fn token_mask(token: &str) -> String {
    const PREFIXES: &[&str] = &[
        "sk-ant-",
        "sk-or-",
        "sk-proj-",
        "sk-svcacct-",
        "sk-admin-",
        "sk-",
        "github_pat_",
        "ghp_",
        "gho_",
        "ghu_",
        "ghs_",
        "ghr_",
        "AKIA",
        "ASIA",
        "xoxa-",
        "xoxb-",
        "xoxp-",
        "xoxr-",
        "xoxs-",
        "AIza",
        "eyJ",
    ];
    let prefix = PREFIXES
        .iter()
        .find(|p| token.starts_with(**p))
        .copied()
        .unwrap_or_default();
    format!("{prefix}…{MASK}")
}

/// The name's words, lower-cased: `clientSecret` → client, secret; `DB_PASSWORD` → db, password.
fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            words.extend((!current.is_empty()).then(|| std::mem::take(&mut current)));
            previous_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && previous_lower {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        current.push(c.to_ascii_lowercase());
    }
    words.extend((!current.is_empty()).then_some(current));
    words
}

#[derive(Clone, Copy, PartialEq)]
enum Strength {
    /// Always a credential (password, secret, api key, access token, …).
    Strong,
    /// Often a credential, often not (`token`, `auth`): the value must look opaque.
    Weak,
}

fn secret_name(name: &str) -> Option<Strength> {
    const STRONG_WORDS: &[&str] = &[
        "password",
        "passwd",
        "passphrase",
        "secret",
        "secrets",
        "apikey",
        "privatekey",
        "accesskey",
        "secretkey",
        "credential",
        "credentials",
    ];
    const KEY_OWNERS: &[&str] = &[
        "api",
        "access",
        "private",
        "secret",
        "signing",
        "encryption",
        "master",
        "client",
        "app",
    ];
    const TOKEN_OWNERS: &[&str] = &["api", "auth", "access", "refresh", "session", "id", "bearer", "oauth"];
    let words = name_words(name);
    let strong_word = |w: &str| {
        STRONG_WORDS.contains(&w)
            || ["password", "passwd", "secret", "apikey"]
                .iter()
                .any(|s| w.len() > s.len() && w.ends_with(s))
    };
    if words.iter().any(|w| strong_word(w)) {
        return Some(Strength::Strong);
    }
    for pair in words.windows(2) {
        let (a, b) = (pair[0].as_str(), pair[1].as_str());
        if (b == "key" && KEY_OWNERS.contains(&a)) || (b == "token" && TOKEN_OWNERS.contains(&a)) {
            return Some(Strength::Strong);
        }
    }
    // `pass`/`pw` also name counters (`pass=12 fail=0`), so they need an opaque value too.
    let weak = |w: &String| {
        matches!(w.as_str(), "token" | "tokens" | "auth" | "pass" | "pw") || (w.len() > 5 && w.ends_with("token"))
    };
    words.iter().any(weak).then_some(Strength::Weak)
}

/// Credential-shaped: long hex, a long run of token characters, or mixed character classes.
fn looks_opaque(value: &str) -> bool {
    let token_chars = |c: char| c.is_ascii_alphanumeric() || "_./+=-".contains(c);
    if value.len() >= 16 && value.chars().all(|c| c.is_ascii_hexdigit()) {
        return true;
    }
    if value.len() >= 20 && value.chars().all(token_chars) {
        return true;
    }
    let classes = [
        value.chars().any(|c| c.is_ascii_lowercase()),
        value.chars().any(|c| c.is_ascii_uppercase()),
        value.chars().any(|c| c.is_ascii_digit()),
    ];
    value.len() >= 12 && classes.iter().filter(|&&b| b).count() >= 2
}

/// References and code rather than a literal secret.
fn is_reference(value: &str) -> bool {
    value.contains(MASK)
        || value == "***"
        || value.starts_with('$')
        || value.starts_with('<')
        || value.starts_with("{{")
        || value.starts_with("os.")
        || value.starts_with("process.env")
        || value.contains(['(', ')', '[', ']', '{', '}'])
        || value.chars().all(|c| c == '*' || c == 'x' || c == 'X')
        || ATTRIBUTE_PATH.is_match(value)
}

/// The replacement for one assignment value, or `None` to leave it alone.
fn mask_value(caps: &Captures<'_>, raw_value: &str) -> Option<String> {
    let strength = secret_name(&caps[2])?;
    let (space_before, separator, space_after) = (&caps[4], &caps[5], &caps[6]);
    let quote_len = if raw_value.starts_with('\'') {
        1
    } else {
        raw_value.find('"').map_or(0, |p| p + 1)
    };
    let quoted = quote_len > 0 && raw_value.len() >= 2 * quote_len;
    let value = if quoted {
        &raw_value[quote_len..raw_value.len() - quote_len]
    } else {
        raw_value
    };
    if value.is_empty() || is_reference(value) {
        return None;
    }
    // `x = value` / `key: value` unquoted is code or YAML, where a bare word is usually a
    // variable or a type; only credential-shaped values count there.
    let code_style = !quoted && (!space_before.is_empty() || !space_after.is_empty() || separator == ":");
    let mask = match strength {
        _ if code_style => looks_opaque(value),
        Strength::Strong => true,
        Strength::Weak => looks_opaque(value),
    };
    if !mask {
        return None;
    }
    let (q_open, q_close) = if quoted {
        (&raw_value[..quote_len], &raw_value[raw_value.len() - quote_len..])
    } else {
        ("", "")
    };
    Some(format!("{}{q_open}{MASK}{q_close}", &caps[0]))
}

/// Masks the values of secret-named assignments.
fn mask_assignments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut cursor = 0;
    for caps in ASSIGNMENT_KEY.captures_iter(text) {
        let whole = caps.get(0).expect("group 0");
        if whole.start() < cursor {
            continue; // inside a value already masked
        }
        let Some(value) = ASSIGNMENT_VALUE.find(&text[whole.end()..]) else {
            continue;
        };
        if let Some(replacement) = mask_value(&caps, value.as_str()) {
            out.push_str(&text[cursor..whole.start()]);
            out.push_str(&replacement);
            cursor = whole.end() + value.end();
        }
    }
    out.push_str(&text[cursor..]);
    out
}

/// Returns `text` with obvious secrets masked; ordinary text (hashes, UUIDs, prose) is untouched.
pub fn redact(text: &str) -> String {
    if !GATE.is_match(text) {
        return text.to_string();
    }
    let mut out: Cow<'_, str> = Cow::Borrowed(text);
    if out.contains("PRIVATE KEY-----") {
        out = Cow::Owned(
            PRIVATE_KEY
                .replace_all(&out, |c: &Captures<'_>| {
                    let end = c.get(2).map_or("", |m| m.as_str());
                    format!("-----BEGIN {}PRIVATE KEY-----{MASK}{end}", &c[1])
                })
                .into_owned(),
        );
    }
    let replaced = TOKENS.replace_all(&out, |c: &Captures<'_>| {
        let escape = c.get(1).map_or("", |m| m.as_str());
        let token = &c[0][escape.len()..];
        // `sk-` identifiers without a digit are kebab-case words, not keys.
        if token.starts_with("sk-") && !token.chars().any(|ch| ch.is_ascii_digit()) {
            c[0].to_string()
        } else {
            format!("{escape}{}", token_mask(token))
        }
    });
    out = Cow::Owned(replaced.into_owned());
    out = Cow::Owned(mask_after(&AUTH_HEADER, &out));
    out = Cow::Owned(DB_URL.replace_all(&out, format!("${{1}}{MASK}${{3}}")).into_owned());
    mask_assignments(&out)
}

/// Masks the credential that follows each match of `prefix` (a header name and scheme).
fn mask_after(prefix: &Regex, text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut cursor = 0;
    for m in prefix.find_iter(text) {
        if m.start() < cursor {
            continue;
        }
        let rest = &text[m.end()..];
        let Some(credential) = CREDENTIAL.find(rest) else {
            continue;
        };
        let value = credential.as_str();
        if value.len() < 8 || is_reference(value) {
            continue;
        }
        out.push_str(&text[cursor..m.end()]);
        out.push_str(MASK);
        cursor = m.end() + credential.end();
    }
    out.push_str(&text[cursor..]);
    out
}

#[cfg(test)]
mod tests;
