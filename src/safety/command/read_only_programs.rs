//! Which simple commands only read (the leaf safety layer owns it): a fixed list of reading programs, plus the read-only
//! forms of `find`, `rg`, `sort`, `sed`, `git` and a few others whose options can write
//! files or run programs.

/// Environment prefixes that only change formatting or locale.
fn harmless_assignment(word: &str) -> bool {
    let Some((name, _)) = word.split_once('=') else {
        return false;
    };
    name.starts_with("LC_")
        || matches!(
            name,
            "LANG" | "LANGUAGE" | "TZ" | "NO_COLOR" | "TERM" | "COLUMNS" | "LINES"
        )
}

/// Checksum programs: they read the files they name and print only a digest, so they change
/// nothing and never show a file's contents (the secrets check lets them name secret files).
pub(super) const DIGESTS: &[&str] = &[
    "md5sum",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "b2sum",
    "b3sum",
    "cksum",
    "sum",
];

/// Whether `program` only reads whatever its arguments.
pub(super) fn always_reads(program: &str) -> bool {
    ALWAYS_READ.contains(&program) || DIGESTS.contains(&program)
}

/// Programs that only read whatever their arguments (with [`DIGESTS`]).
const ALWAYS_READ: &[&str] = &[
    "ls", "cat", "head", "tail", "wc", "pwd", "echo", "printf", "which", "whereis", "type", "stat", "du", "df",
    "basename", "dirname", "realpath", "readlink", "true", "false", "test", "[", "diff", "cmp", "comm", "nl", "od",
    "hexdump", "strings", "cut", "tr", "rev", "tac", "column", "fold", "paste", "expand", "unexpand", "seq", "whoami",
    "id", "groups", "uname", "printenv", "nproc", "free", "uptime", "ps", "grep", "egrep", "fgrep", "jq", "cd",
    "pushd", "popd", "dirs", "lsof", "locale", "arch", "zcat", "bzcat", "xzcat", "zstdcat", "lz4cat", "dir", "vdir",
    "fmt", "pr", "join", "look", "hd", "pathchk", "lsattr", "getfacl", "namei", "pidof", "pgrep", "tsort", "base64",
    "base32", "basenc",
];

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
    })
}

pub(crate) fn simple_command_reads(words: &[String]) -> bool {
    let prefix = words.iter().take_while(|w| is_assignment(w)).count();
    // An assignment such as PAGER=… or GIT_EXTERNAL_DIFF=… can change what runs.
    if !words[..prefix].iter().all(|w| harmless_assignment(w)) {
        return false;
    }
    let words: Vec<&str> = words[prefix..].iter().map(String::as_str).collect();
    let Some((&program, args)) = words.split_first() else {
        return true;
    };
    if program.contains('/') {
        return false; // `./ls` may be anything
    }
    let has = |options: &[&str]| {
        args.iter()
            .any(|a| options.iter().any(|o| a == o || a.starts_with(&format!("{o}="))))
    };
    match program {
        p if always_reads(p) => true,
        "env" | "hostname" => args.is_empty(),
        "date" => !args.iter().any(|a| a.starts_with("-s") || a.starts_with("--set")),
        "find" => !has(&[
            "-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls",
        ]),
        "fd" | "fdfind" => !has(&["-x", "--exec", "-X", "--exec-batch"]),
        "rg" => !has(&["--pre", "--hostname-bin"]),
        "sort" => !has(&["--output", "--compress-program"]) && !short_flag_bundle_has(args, 'o'),
        "tree" => !short_flag_bundle_has(args, 'o'),
        "file" => !short_flag_bundle_has(args, 'C'),
        "uniq" => args.iter().filter(|a| !a.starts_with('-')).count() <= 1,
        "sed" => sed_reads(args),
        "git" => git_reads(args),
        _ => false,
    }
}

/// Whether a short option bundle (`-uo`) contains `letter`.
fn short_flag_bundle_has(args: &[&str], letter: char) -> bool {
    args.iter()
        .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains(letter))
}

/// Only the printing forms agents use to read a range: `sed -n '10,20p' file`, `sed 5q`.
fn sed_reads(args: &[&str]) -> bool {
    let script_ok = |s: &str| {
        let s = s.trim();
        let address = |a: &str| a == "$" || (!a.is_empty() && a.chars().all(|c| c.is_ascii_digit()));
        if let Some(body) = s.strip_suffix('p') {
            body.split(',').count() <= 2 && body.split(',').all(address)
        } else {
            s.strip_suffix('q')
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        }
    };
    let mut scripts = 0;
    let mut iter = args.iter().peekable();
    while let Some(arg) = iter.next() {
        match *arg {
            "-n" | "--quiet" | "--silent" | "-E" | "-r" | "--regexp-extended" => {}
            "-e" => match iter.next() {
                Some(s) if script_ok(s) => scripts += 1,
                _ => return false,
            },
            a if a.starts_with('-') => return false,
            a if scripts == 0 => {
                if !script_ok(a) {
                    return false;
                }
                scripts += 1;
            }
            _ => {} // input files
        }
    }
    scripts > 0
}

fn git_reads(args: &[&str]) -> bool {
    let mut rest = args;
    // Global options: only `-C <dir>` and pager switches; `-c` could inject config that runs code.
    loop {
        match rest {
            ["-C", _, tail @ ..] => rest = tail,
            ["--no-pager" | "-P", tail @ ..] => rest = tail,
            _ => break,
        }
    }
    let Some((&sub, sub_args)) = rest.split_first() else {
        return false;
    };
    // `--output` writes a file; `--ext-diff` and `grep -O` (open in pager) run programs.
    if sub_args.iter().any(|a| {
        a.starts_with("--output")
            || a.starts_with("--open-files-in-pager")
            || *a == "--ext-diff"
            || (sub == "grep" && a.starts_with("-O"))
    }) {
        return false;
    }
    let positional: Vec<&&str> = sub_args.iter().filter(|a| !a.starts_with('-')).collect();
    match sub {
        "status" | "log" | "diff" | "show" | "blame" | "ls-files" | "ls-tree" | "rev-parse" | "describe"
        | "shortlog" | "grep" | "cat-file" | "rev-list" | "show-ref" | "whatchanged" => true,
        "branch" => {
            let listing = [
                "-a",
                "-r",
                "-v",
                "-vv",
                "--list",
                "-l",
                "--all",
                "--remotes",
                "--show-current",
                "--contains",
                "--merged",
                "--no-merged",
                "--verbose",
                "--sort",
                "--format",
                "--color",
                "--no-color",
            ];
            sub_args
                .iter()
                .all(|a| !a.starts_with('-') || listing.iter().any(|l| a == l || a.starts_with(&format!("{l}="))))
                && (positional.is_empty()
                    || sub_args
                        .iter()
                        .any(|a| matches!(*a, "--list" | "-l" | "--contains" | "--merged" | "--no-merged")))
        }
        "tag" => {
            let listing = sub_args.iter().any(|a| matches!(*a, "-l" | "--list"));
            let writes = sub_args
                .iter()
                .any(|a| matches!(*a, "-d" | "--delete" | "-a" | "-s" | "-f"));
            sub_args.is_empty() || (listing && !writes)
        }
        "remote" => sub_args.is_empty() || matches!(sub_args, ["-v"] | ["--verbose"] | ["get-url", ..] | ["show", ..]),
        "stash" => matches!(sub_args.first(), Some(&"list" | &"show")),
        "worktree" => matches!(sub_args.first(), Some(&"list")),
        "reflog" => sub_args.is_empty() || sub_args.first() == Some(&"show"),
        "config" => {
            let plain_options = sub_args
                .iter()
                .all(|a| !a.starts_with('-') || matches!(*a, "--global" | "--local" | "--show-origin"));
            let first = positional.first().map(|p| **p);
            sub_args
                .iter()
                .any(|a| matches!(*a, "--get" | "--get-all" | "--get-regexp" | "--list" | "-l"))
                || matches!(first, Some("get" | "list"))
                || (positional.len() == 1 && plain_options && !matches!(first, Some("set" | "unset" | "edit")))
        }
        _ => false,
    }
}
