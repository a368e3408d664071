//! The V4A patch parser (and its header scan) on any text.
#![no_main]

use hermes_acp::tools::patch::v4a;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = v4a::parse(&text);
    let _ = v4a::header_paths(&text);
});
