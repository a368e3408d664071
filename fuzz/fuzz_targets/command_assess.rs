//! The safety layer's command analyser on any command line: it must never panic or hang, and
//! never call a command both read-only and destructive.
#![no_main]

use std::path::{Path, PathBuf};

use hermes_acp::safety::command::{CommandContext, Risk, assess};
use hermes_acp::safety::paths::SensitiveRoots;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let command = String::from_utf8_lossy(data);
    let exists = |p: &Path| p.starts_with("/work");
    // Every script the command names holds the command itself: scripts are analysed too.
    let read_file = |_: &Path| Some(command.to_string());
    let roots = [PathBuf::from("/work/project")];
    let sensitive = SensitiveRoots {
        home: PathBuf::from("/home/user"),
        hermes_home: PathBuf::from("/home/user/.hermes"),
    };
    let cx = CommandContext {
        cwd: Path::new("/work/project"),
        home: Path::new("/home/user"),
        own_pids: &[1234],
        exists: &exists,
        roots: &roots,
        temp: Path::new("/tmp"),
        sensitive: &sensitive,
        read_file: &read_file,
    };
    let assessment = assess(&command, &cx);
    // A command that is read-only cannot be destructive, and read-only implies harmless.
    assert!(!(assessment.read_only && assessment.risk >= Risk::Destructive));
    assert!(!assessment.read_only || assessment.harmless);
    assert!(!assessment.harmless || assessment.risk == Risk::Safe);
});
