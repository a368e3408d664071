//! What a git subcommand destroys that `/undo` may not restore: uncommitted work, branches,
//! stashes, reflogs, unreachable objects, remote branches — in every spelling git accepts
//! (abbreviated long options included: `--har` is `--hard`), plumbing that rewrites the work
//! tree or refs (`read-tree -u`, `checkout-index -f`, `update-ref`) and patches applied to it.

use super::super::analysis::Analysis;
use super::super::flags::{first_positional, has_short, names, positional};
use super::super::options::has_long_prefix as long;
use super::super::words::Arg;

/// What a subcommand destroys that `/undo` may not restore: uncommitted work, branches,
/// stashes, reflogs, unreachable objects, remote branches.
pub(super) fn destructive(a: &Analysis, name: &str, rest: &[Arg]) -> Option<String> {
    let short = |c| has_short(rest, c);
    let sub = first_positional(rest);
    match name {
        "reset" if long(rest, &["--hard", "--merge", "--keep"]) => {
            Some("discards uncommitted changes (git reset --hard)".into())
        }
        "checkout" => checkout(a, rest),
        "switch" if short('f') || short('C') || long(rest, &["--force", "--discard-changes", "--force-create"]) => {
            Some("discards uncommitted changes (git switch --force)".into())
        }
        "restore" => {
            let staged_only = (short('S') || long(rest, &["--staged"])) && !(short('W') || long(rest, &["--worktree"]));
            (!staged_only).then(|| "discards working-tree changes (git restore)".into())
        }
        "clean" if (short('f') || long(rest, &["--force"])) && !(short('n') || long(rest, &["--dry-run"])) => {
            Some("deletes untracked files (git clean -f)".into())
        }
        "push" => push(rest),
        "branch" if short('D') || short('M') || short('C') || short('f') || long(rest, &["--force"]) => {
            Some("deletes or overwrites branches (git branch -D/-f)".into())
        }
        "stash" if matches!(sub, Some("drop" | "clear")) => {
            Some("deletes stashed changes (git stash drop/clear)".into())
        }
        "filter-branch" | "filter-repo" | "replace" => Some(format!("rewrites history (git {name})")),
        "reflog" if matches!(sub, Some("expire" | "delete")) => {
            Some("deletes reflog entries (git reflog expire)".into())
        }
        "gc" if rest.iter().any(|w| {
            w.text
                .split_once('=')
                .is_some_and(|(n, v)| n.len() > 3 && "--prune".starts_with(n) && matches!(v, "now" | "all"))
        }) =>
        {
            Some("prunes unreachable objects now (git gc --prune=now)".into())
        }
        "prune" => Some("prunes unreachable objects (git prune)".into()),
        "update-ref" if short('d') || long(rest, &["--stdin"]) || positional(rest, &["-m"]).len() >= 2 => {
            Some("deletes or rewrites refs (git update-ref)".into())
        }
        "read-tree" if short('u') || long(rest, &["--reset"]) => {
            Some("rewrites the working tree from a tree (git read-tree -u)".into())
        }
        "checkout-index" if short('f') || long(rest, &["--force"]) => {
            Some("overwrites working-tree files (git checkout-index -f)".into())
        }
        "tag" if short('d') || long(rest, &["--delete"]) || short('f') || long(rest, &["--force"]) => {
            Some("deletes or moves tags (git tag -d/-f)".into())
        }
        "rm" if short('f') || long(rest, &["--force"]) => {
            Some("deletes files with uncommitted changes (git rm -f)".into())
        }
        "worktree" if sub == Some("remove") && (short('f') || long(rest, &["--force"])) => {
            Some("deletes a worktree with changes (git worktree remove --force)".into())
        }
        "submodule" if matches!(sub, Some("deinit" | "update")) && (short('f') || long(rest, &["--force"])) => {
            Some(format!(
                "discards submodule changes (git submodule {} --force)",
                sub.unwrap_or("")
            ))
        }
        "apply" if !long(rest, &["--check", "--stat", "--numstat", "--summary", "--cached"]) => {
            Some("patches files in the working tree (git apply)".into())
        }
        "am" => Some("applies patches to the working tree and history (git am)".into()),
        _ => None,
    }
}

/// `git checkout -- paths`, `git checkout .`, `git checkout -f`, `-B`, `git checkout REV
/// paths`, or a single operand that names an existing file.
fn checkout(a: &Analysis, rest: &[Arg]) -> Option<String> {
    if has_short(rest, 'f') || long(rest, &["--force"]) || rest.iter().any(|w| w.text == "--") {
        return Some("discards working-tree changes (git checkout -f / -- paths)".into());
    }
    if has_short(rest, 'B') {
        return Some("resets a branch (git checkout -B)".into());
    }
    if has_short(rest, 'b') || long(rest, &["--orphan"]) {
        return None;
    }
    let operands = positional(rest, &["--conflict", "--pathspec-from-file"]);
    let names_a_file = |w: &&Arg| {
        w.lit()
            .is_none_or(|t| t == "." || t.contains(['*', '?']) || (a.cx.exists)(&a.resolve(t)))
    };
    if operands.len() > 1 || operands.iter().any(names_a_file) || long(rest, &["--pathspec-from-file"]) {
        return Some(format!(
            "discards working-tree changes: {} (git checkout paths)",
            names(&operands)
        ));
    }
    None
}

/// Force pushes, deletions, mirror pushes and `+`/`:` refspecs.
fn push(rest: &[Arg]) -> Option<String> {
    let forced = has_short(rest, 'f')
        || has_short(rest, 'd')
        || long(
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
    operands
        .iter()
        .skip(1)
        .any(|w| w.text.starts_with('+') || w.text.starts_with(':'))
        .then(|| "rewrites or deletes remote branches (git push +refspec/:branch)".into())
}
