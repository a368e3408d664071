//! One git subcommand: destructive forms (recognised in every spelling git accepts,
//! abbreviated long options included: `--har` is `--hard`), plumbing that rewrites the work
//! tree or refs, options and subcommands that run a program (`rebase --exec`, `bisect run`,
//! `submodule foreach`, `difftool -x`, `--upload-pack`…), what needs the network, and writes
//! of git's own configuration. A subcommand git does not ship (an alias, `git-foo` on PATH)
//! is unknown.

use super::super::Risk;
use super::super::analysis::{Analysis, Stdin};
use super::super::flags::{first_positional, has_short, names, positional};
use super::super::options::has_long_prefix as long;
use super::super::words::Arg;
use super::{Repo, config};

/// Subcommands that only read (their read-only forms are checked by `simple_command_reads`).
const READS: &[&str] = &[
    "status",
    "log",
    "diff",
    "show",
    "blame",
    "annotate",
    "ls-files",
    "ls-tree",
    "rev-parse",
    "describe",
    "shortlog",
    "grep",
    "cat-file",
    "rev-list",
    "show-ref",
    "whatchanged",
    "count-objects",
    "help",
    "version",
    "var",
    "check-ignore",
    "check-attr",
    "check-ref-format",
    "check-mailmap",
    "merge-base",
    "name-rev",
    "for-each-ref",
    "diff-tree",
    "diff-index",
    "diff-files",
    "cherry",
    "range-diff",
    "verify-commit",
    "verify-tag",
    "show-branch",
    "fsck",
    "get-tar-commit-id",
    "column",
    "stripspace",
    "interpret-trailers",
    "patch-id",
    "fmt-merge-msg",
];

/// Subcommands that change the repository or work tree in ways `/undo` and git itself can
/// restore (judged further below); not harmless.
const CHANGES: &[&str] = &[
    "add",
    "commit",
    "mv",
    "init",
    "checkout",
    "switch",
    "merge",
    "rebase",
    "cherry-pick",
    "revert",
    "stash",
    "tag",
    "branch",
    "reset",
    "restore",
    "rm",
    "notes",
    "worktree",
    "sparse-checkout",
    "gc",
    "repack",
    "pack-refs",
    "maintenance",
    "commit-tree",
    "hash-object",
    "mktree",
    "mktag",
    "update-index",
    "write-tree",
    "fast-import",
    "fast-export",
    "clean",
    "remote",
    "config",
    "reflog",
    "prune-packed",
    "bundle",
    "format-patch",
    "archive",
    "symbolic-ref",
    "am",
    "apply",
    "update-ref",
    "read-tree",
    "checkout-index",
    "replace",
    "prune",
    "filter-branch",
    "filter-repo",
    "bisect",
    "submodule",
    "difftool",
    "mergetool",
    "lfs",
    "send-email",
    "request-pull",
    "fetch",
    "pull",
    "push",
    "clone",
    "ls-remote",
    "merge-file",
    "merge-tree",
    "unpack-objects",
    "index-pack",
    "pack-objects",
    "multi-pack-index",
    "commit-graph",
    "rerere",
    "citool",
    "gui",
    "hook",
    "range-diff",
];

/// Subcommands that start servers, GUIs, editors or credential helpers: unknown.
const FOREIGN: &[&str] = &[
    "instaweb",
    "daemon",
    "web--browse",
    "shell",
    "upload-pack",
    "receive-pack",
    "http-backend",
    "fsmonitor--daemon",
    "credential",
    "credential-cache",
    "credential-store",
    "imap-send",
    "p4",
    "svn",
    "cvsimport",
    "cvsserver",
    "archimport",
    "quiltimport",
    "citool",
    "gui",
    "hook",
    "mergetool",
];

pub(super) fn judge(a: &mut Analysis, name: &str, rest: &[Arg], repo: &Repo, reads: bool, depth: usize) {
    if FOREIGN.contains(&name) {
        return a.flag(Risk::Unknown, format!("git {name} runs programs outside the analysis"));
    }
    if !READS.contains(&name) && !CHANGES.contains(&name) {
        return a.flag(
            Risk::Unknown,
            format!("unknown git subcommand (an alias or an external git-{name}): {name}"),
        );
    }
    if rest
        .iter()
        .any(|w| w.text.starts_with("ext::") || w.text.starts_with("fd::"))
    {
        a.flag(
            Risk::Unknown,
            format!("git {name} uses a transport that runs a command (ext::)"),
        );
    }
    network(a, name, rest);
    runs_programs(a, name, rest, repo, depth);
    config_writes(a, name, rest, repo, depth);
    outputs(a, name, rest);
    if name == "push" {
        let operands = positional(rest, &["--repo", "--receive-pack", "--exec", "-o", "--push-option"]);
        if operands.iter().any(|w| !w.literal) {
            a.flag(
                Risk::Unknown,
                format!("git push target is not literal: {}", names(&operands)),
            );
        }
    }
    if let Some(reason) = super::destructive::destructive(a, name, rest) {
        a.flag(Risk::Destructive, reason);
    }
    let harmless = reads || matches!(name, "fetch" | "ls-remote");
    if !harmless {
        a.unvetted(&format!("git {name}"), false);
    }
}

fn network(a: &mut Analysis, name: &str, rest: &[Arg]) {
    let sub = first_positional(rest);
    let needs = match name {
        "fetch" | "pull" | "push" | "clone" | "ls-remote" | "send-email" | "request-pull" => true,
        "submodule" => matches!(sub, Some("update" | "add")),
        "remote" => matches!(sub, Some("update" | "prune")) || (sub == Some("show") && !has_short(rest, 'n')),
        "archive" => long(rest, &["--remote"]),
        "lfs" => matches!(sub, Some("fetch" | "pull" | "push" | "clone")),
        _ => false,
    };
    if needs {
        a.network(format!("git {name}"));
    }
}

/// Options and subcommands whose value is a command git runs.
fn runs_programs(a: &mut Analysis, name: &str, rest: &[Arg], repo: &Repo, depth: usize) {
    let value = |names: &[&str]| -> Option<Option<Arg>> {
        let mut it = rest.iter().take_while(|w| w.text != "--");
        while let Some(w) = it.next() {
            for n in names {
                if w.text == *n {
                    return Some(it.next().cloned());
                }
                if let Some(v) = w.text.strip_prefix(n).and_then(|v| v.strip_prefix('=')) {
                    return Some(Some(w.part(v)));
                }
            }
        }
        None
    };
    let script = |a: &mut Analysis, text: Option<Arg>, what: &str| match text.as_ref().and_then(Arg::lit) {
        Some(t) => a.script(t, depth + 1),
        None => a.flag(Risk::Unknown, format!("{what} runs a command that is not literal")),
    };
    match name {
        "rebase" => {
            if let Some(cmd) = value(&["-x", "--exec"]) {
                script(a, cmd, "git rebase --exec");
            }
            if has_short(rest, 'i') || long(rest, &["--interactive", "--edit-todo"]) {
                a.flag(Risk::Unknown, "git rebase -i opens an editor on the todo list");
            }
        }
        "bisect" if first_positional(rest) == Some("run") => {
            if let Some(pos) = rest.iter().position(|w| w.text == "run") {
                a.inner(&rest[pos + 1..], "<bisect result>", Stdin::Inherited, depth);
            }
        }
        "submodule" if first_positional(rest) == Some("foreach") => {
            let pos = rest.iter().position(|w| w.text == "foreach").unwrap_or(0);
            let words: Vec<&Arg> = rest[pos + 1..].iter().filter(|w| !w.text.starts_with("--")).collect();
            match words.iter().all(|w| w.literal) {
                true => {
                    let text: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
                    a.script(&text.join(" "), depth + 1);
                }
                false => a.flag(Risk::Unknown, "git submodule foreach runs text that is not literal"),
            }
        }
        "difftool" => match value(&["-x", "--extcmd"]) {
            Some(cmd) => script(a, cmd, "git difftool --extcmd"),
            None => a.flag(Risk::Unknown, "git difftool runs a configured diff tool"),
        },
        "grep" if has_short(rest, 'O') || long(rest, &["--open-files-in-pager"]) => {
            a.flag(Risk::Unknown, "git grep opens its matches in a pager or editor (-O)")
        }
        "fetch" | "pull" | "clone" | "ls-remote" | "archive" | "push" | "submodule" => {
            let programs = ["--upload-pack", "--receive-pack", "--exec", "--template"];
            let short_u = matches!(name, "fetch" | "pull" | "clone" | "ls-remote") && has_short(rest, 'u');
            if short_u || long(rest, &programs) {
                a.flag(Risk::Unknown, format!("git {name} runs a program named by an option"));
            }
            if name == "clone" {
                for setting in rest.windows(2).filter(|w| w[0].text == "-c" || w[0].text == "--config") {
                    config::setting(a, &setting[1], depth);
                }
            }
        }
        "send-email"
            if long(
                rest,
                &[
                    "--sendmail-cmd",
                    "--smtp-server",
                    "--to-cmd",
                    "--cc-cmd",
                    "--header-cmd",
                ],
            ) =>
        {
            a.flag(Risk::Unknown, "git send-email runs a program named by an option")
        }
        "init" if long(rest, &["--template"]) => a.flag(Risk::Unknown, "git init copies hooks from a template"),
        "commit" | "tag" | "notes" | "merge" if has_short(rest, 'e') || long(rest, &["--edit"]) => {
            a.flag(Risk::Unknown, format!("git {name} opens an editor"))
        }
        "branch" if long(rest, &["--edit-description"]) => a.flag(Risk::Unknown, "git branch opens an editor"),
        "maintenance" if matches!(first_positional(rest), Some("start" | "register")) => {
            a.flag(Risk::Unknown, "git maintenance schedules background jobs")
        }
        "lfs" if first_positional(rest) == Some("install") => {
            let hooks = repo.dir.join(".git/hooks").display().to_string();
            a.write(&Arg::literal(&hooks), false, "git lfs install");
        }
        _ => {}
    }
}

/// Subcommands that write `.git/config` as a side effect (remotes, upstreams, submodules).
fn config_writes(a: &mut Analysis, name: &str, rest: &[Arg], repo: &Repo, depth: usize) {
    let sub = first_positional(rest);
    let writes = match name {
        "config" => return config::command(a, rest, repo, depth),
        "remote" => matches!(
            sub,
            Some("add" | "rename" | "remove" | "rm" | "set-url" | "set-branches" | "set-head")
        ),
        "submodule" => matches!(sub, Some("add" | "init" | "sync" | "deinit")),
        "branch" => has_short(rest, 'u') || long(rest, &["--set-upstream-to", "--unset-upstream", "--track"]),
        "push" => has_short(rest, 'u') || long(rest, &["--set-upstream"]),
        "checkout" | "switch" => has_short(rest, 't') || long(rest, &["--track"]),
        _ => false,
    };
    if writes {
        let file = repo.dir.join(".git/config").display().to_string();
        a.write(&Arg::literal(&file), false, &format!("git {name}"));
    }
}

/// `--output=FILE` (diff, log, show), `archive -o`, `bundle create`.
fn outputs(a: &mut Analysis, name: &str, rest: &[Arg]) {
    let mut it = rest.iter().take_while(|w| w.text != "--").peekable();
    while let Some(w) = it.next() {
        let given = w.text.split_once('=').map_or(w.text.as_str(), |(n, _)| n);
        let output = given.len() > 4 && "--output".starts_with(given) && given.starts_with("--o");
        let archive_o = name == "archive" && w.text == "-o";
        if output || archive_o {
            let target = match w.text.split_once('=') {
                Some((_, v)) => Some(w.part(v)),
                None => it.next().cloned(),
            };
            if let Some(target) = target {
                a.write(&target, true, &format!("git {name} --output"));
            }
        }
    }
    if name == "bundle"
        && first_positional(rest) == Some("create")
        && let Some(file) = positional(rest, &[]).get(1)
    {
        a.write(file, true, "git bundle create");
    }
}
