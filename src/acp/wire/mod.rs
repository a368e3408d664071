//! The wire: we read stdin as bytes and frame lines ourselves before the SDK sees them, so no
//! input can end the connection except end of file. Invalid lines (not UTF-8, not JSON, not a
//! JSON-RPC object, over-long) are answered here with the id they carry; well-formed lines go
//! to the SDK unchanged through its `Lines` transport, which keeps the typed dispatch. Every
//! outgoing frame goes through the one writer task in `writer`.

mod frame;
mod traffic;
pub mod validate;
mod writer;

use std::future::Future;
use std::time::Duration;

use agent_client_protocol::{Client, ConnectTo, Error, Lines};
use futures::SinkExt;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, BufReader};
use tokio::sync::mpsc;
use tokio_util::sync::PollSender;

pub use frame::{Frame, LineReader};
pub use traffic::Traffic;
use validate::{INVALID_REQUEST, Verdict, classify, error_line};

/// Size limits of the wire.
#[derive(Debug, Clone, Copy)]
pub struct WireLimits {
    /// The longest incoming line kept; longer ones are skipped and answered -32600.
    pub max_line_in: usize,
    /// The largest outgoing frame written; larger ones are replaced or dropped (see `writer`).
    pub max_frame_out: usize,
}

impl Default for WireLimits {
    fn default() -> Self {
        WireLimits {
            max_line_in: 64 * 1024 * 1024,
            max_frame_out: 8 * 1024 * 1024,
        }
    }
}

/// How many outgoing frames may wait for stdout before senders wait (backpressure).
const OUTGOING_QUEUE: usize = 256;
/// How long frames already queued get to reach stdout once the connection ends.
const FLUSH_BOUND: Duration = Duration::from_millis(500);

/// Serves `agent` on stdin/stdout until stdin ends or `shutdown` completes.
pub async fn serve_stdio(
    agent: impl ConnectTo<Client>,
    limits: WireLimits,
    traffic: Traffic,
    shutdown: impl Future<Output = ()>,
) -> Result<(), Error> {
    serve(agent, tokio::io::stdin(), writer::stdout(), limits, traffic, shutdown).await
}

/// Serves `agent` on `input`/`output` until `input` ends or `shutdown` completes; every frame
/// written is marked on `traffic`.
pub async fn serve(
    agent: impl ConnectTo<Client>,
    input: impl AsyncRead + Send + Unpin + 'static,
    output: impl AsyncWrite + Send + Unpin + 'static,
    limits: WireLimits,
    traffic: Traffic,
    shutdown: impl Future<Output = ()>,
) -> Result<(), Error> {
    let (out_tx, out_rx) = mpsc::channel::<String>(OUTGOING_QUEUE);
    let (in_tx, mut in_rx) = mpsc::unbounded_channel::<std::io::Result<String>>();
    // Weak: the writer must not keep the SDK's input open after stdin ends.
    let writer = tokio::spawn(writer::write_frames(
        out_rx,
        output,
        limits.max_frame_out,
        in_tx.downgrade(),
        traffic,
    ));
    let reader = tokio::spawn(pump(input, limits.max_line_in, in_tx, out_tx.clone()));
    let sink = PollSender::new(out_tx).sink_map_err(|_| std::io::Error::from(std::io::ErrorKind::BrokenPipe));
    let lines = futures::stream::poll_fn(move |cx| in_rx.poll_recv(cx));
    let result = tokio::select! {
        result = agent.connect_to(Lines::new(sink, lines)) => result,
        () = shutdown => {
            tracing::info!("shutdown requested");
            Ok(())
        }
    };
    // On a signal the reader may still be waiting on stdin; its answers no longer matter.
    reader.abort();
    if tokio::time::timeout(FLUSH_BOUND, writer).await.is_err() {
        tracing::warn!("stdout did not drain in time; unsent frames dropped");
    }
    result
}

/// Reads frames from `input`: well-formed lines go to the SDK (`to_sdk`), everything else is
/// answered directly (`to_stdout`) or ignored. Ends at end of input (or a read error, which
/// for a pipe means the same).
async fn pump(
    input: impl AsyncRead + Unpin,
    max_line: usize,
    to_sdk: mpsc::UnboundedSender<std::io::Result<String>>,
    to_stdout: mpsc::Sender<String>,
) {
    let mut lines = LineReader::new(BufReader::with_capacity(256 * 1024, input), max_line);
    loop {
        let frame = match lines.next().await {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            Err(e) => {
                tracing::warn!(error = %e, "reading stdin failed; treating it as end of input");
                break;
            }
        };
        let reply = match frame {
            Frame::TooLong { bytes } => {
                tracing::warn!(bytes, max_line, "incoming line over the size limit skipped");
                error_line(
                    &Value::Null,
                    INVALID_REQUEST,
                    &format!("Invalid request: line of {bytes} bytes is over the {max_line}-byte limit"),
                )
            }
            Frame::Line(bytes) => match classify(bytes) {
                Verdict::Forward(line) => {
                    if to_sdk.send(Ok(line)).is_err() {
                        break;
                    }
                    continue;
                }
                Verdict::Reply(reply) => {
                    tracing::debug!(%reply, "answered an invalid incoming line");
                    reply
                }
                Verdict::Ignore(why) => {
                    tracing::debug!(why, "ignored an incoming line");
                    continue;
                }
            },
        };
        if to_stdout.send(reply).await.is_err() {
            break;
        }
    }
}
