//! Recognising a sandbox denial in a failed command's output. Landlock refuses with `EACCES`
//! (and `EXDEV` for cross-directory renames), which tools print as ordinary errors, so this is
//! a heuristic: a line with a permission-style error counts as a denial unless every absolute
//! path it names lies inside a writable root (then the sandbox allowed it, and something else
//! — file modes, a read-only mount — refused). A line naming no absolute path counts: the
//! command may have been writing a relative path outside the roots.

use std::path::{Path, PathBuf};

/// The `strerror` texts of `EACCES`, `EPERM`, `EROFS` and `EXDEV` as tools print them.
const MARKERS: &[&str] = &[
    "Permission denied",
    "Operation not permitted",
    "Read-only file system",
    "Invalid cross-device link",
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
}
