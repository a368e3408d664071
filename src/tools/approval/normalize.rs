//! Normalisation before pattern detection, so spelling tricks cannot hide a command: ANSI
//! escapes and NUL bytes go, Unicode is NFKC-folded (fullwidth `ｒｍ` → `rm`), backslash-newline
//! continuations are joined, absolute home prefixes fold to `~/` (and HERMES_HOME to
//! `~/.hermes/`), backslash escapes and empty quote pairs are dropped (`r\m`, `r''m` → `rm`) and
//! `$IFS` becomes a space. Also the parser limits that hard-block oversized payloads.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;
use unicode_normalization::UnicodeNormalization;

/// Longest command the detector parses at all.
pub const MAX_COMMAND_CHARS: usize = 128_000;
/// Longest command without any `; & | newline` separator.
pub const MAX_SEPARATOR_FREE_CHARS: usize = 4_096;
/// Separator count at which a command is refused.
pub const MAX_SEPARATORS: usize = 25_000;

/// Whether the command is too large or too fragmented to analyse (it is then hard-blocked).
pub fn parser_limit_exceeded(command: &str) -> bool {
    let (mut chars, mut separators) = (0usize, 0usize);
    for c in command.chars() {
        chars += 1;
        if matches!(c, ';' | '&' | '|' | '\n') {
            separators += 1;
        }
    }
    chars > MAX_COMMAND_CHARS || (chars > MAX_SEPARATOR_FREE_CHARS && separators == 0) || separators >= MAX_SEPARATORS
}

/// Full ECMA-48: CSI, OSC, DCS/SOS/PM/APC strings, nF escapes, single-byte Fe/Fs, 8-bit C1.
static ANSI: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\x1b(?:\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]",
        r"|\][\s\S]*?(?:\x07|\x1b\\)",
        r"|[PX^_][\s\S]*?\x1b\\",
        r"|[\x20-\x2f]+[\x30-\x7e]",
        r"|[\x30-\x7e])",
        r"|\x{9b}[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]",
        r"|\x{9d}[\s\S]*?(?:\x07|\x{9c})",
        r"|[\x{80}-\x{9f}]",
    ))
    .expect("static regex")
});
static CONTINUATION: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\\\r?\n").expect("static regex"));
static ESCAPE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\\([^\n])").expect("static regex"));
static EMPTY_QUOTES: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#"''|"""#).expect("static regex"));
static IFS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\$\{IFS\b[^}]*\}|\$IFS\b").expect("static regex"));

/// Removes ANSI/ECMA-48 escape sequences (no allocation when there are none).
pub fn strip_ansi(text: &str) -> Cow<'_, str> {
    if text.chars().any(|c| c == '\x1b' || ('\u{80}'..='\u{9f}').contains(&c)) {
        ANSI.replace_all(text, "")
    } else {
        Cow::Borrowed(text)
    }
}

/// The home directories folded to `~` spellings before matching.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Homes {
    /// Absolute user home spellings (`$HOME`, its canonical form).
    pub user: Vec<String>,
    /// Absolute HERMES_HOME spellings (when set explicitly).
    pub hermes: Vec<String>,
}

impl Homes {
    /// Read at detection time (not cached) so a later HOME/HERMES_HOME is honoured.
    pub fn from_env() -> Self {
        let with_canonical = |raw: String| {
            let mut out = vec![raw.clone()];
            if let Ok(real) = std::fs::canonicalize(&raw) {
                let real = real.to_string_lossy().into_owned();
                if real != raw {
                    out.push(real);
                }
            }
            out
        };
        let user = std::env::var("HOME").ok().filter(|h| !h.is_empty()).map(with_canonical);
        let hermes = std::env::var("HERMES_HOME")
            .ok()
            .filter(|h| !h.is_empty())
            .map(with_canonical);
        Homes {
            user: user.unwrap_or_default(),
            hermes: hermes.unwrap_or_default(),
        }
    }
}

/// Folds `path` used as an absolute directory prefix (followed by at least one more path
/// segment) to `replacement`. Paths with fewer than two components (`/root`) are left alone,
/// as Hermes does, since folding them would rewrite unrelated system paths.
fn fold_prefix(command: &str, path: &str, replacement: &str) -> String {
    let components: Vec<&str> = path.split(['/', '\\']).filter(|c| !c.is_empty()).collect();
    let Some(last) = components.last() else {
        return command.to_string();
    };
    if components.len() < 2 || !command.contains(last) {
        return command.to_string();
    }
    let body = components
        .iter()
        .map(|c| regex::escape(c))
        .collect::<Vec<_>>()
        .join(r"[/\\]+");
    let pattern = format!(r#"[/\\]*{body}((?:[/\\][^/\\\s'"`;|&<>()]*)+)"#);
    let Ok(re) = Regex::new(&pattern) else {
        return command.to_string();
    };
    re.replace_all(command, |caps: &regex::Captures<'_>| {
        format!("{replacement}{}", caps[1].replace('\\', "/"))
    })
    .into_owned()
}

fn fold_all(mut command: String, paths: &[String], replacement: &str) -> String {
    let mut sorted: Vec<&String> = paths.iter().collect();
    sorted.sort_by_key(|p| std::cmp::Reverse(p.len()));
    sorted.dedup();
    for path in sorted {
        command = fold_prefix(&command, path, replacement);
    }
    command
}

/// The cheap part: ANSI, NUL, NFKC and line continuations. Quoting and escapes stay intact,
/// so the malformed-payload checks judge what the author actually wrote.
pub fn light_normalize(command: &str) -> String {
    let stripped = strip_ansi(command);
    let nfkc: String = stripped.chars().filter(|&c| c != '\0').nfkc().collect();
    CONTINUATION.replace_all(&nfkc, "").into_owned()
}

/// The full detection normalisation (see the module header).
pub fn normalize(command: &str, homes: &Homes) -> String {
    let mut text = light_normalize(command);
    // Hermes home first: it usually nests under the user home.
    text = fold_all(text, &homes.hermes, "~/.hermes");
    text = fold_all(text, &homes.user, "~");
    let text = ESCAPE.replace_all(&text, "${1}");
    let text = EMPTY_QUOTES.replace_all(&text, "");
    IFS.replace_all(&text, " ").into_owned()
}
