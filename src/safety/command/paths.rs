//! Lexical path resolution against the session cwd (never the process cwd) and the few
//! special paths the classification cares about.

use std::path::{Component, Path, PathBuf};

/// `text` as an absolute path: `~` is home, relative paths join `cwd`, `.`/`..` collapse
/// without touching the file system.
pub(super) fn resolve(text: &str, cwd: &Path, home: &Path) -> PathBuf {
    let joined = if text == "~" {
        home.to_path_buf()
    } else if let Some(rest) = text.strip_prefix("~/") {
        home.join(rest)
    } else {
        cwd.join(text)
    };
    normalize(&joined)
}

fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    if out.as_os_str().is_empty() {
        out.push("/");
    }
    out
}

/// Redirection and copy targets that never land in a file.
pub(super) fn is_stream(text: &str) -> bool {
    matches!(text, "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty" | "-")
        || text
            .strip_prefix("/dev/fd/")
            .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()))
}

/// bash's `/dev/tcp/HOST/PORT` and `/dev/udp/…`: a redirect there opens a connection.
pub(super) fn is_network_device(text: &str) -> bool {
    text.starts_with("/dev/tcp/") || text.starts_with("/dev/udp/")
}

/// Raw block devices (SATA/SCSI/USB, NVMe, IDE, eMMC/SD, virtio, Xen, device-mapper).
pub(super) fn is_block_device(text: &str) -> bool {
    let Some(name) = text.strip_prefix("/dev/") else {
        return false;
    };
    [
        "sd", "nvme", "hd", "mmcblk", "vd", "xvd", "dm-", "mapper/", "disk/", "loop",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_lexically() {
        let (cwd, home) = (Path::new("/p/q"), Path::new("/h"));
        assert_eq!(resolve("a/../b", cwd, home), PathBuf::from("/p/q/b"));
        assert_eq!(resolve("../../..", cwd, home), PathBuf::from("/"));
        assert_eq!(resolve("~/x", cwd, home), PathBuf::from("/h/x"));
        assert_eq!(resolve("//./", cwd, home), PathBuf::from("/"));
    }
}
