//! Network clients. Each needs the network (a concern of its own: commands run without it
//! unless the user allows it). On top: sending local data (`curl` uploads and `@file` bodies,
//! `wget --post-file`, `nc`/`socat` fed from a file or pipe, `scp`/`rsync`/`sftp` to a remote
//! host), options that run programs (`ssh -o ProxyCommand`, `rsync -e`, `nc -e`, `scp -S`),
//! commands run on another host (`ssh host cmd`), and downloads recorded as writes.

use super::Risk;
use super::analysis::{Analysis, Stdin};
use super::flags::{has_long, option_arg, positional};
use super::options::{self, Table, short_bundle};
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
/// curl options that write the file named in their value.
const CURL_WRITES: &[&str] = &[
    "-o",
    "--output",
    "-D",
    "--dump-header",
    "-c",
    "--cookie-jar",
    "--trace",
    "--trace-ascii",
    "--stderr",
    "--libcurl",
    "--etag-save",
    "--hsts",
    "--alt-svc",
];

const SSH: Table = Table::new("46AaCfGgKkMNnqsTtVvXxYy", "BbcDEeFIiJLlmOoPpQRSWw");
/// `-o` settings of ssh/scp/sftp that run a local program or read another config.
const SSH_RUNS: &[&str] = &[
    "proxycommand",
    "localcommand",
    "permitlocalcommand",
    "knownhostscommand",
    "match",
    "include",
    "proxyjump",
    "remotecommand",
    "securitykeyprovider",
    "pkcs11provider",
];

pub(super) fn network(a: &mut Analysis, prog: &str, args: &[Arg], stdin: Stdin, depth: usize) {
    match prog {
        "curl" => curl(a, args),
        "wget" => wget(a, args),
        "nc" | "ncat" | "netcat" | "telnet" => {
            if has_long(args, &["--exec", "--sh-exec", "--lua-exec"])
                || args.iter().any(|w| w.text == "-e" || w.text == "-c")
            {
                a.flag(Risk::Unknown, format!("{prog} runs a program for the connection"));
            }
            if stdin != Stdin::Inherited {
                a.flag(
                    Risk::Destructive,
                    format!("sends local data to the network ({prog} fed from a file or pipe)"),
                );
            }
            a.unvetted(&format!("opens a network connection ({prog})"), false);
        }
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
            a.unvetted("opens a network connection (socat)", false);
        }
        "scp" | "rsync" | "sftp" | "ftp" => return copy(a, prog, args, depth),
        "ssh" => ssh(a, args),
        "mosh" => a.flag(Risk::Unknown, "opens a shell on another host (mosh)"),
        "http" | "https" => {
            if args
                .iter()
                .skip(1)
                .any(|w| w.text.contains('@') && !w.text.starts_with('-'))
            {
                a.flag(
                    Risk::Destructive,
                    "sends a local file to the network (httpie field@file)",
                );
            }
            if args
                .iter()
                .any(|w| matches!(w.text.as_str(), "-d" | "--download" | "-o" | "--output"))
            {
                a.unvetted("downloads a file (httpie --download)", false);
            }
        }
        "aria2c" => a.unvetted("downloads files (aria2c)", false),
        // ping, dig, host, nslookup, traceroute, whois: they only print.
        _ => {}
    }
    a.network(prog);
}

/// `host:path` or `user@host:path` (not `./a:b` or `/a:b`).
fn is_remote(text: &str) -> bool {
    match text.split_once(':') {
        Some((host, _)) => !host.is_empty() && !host.contains('/'),
        None => text.starts_with("rsync://"),
    }
}

/// `scp`/`rsync`/`sftp`/`ftp`: to or from another host; a local destination is a write.
fn copy(a: &mut Analysis, prog: &str, args: &[Arg], depth: usize) {
    if prog == "rsync"
        && args
            .iter()
            .any(|w| w.text.starts_with("--delete") || w.text.starts_with("--remove-source"))
    {
        a.flag(Risk::Destructive, "deletes files (rsync --delete)");
    }
    if prog == "rsync"
        && let Some(rsh) = option_arg(args, "--rsh", Some("-e"))
    {
        match rsh.lit() {
            Some(text) => a.script(text, depth + 1),
            None => a.flag(Risk::Unknown, "rsync -e names a program that is not literal"),
        }
    }
    if prog == "rsync"
        && has_long(
            args,
            &[
                "--rsync-path",
                "--daemon",
                "--config",
                "--files-from",
                "--password-file",
            ],
        )
    {
        a.flag(Risk::Unknown, "rsync runs or reads something named by an option");
    }
    if prog != "rsync" && ssh_options_run(args) {
        a.flag(Risk::Unknown, format!("{prog} runs a local program named by an option"));
    }
    let operands = positional(
        args,
        &["-e", "-i", "-P", "-o", "-F", "-l", "-c", "-J", "-S", "-b", "-D", "-s"],
    );
    if matches!(prog, "sftp" | "ftp") || operands.iter().any(|o| is_remote(&o.text)) || !args.iter().all(|w| w.literal)
    {
        a.network(prog);
    }
    let remote_target = operands.last().is_some_and(|t| is_remote(&t.text));
    if prog == "sftp" || prog == "ftp" || remote_target && operands.len() > 1 {
        a.flag(Risk::Destructive, format!("sends files to a remote host ({prog})"));
    } else if let Some(dest) = operands.last().filter(|_| operands.len() > 1)
        && a.write(dest, false, prog)
    {
        a.flag(
            Risk::Destructive,
            format!("overwrites existing files: {} ({prog})", dest.text),
        );
    }
}

/// ssh/scp/sftp options that run a local program: `-o ProxyCommand=…`, `-F config`,
/// `-S program` (scp, sftp), `-D sftp-server` (sftp).
fn ssh_options_run(args: &[Arg]) -> bool {
    let mut it = args.iter();
    while let Some(w) = it.next() {
        let t = w.text.as_str();
        let setting = match t {
            "-o" => it.next().map(|v| v.text.to_ascii_lowercase()),
            "-F" | "-S" | "-D" => return true,
            _ if t.starts_with("-o") => Some(t[2..].to_ascii_lowercase()),
            _ if t.starts_with("-F") || t.starts_with("-S") => return true,
            _ => None,
        };
        if setting.is_some_and(|s| SSH_RUNS.iter().any(|k| s.trim_start().starts_with(k))) {
            return true;
        }
    }
    false
}

/// `ssh [options] host [command…]`: the command runs on the other host, out of reach.
fn ssh(a: &mut Analysis, args: &[Arg]) {
    if ssh_options_run(args) {
        a.flag(Risk::Unknown, "ssh runs a local program named by an option");
    }
    let parsed = match options::parse(args, &SSH) {
        Ok(p) => p,
        Err(option) => return a.flag(Risk::Unknown, format!("ssh: option not understood: {option}")),
    };
    match args.len().saturating_sub(parsed.rest) {
        0 => {}
        1 => a.unvetted("opens a shell on another host (ssh)", false),
        _ => a.flag(Risk::Unknown, "runs a command on another host (ssh host command)"),
    }
}

fn wget(a: &mut Analysis, args: &[Arg]) {
    if has_long(args, &["--post-file", "--body-file"]) {
        a.flag(
            Risk::Destructive,
            "sends a local file to the network (wget --post-file)",
        );
    }
    if let Some(file) = option_arg(args, "--input-file", Some("-i")) {
        super::secrets::check_read(a, &file, "wget -i");
    }
    for (long, short, truncates) in [
        ("--output-file", Some("-o"), true),
        ("--append-output", Some("-a"), false),
    ] {
        if let Some(log) = option_arg(args, long, short) {
            a.write(&log, truncates, "wget log");
        }
    }
    match option_arg(args, "--output-document", Some("-O")) {
        Some(out) => {
            a.write(&out, true, "wget -O");
        }
        None => a.unvetted("writes a file named by the URL (wget)", false),
    }
}

/// curl's short options that take a value.
const CURL_VALUED: &str = "AbcCdDeEFHKmorTuUwxXyYzQtP";
/// curl's long options that take a value (those the checks below read, and common ones).
const CURL_LONG_VALUED: &[&str] = &[
    "--user-agent",
    "--cookie",
    "--continue-at",
    "--referer",
    "--cert",
    "--header",
    "--max-time",
    "--range",
    "--user",
    "--proxy-user",
    "--write-out",
    "--proxy",
    "--request",
    "--speed-limit",
    "--speed-time",
    "--time-cond",
    "--quote",
    "--telnet-option",
    "--proxytunnel",
    "--connect-timeout",
    "--retry",
    "--cacert",
    "--capath",
    "--key",
    "--resolve",
    "--url",
    "--max-filesize",
    "--limit-rate",
    "--interface",
    "--netrc-file",
    "--retry-delay",
    "--retry-max-time",
    "--unix-socket",
    "--abstract-unix-socket",
    "--oauth2-bearer",
    "--data-raw",
    "--variable",
    "--expand-data",
    "--output-dir",
];

/// curl's options as (name, value) pairs: long `--x=v`/`--x v`, short bundles (`-sSLo f`).
fn curl_options(args: &[Arg]) -> Vec<(String, Option<Arg>)> {
    let mut out = Vec::new();
    let mut i = 0;
    let takes = |name: &str| {
        CURL_DATA.contains(&name)
            || CURL_FORM.contains(&name)
            || CURL_UPLOAD.contains(&name)
            || CURL_WRITES.contains(&name)
            || CURL_LONG_VALUED.contains(&name)
            || name == "--config"
    };
    while let Some(w) = args.get(i) {
        i += 1;
        let t = w.text.as_str();
        if t == "--" {
            break;
        }
        if let Some(long) = t.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (format!("--{n}"), Some(v)),
                None => (t.to_owned(), None),
            };
            let value = match inline {
                Some(v) => Some(w.part(v)),
                None if takes(&name) => {
                    i += 1;
                    args.get(i - 1).cloned()
                }
                None => None,
            };
            out.push((name, value));
        } else if t.len() > 1 && t.starts_with('-') {
            let letters = short_bundle(w, CURL_VALUED, args, &mut i);
            out.extend(letters.into_iter().map(|(c, value)| (format!("-{c}"), value)));
        }
    }
    out
}

fn curl(a: &mut Analysis, args: &[Arg]) {
    let mut sends: Option<String> = None;
    for (name, value) in curl_options(args) {
        let name = name.as_str();
        if matches!(
            name,
            "-O" | "--remote-name" | "--remote-name-all" | "-J" | "--remote-header-name"
        ) {
            a.unvetted("writes a file named by the URL (curl -O)", false);
        }
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
        } else if name == "--output-dir" {
            a.unvetted("writes into a directory named by an option (curl --output-dir)", false);
        } else if let Some(target) = value.filter(|_| CURL_WRITES.contains(&name)) {
            a.write(&target, true, &format!("curl {name}"));
        }
    }
    if let Some(reason) = sends {
        a.flag(Risk::Destructive, reason);
    }
}
