//! The OpenAI-compatible stream chunk parser on any text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = hermes_acp::llm::openai::parse_chunk(&text, "fuzz");
});
