//! The Anthropic SSE event parser across a whole stream: each input line is one event,
//! `name<TAB>data` (no tab: data of an unnamed event).
#![no_main]

use hermes_acp::llm::anthropic::sse::SseParser;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parser = SseParser::new("fuzz", "KEY");
    let mut out = Vec::new();
    for line in text.lines() {
        let (event, data) = line.split_once('\t').unwrap_or(("", line));
        let _ = parser.feed(event, data, &mut out);
    }
    let _ = parser.is_complete();
});
