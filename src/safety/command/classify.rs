//! One program's effect: dispatch by (literal, decoded) program name to the per-area rules,
//! plus the small option helpers they share. Programs we know nothing about are Safe (an
//! unknown program is still a literal, visible program; read-only mode excludes it).

use super::walk::{Analysis, Stdin};
use super::words::Arg;
use super::{Risk, files, git, hardline, net, runners, secrets, system};

pub(super) fn simple(a: &mut Analysis, prog: &str, args: &[Arg], stdin: Stdin, depth: usize) {
    if a.in_function_named(prog) {
        a.flag(Risk::Hardline, format!("fork bomb (function {prog} spawns itself)"));
    }
    hardline::check(a, prog, args);
    secrets::check_args(a, prog, args);
    match prog {
        "rm" | "unlink" | "shred" | "truncate" | "rmdir" => files::delete(a, prog, args),
        "cp" | "mv" | "install" | "ln" => files::copy(a, prog, args),
        "dd" => files::dd(a, args),
        "sed" | "gsed" => {
            files::sed(a, args);
            runners::sed_script(a, args);
        }
        "awk" | "gawk" | "mawk" | "nawk" => runners::awk(a, args),
        "docker" | "podman" | "kubectl" | "terraform" | "helm" => containers(a, prog, args),
        "tee" => files::tee(a, args),
        "touch" | "mkdir" | "mkfifo" | "mknod" => files::create(a, prog, args),
        "chmod" | "chown" | "chgrp" | "chattr" | "setfacl" => files::permissions(a, prog, args),
        "tar" | "bsdtar" | "gtar" if has_long(args, &["--remove-files"]) => {
            a.flag(Risk::Destructive, "deletes files after archiving (tar --remove-files)")
        }
        "zip" if has_short(args, 'm') || has_long(args, &["--move"]) => {
            a.flag(Risk::Destructive, "deletes files after archiving (zip -m)")
        }
        "git" => git::git(a, args, depth),
        "kill" | "pkill" | "killall" | "killall5" | "skill" | "slay" => system::kill(a, prog, args),
        "crontab" | "at" | "batch" | "atrm" | "systemctl" | "launchctl" | "service" | "update-rc.d" | "chkconfig" => {
            system::services(a, prog, args)
        }
        "curl" | "wget" | "nc" | "ncat" | "netcat" | "socat" | "scp" | "sftp" | "rsync" | "ftp" | "telnet" => {
            net::network(a, prog, args, stdin)
        }
        "printenv" | "set" | "export" | "declare" | "typeset" | "echo" | "printf" | "compgen" => {
            secrets::printing(a, prog, args)
        }
        "pip" | "pip3" | "npm" | "pnpm" | "yarn" | "apt" | "apt-get" | "dnf" | "yum" | "brew" | "cargo" | "gem"
        | "snap" | "pacman" | "uv" => packages(a, prog, args),
        _ => {}
    }
}

/// Global uninstalls and removals; installs are left to the policy (they are recoverable).
fn packages(a: &mut Analysis, prog: &str, args: &[Arg]) {
    let words: Vec<&str> = args
        .iter()
        .map(|w| w.text.as_str())
        .filter(|t| !t.starts_with('-'))
        .collect();
    let sub = words.first().copied().unwrap_or("");
    let global = has_short(args, 'g') || has_long(args, &["--global"]);
    let removes = match prog {
        "pip" | "pip3" => sub == "uninstall",
        "uv" => sub == "pip" && words.get(1) == Some(&"uninstall"),
        "npm" | "pnpm" | "yarn" => matches!(sub, "uninstall" | "remove" | "rm" | "un" | "r" | "unlink") && global,
        "apt" | "apt-get" | "dnf" | "yum" => matches!(sub, "remove" | "purge" | "autoremove" | "erase"),
        "brew" => matches!(sub, "uninstall" | "remove" | "rm"),
        "pacman" => args.iter().any(|w| w.text.starts_with("-R")),
        "snap" | "gem" | "cargo" => sub == "uninstall" || (prog == "snap" && sub == "remove"),
        _ => false,
    };
    if removes {
        a.flag(Risk::Destructive, format!("uninstalls packages ({prog} {sub})"));
    }
}

/// Deleting containers, images, volumes, cluster objects or infrastructure.
fn containers(a: &mut Analysis, prog: &str, args: &[Arg]) {
    let words: Vec<&str> = args
        .iter()
        .map(|w| w.text.as_str())
        .filter(|t| !t.starts_with('-'))
        .collect();
    let removes = match prog {
        "kubectl" => matches!(words.first(), Some(&("delete" | "drain" | "replace"))),
        "terraform" => {
            matches!(words.first(), Some(&"destroy"))
                || (words.first() == Some(&"apply") && has_long(args, &["-auto-approve", "--auto-approve"]))
        }
        "helm" => matches!(words.first(), Some(&("uninstall" | "delete" | "rollback"))),
        _ => {
            words
                .iter()
                .take(2)
                .any(|w| matches!(*w, "rm" | "rmi" | "prune" | "kill" | "down"))
                && !words.is_empty()
        }
    };
    if removes {
        a.flag(
            Risk::Destructive,
            format!(
                "deletes or replaces resources ({prog} {})",
                words.iter().take(2).copied().collect::<Vec<_>>().join(" ")
            ),
        );
    }
}

/// Non-option arguments (everything after `--`), skipping the values of `with_value` options.
pub(super) fn positional<'w>(args: &'w [Arg], with_value: &[&str]) -> Vec<&'w Arg> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut options = true;
    while let Some(w) = args.get(i) {
        i += 1;
        if options && w.text == "--" {
            options = false;
        } else if options && w.text.starts_with('-') && w.text.len() > 1 {
            if with_value.contains(&w.text.as_str()) {
                i += 1;
            }
        } else {
            out.push(w);
        }
    }
    out
}

/// A short option letter in any bundle (`-rf` has `r`), before `--`.
pub(super) fn has_short(args: &[Arg], letter: char) -> bool {
    args.iter()
        .take_while(|w| w.text != "--")
        .any(|w| w.text.starts_with('-') && !w.text.starts_with("--") && w.text[1..].contains(letter))
}

/// A long option, bare or with `=value`, before `--`.
pub(super) fn has_long(args: &[Arg], names: &[&str]) -> bool {
    args.iter().take_while(|w| w.text != "--").any(|w| {
        names
            .iter()
            .any(|n| w.text == *n || w.text.strip_prefix(n).is_some_and(|r| r.starts_with('=')))
    })
}

/// The value of a long option (`--x=v` or `--x v`) or short one (`-o v`, `-ov`).
pub(super) fn option_value(args: &[Arg], long: &str, short: Option<&str>) -> Option<String> {
    let mut it = args.iter();
    while let Some(w) = it.next() {
        if w.text == long || short.is_some_and(|s| w.text == s) {
            return it.next().map(|v| v.text.clone());
        }
        if let Some(v) = w.text.strip_prefix(long).and_then(|r| r.strip_prefix('=')) {
            return Some(v.to_owned());
        }
        if let Some(v) = short.and_then(|s| w.text.strip_prefix(s)).filter(|v| !v.is_empty()) {
            return Some(v.to_owned());
        }
    }
    None
}

/// Names for reasons: the literal texts, shortened.
pub(super) fn names(args: &[&Arg]) -> String {
    let mut s: String = args.iter().map(|a| a.text.as_str()).collect::<Vec<_>>().join(" ");
    if s.len() > 80 {
        let cut = (0..=77).rev().find(|i| s.is_char_boundary(*i)).unwrap_or(0);
        s.truncate(cut);
        s.push('…');
    }
    s
}
