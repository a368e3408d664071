//! The structural half of the skills guard: too many files, too large in total or per file,
//! binaries, executable bits on non-scripts, and symlinks that leave the skill folder.

use std::path::{Path, PathBuf};

use super::{
    Finding, MAX_FILE_COUNT, MAX_SINGLE_FILE_KB, MAX_TOTAL_SIZE_KB, SCRIPT_EXTENSIONS, SUSPICIOUS_BINARY_EXTENSIONS,
    Severity, extension, finding,
};

/// Structural findings for the files (and symlinks) of `dir`.
pub fn check(dir: &Path, files: &[PathBuf]) -> Vec<Finding> {
    let root = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let mut findings = Vec::new();
    let mut total: u64 = 0;
    for path in files {
        let rel = path.strip_prefix(dir).unwrap_or(path).to_string_lossy().into_owned();
        let Ok(meta) = std::fs::symlink_metadata(path) else {
            continue;
        };
        if meta.file_type().is_symlink() {
            match path.canonicalize() {
                Ok(target) if !target.starts_with(&root) => findings.push(finding(
                    "symlink_escape",
                    Severity::Critical,
                    "traversal",
                    &rel,
                    0,
                    format!("symlink -> {}", target.display()),
                    "symlink points outside the skill directory",
                )),
                Ok(_) => {}
                Err(_) => findings.push(finding(
                    "broken_symlink",
                    Severity::Medium,
                    "traversal",
                    &rel,
                    0,
                    "broken symlink".into(),
                    "broken or circular symlink",
                )),
            }
            continue;
        }
        let size = meta.len();
        total += size;
        if size > MAX_SINGLE_FILE_KB * 1024 {
            findings.push(finding(
                "oversized_file",
                Severity::Medium,
                "structural",
                &rel,
                0,
                format!("{}KB", size / 1024),
                &format!("file is {}KB (limit: {MAX_SINGLE_FILE_KB}KB)", size / 1024),
            ));
        }
        let ext = extension(path);
        if SUSPICIOUS_BINARY_EXTENSIONS.contains(&ext.as_str()) {
            findings.push(finding(
                "binary_file",
                Severity::Critical,
                "structural",
                &rel,
                0,
                format!("binary: .{ext}"),
                &format!("binary/executable file (.{ext}) should not be in a skill"),
            ));
        }
        if !SCRIPT_EXTENSIONS.contains(&ext.as_str()) && executable(&meta) {
            findings.push(finding(
                "unexpected_executable",
                Severity::Medium,
                "structural",
                &rel,
                0,
                "executable bit set".into(),
                "file has executable permission but is not a recognized script type",
            ));
        }
    }
    if files.len() > MAX_FILE_COUNT {
        findings.push(finding(
            "too_many_files",
            Severity::Medium,
            "structural",
            "(directory)",
            0,
            format!("{} files", files.len()),
            &format!("skill has {} files (limit: {MAX_FILE_COUNT})", files.len()),
        ));
    }
    if total > MAX_TOTAL_SIZE_KB * 1024 {
        findings.push(finding(
            "oversized_skill",
            Severity::High,
            "structural",
            "(directory)",
            0,
            format!("{}KB total", total / 1024),
            &format!("skill is {}KB total (limit: {MAX_TOTAL_SIZE_KB}KB)", total / 1024),
        ));
    }
    findings
}

/// Whether any execute bit is set (Unix permissions; elsewhere there is none to check).
#[cfg(unix)]
fn executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn executable(_meta: &std::fs::Metadata) -> bool {
    false
}
