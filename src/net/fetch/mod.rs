//! The guarded HTTP client. Every connection goes through a resolver that drops blocked
//! addresses, so a name cannot resolve to a public address for a check and a private one for
//! the connection (DNS rebinding); literal-IP URLs and every redirect hop are checked before
//! they are followed. Proxies are off for this client: a proxy would make the connection to
//! itself and hide the real target from the guard. Bodies are read up to a cap, never whole.

use std::error::Error as StdError;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use reqwest::Url;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

use super::address::{blocked_reason, is_always_blocked_host};

/// Redirects followed before giving up (browsers allow 20; pages that need more are broken).
const MAX_REDIRECTS: usize = 10;

/// Why a fetch failed, in words the model (and the user reading the card) can act on.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum FetchError {
    #[error("'{0}' is not an http(s) URL")]
    NotHttp(String),
    #[error(
        "refused to fetch {url}: it points to {reason}. Private and local addresses are blocked; set web.allow_private: true in config.yaml to allow them (cloud metadata stays blocked)."
    )]
    Blocked { url: String, reason: String },
    #[error("refused to follow a redirect from {url}: {reason}")]
    Redirect { url: String, reason: String },
    #[error("fetching {url} failed: {message}")]
    Failed { url: String, message: String },
    #[error("fetching {url} timed out after {seconds} s")]
    TimedOut { url: String, seconds: u64 },
}

/// How long and how much one fetch may take.
#[derive(Debug, Clone, Copy)]
pub struct FetchLimits {
    pub max_bytes: usize,
    pub timeout: Duration,
}

/// A response, its body capped.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// Where the redirects ended.
    pub url: Url,
    pub status: u16,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
    /// The body was longer than `max_bytes` and was cut there.
    pub truncated: bool,
}

/// An HTTP client that only reaches what the guard allows. Cheap to clone; the client itself
/// is built on first use (loading TLS roots costs milliseconds the start-up should not pay).
#[derive(Clone)]
pub struct GuardedHttp {
    client: super::LazyClient,
    allow_private: bool,
}

impl Default for GuardedHttp {
    /// The strict guard: public addresses only.
    fn default() -> GuardedHttp {
        GuardedHttp::new(false)
    }
}

impl GuardedHttp {
    pub fn new(allow_private: bool) -> GuardedHttp {
        GuardedHttp {
            client: super::LazyClient::new(move || build_client(allow_private)),
            allow_private,
        }
    }

    fn client(&self) -> &reqwest::Client {
        &self.client
    }

    /// Whether private addresses are allowed (what the user configured).
    pub fn allows_private(&self) -> bool {
        self.allow_private
    }

    /// The URL the model wrote, parsed and checked: http(s) only, no blocked literal address or
    /// metadata host. Names are checked again at connection time.
    pub fn check(&self, raw: &str) -> Result<Url, FetchError> {
        let url = parse_http_url(raw)?;
        check_host(&url, self.allow_private)?;
        Ok(url)
    }

    /// GETs `raw` within `limits`.
    pub async fn get(&self, raw: &str, limits: FetchLimits) -> Result<Fetched, FetchError> {
        let url = self.check(raw)?;
        let shown = url.to_string();
        let work = async {
            let response = self.client().get(url).send().await.map_err(|e| describe(&shown, &e))?;
            let status = response.status().as_u16();
            if response.status().is_redirection() {
                // reqwest hands back a redirect it will not follow (a non-http Location).
                let location = (response.headers().get(reqwest::header::LOCATION))
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("nowhere");
                return Err(FetchError::Redirect {
                    url: shown.clone(),
                    reason: format!("{location} is not an http(s) URL"),
                });
            }
            let final_url = response.url().clone();
            let content_type = (response.headers().get(reqwest::header::CONTENT_TYPE))
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            let mut body = Vec::new();
            let mut truncated = false;
            let mut stream = response.bytes_stream();
            while let Some(chunk) = stream.next().await {
                let chunk = chunk.map_err(|e| describe(&shown, &e))?;
                let room = limits.max_bytes - body.len();
                if chunk.len() > room {
                    body.extend_from_slice(&chunk[..room]);
                    truncated = true;
                    break;
                }
                body.extend_from_slice(&chunk);
            }
            Ok(Fetched {
                url: final_url,
                status,
                content_type,
                body,
                truncated,
            })
        };
        match tokio::time::timeout(limits.timeout, work).await {
            Ok(result) => result,
            Err(_) => Err(FetchError::TimedOut {
                url: raw.to_string(),
                seconds: limits.timeout.as_secs(),
            }),
        }
    }
}

/// Parses a model-written URL: surrounding blanks and blanks after `scheme://` (a common slip)
/// are dropped; only http and https are accepted.
pub fn parse_http_url(raw: &str) -> Result<Url, FetchError> {
    let trimmed = raw.trim();
    let cleaned = match trimmed.split_once("://") {
        Some((scheme, rest)) => format!("{scheme}://{}", rest.trim_start()),
        None => trimmed.to_string(),
    };
    let url = Url::parse(&cleaned).map_err(|_| FetchError::NotHttp(raw.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return Err(FetchError::NotHttp(raw.to_string()));
    }
    Ok(url)
}

/// Refuses a literal blocked address or a metadata host in `url`.
fn check_host(url: &Url, allow_private: bool) -> Result<(), FetchError> {
    let blocked = |reason: &str| FetchError::Blocked {
        url: url.to_string(),
        reason: reason.to_string(),
    };
    match url.host() {
        Some(url::Host::Ipv4(ip)) => blocked_reason(IpAddr::V4(ip), allow_private).map_or(Ok(()), |r| Err(blocked(r))),
        Some(url::Host::Ipv6(ip)) => blocked_reason(IpAddr::V6(ip), allow_private).map_or(Ok(()), |r| Err(blocked(r))),
        Some(url::Host::Domain(name)) if is_always_blocked_host(name) => Err(blocked("a cloud metadata host")),
        Some(url::Host::Domain(name)) if is_localhost_name(name) && !allow_private => {
            Err(blocked("a loopback address"))
        }
        _ => Ok(()),
    }
}

/// `localhost` and its subdomains never leave the machine (RFC 6761), whatever DNS says.
fn is_localhost_name(name: &str) -> bool {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost" || name.ends_with(".localhost")
}

/// The client behind the guard: our resolver, our redirect policy, no proxy.
fn build_client(allow_private: bool) -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .dns_resolver(Arc::new(GuardedResolver { allow_private }))
        .redirect(redirect_policy(allow_private))
        .connect_timeout(Duration::from_secs(10))
        .user_agent(concat!(
            "Mozilla/5.0 (compatible; hermes-acp/",
            env!("CARGO_PKG_VERSION"),
            ")"
        ))
        .build()
        .unwrap_or_else(|_| reqwest::Client::new())
}

fn redirect_policy(allow_private: bool) -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(move |attempt| {
        if attempt.previous().len() >= MAX_REDIRECTS {
            return attempt.error(RedirectRefused(format!("more than {MAX_REDIRECTS} redirects")));
        }
        let next = attempt.url().clone();
        if !matches!(next.scheme(), "http" | "https") {
            return attempt.error(RedirectRefused(format!("a redirect to {next}, which is not http(s)")));
        }
        match check_host(&next, allow_private) {
            Ok(()) => attempt.follow(),
            Err(e) => attempt.error(RedirectRefused(e.to_string())),
        }
    })
}

/// A redirect the guard would not follow (the message is the whole explanation).
#[derive(Debug)]
struct RedirectRefused(String);

impl std::fmt::Display for RedirectRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl StdError for RedirectRefused {}

/// A name that resolved only to blocked addresses.
#[derive(Debug)]
struct BlockedName {
    name: String,
    reason: &'static str,
}

impl std::fmt::Display for BlockedName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} resolves to {}", self.name, self.reason)
    }
}

impl StdError for BlockedName {}

/// Resolves names with the system resolver and keeps only the addresses the guard allows.
struct GuardedResolver {
    allow_private: bool,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_private = self.allow_private;
        Box::pin(async move {
            let host = name.as_str().to_string();
            if is_always_blocked_host(&host) {
                let reason = "a cloud metadata host";
                return Err(Box::new(BlockedName { name: host, reason }) as Box<dyn StdError + Send + Sync>);
            }
            let resolved: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let mut last_reason = "no address";
            let allowed: Vec<SocketAddr> = (resolved.into_iter())
                .filter(|addr| match blocked_reason(addr.ip(), allow_private) {
                    Some(reason) => {
                        last_reason = reason;
                        false
                    }
                    None => true,
                })
                .collect();
            if allowed.is_empty() {
                return Err(Box::new(BlockedName {
                    name: host,
                    reason: last_reason,
                }) as Box<dyn StdError + Send + Sync>);
            }
            Ok(Box::new(allowed.into_iter()) as Addrs)
        })
    }
}

/// A reqwest failure in the model's terms: a guard refusal says what was refused and how to
/// allow it; anything else names the innermost cause.
fn describe(url: &str, error: &reqwest::Error) -> FetchError {
    let mut source: Option<&(dyn StdError + 'static)> = Some(error);
    let mut innermost = error.to_string();
    while let Some(e) = source {
        if let Some(blocked) = e.downcast_ref::<BlockedName>() {
            return FetchError::Blocked {
                url: url.to_string(),
                reason: blocked.to_string(),
            };
        }
        if let Some(refused) = e.downcast_ref::<RedirectRefused>() {
            return FetchError::Redirect {
                url: url.to_string(),
                reason: refused.to_string(),
            };
        }
        innermost = e.to_string();
        source = e.source();
    }
    FetchError::Failed {
        url: url.to_string(),
        message: innermost,
    }
}

#[cfg(test)]
mod tests;
