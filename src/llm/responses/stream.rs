//! Driving the parser over a live response (`event_stream`: a transport error or an end before
//! the terminal event is an error, never a complete answer).

use eventsource_stream::Event;
use futures::{Stream, StreamExt, stream};

use super::sse::ResponsesParser;
use crate::llm::{EventStream, LlmError};

/// Drives `parser` over a response's SSE events. A transport error or an end before the
/// terminal event is an error: a partial answer is never passed off as complete.
pub fn event_stream<S>(parser: ResponsesParser, events: S) -> EventStream
where
    S: Stream<Item = Result<Event, String>> + Send + 'static,
{
    let state = (Box::pin(events), parser, Vec::new().into_iter(), false);
    stream::unfold(state, |(mut events, mut parser, mut pending, mut done)| async move {
        loop {
            if let Some(event) = pending.next() {
                return Some((Ok(event), (events, parser, pending, done)));
            }
            if done {
                return None;
            }
            let error = match events.next().await {
                Some(Ok(event)) => {
                    let mut out = Vec::new();
                    match parser.feed(&event.event, &event.data, &mut out) {
                        Ok(()) => {
                            done = parser.is_complete();
                            pending = out.into_iter();
                            continue;
                        }
                        Err(error) => error,
                    }
                }
                Some(Err(message)) => LlmError::Connect {
                    provider: parser.provider.clone(),
                    url: String::new(),
                    message,
                },
                None => LlmError::Truncated {
                    provider: parser.provider.clone(),
                },
            };
            done = true;
            return Some((Err(error), (events, parser, pending, done)));
        }
    })
    .boxed()
}
