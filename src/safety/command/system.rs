//! Processes and scheduled work: `kill` is fine only for the session's own processes or job
//! specs (`kill -1` is hardline), `pkill`/`killall` always ask; `crontab` (but `-l`), `at`,
//! and `systemctl`/`service`/`launchctl` changes ask.

use super::Risk;
use super::analysis::Analysis;
use super::flags::positional;
use super::words::Arg;

pub(super) fn kill(a: &mut Analysis, prog: &str, args: &[Arg]) {
    if prog != "kill" {
        a.flag(Risk::Destructive, format!("kills processes by name ({prog})"));
        return;
    }
    if args
        .iter()
        .any(|w| matches!(w.text.as_str(), "-l" | "-L" | "--list" | "--table"))
    {
        return;
    }
    // The first word may be a signal (`-9`, `-KILL`, `-s KILL`, `-n 9`); after it, every
    // word is a target, and `-1` there means every process.
    let mut i = 0;
    let mut signal_given = false;
    while let Some(w) = args.get(i) {
        let t = w.text.as_str();
        if t == "--" {
            i += 1;
            break;
        }
        if matches!(t, "-s" | "-n" | "--signal") {
            i += 2;
            signal_given = true;
        } else if t.starts_with('-') && !signal_given && args.len() > i + 1 {
            i += 1;
            signal_given = true;
        } else {
            break;
        }
    }
    let targets = args.get(i..).unwrap_or(&[]);
    let mut foreign = Vec::new();
    for t in targets {
        match t.lit() {
            Some("-1") => a.flag(Risk::Hardline, "kills every process (kill -1)"),
            Some(j) if j.starts_with('%') => {}
            Some(p) if p.parse::<u32>().is_ok_and(|pid| a.cx.own_pids.contains(&pid)) => {}
            _ => foreign.push(t.text.as_str()),
        }
    }
    if !foreign.is_empty() {
        a.flag(
            Risk::Destructive,
            format!("kills processes the session did not start: {}", foreign.join(" ")),
        );
    }
}

pub(super) fn services(a: &mut Analysis, prog: &str, args: &[Arg]) {
    let operands = positional(args, &["-u", "-q", "-f", "-t", "-H", "-M", "--host", "--machine"]);
    let first = operands.first().map(|w| w.text.as_str());
    let reason = match prog {
        "crontab" => {
            let lists = args.iter().any(|w| w.text == "-l")
                && !args.iter().any(|w| matches!(w.text.as_str(), "-r" | "-e" | "-i"));
            (!lists).then(|| "edits scheduled jobs (crontab)".to_owned())
        }
        "at" | "batch" => (!args.iter().any(|w| w.text == "-l")).then(|| "schedules a job (at)".to_owned()),
        "atrm" => Some("removes scheduled jobs (atrm)".to_owned()),
        "systemctl" => match first {
            Some(
                "start" | "stop" | "restart" | "reload" | "try-restart" | "reload-or-restart" | "enable" | "disable"
                | "mask" | "unmask" | "kill" | "isolate" | "set-default" | "edit" | "revert" | "daemon-reload" | "link"
                | "preset" | "set-property" | "reset-failed" | "suspend" | "hibernate" | "rescue" | "emergency"
                | "default",
            ) => Some(format!("changes system services (systemctl {})", first.unwrap_or(""))),
            _ => None,
        },
        "launchctl" => (!matches!(
            first,
            Some("list" | "print" | "print-disabled" | "blame" | "version" | "help") | None
        ))
        .then(|| format!("changes launchd jobs (launchctl {})", first.unwrap_or(""))),
        "service" => {
            let action = operands.get(1).map(|w| w.text.as_str());
            (!matches!(action, Some("status") | None))
                .then(|| format!("changes system services (service {})", action.unwrap_or("")))
        }
        _ => Some(format!("changes services at boot ({prog})")),
    };
    if let Some(r) = reason {
        a.flag(Risk::Destructive, r);
    }
}
