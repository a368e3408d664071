//! When stdout last carried a frame: the writer marks every frame it writes, and a running
//! turn's keepalive asks how long the connection has been quiet. Measured at the one writer, so
//! every kind of frame counts (responses, requests to the editor, updates of any session) —
//! the connection-wide silence a client's idle timer sees.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A cheap, shared handle on the time of the last frame written.
#[derive(Debug, Clone)]
pub struct Traffic {
    epoch: Instant,
    /// Milliseconds after `epoch` at which the last frame was written.
    last_ms: Arc<AtomicU64>,
}

impl Default for Traffic {
    fn default() -> Self {
        Traffic {
            epoch: Instant::now(),
            last_ms: Arc::default(),
        }
    }
}

impl Traffic {
    /// Records that a frame was written now.
    pub fn mark(&self) {
        let now = self.epoch.elapsed().as_millis() as u64;
        self.last_ms.fetch_max(now, Ordering::Relaxed);
    }

    /// How long nothing has been written (since the handle was made, if nothing ever was).
    pub fn quiet_for(&self) -> Duration {
        let now = self.epoch.elapsed().as_millis() as u64;
        Duration::from_millis(now.saturating_sub(self.last_ms.load(Ordering::Relaxed)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_ends_the_quiet() {
        let traffic = Traffic::default();
        let copy = traffic.clone();
        copy.mark();
        assert!(traffic.quiet_for() < Duration::from_secs(5));
    }
}
