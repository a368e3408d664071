//! The one writer of stdout: every outgoing frame (the SDK's and the wire layer's own error
//! answers) passes through one task, so frames never interleave. A frame over the size cap is
//! never written: a response becomes an error response with the same id, a request we sent is
//! answered locally with an error (so its caller does not wait forever), a notification is
//! dropped; each case is logged. This is the only library module allowed to touch stdout.

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;
use tokio::io::{AsyncWrite, AsyncWriteExt, BufWriter};
use tokio::sync::mpsc;

use super::traffic::Traffic;
use super::validate::error_line;

/// JSON-RPC internal error, used for frames too large to send.
const INTERNAL_ERROR: i64 = -32603;

/// stdout, for the server. Kept here so one file owns every byte that reaches it.
pub fn stdout() -> tokio::io::Stdout {
    tokio::io::stdout()
}

/// Just enough of a frame to decide what to do when it is too large.
#[derive(Deserialize)]
struct Envelope {
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    method: Option<IgnoredAny>,
}

/// Writes each frame of `frames` as one line to `out` until every sender is gone, marking each
/// on `traffic`. Requests that are too large to send are answered through `incoming` (the
/// SDK's input).
pub async fn write_frames<W: AsyncWrite + Unpin>(
    mut frames: mpsc::Receiver<String>,
    out: W,
    max_frame: usize,
    incoming: mpsc::WeakUnboundedSender<std::io::Result<String>>,
    traffic: Traffic,
) {
    let mut out = BufWriter::with_capacity(64 * 1024, out);
    let mut broken = false;
    while let Some(frame) = frames.recv().await {
        let frame = if frame.len() > max_frame {
            match oversized(&frame, max_frame) {
                Oversized::Send(replacement) => replacement,
                Oversized::AnswerLocally(answer) => {
                    if let Some(incoming) = incoming.upgrade() {
                        let _ = incoming.send(Ok(answer));
                    }
                    continue;
                }
                Oversized::Drop => continue,
            }
        } else {
            frame
        };
        if broken {
            continue;
        }
        let mut result = write_line(&mut out, &frame).await;
        // Flush once the queue is drained, not per frame: bursts of updates go out in one write.
        if result.is_ok() && frames.is_empty() {
            result = out.flush().await;
        }
        traffic.mark();
        if let Err(e) = result {
            // The editor closed our stdout. Keep draining so senders never block; stdin EOF
            // ends the process.
            tracing::warn!(error = %e, "stdout is closed; dropping outgoing frames");
            broken = true;
        }
    }
    if !broken {
        let _ = out.flush().await;
    }
}

async fn write_line<W: AsyncWrite + Unpin>(out: &mut W, frame: &str) -> std::io::Result<()> {
    out.write_all(frame.as_bytes()).await?;
    out.write_all(b"\n").await
}

#[derive(Debug, PartialEq)]
enum Oversized {
    Send(String),
    AnswerLocally(String),
    Drop,
}

fn oversized(frame: &str, max_frame: usize) -> Oversized {
    let envelope = serde_json::from_str::<Envelope>(frame).ok();
    let (id, is_request) = match envelope {
        Some(Envelope { id, method }) => (id.filter(|id| !id.is_null()), method.is_some()),
        None => (None, false),
    };
    let message = format!(
        "message too large to send ({} bytes; the limit is {max_frame})",
        frame.len()
    );
    match (id, is_request) {
        (Some(id), false) => {
            tracing::error!(%id, bytes = frame.len(), "response too large; answering with an error instead");
            Oversized::Send(error_line(&id, INTERNAL_ERROR, &message))
        }
        (Some(id), true) => {
            tracing::error!(%id, bytes = frame.len(), "request to the editor too large; failing it locally");
            Oversized::AnswerLocally(error_line(&id, INTERNAL_ERROR, &message))
        }
        (None, _) => {
            tracing::error!(bytes = frame.len(), "notification too large; dropped");
            Oversized::Drop
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn oversized_frames_become_errors_for_their_id_or_are_dropped() {
        let big = "x".repeat(100);
        let response = json!({"jsonrpc": "2.0", "id": 4, "result": {"text": big}}).to_string();
        let Oversized::Send(line) = oversized(&response, 50) else {
            panic!()
        };
        let v: Value = serde_json::from_str(&line).unwrap();
        assert_eq!((v["id"].clone(), v["error"]["code"].clone()), (json!(4), json!(-32603)));

        let request = json!({"jsonrpc": "2.0", "id": "r1", "method": "fs/write_text_file", "params": {"content": big}});
        let Oversized::AnswerLocally(line) = oversized(&request.to_string(), 50) else {
            panic!()
        };
        assert_eq!(serde_json::from_str::<Value>(&line).unwrap()["id"], "r1");

        let notification = json!({"jsonrpc": "2.0", "method": "session/update", "params": {"t": big}});
        assert_eq!(oversized(&notification.to_string(), 50), Oversized::Drop);
    }

    #[tokio::test]
    async fn frames_are_written_one_per_line_and_oversized_ones_never_reach_the_output() {
        let (tx, rx) = mpsc::channel(4);
        let (in_tx, mut in_rx) = mpsc::unbounded_channel();
        let mut out = Vec::new();
        let sender = tokio::spawn(async move {
            tx.send("{\"a\":1}".to_string()).await.unwrap();
            tx.send(json!({"jsonrpc": "2.0", "id": 1, "method": "m", "params": ["y".repeat(99)]}).to_string())
                .await
                .unwrap();
            tx.send("{\"b\":2}".to_string()).await.unwrap();
        });
        write_frames(rx, &mut out, 64, in_tx.downgrade(), super::Traffic::default()).await;
        sender.await.unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "{\"a\":1}\n{\"b\":2}\n");
        let answer: Value = serde_json::from_str(&in_rx.recv().await.unwrap().unwrap()).unwrap();
        assert_eq!(answer["id"], 1);
    }
}
