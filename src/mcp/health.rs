//! Liveness of one MCP connection, for the supervisor: whether it is gone right now (transport
//! closed, stdio child exited — both cheap, no round trip), and a background `ping` for network
//! servers, which otherwise have no open connection whose loss we would notice: a streamable-HTTP
//! server answering plain JSON is only contacted when a tool is called.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rmcp::model::{ClientRequest, PingRequest};
use rmcp::service::{Peer, RoleClient};

use super::client::ServerConnection;

/// How long a ping may take before the server counts as gone. Generous: a server answers a
/// ping at once even while it runs a long tool call, so only an unreachable or wedged one
/// takes this long.
const PING_TIMEOUT: Duration = Duration::from_secs(20);

/// Whether a connection is gone: its transport closed, or its stdio child exited.
pub(super) fn is_dead(connection: &ServerConnection) -> bool {
    connection.service.peer().is_transport_closed() || connection.child.as_ref().is_some_and(|c| child_exited(c.pid()))
}

/// Pings `peer` every `interval` until a ping fails — a transport error or no answer within
/// [`PING_TIMEOUT`] — then raises `lost` and ends. Also ends once the transport is closed on
/// purpose (the connection was closed or replaced) or `lost` was raised by a failed call.
pub(super) async fn ping_until_lost(server: String, peer: Peer<RoleClient>, interval: Duration, lost: Arc<AtomicBool>) {
    loop {
        // The interval between liveness probes, not synchronisation.
        tokio::time::sleep(interval).await;
        if lost.load(Ordering::SeqCst) || peer.is_transport_closed() {
            return;
        }
        let ping = peer.send_request(ClientRequest::PingRequest(PingRequest::default()));
        let failure = match tokio::time::timeout(PING_TIMEOUT, ping).await {
            Ok(Ok(_)) => continue,
            // The server answered, even if only with an error: it is alive.
            Ok(Err(rmcp::ServiceError::McpError(_))) => continue,
            Ok(Err(e)) => e.to_string(),
            Err(_) => format!("no answer to ping within {}s", PING_TIMEOUT.as_secs()),
        };
        tracing::warn!(server = %server, reason = %failure, "MCP server failed its liveness ping");
        lost.store(true, Ordering::SeqCst);
        return;
    }
}

/// Whether our child `pid` has exited (without reaping it: the transport owns the handle).
#[cfg(unix)]
fn child_exited(pid: u32) -> bool {
    let id: libc::id_t = pid;
    // SAFETY: an all-zero siginfo_t is a valid value for waitid to fill in.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: waitid only writes into `info`; WNOWAIT leaves the child waitable for its owner.
    let rc = unsafe {
        libc::waitid(
            libc::P_PID,
            id,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    if rc != 0 {
        // ECHILD: already reaped by its owner, so it is gone.
        return std::io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD);
    }
    // SAFETY: waitid succeeded, so `info` holds a valid (possibly empty) child record.
    unsafe { info.si_pid() != 0 }
}

#[cfg(not(unix))]
fn child_exited(_pid: u32) -> bool {
    false
}
