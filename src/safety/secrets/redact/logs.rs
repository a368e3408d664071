//! Log redaction: every formatted log event passes through the same redaction as tool output
//! (known secret values, then patterns) before the non-blocking writer (`crate::logging`) queues
//! it for stderr. Whatever a dependency prints
//! at `RUST_LOG=trace` (request headers, bodies, MCP messages) is caught here, in one place.
//! The set of values is known only once the configuration is loaded, after logging started,
//! so it is installed once into a process-wide cell; until then the patterns alone apply.

use std::sync::{Arc, OnceLock};

use crate::safety::secrets::SecretSet;

static SECRETS: OnceLock<Arc<SecretSet>> = OnceLock::new();

/// Makes the log sink redact `secrets` too. The first call wins (one configuration per process).
pub fn install(secrets: Arc<SecretSet>) {
    let _ = SECRETS.set(secrets);
}

/// One log event as it will be written.
pub fn redact_line(text: &str) -> String {
    match SECRETS.get() {
        Some(secrets) => super::redact_text(secrets, text),
        None => super::redact(text),
    }
}
