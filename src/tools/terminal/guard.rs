//! Checks that run before a command and notes added after it, as Hermes has them: the
//! foreground "looks long-lived" guard, the `workdir` character allow-list, and the meaning of
//! exit codes that are informational rather than failures (grep 1 = no matches…).

use std::sync::LazyLock;

use regex::Regex;

static SHELL_LEVEL_BACKGROUND: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?im)(?:^|[;&|]\s*|&&\s*|\|\|\s*|\$\(\s*)(?:nohup|disown|setsid)\b").expect("valid regex")
});
static INLINE_BACKGROUND_AMP: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\s&\s").expect("valid regex"));
static TRAILING_BACKGROUND_AMP: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\s&\s*(?:#.*)?$").expect("valid regex"));
static LONG_LIVED: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        r"(?i)\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:dev|start|serve|watch)\b",
        r"(?i)\bdocker\s+compose\s+up\b",
        r"(?i)\bnext\s+dev\b",
        r"(?i)\bvite(?:\s|$)",
        r"(?i)\bnodemon\b",
        r"(?i)\buvicorn\b",
        r"(?i)\bgunicorn\b",
        r"(?i)\bpython(?:3)?\s+-m\s+http\.server\b",
    ]
    .iter()
    .map(|p| Regex::new(p).expect("valid regex"))
    .collect()
});
static CHAIN_SEPARATOR: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\s*(?:\|\||&&|[|;])\s*").expect("valid regex"));
static SINGLE_QUOTED: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"'[^']*'").expect("valid regex"));
static DOUBLE_QUOTED: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#""(?:[^"\\]|\\.)*""#).expect("valid regex"));
static BACKTICKED: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"`[^`]*`").expect("valid regex"));

/// Advice to use `background=true` when a foreground command would leave a process behind or
/// never finish (a dev server, `nohup …`, a trailing `&`). Quoted text is ignored, so a commit
/// message mentioning `setsid` is fine; `--help`/`--version` invocations always pass.
pub fn foreground_guidance(command: &str) -> Option<&'static str> {
    if looks_like_help_or_version(command) {
        return None;
    }
    let unquoted = strip_quotes(command);
    if SHELL_LEVEL_BACKGROUND.is_match(&unquoted) {
        return Some(
            "Foreground command uses shell-level background wrappers (nohup/disown/setsid). \
             Use terminal(background=true) so Hermes can track the process, then run \
             readiness checks and tests in separate commands.",
        );
    }
    if INLINE_BACKGROUND_AMP.is_match(&unquoted) || TRAILING_BACKGROUND_AMP.is_match(&unquoted) {
        return Some(
            "Foreground command uses '&' backgrounding. Use terminal(background=true) for \
             long-lived processes, then run health checks and tests in follow-up terminal calls.",
        );
    }
    if LONG_LIVED.iter().any(|pattern| pattern.is_match(&unquoted)) {
        return Some(
            "This foreground command appears to start a long-lived server/watch process. Run \
             it with background=true, verify readiness (health endpoint/log signal), then \
             execute tests in a separate command.",
        );
    }
    None
}

/// An error when `workdir` holds anything but `A–Z a–z 0–9 / \ : _ - . ~ space + @ = ,`: the
/// path reaches a shell, so metacharacters are refused outright.
pub fn validate_workdir(workdir: &str) -> Option<String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || "/\\:_-.~ +@=,".contains(c);
    let bad = workdir.chars().find(|&c| !allowed(c))?;
    Some(format!(
        "Blocked: workdir contains disallowed character '{}'. Use a simple filesystem path \
         without shell metacharacters.",
        bad.escape_default()
    ))
}

/// A note for a non-zero exit code that does not mean failure, judged by the last command of a
/// pipeline or chain (the one whose status the shell returns).
pub fn exit_code_meaning(command: &str, exit_code: i64) -> Option<&'static str> {
    if exit_code == 0 {
        return None;
    }
    const NO_MATCH: &str = "No matches found (not an error)";
    const FILES_DIFFER: &str = "Files differ (expected, not an error)";
    const CONDITION_FALSE: &str = "Condition evaluated to false (expected, not an error)";
    let last_segment = CHAIN_SEPARATOR.split(command).last().unwrap_or(command).trim();
    let base = last_segment
        .split_whitespace()
        .find(|word| !word.contains('=') || word.starts_with('-'))?
        .rsplit('/')
        .next()?;
    match (base, exit_code) {
        ("grep" | "egrep" | "fgrep" | "rg" | "ag" | "ack", 1) => Some(NO_MATCH),
        ("diff" | "colordiff", 1) => Some(FILES_DIFFER),
        ("find", 1) => Some("Some directories were inaccessible (partial results may still be valid)"),
        ("test" | "[", 1) => Some(CONDITION_FALSE),
        ("curl", 6) => Some("Could not resolve host"),
        ("curl", 7) => Some("Failed to connect to host"),
        ("curl", 22) => Some("HTTP response code indicated error (e.g. 404, 500)"),
        ("curl", 28) => Some("Operation timed out"),
        ("git", 1) => Some("Non-zero exit (often normal — e.g. 'git diff' returns 1 when files differ)"),
        _ => None,
    }
}

fn looks_like_help_or_version(command: &str) -> bool {
    let normalized = command.to_lowercase().split_whitespace().collect::<Vec<_>>().join(" ");
    normalized.contains(" --help")
        || normalized.ends_with(" -h")
        || normalized.contains(" --version")
        || normalized.ends_with(" -v")
}

fn strip_quotes(command: &str) -> String {
    let without_single = SINGLE_QUOTED.replace_all(command, "''");
    let without_double = DOUBLE_QUOTED.replace_all(&without_single, "\"\"");
    BACKTICKED.replace_all(&without_double, "``").into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_flags_background_wrappers_ampersands_and_servers() {
        assert!(foreground_guidance("nohup ./server").unwrap().contains("nohup"));
        assert!(foreground_guidance("make && setsid x").is_some());
        assert!(foreground_guidance("./server &").unwrap().contains("'&'"));
        assert!(foreground_guidance("./a & ./b").is_some());
        assert!(foreground_guidance("npm run dev").unwrap().contains("long-lived"));
        assert!(foreground_guidance("python3 -m http.server 8000").is_some());
    }

    #[test]
    fn guard_ignores_quotes_help_and_ordinary_commands() {
        assert_eq!(foreground_guidance("git commit -m 'use nohup & setsid'"), None);
        assert_eq!(foreground_guidance("echo \"npm run dev\""), None);
        assert_eq!(foreground_guidance("vite --help"), None);
        assert_eq!(foreground_guidance("cargo build 2>&1 && echo ok"), None);
        assert_eq!(foreground_guidance("ls -la"), None);
    }

    #[test]
    fn workdir_allow_list() {
        assert_eq!(validate_workdir("/home/me/my-project_1/src ~,+@="), None);
        let error = validate_workdir("/tmp; rm x").unwrap();
        assert!(
            error.starts_with("Blocked: workdir contains disallowed character ';'"),
            "{error}"
        );
        assert!(validate_workdir("/tmp/$(id)").is_some());
    }

    #[test]
    fn exit_code_meanings() {
        assert_eq!(exit_code_meaning("grep foo bar.txt", 0), None);
        assert_eq!(
            exit_code_meaning("cat x | grep foo", 1),
            Some("No matches found (not an error)")
        );
        assert_eq!(
            exit_code_meaning("LC_ALL=C /usr/bin/diff a b", 1),
            Some("Files differ (expected, not an error)")
        );
        assert_eq!(exit_code_meaning("curl -s http://x", 28), Some("Operation timed out"));
        assert_eq!(exit_code_meaning("grep foo x; false", 1), None);
        assert_eq!(exit_code_meaning("grep foo x", 2), None);
        assert_eq!(
            exit_code_meaning("grep foo x 2>&1", 1),
            Some("No matches found (not an error)")
        );
    }
}
