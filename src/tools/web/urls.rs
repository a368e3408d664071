//! What `web_extract` checks before any page is fetched, as Hermes does: each item is a URL
//! string or a search hit with a `url`/`href`; a URL carrying something secret-shaped (a token
//! prefix, a known secret value, or a credential-like query parameter) stops the whole call
//! (the pages would go to a third-party reader); and for backends, a URL that points at a
//! private or internal address is refused per page (the guard also re-checks at connection
//! time on the native path).

use std::net::IpAddr;

use serde_json::Value;

use crate::net::{GuardedHttp, blocked_reason};
use crate::safety::secrets::SecretSet;

/// Hermes' per-page refusal of an internal target.
pub const BLOCKED_PRIVATE: &str = "Blocked: URL targets a private or internal network address";

/// Query parameter names that carry credentials (Hermes' `_SENSITIVE_QUERY_PARAM_NAMES`).
const SENSITIVE_PARAMS: &[&str] = &[
    "access_token",
    "api_key",
    "apikey",
    "auth_token",
    "authorization",
    "awsaccesskeyid",
    "client_secret",
    "credential",
    "credentials",
    "jwt",
    "password",
    "passwd",
    "secret",
    "session_id",
    "signature",
    "token",
    "x_amz_security_token",
    "x_amz_signature",
    "x-amz-security-token",
    "x-amz-signature",
];

/// The URL in one `urls` item, or `None` when there is none.
pub fn item_url(item: &Value) -> Option<String> {
    let value = match item {
        Value::Object(o) => o
            .get("url")
            .filter(|v| v.as_str().is_some_and(|s| !s.is_empty()))
            .or_else(|| o.get("href"))?,
        other => other,
    };
    value
        .as_str()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// The error for an item without a usable URL (Hermes' wording).
pub fn invalid_item(index: usize) -> String {
    format!("Invalid URL item at index {index}: expected a URL string or an object with a string 'url' or 'href' field")
}

/// The URL as it will be requested: blanks after `scheme://` dropped and non-ASCII encoded
/// (what the `url` crate does when parsing); unparsable text is kept for the error to name.
pub fn normalise(raw: &str) -> String {
    crate::net::fetch::parse_http_url(raw).map_or_else(|_| raw.trim().to_string(), |u| u.to_string())
}

/// Why the whole call must stop, if a URL carries a secret.
pub fn secret_refusal(url: &str, secrets: &SecretSet) -> Option<String> {
    let decoded = percent_decode(url);
    let secret_shaped =
        |text: &str| crate::safety::secrets::redact::redact(text) != text || secrets.contains_secret(text);
    if secret_shaped(url) || secret_shaped(&decoded) {
        return Some(
            "Blocked: URL contains what appears to be an API key or token. Secrets must not be sent in URLs."
                .to_string(),
        );
    }
    sensitive_param(url).map(|key| {
        format!(
            "Blocked: URL contains a credential-like query parameter ({key}). Web extract backends are third-party readers; remove the sensitive query parameter or use a local browser session when this access is explicitly required."
        )
    })
}

/// The first query parameter with a value whose name is credential-like.
fn sensitive_param(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return None;
    }
    let query = parsed.query()?;
    url::form_urlencoded::parse(query.as_bytes())
        .find(|(key, value)| !value.is_empty() && SENSITIVE_PARAMS.contains(&key.to_ascii_lowercase().as_str()))
        .map(|(key, _)| key.into_owned())
}

/// `%xx` escapes decoded (invalid ones kept), so `%73k-…` is seen as `sk-…`.
fn percent_decode(text: &str) -> String {
    percent_encoding::percent_decode_str(text)
        .decode_utf8_lossy()
        .into_owned()
}

/// Whether a page may be handed to a backend: an http(s) URL whose host is not blocked and,
/// for a name, none of whose addresses is (Hermes' `is_safe_url`; an unresolvable name is
/// refused, failing closed).
pub async fn safe_for_backend(http: &GuardedHttp, url: &str) -> bool {
    let Ok(parsed) = http.check(url) else {
        return false;
    };
    let Some(url::Host::Domain(name)) = parsed.host() else {
        return true;
    };
    let port = parsed.port_or_known_default().unwrap_or(443);
    match tokio::net::lookup_host((name, port)).await {
        Ok(addrs) => {
            let ips: Vec<IpAddr> = addrs.map(|a| a.ip()).collect();
            !ips.is_empty()
                && ips
                    .iter()
                    .all(|ip| blocked_reason(*ip, http.allows_private()).is_none())
        }
        Err(_) => false,
    }
}
