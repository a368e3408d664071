//! A reqwest client built the first time a request needs it. Building one (TLS roots,
//! connector) costs milliseconds that start-up should not pay: the providers, the SSRF-guarded
//! fetcher and the web-search backends each hold one. Clones share the client and its pool.

use std::sync::{Arc, OnceLock};

/// A shared, lazily built client; derefs to `reqwest::Client`.
#[derive(Clone)]
pub struct LazyClient {
    cell: Arc<OnceLock<reqwest::Client>>,
    build: Arc<dyn Fn() -> reqwest::Client + Send + Sync>,
}

impl LazyClient {
    /// A client `build` makes on first use (nothing is built yet).
    pub fn new(build: impl Fn() -> reqwest::Client + Send + Sync + 'static) -> LazyClient {
        LazyClient {
            cell: Arc::default(),
            build: Arc::new(build),
        }
    }
}

impl std::ops::Deref for LazyClient {
    type Target = reqwest::Client;

    fn deref(&self) -> &reqwest::Client {
        self.cell.get_or_init(|| (self.build)())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[test]
    fn built_once_on_first_use_and_shared_by_clones() {
        let builds = Arc::new(AtomicUsize::new(0));
        let counted = builds.clone();
        let client = LazyClient::new(move || {
            counted.fetch_add(1, Ordering::SeqCst);
            reqwest::Client::new()
        });
        let clone = client.clone();
        assert_eq!(builds.load(Ordering::SeqCst), 0, "nothing built before use");
        let _ = client.get("http://127.0.0.1:9/");
        let _ = clone.get("http://127.0.0.1:9/");
        assert_eq!(builds.load(Ordering::SeqCst), 1);
    }
}
