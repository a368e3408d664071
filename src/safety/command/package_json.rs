//! `npm run X` / `npm test` / `npm start` / `yarn X` / `pnpm X` / `bun run X`: the script text
//! from `package.json` (read through `read_file`), with its `pre`/`post` scripts, analysed as
//! shell commands in the package's directory, as the host frame's commands. A `package.json`
//! that cannot be read or parsed, or a missing script, is unknown.

use std::path::PathBuf;

use serde_json::Value;

use super::Risk;
use super::analysis::Analysis;
use super::words::Arg;

/// yarn's and pnpm's own commands (anything else names a script).
const YARN_PNPM_BUILTIN: &[&str] = &[
    "",
    "add",
    "audit",
    "autoclean",
    "bin",
    "cache",
    "check",
    "config",
    "create",
    "dedupe",
    "dlx",
    "exec",
    "fetch",
    "generate-lock-entry",
    "global",
    "help",
    "import",
    "info",
    "init",
    "install",
    "i",
    "licenses",
    "link",
    "list",
    "ls",
    "login",
    "logout",
    "node",
    "outdated",
    "owner",
    "pack",
    "patch",
    "policies",
    "prune",
    "publish",
    "rebuild",
    "remove",
    "rm",
    "root",
    "server",
    "setup",
    "store",
    "tag",
    "team",
    "unlink",
    "unplug",
    "up",
    "update",
    "upgrade",
    "upgrade-interactive",
    "version",
    "versions",
    "why",
    "workspace",
    "workspaces",
    "env",
    "npm",
    "plugin",
    "explain",
    "set",
    "constraints",
    "search",
    "view",
    "doctor",
    "deploy",
    "approve-builds",
    "catalog",
];

/// bun's own commands (anything else names a script or a file).
const BUN_BUILTIN: &[&str] = &[
    "", "test", "x", "repl", "exec", "install", "i", "add", "a", "remove", "rm", "update", "outdated", "link",
    "unlink", "pm", "build", "init", "create", "upgrade", "publish", "patch", "audit", "info", "why",
];

/// Whether `prog sub` runs a `package.json` script.
pub(super) fn is_script_run(prog: &str, sub: &str) -> bool {
    match prog {
        "npm" => matches!(
            sub,
            "run" | "run-script" | "rum" | "urn" | "test" | "t" | "tst" | "start" | "stop" | "restart"
        ),
        "bun" => sub == "run" || !BUN_BUILTIN.contains(&sub),
        _ => matches!(sub, "run" | "test" | "t" | "start") || !YARN_PNPM_BUILTIN.contains(&sub),
    }
}

/// The script name and its index in `args`.
fn script_name(args: &[Arg], sub_at: usize) -> Option<(String, usize)> {
    let sub = args[sub_at].text.as_str();
    let named = match sub {
        "test" | "t" | "tst" => Some("test"),
        "start" | "stop" | "restart" => Some(sub),
        "run" | "run-script" | "rum" | "urn" => None,
        _ => return Some((sub.to_owned(), sub_at)),
    };
    match named {
        Some(name) => Some((name.to_owned(), sub_at)),
        None => {
            let at = (sub_at + 1..args.len()).find(|&i| !args[i].text.starts_with('-'))?;
            Some((args[at].text.clone(), at))
        }
    }
}

/// The package directory an option points at (`--prefix`, `-C`/`--dir`, `--cwd`).
fn package_dir(a: &Analysis, args: &[Arg]) -> Result<PathBuf, String> {
    let mut dir = a.cwd().to_path_buf();
    for (i, w) in args.iter().enumerate() {
        let value = match w.text.as_str() {
            "--prefix" | "-C" | "--dir" | "--cwd" => args.get(i + 1),
            t if t.starts_with("--prefix=") || t.starts_with("--dir=") || t.starts_with("--cwd=") => Some(w),
            _ => continue,
        };
        let text = value.and_then(Arg::lit).ok_or("the package directory is not literal")?;
        let text = text
            .split_once('=')
            .filter(|_| text.starts_with("--"))
            .map_or(text, |(_, v)| v);
        dir = super::paths::resolve(text, &dir, a.cx.home);
    }
    Ok(dir)
}

pub(super) fn run(a: &mut Analysis, prog: &str, words: &[Arg], from: usize, depth: usize) {
    let args = &words[from..];
    let Some(sub_at) = super::project::tables::subcommand(args) else {
        return;
    };
    let Some((name, at)) = script_name(args, sub_at) else {
        return a.unvetted(&format!("{prog} run without a script name lists the scripts"), false);
    };
    a.pattern_len(from + at + 1);
    a.host();
    if !args[at].literal {
        return a.flag(Risk::Unknown, format!("{prog} runs a script whose name is not literal"));
    }
    let dir = match package_dir(a, args) {
        Ok(dir) => dir,
        Err(why) => return a.flag(Risk::Unknown, why),
    };
    let Some(text) = a.read(&dir.join("package.json")) else {
        return a.unvetted(
            &format!("runs a package.json script the analysis cannot read: {name}"),
            true,
        );
    };
    let Ok(package) = serde_json::from_str::<Value>(&text) else {
        return a.unvetted("runs a script from a package.json that does not parse", true);
    };
    let scripts = package.get("scripts").and_then(Value::as_object);
    let script = |key: &str| {
        scripts
            .and_then(|s| s.get(key))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let mut texts: Vec<String> = Vec::new();
    let names: Vec<String> = match (name.as_str(), script(&name)) {
        ("restart", None) => vec!["stop".into(), "start".into()],
        _ => vec![name.clone()],
    };
    for n in &names {
        match script(n) {
            Some(main) => {
                texts.extend(script(&format!("pre{n}")));
                texts.push(with_arguments(&main, &args[at + 1..]));
                texts.extend(script(&format!("post{n}")));
            }
            None if n == "start" => texts.push("node server.js".into()),
            None => return a.unvetted(&format!("package.json has no script {n}"), true),
        }
    }
    a.in_dir(dir, |a| {
        for text in &texts {
            a.script(text, depth + 1);
        }
    });
}

/// The script with the arguments given after it (`npm run test -- --watch`), quoted.
fn with_arguments(script: &str, args: &[Arg]) -> String {
    let mut out = script.to_owned();
    for w in args.iter().filter(|w| w.text != "--") {
        out.push(' ');
        if w.literal {
            out.push('\'');
            out.push_str(&w.text.replace('\'', "'\\''"));
            out.push('\'');
        } else {
            out.push_str("\"${PACKAGE_ARGUMENT}\"");
        }
    }
    out
}
