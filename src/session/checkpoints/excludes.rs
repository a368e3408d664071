//! What a checkpoint leaves out, after Hermes' checkpoint manager: dependency and build output,
//! caches, virtualenvs, other version-control folders, compiled binaries, media and archives,
//! secrets (`.env*`), OS junk and logs; files over `MAX_FILE_BYTES`; and folders too broad to
//! snapshot (`/`, the home directory) or with more than `MAX_FILES` files. The project's own
//! `.gitignore` files apply on top when staging (git reads them from the work tree).

use std::path::Path;

/// Written to the shadow repository's `info/exclude`.
pub const EXCLUDES: &[&str] = &[
    "node_modules/",
    "dist/",
    "build/",
    "target/",
    "out/",
    ".next/",
    ".nuxt/",
    "__pycache__/",
    "*.pyc",
    "*.pyo",
    ".cache/",
    ".pytest_cache/",
    ".mypy_cache/",
    ".ruff_cache/",
    "coverage/",
    ".coverage",
    ".venv/",
    "venv/",
    "env/",
    ".git/",
    ".hg/",
    ".svn/",
    ".worktrees/",
    "*.so",
    "*.dylib",
    "*.dll",
    "*.o",
    "*.a",
    "*.jar",
    "*.class",
    "*.exe",
    "*.obj",
    "*.mp4",
    "*.mov",
    "*.mkv",
    "*.webm",
    "*.zip",
    "*.tar",
    "*.tar.gz",
    "*.tgz",
    "*.7z",
    "*.rar",
    "*.iso",
    ".env",
    ".env.*",
    ".DS_Store",
    "Thumbs.db",
    "*.log",
];

/// Written to `info/attributes`, which outranks the project's `.gitattributes`: content is
/// stored exactly as it is on disk (no end-of-line conversion, no filters), so a restore is
/// byte-identical.
pub const ATTRIBUTES: &str = "* -text -filter -ident -working-tree-encoding\n";

/// Folders with more files than this are not snapshotted (Hermes: 50 000).
pub const MAX_FILES: usize = 50_000;

/// Files larger than this are left out of a snapshot (Hermes: 10 MB).
pub const MAX_FILE_BYTES: u64 = 10 * 1024 * 1024;

/// Directory names the file count skips (the same folders `EXCLUDES` leaves out).
fn skipped_dir(name: &str) -> bool {
    EXCLUDES.iter().filter_map(|e| e.strip_suffix('/')).any(|d| d == name)
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

/// Counts the files under `root` outside the excluded folders, stopping once past `limit`. A
/// plain directory walk (like Hermes' estimate): the project's ignore files are not parsed, so
/// the guard is quick and errs towards "too big". Symlinked folders are not followed.
pub fn count_files(root: &Path, limit: usize) -> usize {
    let mut count = 0;
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if !is_dir {
                count += 1;
                if count > limit {
                    return count;
                }
            } else if !entry.file_name().to_str().is_some_and(skipped_dir) {
                pending.push(entry.path());
            }
        }
    }
    count
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
    fn the_count_skips_excluded_folders_and_stops_at_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["src", "node_modules/x", "target/debug", ".git/objects", "gen"] {
            std::fs::create_dir_all(dir.path().join(sub)).unwrap();
            for i in 0..3 {
                std::fs::write(dir.path().join(sub).join(format!("f{i}")), "x").unwrap();
            }
        }
        // src/ and gen/ (3 each).
        assert_eq!(count_files(dir.path(), 100), 6);
        assert_eq!(count_files(dir.path(), 2), 3);
    }
}
