//! Printing secrets: dumping the environment (`printenv`, bare `env`/`set`/`export -p`/
//! `declare -x`), echoing secret-looking variables, and reading credential files (`.env`,
//! `~/.ssh/*`, `~/.aws/credentials`, `.netrc`, …) as arguments or redirected input.

use std::path::Path;

use super::Risk;
use super::classify::positional;
use super::walk::Analysis;
use super::words::Arg;

pub(super) const PRINTS_ENV: &str = "prints environment variables (may contain secrets)";

/// Programs that name files without printing them.
const NON_READERS: &[&str] = &[
    "ls", "stat", "test", "[", "touch", "rm", "file", "du", "realpath", "dirname", "basename",
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
    if NON_READERS.contains(&prog) {
        return;
    }
    for w in args {
        // `--file=path`, `@path` forms name the file too.
        let text = w
            .text
            .rsplit_once('=')
            .map_or(w.text.as_str(), |(_, v)| v)
            .trim_start_matches('@');
        check_text(a, text, w.literal);
    }
}

pub(super) fn check_read(a: &mut Analysis, target: &Arg, how: &str) {
    if is_secret_text(a, &target.text, target.literal) {
        a.flag(
            Risk::Destructive,
            format!("reads a secrets file: {} ({how})", target.text),
        );
    }
}

fn check_text(a: &mut Analysis, text: &str, literal: bool) {
    if is_secret_text(a, text, literal) {
        a.flag(Risk::Destructive, format!("reads a secrets file: {text}"));
    }
}

fn is_secret_text(a: &Analysis, text: &str, literal: bool) -> bool {
    if !literal {
        // `$HERMES_HOME/.env`: the file name is still visible.
        return is_secret_name(text.rsplit('/').next().unwrap_or(text));
    }
    is_secret_path(&a.resolve(text), a.cx.home)
}

fn is_secret_name(name: &str) -> bool {
    let env_file = name == ".env"
        || (name.starts_with(".env.")
            && !name.ends_with(".example")
            && !name.ends_with(".sample")
            && !name.ends_with(".template"));
    env_file
        || matches!(
            name,
            ".netrc"
                | "_netrc"
                | ".pgpass"
                | ".git-credentials"
                | ".pypirc"
                | "id_rsa"
                | "id_ed25519"
                | "id_ecdsa"
                | "id_dsa"
        )
}

fn is_secret_path(path: &Path, home: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    if is_secret_name(&name) {
        return true;
    }
    let under = |dir: &str| path.starts_with(home.join(dir));
    (under(".ssh") && !name.ends_with(".pub") && name != "known_hosts" && name != "config" && path != home.join(".ssh"))
        || path == home.join(".aws/credentials")
        || path == home.join(".docker/config.json")
        || path == home.join(".config/gh/hosts.yml")
        || path == home.join(".hermes/auth.json")
        || under(".gnupg/private-keys-v1.d")
}
