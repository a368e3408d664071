//! The hardline set, decided on decoded simple commands (so `$'\x72\x6d' -rf /` is caught):
//! deleting `/`, system directories or home; `mkfs`; `dd` onto raw block devices (redirects
//! to them are caught in `walk`); `kill -1` (in `system`); fork bombs (in `classify`);
//! shutdown, reboot, halt, poweroff, `init`/`telinit` 0/6, `systemctl poweroff/reboot`.

use std::path::Path;

use super::analysis::Analysis;
use super::flags::positional;
use super::words::Arg;
use super::{Risk, paths};

const SYSTEM_DIRS: &[&str] = &[
    "/home",
    "/root",
    "/etc",
    "/usr",
    "/var",
    "/bin",
    "/sbin",
    "/boot",
    "/lib",
    "/lib64",
    "/opt",
    "/srv",
    "/dev",
    "/proc",
    "/sys",
    "/System",
    "/Library",
    "/Users",
    "/Applications",
    "/private",
];

pub(super) fn check(a: &mut Analysis, prog: &str, args: &[Arg]) {
    let first = args.first().and_then(Arg::lit);
    let reason = match prog {
        "rm" => return delete_targets(a, args),
        p if p == "mkfs" || p.starts_with("mkfs.") || p == "mke2fs" || p == "wipefs" => {
            Some(format!("formats a filesystem ({p})"))
        }
        "dd" => args
            .iter()
            .filter_map(|w| w.lit()?.strip_prefix("of="))
            .find(|t| paths::is_block_device(t))
            .map(|t| format!("dd onto a raw block device: {t}")),
        "shutdown" | "reboot" | "halt" | "poweroff" => Some(format!("shuts the system down ({prog})")),
        "init" | "telinit" if matches!(first, Some("0" | "6")) => {
            Some(format!("shuts the system down ({prog} {})", first.unwrap_or("")))
        }
        "systemctl" => positional(args, &[])
            .first()
            .and_then(|w| w.lit())
            .filter(|s| matches!(*s, "poweroff" | "reboot" | "halt" | "kexec" | "soft-reboot"))
            .map(|s| format!("shuts the system down (systemctl {s})")),
        _ => None,
    };
    if let Some(r) = reason {
        a.flag(Risk::Hardline, r);
    }
}

/// `rm` of `/` (however spelled: `//`, `/.`, `/*`), a system directory (or its contents), or
/// the home directory. Any `rm` of these is hardline, recursive or not.
fn delete_targets(a: &mut Analysis, args: &[Arg]) {
    for t in positional(args, &[]) {
        let Some(text) = t.lit() else { continue };
        // `/*`, `/etc/*`, `~/*`: deleting every entry is deleting the directory.
        let base = text.trim_end_matches('*');
        let path = if base.is_empty() {
            a.resolve(".")
        } else {
            a.resolve(base)
        };
        let what = if path == Path::new("/") {
            Some("the root filesystem")
        } else if SYSTEM_DIRS.iter().any(|d| path == Path::new(d)) {
            Some("a system directory")
        } else if path == a.cx.home {
            Some("the home directory")
        } else {
            None
        };
        if let Some(what) = what {
            a.flag(Risk::Hardline, format!("deletes {what}: {text} (rm)"));
        }
    }
}
