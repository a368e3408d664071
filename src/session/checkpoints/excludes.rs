//! What a checkpoint leaves out, and the caps. The rule: **only regenerable output is left
//! out, and only by folder**. A folder whose name says it holds dependencies, build output or
//! caches (`REGENERABLE`) is skipped — unless the git repository it sits in tracks a file
//! inside it: then it is source (a committed `dist/`, a `build/` of scripts) and is snapshotted
//! like any other folder. `env/` counts as a virtualenv only when it holds `pyvenv.cfg`. No
//! file is left out by its name: ignored files (`.env*`, local config, databases, logs,
//! archives) are precious and are snapshotted; the project's `.gitignore` decides nothing.
//! Metadata of other version-control systems (`.hg`, `.svn`, …) is not snapshotted and is
//! reported as not covered. Files over `MAX_FILE_BYTES` and past `MAX_FILES` are left out and
//! reported; folders too broad to snapshot (`/`, the home directory) are refused.

use std::path::Path;

/// Folder names of dependency trees, build output and caches: whatever a build or an install
/// regenerates. Skipped unless tracked (see the module header).
pub const REGENERABLE: &[&str] = &[
    "node_modules",
    "bower_components",
    "target",
    "build",
    "dist",
    "out",
    ".next",
    ".nuxt",
    ".svelte-kit",
    ".turbo",
    ".parcel-cache",
    ".gradle",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".tox",
    ".nox",
    ".venv",
    "venv",
    ".cache",
    "coverage",
    ".terraform",
];

/// A folder of this name is a virtualenv (regenerable) only when it holds `pyvenv.cfg`.
pub const VIRTUALENV_IF_MARKED: &str = "env";

/// Metadata folders of other version-control systems: never snapshotted, always reported.
pub const FOREIGN_VCS: &[&str] = &[".hg", ".svn", ".bzr", "_darcs", ".jj", ".pijul", ".fossil"];

/// Written to `info/attributes`, which outranks the project's `.gitattributes`: content is
/// stored exactly as it is on disk (no end-of-line conversion, no filters), so a restore is
/// byte-identical.
pub const ATTRIBUTES: &str = "* -text -filter -ident -working-tree-encoding\n";

/// At most this many files are snapshotted (Hermes: 50 000); the rest are reported.
pub const MAX_FILES: usize = 50_000;

/// Files larger than this are left out of a snapshot and reported (Hermes: 10 MB).
pub const MAX_FILE_BYTES: u64 = 10 * 1024 * 1024;

/// How many left-out paths a `Coverage` lists.
pub const MAX_LISTED: usize = 100;

/// The caps a snapshot applies (the constants above; smaller in tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_files: usize,
    pub max_file_bytes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_files: MAX_FILES,
            max_file_bytes: MAX_FILE_BYTES,
        }
    }
}

/// Whether a folder called `name` (in `dir`'s listing) is regenerable by name alone; the
/// tracked-files exception is the caller's.
pub fn regenerable_name(name: &[u8], dir: &Path) -> bool {
    if REGENERABLE.iter().any(|r| r.as_bytes() == name) {
        return true;
    }
    name == VIRTUALENV_IF_MARKED.as_bytes() && dir.join(VIRTUALENV_IF_MARKED).join("pyvenv.cfg").is_file()
}

/// Whether `name` is another version-control system's metadata folder.
pub fn foreign_vcs(name: &[u8]) -> bool {
    FOREIGN_VCS.iter().any(|f| f.as_bytes() == name)
}

/// Why `cwd` cannot be snapshotted at all, if so: it is `/` or the home directory.
pub fn too_broad(cwd: &Path, home: Option<&Path>) -> Option<String> {
    if cwd.parent().is_none() {
        return Some("the session folder is the file-system root".into());
    }
    if home.is_some_and(|h| h == cwd) {
        return Some("the session folder is the home directory".into());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_and_home_are_too_broad_projects_are_not() {
        assert!(too_broad(Path::new("/"), None).is_some());
        assert!(too_broad(Path::new("/home/u"), Some(Path::new("/home/u"))).is_some());
        assert!(too_broad(Path::new("/home/u/p"), Some(Path::new("/home/u"))).is_none());
    }

    #[test]
    fn env_is_a_virtualenv_only_with_its_marker() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("env")).unwrap();
        assert!(!regenerable_name(b"env", dir.path()));
        std::fs::write(dir.path().join("env/pyvenv.cfg"), "home = /usr\n").unwrap();
        assert!(regenerable_name(b"env", dir.path()));
        assert!(regenerable_name(b"node_modules", dir.path()));
        assert!(!regenerable_name(b"src", dir.path()));
        assert!(foreign_vcs(b".hg") && !foreign_vcs(b".git"));
    }
}
