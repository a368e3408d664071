//! Printing secrets: dumping the environment (`printenv`, bare `env`/`set`/`export -p`/
//! `declare -x`), echoing secret-looking variables, and reading credential files (`.env`,
//! `HERMES_HOME/config.yaml`, `~/.ssh/*`, `~/.aws/credentials`, `.netrc`, `/proc/*/environ`…)
//! as arguments or redirected input — named literally, by a glob that matches one (`.en?`,
//! `*.yaml` in `HERMES_HOME`), by a name the analysis cannot read in a directory that holds
//! one, or by a recursive read of a directory above them.

use std::path::{Path, PathBuf};

use super::Risk;
use super::analysis::Analysis;
use super::flags::positional;
use super::glob;
use super::read_only_programs::DIGESTS;
use super::words::Arg;

pub(super) const PRINTS_ENV: &str = "prints environment variables (may contain secrets)";

/// Whether a finding is about secrets (so the card names that promise).
pub fn is_secret_reason(reason: &str) -> bool {
    [
        "reads a secrets file",
        "may read a secrets file",
        "reads a directory that holds secrets",
        "prints environment variables",
        "prints a secret variable",
    ]
    .iter()
    .any(|p| reason.starts_with(p))
}

/// Programs that name files without printing them (with the checksum programs, [`DIGESTS`]).
const NON_READERS: &[&str] = &[
    "ls", "stat", "test", "[", "touch", "rm", "file", "du", "realpath", "dirname", "basename", "mkdir", "rmdir",
    "chmod", "chown", "echo", "printf", "cd", "pushd", "wc", "lsattr", "namei", "readlink",
];

/// Programs that print or copy the contents of the files they name: a path they get that the
/// analysis cannot read might be a secrets file.
const READERS: &[&str] = &[
    "cat", "tac", "nl", "head", "tail", "less", "more", "most", "bat", "batcat", "od", "xxd", "hexdump", "hd",
    "strings", "base64", "base32", "basenc", "uuencode", "cut", "paste", "fold", "fmt", "pr", "expand", "unexpand",
    "sort", "uniq", "rev", "grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "sed", "awk", "gawk", "jq", "yq",
    "diff", "cmp", "comm", "cp", "mv", "install", "rsync", "scp", "tar", "zip", "7z", "dd", "openssl", "gpg", "curl",
    "iconv", "column", "look", "join", "split", "csplit", "source", ".", "xargs", "tee", "vim", "view", "ex",
];

/// File names that hold secrets wherever they are.
const SECRET_NAMES: &[&str] = &[
    ".env",
    ".env.local",
    ".env.production",
    ".env.development",
    ".env.test",
    ".envrc",
    ".netrc",
    "_netrc",
    ".pgpass",
    ".git-credentials",
    ".pypirc",
    "id_rsa",
    "id_ed25519",
    "id_ecdsa",
    "id_dsa",
];

pub(super) fn printing(a: &mut Analysis, prog: &str, args: &[Arg]) {
    let bare = args.is_empty();
    let dumps = match prog {
        "printenv" => true,
        "set" => bare,
        "export" => bare || args.iter().all(|w| w.text == "-p"),
        "declare" | "typeset" => {
            bare || args
                .iter()
                .any(|w| w.text.starts_with('-') && w.text.contains(['x', 'p']))
                && positional(args, &[]).is_empty()
        }
        "compgen" => args.iter().any(|w| w.text == "-v" || w.text == "-e"),
        _ => false,
    };
    if dumps {
        a.flag(Risk::Destructive, PRINTS_ENV);
        return;
    }
    if matches!(prog, "echo" | "printf")
        && let Some(w) = args.iter().find(|w| !w.literal && names_secret_variable(&w.text))
    {
        a.flag(Risk::Destructive, format!("prints a secret variable: {}", w.text));
    }
}

/// `$OPENAI_API_KEY`, `${GITHUB_TOKEN}`, `$DB_PASSWORD`…
fn names_secret_variable(text: &str) -> bool {
    let upper = text.to_ascii_uppercase();
    upper.contains('$')
        && ["KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH"]
            .iter()
            .any(|s| upper.contains(s))
}

pub(super) fn check_args(a: &mut Analysis, prog: &str, args: &[Arg]) {
    if NON_READERS.contains(&prog) || DIGESTS.contains(&prog) {
        return;
    }
    let reader = READERS.contains(&prog);
    for w in args {
        // `--file=path`, `@path` forms name the file too.
        let text = w
            .text
            .rsplit_once('=')
            .map_or(w.text.as_str(), |(_, v)| v)
            .trim_start_matches('@');
        if let Some(reason) = secret_operand(a, text, w, reader) {
            a.flag(Risk::Destructive, reason);
        } else if let Some((_, path)) = text.rsplit_once(':').filter(|(_, p)| !p.is_empty())
            && let Some(reason) = secret_operand(a, path, w, false)
        {
            // `git show HEAD:.env`, `scp host:.env .`: the path after a revision or host.
            a.flag(Risk::Destructive, reason);
        }
    }
    if recursive(prog, args) {
        let dirs: Vec<&Arg> = positional(args, &["-e", "-f", "-m", "-A", "-B", "-C", "-g", "-t", "-T"]);
        read_directories(a, prog, &dirs);
    }
}

/// A recursive read of `dirs` (the cwd when none) that reaches the agent's or the user's keys.
pub(super) fn read_directories(a: &mut Analysis, prog: &str, dirs: &[&Arg]) {
    let here = Arg::literal(".");
    let dirs = if dirs.is_empty() { vec![&here] } else { dirs.to_vec() };
    if let Some(dir) = dirs
        .iter()
        .filter_map(|d| d.lit())
        .find(|d| holds_agent_secrets(a, &a.resolve(d)))
    {
        a.flag(
            Risk::Destructive,
            format!("reads a directory that holds secrets: {dir} ({prog} -r)"),
        );
    }
}

fn recursive(prog: &str, args: &[Arg]) -> bool {
    let flag = |c: char| super::flags::has_short(args, c);
    match prog {
        "grep" | "egrep" | "fgrep" => {
            flag('r') || flag('R') || super::flags::has_long(args, &["--recursive", "--dereference-recursive"])
        }
        "rgrep" | "rg" | "ag" | "ack" => true,
        "cp" | "zip" => flag('r') || flag('R') || flag('a'),
        "tar" | "rsync" => true,
        _ => false,
    }
}

/// A directory at or above `HERMES_HOME`, `~/.ssh` or `~/.aws`.
fn holds_agent_secrets(a: &Analysis, dir: &Path) -> bool {
    let home = a.cx.home;
    [a.cx.sensitive.hermes_home.clone(), home.join(".ssh"), home.join(".aws")]
        .iter()
        .any(|secret| secret.starts_with(dir))
}

pub(super) fn check_read(a: &mut Analysis, target: &Arg, how: &str) {
    if let Some(reason) = secret_operand(a, &target.text, target, true) {
        a.flag(Risk::Destructive, format!("{reason} ({how})"));
    }
}

/// `$HERMES_HOME` spelled in a path is the agent's own home.
fn expand_hermes_home(a: &Analysis, text: &str) -> Option<String> {
    let rest = text
        .strip_prefix("$HERMES_HOME")
        .or_else(|| text.strip_prefix("${HERMES_HOME}"))?;
    Some(format!("{}{rest}", a.cx.sensitive.hermes_home.display()))
}

/// Why reading the operand `text` may read a secret, if it may.
fn secret_operand(a: &mut Analysis, text: &str, word: &Arg, reader: bool) -> Option<String> {
    let expanded = expand_hermes_home(a, text);
    let (text, literal) = match &expanded {
        Some(t) => (t.as_str(), !t.contains(['$', '`'])),
        None => (text, word.literal),
    };
    if literal && word.glob {
        let pattern = a.resolve(text);
        return glob_names_secret(a, &pattern).then(|| format!("reads a secrets file: {text}"));
    }
    if literal {
        return is_secret_path(a, &a.resolve(text)).then(|| format!("reads a secrets file: {text}"));
    }
    // Not literal: the name may still be visible (`$DIR/.env`), or the directory.
    let (dir, name) = match text.rsplit_once('/') {
        Some((d, n)) => (Some(d), n),
        None => (None, text),
    };
    if !name.contains(['$', '`', '*', '?', '[']) && is_secret_name(name) {
        return Some(format!("reads a secrets file: {text}"));
    }
    match dir.filter(|d| !d.contains(['$', '`'])) {
        Some(d) if holds_secrets(a, &a.resolve(if d.is_empty() { "/" } else { d })) => Some(format!(
            "may read a secrets file (a name the analysis cannot read): {text}"
        )),
        Some(_) => None,
        None if reader && !text.starts_with("<(") => {
            a.flag(Risk::Unknown, format!("{text}: reads a file the analysis cannot name"));
            None
        }
        None => None,
    }
}

/// A directory that holds a secrets file (by its known files, or one that exists there).
fn holds_secrets(a: &Analysis, dir: &Path) -> bool {
    secret_paths(a).iter().any(|p| p.parent() == Some(dir)) || SECRET_NAMES.iter().any(|n| (a.cx.exists)(&dir.join(n)))
}

/// Secrets at fixed places: the agent's keys and config, the user's credentials.
fn secret_paths(a: &Analysis) -> Vec<PathBuf> {
    let (home, hermes) = (a.cx.home, &a.cx.sensitive.hermes_home);
    let mut out = vec![
        hermes.join(".env"),
        hermes.join("config.yaml"),
        hermes.join("auth.json"),
    ];
    for f in [
        ".netrc",
        ".pgpass",
        ".git-credentials",
        ".pypirc",
        ".aws/credentials",
        ".docker/config.json",
        ".config/gh/hosts.yml",
        ".ssh/id_rsa",
        ".ssh/id_ed25519",
        ".ssh/id_ecdsa",
        ".ssh/id_dsa",
    ] {
        out.push(home.join(f));
    }
    out
}

/// Whether a glob path could name a secrets file: one at a fixed place, or a secret name in
/// the directory it names (that holds one, or any when the directory is a glob too).
fn glob_names_secret(a: &Analysis, pattern: &Path) -> bool {
    let parts: Vec<String> = pattern
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let dotglob = a.dotglob;
    let matches_path = |path: &Path| {
        let candidate: Vec<String> = path
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        candidate.len() == parts.len() && parts.iter().zip(&candidate).all(|(p, c)| glob::matches(p, c, dotglob))
    };
    if secret_paths(a).iter().any(|p| matches_path(p)) || matches_path(Path::new("/proc/self/environ")) {
        return true;
    }
    let Some((last, dir)) = parts.split_last() else {
        return false;
    };
    let dir_is_glob = dir.iter().any(|p| p.contains(['*', '?', '[']));
    let dir: PathBuf = dir.iter().collect();
    SECRET_NAMES
        .iter()
        .filter(|n| glob::matches(last, n, dotglob))
        .any(|n| dir_is_glob || (a.cx.exists)(&dir.join(n)))
}

fn is_secret_name(name: &str) -> bool {
    let env_file = name == ".env"
        || (name.starts_with(".env.")
            && !name.ends_with(".example")
            && !name.ends_with(".sample")
            && !name.ends_with(".template"));
    env_file || SECRET_NAMES.contains(&name)
}

fn is_secret_path(a: &Analysis, path: &Path) -> bool {
    let home = a.cx.home;
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    if is_secret_name(&name) || secret_paths(a).iter().any(|p| p == path) {
        return true;
    }
    let environ = path.starts_with("/proc") && name == "environ";
    let under = |dir: &str| path.starts_with(home.join(dir));
    environ
        || (under(".ssh")
            && !name.ends_with(".pub")
            && name != "known_hosts"
            && name != "config"
            && path != home.join(".ssh"))
        || under(".gnupg/private-keys-v1.d")
}
