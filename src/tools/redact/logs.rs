//! The log sink: every formatted log event passes through the same redaction as tool output
//! (known secret values, then patterns) before it reaches stderr. Whatever a dependency prints
//! at `RUST_LOG=trace` (request headers, bodies, MCP messages) is caught here, in one place.
//! The set of values is known only once the configuration is loaded, after logging started,
//! so it is installed once into a process-wide cell; until then the patterns alone apply.

use std::io::{self, Write};
use std::sync::{Arc, OnceLock};

use tracing_subscriber::fmt::MakeWriter;

use crate::safety::secrets::SecretSet;

static SECRETS: OnceLock<Arc<SecretSet>> = OnceLock::new();

/// Makes the log sink redact `secrets` too. The first call wins (one configuration per process).
pub fn install(secrets: Arc<SecretSet>) {
    let _ = SECRETS.set(secrets);
}

/// A `MakeWriter` for `tracing_subscriber::fmt` that redacts each event before writing it to
/// stderr.
#[derive(Debug, Default, Clone, Copy)]
pub struct RedactingStderr;

impl<'a> MakeWriter<'a> for RedactingStderr {
    type Writer = EventWriter;

    fn make_writer(&'a self) -> EventWriter {
        EventWriter { buf: Vec::new() }
    }
}

/// Collects one event (the formatter writes it whole, then drops the writer).
pub struct EventWriter {
    buf: Vec<u8>,
}

impl Write for EventWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for EventWriter {
    fn drop(&mut self) {
        if self.buf.is_empty() {
            return;
        }
        let line = redact_line(&String::from_utf8_lossy(&self.buf));
        let _ = io::stderr().lock().write_all(line.as_bytes());
    }
}

/// One log event as it will be written.
pub fn redact_line(text: &str) -> String {
    match SECRETS.get() {
        Some(secrets) => super::redact_text(secrets, text),
        None => super::redact(text),
    }
}
