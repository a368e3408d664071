//! The models offered in the editor's model picker: the configured default, `model.choices`
//! from config.yaml, and whatever the provider's `GET /models` lists. The provider is asked once,
//! in the background, once the editor has been answered at `initialize` (or by the first session
//! that needs the list, whichever comes first); a session never waits more than a moment for it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;

use crate::llm::Provider;
use crate::sync::lock;

/// How long `session/new` may wait for the first `/models` answer.
const FIRST_FETCH_WAIT: Duration = Duration::from_millis(250);
/// At most this many provider models are offered (OpenRouter lists hundreds).
const MAX_PROVIDER_MODELS: usize = 200;

/// The model list, filled in the background.
#[derive(Clone, Default)]
pub struct ModelCatalog {
    configured: Vec<String>,
    /// Who to ask; `None` when no provider is configured.
    provider: Option<Arc<dyn Provider>>,
    started: Arc<AtomicBool>,
    fetched: Arc<Mutex<Option<Vec<String>>>>,
    ready: Arc<Notify>,
}

impl ModelCatalog {
    pub fn new(configured: Vec<String>, provider: Option<Arc<dyn Provider>>) -> ModelCatalog {
        ModelCatalog {
            configured,
            provider,
            ..ModelCatalog::default()
        }
    }

    /// Starts the background fetch, once. Not at process start: the request would compete with
    /// answering `initialize` for the CPU.
    pub fn start_fetch(&self) {
        let Some(provider) = self.provider.clone() else {
            return;
        };
        if self.started.swap(true, Ordering::AcqRel) {
            return;
        }
        let this = self.clone();
        tokio::spawn(async move {
            let models = match provider.list_models().await {
                Ok(models) => models,
                Err(e) => {
                    tracing::debug!(error = %e, "model list unavailable; offering configured models only");
                    Vec::new()
                }
            };
            *lock(&this.fetched) = Some(models);
            this.ready.notify_waiters();
        });
    }

    /// The models to offer, `current` first. Waits briefly for the first fetch.
    pub async fn models(&self, current: &str) -> Vec<String> {
        self.start_fetch();
        if self.provider.is_some() && lock(&self.fetched).is_none() {
            let notified = self.ready.notified();
            if lock(&self.fetched).is_none() {
                let _ = tokio::time::timeout(FIRST_FETCH_WAIT, notified).await;
            }
        }
        let fetched = lock(&self.fetched).clone().unwrap_or_default();
        let mut out: Vec<String> = Vec::new();
        let candidates = std::iter::once(current.to_string())
            .chain(self.configured.iter().cloned())
            .chain(fetched.into_iter().take(MAX_PROVIDER_MODELS));
        for model in candidates {
            if !model.is_empty() && !out.contains(&model) {
                out.push(model);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without a provider there is nothing to wait for: the configured list is ready on the
    /// first poll (waiting for a fetch that never starts would leave the future pending).
    #[tokio::test]
    async fn without_a_provider_the_list_is_there_at_once() {
        use futures::FutureExt;
        let catalog = ModelCatalog::new(vec!["b".into(), "a".into()], None);
        let models = catalog.models("a").now_or_never();
        assert_eq!(models.as_deref(), Some(&["a".to_string(), "b".to_string()][..]));
    }
}
