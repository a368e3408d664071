//! Attachment limits: local files a prompt links to are read only when they are regular files
//! (a FIFO or device would block a thread forever, a directory is not content), and never more
//! than a cap; prompt blocks kept for replay are stored without oversized payloads (a reference
//! to the resource replaces its bytes), so no replayed frame can approach the SDK frame limit.

use std::io::Read;
use std::path::Path;

use agent_client_protocol::v1::schema::{ContentBlock, EmbeddedResourceResource, ResourceLink};

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

/// The prompt blocks as stored for replay: embedded resources and images over
/// [`STORED_BLOCK_CAP`] become resource links carrying their URI, name and size.
pub fn blocks_for_storage(blocks: &[ContentBlock]) -> Vec<ContentBlock> {
    blocks.iter().map(block_for_storage).collect()
}

fn block_for_storage(block: &ContentBlock) -> ContentBlock {
    match block {
        ContentBlock::Resource(res) => {
            let (uri, mime, len) = match &res.resource {
                EmbeddedResourceResource::TextResourceContents(t) => (&t.uri, t.mime_type.clone(), t.text.len()),
                EmbeddedResourceResource::BlobResourceContents(b) => (&b.uri, b.mime_type.clone(), b.blob.len()),
                _ => return block.clone(),
            };
            if len <= STORED_BLOCK_CAP {
                return block.clone();
            }
            reference(uri, mime, len)
        }
        ContentBlock::Image(img) if img.data.len() > STORED_BLOCK_CAP => {
            let uri = img.uri.clone().unwrap_or_else(|| "image".into());
            reference(&uri, Some(img.mime_type.clone()), img.data.len())
        }
        other => other.clone(),
    }
}

fn reference(uri: &str, mime: Option<String>, len: usize) -> ContentBlock {
    let name = uri.trim_end_matches('/').rsplit('/').next().unwrap_or(uri).to_string();
    let note = format!("{len} bytes attached; too large to keep in the session history");
    ContentBlock::ResourceLink(
        ResourceLink::new(name, uri)
            .mime_type(mime)
            .size(i64::try_from(len).ok())
            .description(note),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent_client_protocol::v1::schema::{EmbeddedResource, TextResourceContents};

    #[cfg(unix)]
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

    #[test]
    fn oversized_embedded_resources_are_stored_as_references() {
        let small = ContentBlock::Resource(EmbeddedResource::new(EmbeddedResourceResource::TextResourceContents(
            TextResourceContents::new("abc", "file:///p/small.txt"),
        )));
        let big_text = "x".repeat(STORED_BLOCK_CAP + 1);
        let big = ContentBlock::Resource(EmbeddedResource::new(EmbeddedResourceResource::TextResourceContents(
            TextResourceContents::new(big_text, "file:///p/big.log"),
        )));
        let stored = blocks_for_storage(&[small.clone(), big]);
        assert_eq!(stored[0], small);
        let ContentBlock::ResourceLink(link) = &stored[1] else {
            panic!("{:?}", stored[1])
        };
        assert_eq!(
            (link.name.as_str(), link.uri.as_str()),
            ("big.log", "file:///p/big.log")
        );
        assert_eq!(link.size, Some(STORED_BLOCK_CAP as i64 + 1));
    }
}
