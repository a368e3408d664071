//! Which backend serves `web_search` and which serves `web_extract`, chosen once at start the
//! way Hermes chooses (`_get_capability_backend`): `web.search_backend` / `web.extract_backend`
//! when that backend has credentials, else `web.backend` when it names a backend we know (even
//! without credentials, so the call reports exactly which key is missing), else the first
//! backend whose credentials exist in Hermes' order (Tavily, Exa, Parallel, Firecrawl, SearXNG,
//! Brave). Beyond Hermes, extraction never needs a backend: with none, a search-only one, or
//! `web.extract_backend: native`, pages are fetched and converted here.

use crate::net::LazyClient;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{Backend, BackendName};
use crate::tools::web::Variables;
use crate::tools::web::WebSettings;

/// Where `web_extract` sends pages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExtractRoute {
    /// A backend that extracts.
    Backend(Backend),
    /// Our own fetch through the SSRF guard and HTML→Markdown conversion.
    Native,
    /// The configured backend cannot be used (its credentials are missing): the message says why.
    Unusable(String),
}

/// The web backends this process uses, with the HTTP client that talks to them. Their APIs
/// are endpoints the user configured (a self-hosted SearXNG or Firecrawl is often on a private
/// address), so this client is the ordinary one, not the SSRF-guarded one; the URLs the model
/// names are checked before they are handed to a backend.
#[derive(Clone)]
pub struct WebBackends {
    /// `None`: no backend can search (the tool is not offered). `Err`: the configured one lacks
    /// credentials.
    search: Option<Result<Backend, String>>,
    extract: Option<ExtractRoute>,
    /// Some backend has credentials (Hermes' `check_web_api_key`).
    any_usable: bool,
    /// `web.extract_char_limit`.
    pub char_limit: usize,
    /// Where full texts of cut pages are saved (`HERMES_HOME/cache/web`).
    pub cache_dir: Option<PathBuf>,
    client: LazyClient,
}

impl Default for WebBackends {
    /// Nothing configured: no search, native extraction, Hermes' default page budget.
    fn default() -> WebBackends {
        WebBackends {
            search: None,
            extract: None,
            any_usable: false,
            char_limit: crate::tools::web::DEFAULT_EXTRACT_CHAR_LIMIT,
            cache_dir: None,
            client: LazyClient::new(backend_client),
        }
    }
}

impl std::fmt::Debug for WebBackends {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebBackends")
            .field("search", &self.search)
            .field("extract", &self.extract)
            .finish()
    }
}

impl WebBackends {
    /// Resolves the backends from `config.yaml`'s `web:` section and the environment.
    pub fn from_config(web: &WebSettings, env: &dyn Variables, home: &Path) -> WebBackends {
        let usable = |name: BackendName| Backend::from_env(name, env);
        let known = |value: &Option<String>, key: &str| {
            let value = value.as_deref()?;
            let name = BackendName::parse(value);
            if name.is_none() && value != "native" {
                tracing::warn!("web.{key}: '{value}' is not a web backend this agent supports; ignored");
            }
            name
        };
        let shared = known(&web.backend, "backend");
        let auto = BackendName::AUTO_ORDER.into_iter().find(|n| usable(*n).is_some());
        // Hermes: the per-capability key only when usable, then `web.backend` as configured,
        // then auto-detection.
        let pick = |specific: Option<BackendName>| -> Option<BackendName> {
            specific.filter(|n| usable(*n).is_some()).or(shared).or(auto)
        };
        let resolve = |name: BackendName| usable(name).ok_or_else(|| name.missing_credentials().to_string());
        let search = pick(known(&web.search_backend, "search_backend")).map(resolve);
        let extract = if web.extract_backend.as_deref() == Some("native") {
            ExtractRoute::Native
        } else {
            match pick(known(&web.extract_backend, "extract_backend")) {
                Some(name) if name.extracts() => match resolve(name) {
                    Ok(backend) => ExtractRoute::Backend(backend),
                    Err(message) => ExtractRoute::Unusable(message),
                },
                _ => ExtractRoute::Native,
            }
        };
        let backends = WebBackends {
            search,
            extract: Some(extract),
            any_usable: auto.is_some(),
            char_limit: web.extract_char_limit,
            cache_dir: Some(home.join("cache").join("web")),
            client: LazyClient::new(backend_client),
        };
        tracing::debug!(?backends, "web backends resolved");
        backends
    }

    /// `web_search` is offered when a backend can search (Hermes offers both web tools only
    /// when some backend has credentials).
    pub fn search_offered(&self) -> bool {
        self.any_usable && self.search.is_some()
    }

    /// The backend for `web_search`: `None` when there is none, `Err` with Hermes' message when
    /// the configured one lacks credentials.
    pub fn search(&self) -> Option<Result<&Backend, &str>> {
        self.search.as_ref().map(|r| r.as_ref().map_err(String::as_str))
    }

    /// Where `web_extract` sends pages (the native path when nothing was configured).
    pub fn extract(&self) -> &ExtractRoute {
        self.extract.as_ref().unwrap_or(&ExtractRoute::Native)
    }

    /// The client for backend APIs, built on first use (TLS roots cost milliseconds at start).
    pub fn client(&self) -> &reqwest::Client {
        &self.client
    }
}

fn backend_client() -> reqwest::Client {
    reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(10))
        .user_agent(concat!("hermes-acp/", env!("CARGO_PKG_VERSION")))
        .build()
        .unwrap_or_else(|_| reqwest::Client::new())
}
