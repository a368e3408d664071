//! Termination signals: SIGTERM (an editor closing the agent), SIGINT (Ctrl-C) and SIGHUP (the
//! terminal went away) all mean "stop now, cleanly" — the same as stdin reaching end of file.

use tokio::signal::unix::{SignalKind, signal};

/// Completes when the process receives SIGTERM, SIGINT or SIGHUP. Handlers are installed when
/// this is called, not when it is first polled, so call it before serving.
pub fn shutdown() -> impl Future<Output = ()> + Send + 'static {
    let kinds = [
        (SignalKind::terminate(), "SIGTERM"),
        (SignalKind::interrupt(), "SIGINT"),
        (SignalKind::hangup(), "SIGHUP"),
    ];
    let mut streams = Vec::new();
    for (kind, name) in kinds {
        match signal(kind) {
            Ok(stream) => streams.push((stream, name)),
            // Without a handler the signal keeps its default action (the process dies), which
            // is still an exit; only the cleanup is lost.
            Err(e) => tracing::warn!(signal = name, error = %e, "cannot listen for a signal"),
        }
    }
    async move {
        if streams.is_empty() {
            return std::future::pending().await;
        }
        let waits = streams.iter_mut().map(|(stream, name)| {
            Box::pin(async move {
                stream.recv().await;
                *name
            })
        });
        let (name, _, _) = futures::future::select_all(waits).await;
        tracing::info!(signal = name, "signal received; shutting down");
    }
}
