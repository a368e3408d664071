//! `git`: its global options read from a table (an unknown one is unknown), `-c` settings
//! checked against the keys known to be inert (a pager or editor setting has its command
//! analysed; any other key may change what git runs and is unknown), then the subcommand
//! judged in `subcommands` (what it destroys in `destructive`). The rule pattern is everything up to the subcommand.

mod config;
mod destructive;
mod subcommands;

use super::Risk;
use super::analysis::Analysis;
use super::read_only_programs::simple_command_reads;
use super::words::Arg;

/// Where git works: `-C` moves it, `--git-dir`/`--work-tree` elsewhere are unknown.
pub(super) struct Repo {
    /// The directory git runs in (for `.git/config` and hooks).
    pub dir: std::path::PathBuf,
}

pub(super) fn git(a: &mut Analysis, words: &[Arg], depth: usize) {
    let args = &words[1..];
    let mut repo = Repo {
        dir: a.cwd().to_path_buf(),
    };
    let mut i = 0;
    while let Some(w) = args.get(i) {
        let Some(t) = w.lit() else {
            return a.flag(Risk::Unknown, format!("git option is not literal: {}", w.text));
        };
        if !t.starts_with('-') {
            break;
        }
        let (name, attached) = match t.split_once('=') {
            Some((n, v)) if t.starts_with("--") => (n, Some(v)),
            _ => (t, None),
        };
        let mut value = || match attached {
            Some(v) => Some(Arg {
                text: v.to_owned(),
                literal: true,
                glob: false,
            }),
            None => {
                i += 1;
                args.get(i).cloned()
            }
        };
        match name {
            "-C" => match value().as_ref().and_then(|d| d.lit().map(str::to_owned)) {
                Some(dir) => repo.dir = super::paths::resolve(&dir, &repo.dir, a.cx.home),
                None => return a.flag(Risk::Unknown, "git -C to a directory that is not literal"),
            },
            "-c" => match value() {
                Some(setting) => config::setting(a, &setting, depth),
                None => return a.flag(Risk::Unknown, "git -c without a setting"),
            },
            "--git-dir" | "--work-tree" => {
                // Another repository brings its own config (fsmonitor, pager, hooks) to run.
                value();
                a.flag(Risk::Unknown, format!("git uses a repository named by {name}"));
            }
            "--namespace" | "--super-prefix" | "--attr-source" | "--list-cmds" => {
                value();
            }
            "--exec-path" if attached.is_some() => a.flag(
                Risk::Unknown,
                "git runs its commands from another directory (--exec-path)",
            ),
            "--config-env" => {
                return a.flag(Risk::Unknown, "git takes a setting from the environment (--config-env)");
            }
            "-p"
            | "--paginate"
            | "-P"
            | "--no-pager"
            | "--bare"
            | "--no-replace-objects"
            | "--no-lazy-fetch"
            | "--no-optional-locks"
            | "--no-advice"
            | "--literal-pathspecs"
            | "--glob-pathspecs"
            | "--noglob-pathspecs"
            | "--icase-pathspecs"
            | "--exec-path"
            | "--html-path"
            | "--man-path"
            | "--info-path"
            | "--version"
            | "-v"
            | "--help"
            | "-h" => {}
            _ => return a.flag(Risk::Unknown, format!("git: option not understood: {t}")),
        }
        i += 1;
    }
    let Some(sub) = args.get(i) else {
        return;
    };
    a.pattern_len(i + 2);
    let Some(name) = sub.lit() else {
        return a.flag(Risk::Unknown, format!("git subcommand is not literal: {}", sub.text));
    };
    // Global options were judged above: the read-only forms are the subcommand's.
    let texts: Vec<String> = ["git", name]
        .into_iter()
        .map(str::to_owned)
        .chain(args[i + 1..].iter().map(|w| w.text.clone()))
        .collect();
    let reads = simple_command_reads(&texts);
    subcommands::judge(a, name, &args[i + 1..], &repo, reads, depth);
}
