//! Attachment limits: local files a prompt links to are read only when they are regular files
//! (a FIFO or device would block a thread forever, a directory is not content), and never more
//! than a cap. The cap on what a stored prompt keeps is applied in `user_content.rs`.

use std::io::Read;
use std::path::Path;

/// Largest embedded payload (text, base64 blob or image data) kept in a stored prompt or sent
/// to the model as an image; larger ones are stored as a reference.
pub const STORED_BLOCK_CAP: usize = 4 * 1024 * 1024;

/// Reads at most `cap` bytes of `path`, refusing anything but a regular file. Returns the bytes
/// and the file's full size.
pub fn read_regular_capped(path: &Path, cap: usize) -> std::io::Result<(Vec<u8>, u64)> {
    // Checked before opening: opening a FIFO for reading blocks until a writer appears.
    refuse_special(&std::fs::metadata(path)?)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // The path may have been swapped for a FIFO since the check: never block on open.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    refuse_special(&meta)?;
    let mut bytes = Vec::new();
    file.take(cap as u64).read_to_end(&mut bytes)?;
    Ok((bytes, meta.len()))
}

fn refuse_special(meta: &std::fs::Metadata) -> std::io::Result<()> {
    if meta.is_file() {
        return Ok(());
    }
    let kind = if meta.is_dir() {
        "a directory"
    } else {
        special_kind(meta)
    };
    Err(std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("not a regular file ({kind}); only regular files can be attached"),
    ))
}

#[cfg(unix)]
fn special_kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_fifo() {
        "a named pipe"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_kind(_meta: &std::fs::Metadata) -> &'static str {
    "a special file"
}

// Unix only: the test makes a FIFO.
#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn fifos_directories_and_devices_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo has no other preconditions.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        for (path, kind) in [
            (fifo.as_path(), "a named pipe"),
            (dir.path(), "a directory"),
            (Path::new("/dev/zero"), "a device"),
        ] {
            let err = read_regular_capped(path, 16).unwrap_err().to_string();
            assert!(err.contains(kind), "{}: {err}", path.display());
        }
        let file = dir.path().join("f.txt");
        std::fs::write(&file, "0123456789").unwrap();
        assert_eq!(read_regular_capped(&file, 4).unwrap(), (b"0123".to_vec(), 10));
    }
}
