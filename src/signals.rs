//! Termination signals: SIGTERM (an editor closing the agent), SIGINT (Ctrl-C) and SIGHUP (the
//! terminal went away) all mean "stop now, cleanly" — the same as stdin reaching end of file.
//! On Windows only Ctrl-C / Ctrl-Break exist as catchable events; an editor closing the agent
//! there ends it by closing stdin (or terminating the process, which runs no cleanup).

#[cfg(unix)]
use tokio::signal::unix::{SignalKind, signal};

/// Completes when the process receives SIGTERM, SIGINT or SIGHUP. Handlers are installed when
/// this is called, not when it is first polled, so call it before serving.
#[cfg(unix)]
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

/// Completes on Ctrl-C or Ctrl-Break (the console events Windows delivers to a process).
#[cfg(windows)]
pub fn shutdown() -> impl Future<Output = ()> + Send + 'static {
    use tokio::signal::windows::{ctrl_break, ctrl_c};
    fn listen<T>(made: std::io::Result<T>) -> Option<T> {
        made.map_err(|e| tracing::warn!(error = %e, "cannot listen for a console event"))
            .ok()
    }
    let (mut c, mut b) = (listen(ctrl_c()), listen(ctrl_break()));
    async move {
        let c_wait = async {
            match c.as_mut() {
                Some(stream) => drop(stream.recv().await),
                None => std::future::pending().await,
            }
        };
        let b_wait = async {
            match b.as_mut() {
                Some(stream) => drop(stream.recv().await),
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            () = c_wait => tracing::info!("Ctrl-C received; shutting down"),
            () = b_wait => tracing::info!("Ctrl-Break received; shutting down"),
        }
    }
}
