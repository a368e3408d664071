//! Path guards of the tools that read files (`read_file`, `search_files`, `vision`'s local
//! images): device paths that would block or never reach EOF, binary extensions, the
//! binary-content sniff, and the Hermes read denylist (credential stores under HERMES_HOME, the
//! skills hub cache, project `.env` files). The denylist is defence in depth, not a security
//! boundary: the terminal can still read them. Here, not in one of those tools, so that no tool
//! imports another.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::runtime::workspace::{home_dir, normalize};

/// Paths whose reads hang the process (infinite output or waiting for input).
const BLOCKED_DEVICE_PATHS: &[&str] = &[
    "/dev/zero",
    "/dev/random",
    "/dev/urandom",
    "/dev/full",
    "/dev/stdin",
    "/dev/tty",
    "/dev/console",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/fd/0",
    "/dev/fd/1",
    "/dev/fd/2",
];

/// `/proc/<pid>/…` leaves that alias stdio or leak secrets / memory layout.
const BLOCKED_PROC_SUFFIXES: &[&str] = &[
    "/fd/0",
    "/fd/1",
    "/fd/2",
    "/environ",
    "/cmdline",
    "/maps",
    "/smaps",
    "/smaps_rollup",
    "/numa_maps",
    "/mem",
    "/auxv",
    "/pagemap",
];

/// Extensions Hermes refuses to read as text (images, media, archives, executables, …).
const BINARY_EXTENSIONS: &[&str] = &[
    ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".ico", ".webp", ".tiff", ".tif", ".mp4", ".mov", ".avi", ".mkv", ".webm",
    ".wmv", ".flv", ".m4v", ".mpeg", ".mpg", ".mp3", ".wav", ".ogg", ".flac", ".aac", ".m4a", ".wma", ".aiff", ".opus",
    ".zip", ".tar", ".gz", ".bz2", ".7z", ".rar", ".xz", ".z", ".tgz", ".iso", ".exe", ".dll", ".so", ".dylib", ".bin",
    ".o", ".a", ".obj", ".lib", ".app", ".msi", ".deb", ".rpm", ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx",
    ".odt", ".ods", ".odp", ".ttf", ".otf", ".woff", ".woff2", ".eot", ".pyc", ".pyo", ".class", ".jar", ".war",
    ".ear", ".node", ".wasm", ".rlib", ".sqlite", ".sqlite3", ".db", ".mdb", ".idx", ".psd", ".ai", ".eps", ".sketch",
    ".fig", ".xd", ".blend", ".3ds", ".max", ".swf", ".fla", ".lockb", ".dat", ".data",
];

/// Project-local environment files that routinely hold credentials.
const BLOCKED_ENV_BASENAMES: &[&str] = &[
    ".env",
    ".env.local",
    ".env.development",
    ".env.production",
    ".env.test",
    ".env.staging",
    ".envrc",
];

/// Credential stores directly under HERMES_HOME (or the Hermes root).
const CREDENTIAL_FILES: &[&str] = &[
    "auth.json",
    "auth.lock",
    ".anthropic_oauth.json",
    ".env",
    "webhook_subscriptions.json",
    "auth/google_oauth.json",
    "cache/bws_cache.json",
];

const DEFENCE_NOTE: &str = "(Defense-in-depth — not a security boundary; the terminal tool can still bypass.)";

fn is_blocked_device_literal(path: &Path) -> bool {
    let Some(text) = path.to_str() else {
        return false;
    };
    if BLOCKED_DEVICE_PATHS.contains(&text) {
        return true;
    }
    text.starts_with("/proc/") && BLOCKED_PROC_SUFFIXES.iter().any(|s| text.ends_with(s))
}

/// True when reading `resolved` would hang or leak: the literal path, every symlink hop and the
/// canonical target are checked, so an alias (`/dev/stdin` → `/proc/self/fd/0`) cannot slip by.
/// Only `readlink`/`realpath` are used: nothing is opened.
pub(crate) fn is_blocked_device(resolved: &Path) -> bool {
    if is_blocked_device_literal(resolved) {
        return true;
    }
    let mut current = resolved.to_path_buf();
    let mut seen = HashSet::new();
    for _ in 0..20 {
        let Ok(target) = std::fs::read_link(&current) else {
            break;
        };
        let target = if target.is_absolute() {
            target
        } else {
            current.parent().unwrap_or(Path::new("/")).join(target)
        };
        let target = normalize(&target);
        if is_blocked_device_literal(&target) {
            return true;
        }
        if !seen.insert(target.clone()) {
            break;
        }
        current = target;
    }
    std::fs::canonicalize(resolved).is_ok_and(|real| is_blocked_device_literal(&real))
}

/// The lowercase extension (with its dot) when it names a binary format, else `None`.
/// Mirrors Hermes: the text after the last `.` of the file name.
pub(crate) fn binary_extension(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_string_lossy().to_lowercase();
    let dot = name.rfind('.')?;
    let ext = &name[dot..];
    BINARY_EXTENSIONS.contains(&ext).then(|| ext.to_string())
}

/// Byte-level sniff of a file's first bytes: a NUL, or more than 30 % control characters.
pub(crate) fn looks_binary(sample: &[u8]) -> bool {
    if sample.is_empty() {
        return false;
    }
    if sample.contains(&0) {
        return true;
    }
    let text = String::from_utf8_lossy(sample);
    let mut total = 0usize;
    let mut control = 0usize;
    for c in text.chars().take(1000) {
        total += 1;
        if (c as u32) < 32 && !matches!(c, '\n' | '\r' | '\t') {
            control += 1;
        }
    }
    total > 0 && control * 100 > total * 30
}

/// HERMES_HOME (profile-aware) plus the Hermes root, raw and canonical, deduplicated.
/// `hermes_home` is the configured one (`ToolServices::hermes_home`); `~/.hermes` without it.
fn hermes_dirs(hermes_home: Option<&Path>) -> Vec<PathBuf> {
    let home = hermes_home.map_or_else(|| home_dir().join(".hermes"), Path::to_path_buf);
    let mut dirs = vec![home.clone()];
    // A profile lives at <root>/profiles/<name>: its root's credentials are blocked too.
    if let Some(parent) = home.parent()
        && parent.file_name().is_some_and(|n| n == "profiles")
        && let Some(root) = parent.parent()
    {
        dirs.push(root.to_path_buf());
    }
    dirs.push(home_dir().join(".hermes"));
    let mut out: Vec<PathBuf> = Vec::new();
    for dir in dirs {
        for candidate in [normalize(&dir), std::fs::canonicalize(&dir).unwrap_or_default()] {
            if !candidate.as_os_str().is_empty() && !out.contains(&candidate) {
                out.push(candidate);
            }
        }
    }
    out
}

/// Why a read of `resolved` is refused, or `None`. `shown` is the path named in the message.
pub(crate) fn read_block_error(shown: &str, resolved: &Path, hermes_home: Option<&Path>) -> Option<String> {
    let real = std::fs::canonicalize(resolved).unwrap_or_else(|_| normalize(resolved));
    DenyList::new(hermes_home).check(shown, &real)
}

/// The read denylist, computed once so a search can test thousands of paths cheaply.
pub(crate) struct DenyList {
    dirs: Vec<PathBuf>,
}

impl DenyList {
    pub(crate) fn new(hermes_home: Option<&Path>) -> DenyList {
        DenyList {
            dirs: hermes_dirs(hermes_home),
        }
    }

    /// Checks a path lexically (no I/O): callers pass a canonical or walker-produced path.
    pub(crate) fn check(&self, shown: &str, path: &Path) -> Option<String> {
        for dir in &self.dirs {
            if path.starts_with(dir.join("skills").join(".hub")) {
                return Some(format!(
                    "Access denied: {shown} is an internal Hermes cache file and cannot be read \
                     directly to prevent prompt injection. Use the skills_list or skill_view \
                     tools instead."
                ));
            }
        }
        for dir in &self.dirs {
            if CREDENTIAL_FILES.iter().any(|name| path == dir.join(name)) {
                return Some(format!(
                    "Access denied: {shown} is a Hermes credential store and cannot be read \
                     directly. Provider tools consume these credentials through internal \
                     channels. {DEFENCE_NOTE}"
                ));
            }
            let tokens = dir.join("mcp-tokens");
            if path == tokens {
                return Some(format!(
                    "Access denied: {shown} is the Hermes MCP token directory and cannot be read \
                     directly. {DEFENCE_NOTE}"
                ));
            }
            if path.starts_with(&tokens) {
                return Some(format!(
                    "Access denied: {shown} is a Hermes MCP token file and cannot be read \
                     directly. {DEFENCE_NOTE}"
                ));
            }
        }
        let name = path.file_name()?.to_string_lossy().to_lowercase();
        BLOCKED_ENV_BASENAMES.contains(&name.as_str()).then(|| {
            format!(
                "Access denied: {shown} is a secret-bearing environment file and cannot be read \
                 to prevent credential leakage. If you need to check the file structure, read \
                 .env.example instead. {DEFENCE_NOTE}"
            )
        })
    }

    /// Cheap pre-filter for walkers: could `path` be denied at all?
    pub(crate) fn may_block(&self, path: &Path) -> bool {
        let env_like = path.file_name().is_some_and(|n| {
            let bytes = n.as_encoded_bytes();
            bytes.len() >= 4 && bytes[..4].eq_ignore_ascii_case(b".env")
        });
        env_like || self.dirs.iter().any(|d| path.starts_with(d))
    }
}
