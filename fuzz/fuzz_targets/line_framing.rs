//! Line framing and validation of stdin: any bytes, any cap. Every line the framer yields must
//! respect the cap, and every verdict must be sane (forwarded lines are JSON objects, replies
//! are one JSON line).
#![no_main]

use hermes_acp::acp::wire::validate::{Verdict, classify};
use hermes_acp::acp::wire::{Frame, LineReader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&cap, input)) = data.split_first() else { return };
    let cap = usize::from(cap) * 4;
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    runtime.block_on(async {
        let reader = tokio::io::BufReader::with_capacity(7, input);
        let mut lines = LineReader::new(reader, cap);
        while let Some(frame) = lines.next().await.unwrap() {
            match frame {
                Frame::Line(line) => {
                    assert!(line.len() <= cap && !line.contains(&b'\n'));
                    match classify(line) {
                        Verdict::Forward(text) => {
                            assert!(serde_json_value_is_object(&text));
                        }
                        Verdict::Reply(reply) => assert!(!reply.contains('\n')),
                        Verdict::Ignore(_) => {}
                    }
                }
                Frame::TooLong { bytes } => assert!(bytes > cap as u64),
            }
        }
    });
});

fn serde_json_value_is_object(text: &str) -> bool {
    text.trim_start().starts_with('{')
}
