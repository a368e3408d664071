//! The patch tool's fuzzy matcher: content, old and new strings split from the input at NULs.
#![no_main]

use hermes_acp::runtime::fuzzy::find_and_replace;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.splitn(3, '\0');
    let (Some(content), Some(old), Some(new)) = (parts.next(), parts.next(), parts.next()) else { return };
    let replace_all = content.len() % 2 == 0;
    if let Ok(result) = find_and_replace(content, old, new, replace_all) {
        assert!(result.count >= 1);
    }
});
