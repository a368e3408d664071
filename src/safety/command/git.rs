//! `git`: global options (`-C`, `-c`, `--git-dir`, …) are skipped to the subcommand, which is
//! judged by what it does to history, refs, the remote or the working tree. `-c` settings
//! that run programs (aliases, pagers, editors, hooks…) make the command unknown.

use super::Risk;
use super::classify::{has_long, has_short, names, positional};
use super::walk::Analysis;
use super::words::Arg;

/// Config keys whose value is a program (or an alias that may be one).
const CODE_KEYS: &[&str] = &[
    "alias.",
    "pager",
    "editor",
    "command",
    "program",
    "external",
    "textconv",
    "fsmonitor",
    "hookspath",
    "helper",
    "filter.",
    "askpass",
    "proxy",
    "receivepack",
    "uploadpack",
    "exec",
];

pub(super) fn git(a: &mut Analysis, args: &[Arg], _depth: usize) {
    let mut i = 0;
    while let Some(w) = args.get(i) {
        let t = w.text.as_str();
        match t {
            "-C" | "--git-dir" | "--work-tree" | "--namespace" | "--exec-path" | "--config-env" => i += 2,
            "-c" => {
                let setting = args.get(i + 1).map(|s| s.text.to_ascii_lowercase()).unwrap_or_default();
                let key = setting.split('=').next().unwrap_or("");
                if CODE_KEYS.iter().any(|k| key.contains(k)) {
                    a.flag(
                        Risk::Unknown,
                        format!("git -c sets a config that runs a program: {key}"),
                    );
                }
                i += 2;
            }
            _ if t.starts_with('-') => i += 1,
            _ => break,
        }
    }
    let Some(sub) = args.get(i) else {
        return;
    };
    let Some(name) = sub.lit() else {
        a.flag(Risk::Unknown, format!("git subcommand is not literal: {}", sub.text));
        return;
    };
    let rest = &args[i + 1..];
    let short = |c| has_short(rest, c);
    let long = |n: &[&str]| has_long(rest, n);
    let first = rest.first().map(|w| w.text.as_str());
    let finding: Option<String> = match name {
        "reset" if long(&["--hard", "--merge", "--keep"]) => {
            Some("discards uncommitted changes (git reset --hard)".into())
        }
        "checkout" => checkout(a, rest),
        "switch" if short('f') || long(&["--force", "--discard-changes"]) => {
            Some("discards uncommitted changes (git switch --force)".into())
        }
        "restore" => {
            let staged_only = (short('S') || long(&["--staged"])) && !(short('W') || long(&["--worktree"]));
            (!staged_only).then(|| "discards working-tree changes (git restore)".into())
        }
        "clean" if (short('f') || long(&["--force"])) && !(short('n') || long(&["--dry-run"])) => {
            Some("deletes untracked files (git clean -f)".into())
        }
        "push" => push(a, rest),
        "branch"
            if short('D')
                || short('M')
                || short('C')
                || ((short('d') || long(&["--delete"])) && (short('f') || long(&["--force"]))) =>
        {
            Some("deletes or overwrites branches (git branch -D)".into())
        }
        "stash" if matches!(first, Some("drop" | "clear")) => {
            Some("deletes stashed changes (git stash drop/clear)".into())
        }
        "filter-branch" | "filter-repo" => Some(format!("rewrites history (git {name})")),
        "reflog" if matches!(first, Some("expire" | "delete")) => {
            Some("deletes reflog entries (git reflog expire)".into())
        }
        "gc" if rest.iter().any(|w| w.text == "--prune=now" || w.text == "--prune=all") => {
            Some("prunes unreachable objects now (git gc --prune=now)".into())
        }
        "prune" => Some("prunes unreachable objects (git prune)".into()),
        "update-ref" if short('d') || long(&["--stdin"]) => Some("deletes or rewrites refs (git update-ref -d)".into()),
        "tag" if short('d') || long(&["--delete"]) || short('f') || long(&["--force"]) => {
            Some("deletes or moves tags (git tag -d/-f)".into())
        }
        "config" => {
            let key = rest
                .iter()
                .find(|w| !w.text.starts_with('-'))
                .map(|w| w.text.to_ascii_lowercase())
                .unwrap_or_default();
            let sets = rest.iter().filter(|w| !w.text.starts_with('-')).count() > 1;
            if sets && CODE_KEYS.iter().any(|k| key.contains(k)) {
                a.flag(Risk::Unknown, format!("git config sets a program to run later: {key}"));
            }
            None
        }
        "rm" if short('f') || long(&["--force"]) => Some("deletes files with uncommitted changes (git rm -f)".into()),
        "worktree" if first == Some("remove") && (short('f') || long(&["--force"])) => {
            Some("deletes a worktree with changes (git worktree remove --force)".into())
        }
        _ => None,
    };
    if let Some(reason) = finding {
        a.flag(Risk::Destructive, reason);
    }
}

/// `git checkout -- paths`, `git checkout .`, `git checkout -f`, `git checkout REV paths`, or
/// a single operand that names an existing file.
fn checkout(a: &mut Analysis, rest: &[Arg]) -> Option<String> {
    if has_short(rest, 'f') || has_long(rest, &["--force"]) || rest.iter().any(|w| w.text == "--") {
        return Some("discards working-tree changes (git checkout -f / -- paths)".into());
    }
    if has_short(rest, 'b') || has_short(rest, 'B') || has_long(rest, &["--orphan"]) {
        return None;
    }
    let operands = positional(rest, &["--conflict", "--pathspec-from-file"]);
    let names_a_file = |w: &&Arg| {
        w.lit()
            .is_none_or(|t| t == "." || t.contains(['*', '?']) || (a.cx.exists)(&a.resolve(t)))
    };
    if operands.len() > 1 || operands.iter().any(names_a_file) || has_long(rest, &["--pathspec-from-file"]) {
        return Some(format!(
            "discards working-tree changes: {} (git checkout paths)",
            names(&operands)
        ));
    }
    None
}

/// Force pushes, deletions, mirror pushes and `+`/`:` refspecs.
fn push(a: &mut Analysis, rest: &[Arg]) -> Option<String> {
    let forced = has_short(rest, 'f')
        || has_short(rest, 'd')
        || has_long(
            rest,
            &[
                "--force",
                "--force-with-lease",
                "--force-if-includes",
                "--mirror",
                "--delete",
                "--prune",
            ],
        );
    if forced {
        return Some("rewrites or deletes remote branches (git push --force/--delete)".into());
    }
    let operands = positional(rest, &["--repo", "--receive-pack", "--exec", "-o", "--push-option"]);
    if operands
        .iter()
        .skip(1)
        .any(|w| w.text.starts_with('+') || w.text.starts_with(':'))
    {
        return Some("rewrites or deletes remote branches (git push +refspec/:branch)".into());
    }
    if operands.iter().any(|w| !w.literal) {
        a.flag(
            Risk::Unknown,
            format!("git push target is not literal: {}", names(&operands)),
        );
    }
    None
}
