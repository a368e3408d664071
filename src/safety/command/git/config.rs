//! git configuration: `-c key=value` on the command line and `git config` writing keys. Only
//! keys known to be inert keep a command harmless; a pager or editor setting is a command line,
//! analysed as one; every other key may make git run a program (`alias.*`, `core.fsmonitor`,
//! `core.hooksPath`, `diff.*.textconv`, `include.path`…) and is unknown. Writing a config file
//! is a write to that file, which `.git/config` and `~/.gitconfig` make sensitive.

use super::super::Risk;
use super::super::analysis::Analysis;
use super::super::words::Arg;
use super::Repo;

/// What a setting can do.
#[derive(Debug, PartialEq, Eq)]
enum Key {
    Inert,
    /// The value is a command line git hands to a shell.
    Command,
    /// May make git run a program or read other settings.
    Code,
}

/// Keys (lowercase) and key prefixes that only change formatting, identity or defaults.
const INERT: &[&str] = &[
    "color.",
    "column.",
    "advice.",
    "i18n.",
    "log.",
    "status.",
    "blame.",
    "versionsort.",
    "user.name",
    "user.email",
    "core.quotepath",
    "core.abbrev",
    "core.autocrlf",
    "core.safecrlf",
    "core.eol",
    "core.filemode",
    "core.ignorecase",
    "core.precomposeunicode",
    "core.longpaths",
    "core.whitespace",
    "init.defaultbranch",
    "pull.rebase",
    "pull.ff",
    "merge.ff",
    "merge.conflictstyle",
    "rebase.autosquash",
    "rebase.autostash",
    "push.default",
    "push.autosetupremote",
    "fetch.prune",
    "commit.gpgsign",
    "tag.gpgsign",
    "gc.auto",
    "maintenance.auto",
    "branch.sort",
    "tag.sort",
    "diff.noprefix",
    "diff.renames",
    "diff.algorithm",
    "diff.colormoved",
    "diff.context",
    "diff.mnemonicprefix",
    "diff.relative",
    "diff.statgraphwidth",
    "diff.indentheuristic",
    "grep.linenumber",
    "grep.patterntype",
    "grep.extendedregexp",
    "grep.column",
    "grep.fullname",
    "safe.directory",
];

/// Keys whose value is a command line run through a shell.
const COMMAND: &[&str] = &["core.pager", "core.editor", "sequence.editor", "core.sshcommand"];

fn key(name: &str, value: Option<&str>) -> Key {
    let name = name.to_ascii_lowercase();
    if COMMAND.contains(&name.as_str()) {
        return Key::Command;
    }
    // `pager.log=false` switches a pager off; any other value is a pager command.
    if let Some(rest) = name.strip_prefix("pager.")
        && !rest.contains('.')
    {
        return match value.map(str::to_ascii_lowercase).as_deref() {
            None | Some("true" | "false" | "0" | "1" | "yes" | "no" | "on" | "off") => Key::Inert,
            Some(_) => Key::Command,
        };
    }
    let inert = INERT.iter().any(|k| {
        if k.ends_with('.') {
            name.starts_with(k)
        } else {
            name == *k
        }
    });
    if inert { Key::Inert } else { Key::Code }
}

/// `-c key=value`.
pub(super) fn setting(a: &mut Analysis, setting: &Arg, depth: usize) {
    let Some(text) = setting.lit() else {
        return a.flag(
            Risk::Unknown,
            format!("git -c setting is not literal: {}", setting.text),
        );
    };
    let (name, value) = match text.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (text, None),
    };
    match key(name, value) {
        Key::Inert => {}
        Key::Command => match value {
            Some(command) => a.script(command, depth + 1),
            None => a.flag(Risk::Unknown, format!("git -c {name} without a command")),
        },
        Key::Code => a.flag(
            Risk::Unknown,
            format!(
                "git -c sets a config that may run a program: {}",
                name.to_ascii_lowercase()
            ),
        ),
    }
}

/// The config file a `git config` invocation writes (by its scope options).
fn config_file(a: &Analysis, args: &[Arg], repo: &Repo) -> Result<String, String> {
    let mut i = 0;
    while let Some(w) = args.get(i) {
        match w.text.as_str() {
            "--global" => return Ok(a.cx.home.join(".gitconfig").display().to_string()),
            "--system" => return Ok("/etc/gitconfig".into()),
            "--worktree" => return Ok(repo.dir.join(".git/config.worktree").display().to_string()),
            "-f" | "--file" => {
                return args
                    .get(i + 1)
                    .and_then(Arg::lit)
                    .map(str::to_owned)
                    .ok_or_else(|| "git config --file that is not literal".to_owned());
            }
            t if t.starts_with("--file=") => return Ok(t["--file=".len()..].to_owned()),
            "--blob" => return Err("git config --blob".into()),
            _ => {}
        }
        i += 1;
    }
    Ok(repo.dir.join(".git/config").display().to_string())
}

/// Options of `git config` that take a value.
const VALUED: &[&str] = &["-f", "--file", "--blob", "--type", "--default", "--comment", "--value"];
const WRITES: &[&str] = &[
    "--add",
    "--unset",
    "--unset-all",
    "--replace-all",
    "--rename-section",
    "--remove-section",
];
const SUBCOMMANDS_WRITING: &[&str] = &["set", "unset", "rename-section", "remove-section"];

/// `git config …`: a write goes to its file (and is judged there); a key that may run a
/// program is unknown; `--edit` opens an editor.
pub(super) fn command(a: &mut Analysis, args: &[Arg], repo: &Repo, depth: usize) {
    if args.iter().any(|w| matches!(w.text.as_str(), "-e" | "--edit" | "edit")) {
        return a.flag(Risk::Unknown, "git config opens an editor (git config --edit)");
    }
    let mut operands = Vec::new();
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        if VALUED.contains(&w.text.as_str()) {
            i += 1;
        } else if !w.text.starts_with('-') {
            operands.push(w);
        }
    }
    let explicit = args.iter().any(|w| WRITES.contains(&w.text.as_str()));
    let subcommand = operands
        .first()
        .is_some_and(|w| SUBCOMMANDS_WRITING.contains(&w.text.as_str()));
    let names = match subcommand {
        true => &operands[1..],
        false => &operands[..],
    };
    let writes = explicit || subcommand || names.len() > 1;
    if !writes {
        return; // a read (`git config user.name`, `--list`, `get`)
    }
    match config_file(a, args, repo) {
        Ok(file) => {
            a.write(&Arg::literal(&file), false, "git config");
        }
        Err(why) => a.flag(Risk::Unknown, why),
    }
    match names.first().map(|n| n.lit()) {
        Some(Some(name)) => match key(name, names.get(1).and_then(|v| v.lit())) {
            Key::Inert => {}
            Key::Command => match names.get(1).and_then(|v| v.lit()) {
                Some(value) => a.script(value, depth + 1),
                None => a.flag(
                    Risk::Unknown,
                    format!("git config sets {name} to a command that is not literal"),
                ),
            },
            Key::Code => a.flag(
                Risk::Unknown,
                format!("git config sets a program to run later: {}", name.to_ascii_lowercase()),
            ),
        },
        Some(None) => a.flag(Risk::Unknown, "git config key is not literal"),
        None => {}
    }
}
