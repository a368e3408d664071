//! Which names and values count as secrets: environment-variable names that hold credentials
//! (`*_API_KEY`, `*_TOKEN`, `*_SECRET*`, `*_PASSWORD`, AWS credentials, …) and values too short
//! or too placeholder-like to be worth redacting (masking `changeme` everywhere would shred
//! ordinary text and protect nothing).

/// Values shorter than this are never treated as secrets.
pub const MIN_SECRET_LEN: usize = 8;

/// AWS variables that configure the SDK but hold no credential; every other `AWS_*` is treated
/// as secret (fail closed: new credential variables appear from time to time).
const AWS_HARMLESS: &[&str] = &[
    "AWS_REGION",
    "AWS_DEFAULT_REGION",
    "AWS_PROFILE",
    "AWS_DEFAULT_PROFILE",
    "AWS_CONFIG_FILE",
    "AWS_SHARED_CREDENTIALS_FILE",
    "AWS_SDK_LOAD_CONFIG",
    "AWS_PAGER",
    "AWS_DEFAULT_OUTPUT",
    "AWS_CA_BUNDLE",
    "AWS_ENDPOINT_URL",
];

/// Names that contain a secret-looking word but point at something harmless (a socket, a
/// program), which tools need to keep working.
const HARMLESS: &[&str] = &["SSH_AUTH_SOCK", "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS", "GPG_TTY"];

/// Words (between `_`) that make a variable name secret on their own.
const SECRET_WORDS: &[&str] = &[
    "TOKEN",
    "SECRET",
    "SECRETS",
    "PASSWORD",
    "PASSWD",
    "PASSPHRASE",
    "APIKEY",
    "CREDENTIAL",
    "CREDENTIALS",
    "PAT",
];

/// Words that make `<word>_KEY` a credential (`API_KEY`, `ACCESS_KEY`, `PRIVATE_KEY`, …).
const KEY_OWNERS: &[&str] = &[
    "API",
    "ACCESS",
    "PRIVATE",
    "SECRET",
    "SIGNING",
    "ENCRYPTION",
    "MASTER",
    "CLIENT",
    "APP",
    "SERVICE",
    "LICENSE",
    "AUTH",
];

/// Whether an environment variable (or config key) with this name holds a credential.
/// Case-insensitive; `-` and `.` separate words like `_` (config keys use them).
pub fn is_secret_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    if HARMLESS.contains(&upper.as_str()) {
        return false;
    }
    if upper.starts_with("_HERMES_FORCE_") {
        return true;
    }
    // A location, not a credential (`PASSWORD_STORE_DIR`, `AWS_WEB_IDENTITY_TOKEN_FILE`):
    // masking a path everywhere would shred ordinary output, and tools need it.
    if ["_DIR", "_PATH", "_SOCK", "_SOCKET", "_FILE", "_HOME"]
        .iter()
        .any(|suffix| upper.ends_with(suffix))
    {
        return false;
    }
    if let Some(rest) = upper.strip_prefix("AWS_") {
        return !rest.is_empty() && !AWS_HARMLESS.contains(&upper.as_str());
    }
    let words: Vec<&str> = upper.split(['_', '-', '.']).filter(|w| !w.is_empty()).collect();
    let glued = |w: &str| {
        ["PASSWORD", "PASSWD", "SECRET", "APIKEY", "TOKEN"]
            .iter()
            .any(|s| w.len() > s.len() && w.ends_with(s))
    };
    if words.iter().any(|w| SECRET_WORDS.contains(w) || glued(w)) {
        return true;
    }
    words
        .windows(2)
        .any(|pair| pair[1] == "KEY" && KEY_OWNERS.contains(&pair[0]))
}

/// Whether `value` is too short or too obviously a placeholder to redact.
pub fn is_placeholder(value: &str) -> bool {
    let v = value.trim();
    if v.chars().count() < MIN_SECRET_LEN {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    if v.chars().all(|c| matches!(c, '*' | 'x' | 'X' | '.' | '-' | '_')) {
        return true;
    }
    matches!(
        lower.as_str(),
        "changeme" | "change-me" | "change_me" | "placeholder" | "password" | "undefined" | "your-key"
    ) || lower.starts_with("your_")
        || lower.starts_with("your-")
        || lower.starts_with("<your")
        || lower.starts_with("${")
        || lower.starts_with("[redacted")
}
