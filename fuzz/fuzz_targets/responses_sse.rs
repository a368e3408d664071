//! The Responses API SSE event parser across a whole stream: each input line is one event's
//! data (the event type is read from its JSON, as the parser does).
#![no_main]

use hermes_acp::llm::responses::ResponsesParser;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parser = ResponsesParser::new("fuzz", "KEY", "http://issuer");
    let mut out = Vec::new();
    for line in text.lines() {
        let _ = parser.feed("", line, &mut out);
    }
    let _ = parser.is_complete();
});
