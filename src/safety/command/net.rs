//! Sending local data to the network: `curl` uploads and `@file` bodies, `wget` post files,
//! `nc`/`ncat`/`socat` fed from a file or pipe, `scp`/`rsync`/`sftp` to a remote host (and
//! `rsync --delete`). Downloads are recorded as writes.

use super::Risk;
use super::classify::{has_long, option_value, positional};
use super::walk::{Analysis, Stdin};
use super::words::Arg;

const CURL_DATA: &[&str] = &[
    "-d",
    "--data",
    "--data-binary",
    "--data-urlencode",
    "--data-ascii",
    "--json",
];
const CURL_FORM: &[&str] = &["-F", "--form"];
const CURL_UPLOAD: &[&str] = &["-T", "--upload-file"];

pub(super) fn network(a: &mut Analysis, prog: &str, args: &[Arg], stdin: Stdin) {
    match prog {
        "curl" => curl(a, args),
        "wget" => {
            if has_long(args, &["--post-file", "--body-file"]) {
                a.flag(
                    Risk::Destructive,
                    "sends a local file to the network (wget --post-file)",
                );
            }
            if let Some(out) = option_value(args, "--output-document", Some("-O")) {
                a.write(
                    &Arg {
                        literal: args.iter().all(|w| w.text != out || w.literal),
                        ..Arg::literal(&out)
                    },
                    true,
                    "wget -O",
                );
            }
        }
        "nc" | "ncat" | "netcat" | "telnet" if stdin != Stdin::Inherited => a.flag(
            Risk::Destructive,
            format!("sends local data to the network ({prog} fed from a file or pipe)"),
        ),
        "socat" => {
            let local = args.iter().any(|w| {
                let up = w.text.to_ascii_uppercase();
                ["FILE:", "OPEN:", "GOPEN:", "EXEC:", "SYSTEM:", "CREATE:"]
                    .iter()
                    .any(|p| up.starts_with(p))
            });
            if local || stdin != Stdin::Inherited {
                a.flag(
                    Risk::Destructive,
                    "connects local files or programs to the network (socat)",
                );
            }
        }
        "scp" | "rsync" | "sftp" | "ftp" => {
            if prog == "rsync"
                && args
                    .iter()
                    .any(|w| w.text.starts_with("--delete") || w.text.starts_with("--remove-source"))
            {
                a.flag(Risk::Destructive, "deletes files (rsync --delete)");
            }
            let operands = positional(args, &["-e", "-i", "-P", "-o", "-F", "-l", "-c", "-J", "-S", "-b"]);
            let remote_target = operands.last().is_some_and(|t| is_remote(&t.text));
            if prog == "sftp" || prog == "ftp" || remote_target && operands.len() > 1 {
                a.flag(Risk::Destructive, format!("sends files to a remote host ({prog})"));
            } else if let Some(dest) = operands.last().filter(|_| operands.len() > 1) {
                a.write(dest, false, prog);
            }
        }
        _ => {}
    }
}

/// `host:path` or `user@host:path` (not `./a:b` or `/a:b`).
fn is_remote(text: &str) -> bool {
    match text.split_once(':') {
        Some((host, _)) => !host.is_empty() && !host.contains('/'),
        None => text.starts_with("rsync://"),
    }
}

fn curl(a: &mut Analysis, args: &[Arg]) {
    let mut sends: Option<String> = None;
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let t = w.text.as_str();
        let (name, inline) = match t.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_owned())),
            _ if t.len() > 2
                && !t.starts_with("--")
                && t.starts_with('-')
                && ["-d", "-F", "-T", "-o"].contains(&&t[..2]) =>
            {
                (&t[..2], Some(t[2..].to_owned()))
            }
            _ => (t, None),
        };
        let takes_value = CURL_DATA.contains(&name)
            || CURL_FORM.contains(&name)
            || CURL_UPLOAD.contains(&name)
            || matches!(name, "-o" | "--output" | "-K" | "--config");
        let value: Option<Arg> = match (&inline, takes_value) {
            (Some(v), _) => Some(Arg {
                text: v.clone(),
                ..w.clone()
            }),
            (None, true) => {
                i += 1;
                args.get(i - 1).cloned()
            }
            (None, false) => None,
        };
        let v = value.as_ref().map(|v| v.text.clone()).unwrap_or_default();
        if CURL_DATA.contains(&name) {
            // `@file`, `name@file` (urlencode), `@-` (stdin).
            if v.starts_with('@') || (name == "--data-urlencode" && v.contains('@') && !v.contains('=')) {
                sends = Some(format!("sends a local file to the network: {v} (curl {name})"));
            }
        } else if CURL_FORM.contains(&name) {
            if v.contains("=@") || v.contains("=<") {
                sends = Some(format!("sends a local file to the network: {v} (curl {name})"));
            }
        } else if CURL_UPLOAD.contains(&name) {
            sends = Some(format!("uploads a local file: {v} (curl {name})"));
        } else if matches!(name, "-K" | "--config") {
            sends = Some("reads options from a config file (curl -K)".to_owned());
        } else if let Some(target) = value.filter(|_| matches!(name, "-o" | "--output")) {
            a.write(&target, true, "curl -o");
        }
    }
    if let Some(reason) = sends {
        a.flag(Risk::Destructive, reason);
    }
}
