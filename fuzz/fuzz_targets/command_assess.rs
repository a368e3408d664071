//! The safety layer's command analyser on any command line: it must never panic or hang, and
//! never call a command both read-only and destructive.
#![no_main]

use std::path::Path;

use hermes_acp::safety::command::{CommandContext, Risk, assess};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let command = String::from_utf8_lossy(data);
    let exists = |p: &Path| p.starts_with("/work");
    let cx = CommandContext {
        cwd: Path::new("/work/project"),
        home: Path::new("/home/user"),
        own_pids: &[1234],
        exists: &exists,
    };
    let assessment = assess(&command, &cx);
    // A command that is read-only cannot be destructive.
    assert!(!(assessment.read_only && assessment.risk >= Risk::Destructive));
});
