//! The legacy HTTP+SSE MCP transport (protocol 2024-11-05), which rmcp 3.9 no longer ships a
//! client for: a long-lived `GET <url>` event stream whose first `endpoint` event names the URL
//! to `POST` our messages to; the server's messages arrive as `message` events on the stream.
//! Implemented as an rmcp `Transport` on our own reqwest client, so the rest of the MCP code
//! treats SSE servers like any other.

use std::time::Duration;

use eventsource_stream::Eventsource;
use futures::StreamExt;
use reqwest::Url;
use reqwest::header::{ACCEPT, HeaderMap, HeaderValue};
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::sync::mpsc;

/// What went wrong on an SSE connection.
#[derive(Debug, thiserror::Error)]
pub enum SseError {
    #[error("invalid URL `{0}`")]
    Url(String),
    #[error("{0}")]
    Http(#[from] reqwest::Error),
    #[error("the server answered {0}")]
    Status(reqwest::StatusCode),
    #[error("the event stream ended before the server sent its `endpoint` event")]
    NoEndpoint,
    #[error("the event stream failed: {0}")]
    Stream(String),
}

/// A connected SSE session.
pub(crate) struct SseTransport {
    client: reqwest::Client,
    endpoint: Url,
    incoming: mpsc::Receiver<RxJsonRpcMessage<RoleClient>>,
    reader: tokio::task::JoinHandle<()>,
}

impl SseTransport {
    /// Opens the event stream at `url` and waits for the `endpoint` event. `headers` go with
    /// every request (the stream and each POST).
    pub async fn connect(url: &str, headers: HeaderMap) -> Result<SseTransport, SseError> {
        let url = Url::parse(url).map_err(|_| SseError::Url(url.to_string()))?;
        let client = reqwest::Client::builder()
            .default_headers(headers)
            .connect_timeout(Duration::from_secs(10))
            .build()?;
        let response = client
            .get(url.clone())
            .header(ACCEPT, HeaderValue::from_static("text/event-stream"))
            .send()
            .await?;
        if !response.status().is_success() {
            return Err(SseError::Status(response.status()));
        }
        let mut events = response.bytes_stream().eventsource();
        let endpoint = loop {
            match events.next().await {
                None => return Err(SseError::NoEndpoint),
                Some(Err(e)) => return Err(SseError::Stream(e.to_string())),
                Some(Ok(event)) if event.event == "endpoint" => {
                    let target = event.data.trim();
                    break url.join(target).map_err(|_| SseError::Url(target.to_string()))?;
                }
                Some(Ok(_)) => {}
            }
        };
        let (tx, incoming) = mpsc::channel(64);
        let reader = tokio::spawn(async move {
            while let Some(event) = events.next().await {
                let event = match event {
                    Ok(event) => event,
                    Err(e) => {
                        tracing::warn!(error = %e, "MCP SSE stream failed");
                        break;
                    }
                };
                if !(event.event.is_empty() || event.event == "message") {
                    continue;
                }
                match serde_json::from_str::<RxJsonRpcMessage<RoleClient>>(&event.data) {
                    Ok(message) => {
                        if tx.send(message).await.is_err() {
                            break;
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "unreadable message on an MCP SSE stream"),
                }
            }
        });
        Ok(SseTransport {
            client,
            endpoint,
            incoming,
            reader,
        })
    }
}

impl Transport<RoleClient> for SseTransport {
    type Error = SseError;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), SseError>> + Send + 'static {
        let request = self.client.post(self.endpoint.clone()).json(&item);
        async move {
            let response = request.send().await?;
            if response.status().is_success() {
                Ok(())
            } else {
                Err(SseError::Status(response.status()))
            }
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        self.incoming.recv()
    }

    async fn close(&mut self) -> Result<(), SseError> {
        self.reader.abort();
        Ok(())
    }
}

impl Drop for SseTransport {
    fn drop(&mut self) {
        // Ends the GET stream, which is how a legacy SSE session is closed.
        self.reader.abort();
    }
}
