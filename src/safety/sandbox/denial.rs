//! Recognising a sandbox denial in a failed command's output: a blocked write
//! ([`looks_denied`]) or a command that needed the network it does not have ([`looks_offline`]). Landlock refuses with `EACCES`
//! (and `EXDEV` for cross-directory renames), which tools print as ordinary errors, so this is
//! a heuristic: a line with a permission-style error counts as a denial unless every absolute
//! path it names lies inside a writable root (then the sandbox allowed it, and something else
//! — file modes, a read-only mount — refused). A line naming no absolute path counts: the
//! command may have been writing a relative path outside the roots.

use std::path::{Path, PathBuf};

/// The `strerror` texts of `EACCES`, `EPERM`, `EROFS`, `EXDEV` and `EBUSY` (renaming a
/// read-only mount point) as tools print them.
const MARKERS: &[&str] = &[
    "Permission denied",
    "Operation not permitted",
    "Read-only file system",
    "Invalid cross-device link",
    "Device or resource busy",
];

/// True when `output` (of a sandboxed command that exited non-zero) shows a write the sandbox
/// blocked, given the command's writable roots.
pub fn looks_denied(output: &str, writable: &[PathBuf]) -> bool {
    output
        .lines()
        .filter(|line| MARKERS.iter().any(|m| line.contains(m)))
        .any(|line| !names_only_writable_paths(line, writable))
}

fn names_only_writable_paths(line: &str, writable: &[PathBuf]) -> bool {
    let mut paths = line
        .split(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '`' | '‘' | '’' | '(' | ')'))
        .map(|token| token.trim_end_matches([':', ',', ';']))
        .filter(|token| token.starts_with('/'))
        .peekable();
    paths.peek().is_some() && paths.all(|path| writable.iter().any(|root| Path::new(path).starts_with(root)))
}

/// How tools report a network they cannot reach (DNS, routing, refused sockets), as curl,
/// git, npm, pip, cargo, go, ssh and the C library print it.
const OFFLINE_MARKERS: &[&str] = &[
    "could not resolve host",
    "couldn't resolve host",
    "could not resolve hostname",
    "temporary failure in name resolution",
    "name or service not known",
    "no address associated with hostname",
    "failed to lookup address",
    "network is unreachable",
    "network unreachable",
    "enetunreach",
    "eai_again",
    "enotfound",
    "getaddrinfo",
    "dns error",
    "failed to establish a new connection",
    "newconnectionerror",
    "spurious network error",
    "unable to access 'http",
    "socket: operation not permitted",
    "dial tcp",
];

/// True when `output` (of a command that exited non-zero without the network) reads like it
/// failed for want of the network.
pub fn looks_offline(output: &str) -> bool {
    let lower = output.to_ascii_lowercase();
    OFFLINE_MARKERS.iter().any(|m| lower.contains(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roots() -> Vec<PathBuf> {
        vec!["/work/project".into(), "/tmp".into()]
    }

    #[test]
    fn a_write_outside_the_roots_is_a_denial() {
        assert!(looks_denied(
            "touch: cannot touch '/etc/x': Permission denied",
            &roots()
        ));
        assert!(looks_denied("bash: /home/u/.bashrc: Read-only file system", &roots()));
        assert!(looks_denied(
            "mv: cannot move 'a' to '/opt/b': Invalid cross-device link",
            &roots()
        ));
        // A relative path could be anywhere.
        assert!(looks_denied(
            "mkdir: cannot create directory ‘build’: Permission denied",
            &roots()
        ));
    }

    #[test]
    fn errors_inside_the_roots_or_unrelated_output_are_not() {
        assert!(!looks_denied(
            "touch: cannot touch '/work/project/locked/x': Permission denied",
            &roots()
        ));
        assert!(!looks_denied("error: test failed\nexit 1", &roots()));
        assert!(!looks_denied("", &roots()));
    }

    #[test]
    fn offline_failures_are_recognised() {
        assert!(looks_offline("curl: (6) Could not resolve host: example.com"));
        assert!(looks_offline(
            "fatal: unable to access 'https://github.com/x/y/': Could not resolve host"
        ));
        assert!(looks_offline("npm ERR! code EAI_AGAIN"));
        assert!(looks_offline("warning: spurious network error (3 tries remaining)"));
        assert!(!looks_offline("error[E0425]: cannot find value `x` in this scope"));
    }
}
