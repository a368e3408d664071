//! Logs that never block: tracing writes to stderr through a bounded queue drained by one
//! thread (tracing-appender's lossy non-blocking writer). When nobody reads our stderr and the
//! pipe fills, that thread blocks, the queue fills, and further lines are dropped and counted —
//! the agent itself never waits on stderr. Default level WARN; `RUST_LOG` overrides it. Every
//! event is redacted (known secret values and patterns, `safety::secrets::redact::logs`) by the writer
//! thread before it reaches stderr, so the thread that logs never pays for the redaction
//! patterns (compiling them on the first warning used to delay the answer to `initialize`).

use std::time::Duration;

use std::io::Write;

use tracing_appender::non_blocking::{ErrorCounter, NonBlocking, NonBlockingBuilder, WorkerGuard};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::MakeWriter;

use crate::safety::secrets::redact::logs::redact_line;

/// Lines that may wait for stderr before new ones are dropped (bounded memory). The queue is
/// allocated whole at start, so it is sized for bursts at the default WARN level, not for a
/// `RUST_LOG=trace` flood into a pipe nobody reads (those lines are dropped and counted).
const QUEUED_LINES: usize = 4 * 1024;
/// How often a growing drop count is reported (through the same lossy queue).
const REPORT_EVERY: Duration = Duration::from_secs(10);

/// Keeps the log writer alive; `finish` flushes it with a time bound.
pub struct Logs {
    guard: WorkerGuard,
    dropped: ErrorCounter,
}

/// Installs the global subscriber: stderr, non-blocking, level from `RUST_LOG` (default warn).
pub fn init() -> Logs {
    let (writer, guard) = NonBlockingBuilder::default()
        .lossy(true)
        .buffered_lines_limit(QUEUED_LINES)
        .thread_name("hermes-acp-log")
        .finish(RedactingStderr(std::io::stderr()));
    let dropped = writer.error_counter();
    let builder = tracing_subscriber::fmt()
        .with_writer(RedactingQueue(writer))
        .with_target(false)
        .with_ansi(false);
    // Without RUST_LOG a plain level is enough; parsing directives compiles regexes, which is
    // a measurable share of start-up (the time to answer `initialize`).
    match std::env::var_os("RUST_LOG").filter(|v| !v.is_empty()) {
        Some(_) => builder
            .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn")))
            .init(),
        None => builder.with_max_level(tracing::Level::WARN).init(),
    }
    Logs { guard, dropped }
}

/// Queues each whole event for the writer thread (dropped when the queue is full).
#[derive(Clone)]
struct RedactingQueue(NonBlocking);

/// The writer thread's end: each message is one whole event, redacted before it is written.
struct RedactingStderr(std::io::Stderr);

impl Write for RedactingStderr {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let line = redact_line(&String::from_utf8_lossy(bytes));
        self.0.write_all(line.as_bytes())?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

impl<'a> MakeWriter<'a> for RedactingQueue {
    type Writer = QueuedEvent;

    fn make_writer(&'a self) -> QueuedEvent {
        QueuedEvent {
            buf: Vec::new(),
            queue: self.0.clone(),
        }
    }
}

/// One event being formatted; the formatter writes it whole, then drops the writer.
struct QueuedEvent {
    buf: Vec<u8>,
    queue: NonBlocking,
}

impl Write for QueuedEvent {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for QueuedEvent {
    fn drop(&mut self) {
        if self.buf.is_empty() {
            return;
        }
        // Lossy: never blocks; a full queue counts the line as dropped.
        let _ = self.queue.write_all(&self.buf);
    }
}

impl Logs {
    /// Log lines dropped so far because stderr was full.
    pub fn dropped_lines(&self) -> usize {
        self.dropped.dropped_lines()
    }

    /// Reports the drop count every few seconds while it grows; run it on the runtime.
    pub fn reporter(&self) -> impl Future<Output = ()> + Send + 'static {
        let dropped = self.dropped.clone();
        async move {
            let mut reported = 0;
            let mut tick = tokio::time::interval(REPORT_EVERY);
            loop {
                tick.tick().await;
                let now = dropped.dropped_lines();
                if now > reported {
                    tracing::warn!(dropped = now, "log lines dropped because stderr is not being read");
                    reported = now;
                }
            }
        }
    }

    /// Reports the final drop count and flushes what is queued, waiting at most `within`: the
    /// writer thread may be stuck on a pipe nobody reads, and exit must not wait for it.
    pub fn finish(self, within: Duration) {
        let dropped = self.dropped_lines();
        if dropped > 0 {
            tracing::warn!(dropped, "log lines were dropped because stderr was not being read");
        }
        silence_stdout();
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        let guard = self.guard;
        // Dropping the guard waits for the writer thread; do it aside and stop waiting in time.
        let spawned = std::thread::Builder::new()
            .name("hermes-acp-log-flush".into())
            .spawn(move || {
                drop(guard);
                let _ = done_tx.send(());
            });
        if spawned.is_ok() {
            let _ = done_rx.recv_timeout(within);
        }
    }
}

/// Points stdout at the null device once the last protocol frame is out. tracing-appender's
/// guard prints a complaint to stdout when the writer thread cannot take its shutdown message
/// within 100 ms (stderr full and unread): one stray line on stdout corrupts the editor's
/// stream, so nothing may reach it after this point.
/// (Anything the CLI printed went out line by line already: Rust's stdout is line-buffered.)
fn silence_stdout() {
    #[cfg(unix)]
    if let Ok(null) = std::fs::OpenOptions::new().write(true).open("/dev/null") {
        use std::os::fd::AsRawFd;
        // SAFETY: dup2 on two valid descriptors; fd 1 stays open (now the null device), so no
        // other code's use of it becomes invalid.
        unsafe {
            libc::dup2(null.as_raw_fd(), libc::STDOUT_FILENO);
        }
    }
}
