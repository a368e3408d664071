//! The skills guard (Hermes' `tools/skills_guard.py`) as `skill_manage` uses it: after a write,
//! the skill's folder is scanned — structure (file count and sizes, binaries, executable bits,
//! symlinks leaving the folder), then every text file line by line against the threat patterns,
//! then invisible unicode — and a verdict drawn from the worst severity. For agent-created
//! skills only a `dangerous` verdict (a critical finding) stops the write, reported with Hermes'
//! scan report so the model can retry without the flagged content. Runs only when
//! `skills.guard_agent_created` is on (off by default, as in Hermes).

mod patterns;

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::{Regex, RegexBuilder};

use super::tree::entries_below;

/// A skill with more files than this is suspicious (medium).
const MAX_FILE_COUNT: usize = 50;
/// A skill larger than this in total is suspicious (high).
const MAX_TOTAL_SIZE_KB: u64 = 1024;
/// A single file larger than this is suspicious (medium).
const MAX_SINGLE_FILE_KB: u64 = 256;
/// Text files the patterns run over (SKILL.md always).
const SCANNABLE_EXTENSIONS: &[&str] = &[
    "md", "txt", "py", "sh", "bash", "js", "ts", "rb", "yaml", "yml", "json", "toml", "cfg", "ini", "conf", "html",
    "css", "xml", "tex", "r", "jl", "pl", "php",
];
/// Executables and binaries that have no place in a skill (critical).
const SUSPICIOUS_BINARY_EXTENSIONS: &[&str] = &[
    "exe", "dll", "so", "dylib", "bin", "dat", "com", "msi", "dmg", "app", "deb", "rpm",
];
/// Extensions allowed to carry an executable bit.
const SCRIPT_EXTENSIONS: &[&str] = &["sh", "bash", "py", "rb", "pl"];
/// A skill's own ignore files are never scanned.
const IGNORE_FILES: &[&str] = &[".skillignore", ".clawhubignore"];
/// Zero-width and bidirectional characters used to hide text, with readable names.
const INVISIBLE: &[(char, &str)] = &[
    ('\u{200b}', "zero-width space"),
    ('\u{200c}', "zero-width non-joiner"),
    ('\u{200d}', "zero-width joiner"),
    ('\u{2060}', "word joiner"),
    ('\u{2062}', "invisible times"),
    ('\u{2063}', "invisible separator"),
    ('\u{2064}', "invisible plus"),
    ('\u{feff}', "BOM/zero-width no-break space"),
    ('\u{202a}', "LTR embedding"),
    ('\u{202b}', "RTL embedding"),
    ('\u{202c}', "pop directional"),
    ('\u{202d}', "LTR override"),
    ('\u{202e}', "RTL override"),
    ('\u{2066}', "LTR isolate"),
    ('\u{2067}', "RTL isolate"),
    ('\u{2068}', "first strong isolate"),
    ('\u{2069}', "pop directional isolate"),
];

/// How bad a finding is; the order is the report's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Critical,
    High,
    Medium,
    Low,
}

impl Severity {
    fn parse(text: &str) -> Severity {
        match text {
            "critical" => Severity::Critical,
            "high" => Severity::High,
            "medium" => Severity::Medium,
            _ => Severity::Low,
        }
    }

    fn upper(self) -> &'static str {
        match self {
            Severity::Critical => "CRITICAL",
            Severity::High => "HIGH",
            Severity::Medium => "MEDIUM",
            Severity::Low => "LOW",
        }
    }
}

/// One thing the scan found.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub pattern_id: String,
    pub severity: Severity,
    pub category: String,
    /// Path relative to the skill folder, or `(directory)`.
    pub file: String,
    /// 1-based; 0 for structural findings.
    pub line: usize,
    pub matched: String,
    pub description: String,
}

struct Pattern {
    regex: Regex,
    id: &'static str,
    severity: Severity,
    category: &'static str,
    description: &'static str,
}

static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    patterns::TABLE
        .lines()
        .filter(|row| !row.trim().is_empty())
        .map(|row| {
            let cols: Vec<&'static str> = row.split('\t').collect();
            let [id, severity, category, regex, description] = cols[..] else {
                panic!("malformed skills-guard pattern row: {row}");
            };
            // Multi-line so `^` means a line start both on one line and on the whole text
            // (the whole-text pass in `scan_file` is a prefilter and must not miss a line).
            let regex = RegexBuilder::new(regex)
                .case_insensitive(true)
                .multi_line(true)
                .build()
                .unwrap_or_else(|e| panic!("invalid skills-guard pattern {id}: {e}"));
            Pattern {
                regex,
                id,
                severity: Severity::parse(severity),
                category,
                description,
            }
        })
        .collect()
});

/// The lookahead half of the three patterns the `regex` crate cannot express (see
/// `patterns.rs`): given a line and where the prefix matched, whether Hermes' regex matches.
fn lookahead_holds(id: &str, line: &str, start: usize, end: usize) -> bool {
    static SECRET: LazyLock<Regex> = LazyLock::new(|| {
        RegexBuilder::new(r"KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL")
            .case_insensitive(true)
            .build()
            .expect("valid regex")
    });
    static ENV_GET: LazyLock<Regex> = LazyLock::new(|| {
        RegexBuilder::new(r#"^\s*\.get\s*\(\s*["']([^"']*)"#)
            .case_insensitive(true)
            .build()
            .expect("valid regex")
    });
    let rest = &line[end..];
    match id {
        // `os.environ` is fine only as `os.environ.get("<name>")` with a non-secret name.
        "python_os_environ" => match ENV_GET.captures(rest) {
            Some(caps) => SECRET.is_match(&caps[1]),
            None => true,
        },
        // Unpinned unless `-r <file>` follows, or a `==` pin appears later on the line. With
        // more than one space after `install`, the `-r` test starts on a space and passes.
        "unpinned_pip_install" => {
            let one_space = line[start..end]
                .chars()
                .rev()
                .nth(1)
                .is_some_and(|c| !c.is_whitespace());
            let requirements = one_space && {
                let mut chars = rest.chars();
                matches!(chars.next(), Some('-'))
                    && matches!(chars.next(), Some('r' | 'R'))
                    && chars.next().is_some_and(char::is_whitespace)
            };
            !requirements && !rest.contains("==")
        }
        "unpinned_npm_install" => !rest
            .char_indices()
            .any(|(i, c)| c == '@' && rest[i + 1..].chars().next().is_some_and(|d| d.is_numeric())),
        _ => true,
    }
}

/// Findings for one file (`rel` is its name in the report): the patterns line by line (one
/// finding per pattern per line), then invisible characters (one per line).
pub fn scan_file(path: &Path, rel: &str) -> Vec<Finding> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = extension(path);
    if !SCANNABLE_EXTENSIONS.contains(&ext.as_str()) && name != "SKILL.md" {
        return Vec::new();
    }
    let Ok(text) = std::fs::read(path).map(String::from_utf8) else {
        return Vec::new();
    };
    let Ok(text) = text else { return Vec::new() };
    let lines: Vec<&str> = text.split('\n').collect();
    let mut findings = Vec::new();
    // A pattern that matches nowhere in the text matches no line: one pass over the text
    // spares most patterns the per-line calls.
    for pattern in PATTERNS.iter().filter(|p| p.regex.is_match(&text)) {
        for (i, line) in lines.iter().enumerate() {
            let hit = pattern
                .regex
                .find_iter(line)
                .any(|m| lookahead_holds(pattern.id, line, m.start(), m.end()));
            if hit {
                let trimmed = line.trim();
                let shown = if trimmed.chars().count() > 120 {
                    format!("{}...", trimmed.chars().take(117).collect::<String>())
                } else {
                    trimmed.to_string()
                };
                findings.push(finding(
                    pattern.id,
                    pattern.severity,
                    pattern.category,
                    rel,
                    i + 1,
                    shown,
                    pattern.description,
                ));
            }
        }
    }
    for (i, line) in lines.iter().enumerate() {
        if let Some((c, char_name)) = INVISIBLE.iter().find(|(c, _)| line.contains(*c)) {
            findings.push(finding(
                "invisible_unicode",
                Severity::High,
                "injection",
                rel,
                i + 1,
                format!("U+{:04X} ({char_name})", *c as u32),
                &format!("invisible unicode character {char_name} (possible text hiding/injection)"),
            ));
        }
    }
    findings
}

fn finding(
    id: &str,
    severity: Severity,
    category: &str,
    file: &str,
    line: usize,
    matched: String,
    description: &str,
) -> Finding {
    Finding {
        pattern_id: id.into(),
        severity,
        category: category.into(),
        file: file.into(),
        line,
        matched,
        description: description.into(),
    }
}

fn extension(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default()
}

mod structure;

/// Every file and symlink under `dir` (symlinked folders are not entered), sorted.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = entries_below(dir).into_iter().map(|(path, _)| path).collect();
    out.sort();
    out
}

/// The scan of a skill folder the agent wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct ScanResult {
    pub skill_name: String,
    pub findings: Vec<Finding>,
}

impl ScanResult {
    /// `dangerous` with a critical finding, `caution` with a high one, else `safe`.
    pub fn verdict(&self) -> &'static str {
        let worst = self.findings.iter().map(|f| f.severity).min();
        match worst {
            Some(Severity::Critical) => "dangerous",
            Some(Severity::High) => "caution",
            _ => "safe",
        }
    }

    /// Hermes' install policy for agent-created skills: allow `safe` and `caution`, ask on
    /// `dangerous` (which `skill_manage` reports as an error). `(allowed, reason)`.
    fn decision(&self) -> (bool, String) {
        let verdict = self.verdict();
        if verdict == "dangerous" {
            let n = self.findings.len();
            (
                false,
                format!("Requires confirmation (agent-created source + dangerous verdict, {n} findings)"),
            )
        } else {
            (true, format!("Allowed (agent-created source, {verdict} verdict)"))
        }
    }

    /// Hermes' report: a header, one line per finding (worst first), the decision.
    pub fn report(&self) -> String {
        let mut lines = vec![format!(
            "Scan: {} (agent-created/agent-created)  Verdict: {}",
            self.skill_name,
            self.verdict().to_uppercase()
        )];
        if !self.findings.is_empty() {
            let mut sorted: Vec<&Finding> = self.findings.iter().collect();
            sorted.sort_by_key(|f| f.severity);
            for f in sorted {
                let loc = format!("{}:{}", f.file, f.line);
                let shown: String = f.matched.chars().take(60).collect();
                lines.push(format!(
                    "  {:<8} {:<14} {loc:<30} \"{shown}\"",
                    f.severity.upper(),
                    f.category
                ));
            }
            lines.push(String::new());
        }
        let (allowed, reason) = self.decision();
        let status = if allowed { "ALLOWED" } else { "NEEDS CONFIRMATION" };
        lines.push(format!("Decision: {status} — {reason}"));
        lines.join("\n")
    }
}

/// Scans a skill folder: structure first, then each file's content.
pub fn scan_skill(dir: &Path) -> ScanResult {
    let files: Vec<PathBuf> = walk(dir)
        .into_iter()
        .filter(|p| !p.file_name().is_some_and(|n| IGNORE_FILES.iter().any(|i| n == *i)))
        .collect();
    let mut findings = structure::check(dir, &files);
    for path in &files {
        // A symlink's target is not read: if it leaves the folder, the structure check says so.
        if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
            let rel = path.strip_prefix(dir).unwrap_or(path).to_string_lossy().into_owned();
            findings.extend(scan_file(path, &rel));
        }
    }
    ScanResult {
        skill_name: dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        findings,
    }
}

/// Why the guard refuses the skill in `dir`, if it does: `Security scan blocked this skill
/// (<reason>):\n<report>`.
pub fn blocked(dir: &Path) -> Option<String> {
    let result = scan_skill(dir);
    let (allowed, reason) = result.decision();
    if allowed {
        return None;
    }
    tracing::warn!(skill = %result.skill_name, %reason, "agent-created skill blocked (dangerous findings)");
    Some(format!(
        "Security scan blocked this skill ({reason}):\n{}",
        result.report()
    ))
}

// Unix only: the tests make symlinks.
#[cfg(all(test, unix))]
mod tests;
