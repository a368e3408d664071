//! `read_bounded`, what production reads scripts with: regular text files up to the limit,
//! never a pipe (which would block), a directory, a larger file or a binary.

use super::super::{MAX_SCRIPT_BYTES, read_bounded};

#[test]
fn only_regular_text_files_up_to_the_limit_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("x.sh");
    std::fs::write(&script, "rm -rf dir\n").unwrap();
    assert_eq!(read_bounded(&script).as_deref(), Some("rm -rf dir\n"));
    assert_eq!(read_bounded(dir.path()), None);
    assert_eq!(read_bounded(&dir.path().join("missing")), None);
    let big = dir.path().join("big.sh");
    std::fs::write(&big, "#".repeat(MAX_SCRIPT_BYTES + 1)).unwrap();
    assert_eq!(read_bounded(&big), None);
    let binary = dir.path().join("app");
    std::fs::write(&binary, [0x7f, b'E', b'L', b'F', 0xff, 0xfe]).unwrap();
    assert_eq!(read_bounded(&binary), None);
}

#[cfg(unix)]
#[test]
fn a_named_pipe_is_not_opened() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo only creates the node.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    // Opening it for reading would wait for a writer forever.
    assert_eq!(read_bounded(&fifo), None);
}
