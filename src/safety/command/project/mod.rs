//! Project and package tools: build tools, test runners, compilers, package managers and
//! container or cluster clients. None of them is harmless (they run the project's code or
//! change its dependencies); each says which subcommands need the network, which remove
//! packages or resources, which run code named by an option, and how many words the rule
//! pattern takes (`cargo test`, `npm run build`, `uv run pytest`). `make` and the JavaScript
//! package managers' scripts are analysed by content (`makefile`, `package_json`).

pub(super) mod tables;

use super::analysis::{Analysis, Stdin};
use super::flags::{has_long, has_short};
use super::words::Arg;
use super::{Risk, make, package_json, tools};
use tables::{CARGO_BUILTIN, NETWORK, OTHERS, SUBCOMMANDS, subcommand};

pub(super) fn is_tool(prog: &str) -> bool {
    SUBCOMMANDS.contains(&prog) || OTHERS.contains(&prog)
}

/// `words[from..]` are the tool's arguments; `words[..from]` what ran it (`python -m`).
pub(super) fn tool(a: &mut Analysis, prog: &str, words: &[Arg], from: usize, stdin: Stdin, depth: usize) {
    let args = &words[from..];
    let sub_at = subcommand(args);
    let sub = sub_at.and_then(|i| args[i].lit()).unwrap_or("");
    if sub_at.is_some_and(|i| !args[i].literal) {
        return a.flag(Risk::Unknown, format!("{prog} subcommand is not literal"));
    }
    if SUBCOMMANDS.contains(&prog) {
        a.pattern_len(from + sub_at.map_or(0, |i| i + 1));
    }
    if args
        .iter()
        .any(|w| matches!(w.text.as_str(), "--version" | "-V" | "--help" | "-h"))
        && args.len() == 1
    {
        return;
    }
    if let Some((_, subs)) = NETWORK.iter().find(|(t, _)| *t == prog)
        && (subs.contains(&"*") || subs.contains(&sub))
        && !args
            .iter()
            .any(|w| w.text == "--no-index" || w.text == "--offline" || (prog == "mvn" && w.text == "-o"))
    {
        a.network(format!("{prog} {sub}").trim_end().to_owned());
    }
    removals(a, prog, sub, args);
    match prog {
        "make" | "gmake" => return make::make(a, words, from, depth),
        "npm" | "pnpm" | "yarn" | "bun" => {
            if package_json::is_script_run(prog, sub) {
                return package_json::run(a, prog, words, from, depth);
            }
            if matches!(sub, "exec" | "x" | "dlx" | "create") {
                a.pattern_len(from + sub_at.map_or(1, |i| i + 2));
                return a.unvetted(&format!("runs a package from the registry ({prog} {sub})"), true);
            }
            if sub == "config" || sub == "set" {
                config(a, prog, args);
            }
            if has_short(args, 'g') || has_long(args, &["--global", "--location=global"]) {
                a.opaque(&format!(
                    "installs or changes packages globally, outside the project ({prog} -g)"
                ));
            }
        }
        "npx" | "pnpx" | "bunx" | "uvx" => {
            a.pattern_len(from + sub_at.map_or(0, |i| i + 1));
            return a.unvetted(&format!("runs a package from the registry ({prog})"), true);
        }
        "uv" | "poetry" | "pipenv" | "pdm" | "hatch" | "bundle" if matches!(sub, "run" | "exec") => {
            let inner = sub_at.map_or(&[][..], |i| &args[i + 1..]);
            return a.peel(inner, stdin, depth);
        }
        "cargo" => {
            if has_long(args, &["--config"]) {
                a.flag(Risk::Unknown, "cargo --config may name a program to run");
            }
            if !CARGO_BUILTIN.contains(&sub) {
                a.flag(Risk::Unknown, format!("runs the cargo plugin cargo-{sub}"));
            }
        }
        "go" if sub == "generate" || has_long(args, &["-toolexec", "--toolexec", "-exec", "--exec"]) => {
            a.flag(
                Risk::Unknown,
                "go runs programs named in the code or an option (go generate, -exec)",
            );
        }
        "docker" | "podman" => a.flag(Risk::Unknown, format!("{prog} talks to a daemon outside the sandbox")),
        "deno" if matches!(sub, "run" | "eval" | "x" | "repl" | "serve" | "task" | "test" | "bench") => {
            a.pattern_len(from + sub_at.map_or(1, |i| i + 2));
            return a.unvetted(&format!("runs a deno program ({prog} {sub})"), true);
        }
        "gcc" | "g++" | "cc" | "c++" | "clang" | "clang++" | "ld" | "pandoc" | "rustc" => {
            return tools::compiler(a, prog, args);
        }
        _ => {}
    }
    let what = if sub.is_empty() {
        prog.to_owned()
    } else {
        format!("{prog} {sub}")
    };
    a.unvetted(&format!("runs the project's code or a package tool ({what})"), false);
}

/// Global uninstalls and removals of packages, containers, cluster objects, infrastructure.
fn removals(a: &mut Analysis, prog: &str, sub: &str, args: &[Arg]) {
    let words: Vec<&str> = args
        .iter()
        .map(|w| w.text.as_str())
        .filter(|t| !t.starts_with('-'))
        .collect();
    let global = has_short(args, 'g') || has_long(args, &["--global"]);
    let removes = match prog {
        "pip" | "pip3" | "pipx" => sub == "uninstall",
        "uv" => sub == "pip" && words.get(1) == Some(&"uninstall"),
        "npm" | "pnpm" | "yarn" | "bun" => {
            matches!(sub, "uninstall" | "remove" | "rm" | "un" | "r" | "unlink") && global
        }
        "apt" | "apt-get" | "aptitude" | "dnf" | "yum" | "zypper" | "apk" => {
            matches!(sub, "remove" | "purge" | "autoremove" | "erase" | "del")
        }
        "brew" => matches!(sub, "uninstall" | "remove" | "rm"),
        "pacman" => args.iter().any(|w| w.text.starts_with("-R")),
        "snap" | "gem" | "cargo" => sub == "uninstall" || (prog == "snap" && sub == "remove"),
        "kubectl" => matches!(sub, "delete" | "drain" | "replace"),
        "terraform" => sub == "destroy" || (sub == "apply" && has_long(args, &["-auto-approve", "--auto-approve"])),
        "helm" => matches!(sub, "uninstall" | "delete" | "rollback"),
        "docker" | "podman" => words
            .iter()
            .take(2)
            .any(|w| matches!(*w, "rm" | "rmi" | "prune" | "kill" | "down")),
        _ => false,
    };
    if removes {
        let what = words.iter().take(2).copied().collect::<Vec<_>>().join(" ");
        let reason = match prog {
            "kubectl" | "terraform" | "helm" | "docker" | "podman" => {
                format!("deletes or replaces resources ({prog} {what})")
            }
            _ => format!("uninstalls packages ({prog} {sub})"),
        };
        a.flag(Risk::Destructive, reason);
    }
}

/// `npm config set …` / `npm set …` write the user's `~/.npmrc` (or the project's with
/// `--location project`), which can name a shell or node options for every later script.
fn config(a: &mut Analysis, prog: &str, args: &[Arg]) {
    let writes = args
        .iter()
        .any(|w| matches!(w.text.as_str(), "set" | "delete" | "edit" | "rm" | "fix"));
    if !writes {
        return;
    }
    let project = args
        .iter()
        .any(|w| w.text == "--location=project" || w.text == "project");
    let file = match (prog, project) {
        ("yarn", _) => a.cx.home.join(".yarnrc"),
        (_, true) => a.cwd().join(".npmrc"),
        _ => a.cx.home.join(".npmrc"),
    };
    a.write(
        &Arg::literal(&file.display().to_string()),
        false,
        &format!("{prog} config"),
    );
}
