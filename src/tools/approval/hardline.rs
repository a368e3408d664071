//! The hardline catalogue (Hermes' 12 entries): commands that are never run, whatever the
//! user allowed, because nothing recovers from them. The description is the block reason.

use std::sync::LazyLock;

use super::rule::{Rule, masked, re};

/// Command position: start of text or line (real `;`/`&&`/`|` separators are turned into
/// newlines by the marked variants), inside `$(` or backticks, optionally behind
/// `sudo [flags]`, `env [flags] VAR=…`, bare `VAR=…` assignments, `exec`/`nohup`/`setsid`/
/// `time`/`command`/`builtin`, and an absolute executable path (`/sbin/reboot`).
const CMDPOS: &str = concat!(
    r"(?:^|[\n`]|\$\()\s*",
    r"(?:(?:sudo|doas)\s+(?:-\S+\s+)*)?",
    r"(?:env\s+(?:-\S+\s+)*(?:\w+=\S*\s+)*)?",
    r"(?:\w+=\S*\s+)*",
    r"(?:(?:exec|nohup|setsid|time|command|builtin)\s+)*\s*",
    r"(?:(?:/[\w.+-]+)*/)?",
);

/// The command word ends here (so `reboot.sh` or `shutdown-server` is another program).
const WORD_END: &str = r"(?:\s|$|[;&|)`])";

/// `rm [flags]` at command position.
fn rm_prefix() -> String {
    format!(r"{CMDPOS}rm\s+(?:-\S*\s+)*")
}

/// The target either wrapped in a matching quote pair or bare and followed by a terminator
/// (whitespace, end, `)`, backtick, `;`, `|`, `&`) so `$(rm -rf /)` is caught too.
fn rm_target(alternatives: &str) -> String {
    format!(r#"(?:"(?:{alternatives})"|'(?:{alternatives})'|(?:{alternatives})(?:\s|$|[)`;|&]))"#)
}

/// Root spelled any way the shell collapses to `/` (`//`, `/.`, `/..`, `/./..`, trailing
/// globs) plus `/ *` (root and a glob as two arguments).
const ROOT: &str = r"/(?:(?:\.\.?)?/)*(?:\.\.?)?\**|/ \*";
const SYSTEM_DIRS: &str = concat!(
    r"/home|/home/\*|/root|/root/\*|/etc|/etc/\*|/usr|/usr/\*|/var|/var/\*|",
    r"/bin|/bin/\*|/sbin|/sbin/\*|/boot|/boot/\*|/lib|/lib/\*",
);
const HOME: &str = r"(?:~|\$\{?HOME\}?)(?:/?|/\*)?";
/// Raw block devices (SATA/SCSI/USB, NVMe, IDE, eMMC/SD, virtio, Xen).
pub const BLOCK_DEVICE: &str = r"/dev/(?:sd|nvme|hd|mmcblk|vd|xvd)[a-z0-9]*";

pub const ROOT_DELETE: &str = "recursive delete of root filesystem";
pub const FORK_BOMB: &str = "fork bomb";
pub const FORK_BOMB_PATTERN: &str = r":\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:";

/// In catalogue order; the first match is the reported description.
pub static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    let rm = rm_prefix();
    vec![
        re(ROOT_DELETE, &format!("{rm}{}", rm_target(ROOT))),
        re(
            "recursive delete of system directory",
            &format!("{rm}{}", rm_target(SYSTEM_DIRS)),
        ),
        re(
            "recursive delete of home directory",
            &format!("{rm}{}", rm_target(HOME)),
        ),
        // Hermes 0.19.0 matched mkfs/dd/kill anywhere, so `echo "never run mkfs"` or
        // `man mkfs` was blocked with no way to approve it; like later Hermes we anchor these
        // to command position. The approval-tier twins still match anywhere.
        re(
            "format filesystem (mkfs)",
            &format!(r"{CMDPOS}mkfs(?:\.[a-z0-9]+)?{WORD_END}"),
        ),
        re(
            "dd to raw block device",
            &format!(r#"{CMDPOS}dd\b[^\n]*\bof=["']?{BLOCK_DEVICE}"#),
        ),
        masked("redirect to raw block device", &format!(r#">\s*["']?{BLOCK_DEVICE}\b"#)),
        masked(FORK_BOMB, FORK_BOMB_PATTERN),
        // `-1` is the "every process" pid after a signal option, or when it is the last
        // argument; `kill -1 1234` is SIGHUP to 1234, which Hermes blocked by mistake.
        re(
            "kill all processes",
            &format!(r"{CMDPOS}kill\s+(?:(?:-\S+\s+(?:\w+\s+)?)+-1\b|-1\s*(?:$|[;&|)`\n]))"),
        ),
        re(
            "system shutdown/reboot",
            &format!(r"{CMDPOS}(?:shutdown|reboot|halt|poweroff){WORD_END}"),
        ),
        re("init 0/6 (shutdown/reboot)", &format!(r"{CMDPOS}init\s+[06]\b")),
        re(
            "systemctl poweroff/reboot",
            &format!(r"{CMDPOS}systemctl\s+(?:poweroff|reboot|halt|kexec){WORD_END}"),
        ),
        re("telinit 0/6 (shutdown/reboot)", &format!(r"{CMDPOS}telinit\s+[06]\b")),
    ]
});
