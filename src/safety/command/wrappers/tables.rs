//! The option tables of the programs that run another command (`wrappers` peels them). Each
//! lists every option the program accepts and whether it takes a value, so a long option
//! whose value is the next word (`--signal KILL`) cannot hide the command, and an option that
//! is not listed makes the command unknown.

use super::super::options::Table;

pub(super) const SUDO: Table = Table::new("AbEeHiKklnPSsVv", "CDghpRrtTUu").long(
    &[
        "--askpass",
        "--background",
        "--bell",
        "--edit",
        "--help",
        "--set-home",
        "--login",
        "--remove-timestamp",
        "--reset-timestamp",
        "--list",
        "--non-interactive",
        "--preserve-groups",
        "--stdin",
        "--shell",
        "--version",
        "--validate",
    ],
    &[
        "--chroot",
        "--close-from",
        "--chdir",
        "--group",
        "--host",
        "--prompt",
        "--role",
        "--type",
        "--command-timeout",
        "--other-user",
        "--user",
    ],
    &["--preserve-env"],
);
pub(super) const DOAS: Table = Table::new("nsL", "Cu");
pub(super) const PKEXEC: Table = Table::new("", "").long(&["--disable-internal-agent", "--keep-cwd"], &["--user"], &[]);
pub(super) const ENV: Table = Table::new("i0v", "uCS").long(
    &["--ignore-environment", "--null", "--debug", "--list-signal-handling"],
    &["--unset", "--chdir", "--split-string"],
    &["--block-signal", "--default-signal", "--ignore-signal"],
);
pub(super) const NICE: Table = Table::new("", "n").long(&[], &["--adjustment"], &[]);
pub(super) const NOHUP: Table = Table::new("", "");
pub(super) const SETSID: Table = Table::new("cfw", "").long(&["--ctty", "--fork", "--wait"], &[], &[]);
pub(super) const TIMEOUT: Table = Table::new("v", "sk").long(
    &["--foreground", "--preserve-status", "--verbose"],
    &["--signal", "--kill-after"],
    &[],
);
pub(super) const STDBUF: Table = Table::new("", "ioe").long(&[], &["--input", "--output", "--error"], &[]);
pub(super) const IONICE: Table = Table::new("tpPu", "cn").long(
    &["--ignore", "--pid", "--pgid", "--uid"],
    &["--class", "--classdata"],
    &[],
);
pub(super) const CHRT: Table = Table::new("abdefimoprRv", "TPD").long(
    &[
        "--all-tasks",
        "--batch",
        "--deadline",
        "--ext",
        "--fifo",
        "--idle",
        "--max",
        "--other",
        "--pid",
        "--rr",
        "--reset-on-fork",
        "--verbose",
    ],
    &["--sched-runtime", "--sched-period", "--sched-deadline"],
    &[],
);
pub(super) const TASKSET: Table = Table::new("acp", "").long(&["--all-tasks", "--cpu-list", "--pid"], &[], &[]);
pub(super) const FLOCK: Table = Table::new("sexnouFv", "wEc").long(
    &[
        "--shared",
        "--exclusive",
        "--nonblock",
        "--nb",
        "--close",
        "--unlock",
        "--no-fork",
        "--verbose",
    ],
    &["--timeout", "--wait", "--conflict-exit-code", "--command"],
    &[],
);
pub(super) const SETARCH: Table = Table::new("vRFZLXBIST3", "").long(
    &[
        "--verbose",
        "--addr-no-randomize",
        "--fdpic-funcptrs",
        "--mmap-page-zero",
        "--addr-compat-layout",
        "--read-implies-exec",
        "--32bit",
        "--short-inode",
        "--whole-seconds",
        "--sticky-timeouts",
        "--3gb",
        "--4gb",
        "--uname-2.6",
        "--list",
    ],
    &[],
    &["--show"],
);
/// `prlimit`: every resource option takes its limits attached (`-n1024`, `--nofile=1024`).
pub(super) const PRLIMIT: Table = Table::new("", "po").optional("cdefilmnqrstuvxy").long(
    &["--noheadings", "--raw", "--verbose"],
    &["--pid", "--output"],
    &[
        "--core",
        "--data",
        "--nice",
        "--fsize",
        "--sigpending",
        "--memlock",
        "--rss",
        "--nofile",
        "--msgqueue",
        "--rtprio",
        "--stack",
        "--cpu",
        "--nproc",
        "--as",
        "--locks",
        "--rttime",
    ],
);
pub(super) const UNSHARE: Table = Table::new("frcl", "RwSG").optional("muinpUCT").long(
    &[
        "--fork",
        "--map-root-user",
        "--map-current-user",
        "--map-auto",
        "--keep-caps",
        "--monotonic",
        "--boottime",
        "--load-interp",
    ],
    &[
        "--map-user",
        "--map-group",
        "--map-users",
        "--map-groups",
        "--propagation",
        "--setgroups",
        "--root",
        "--wd",
        "--setuid",
        "--setgid",
    ],
    &[
        "--mount",
        "--uts",
        "--ipc",
        "--net",
        "--pid",
        "--user",
        "--cgroup",
        "--time",
        "--kill-child",
        "--mount-proc",
    ],
);
pub(super) const CHROOT: Table = Table::new("", "").long(&["--skip-chdir"], &["--userspec", "--groups"], &[]);
pub(super) const SCRIPT: Table = Table::new("aefqh", "cEBIOTmo").optional("t").long(
    &["--append", "--return", "--flush", "--force", "--quiet"],
    &[
        "--command",
        "--echo",
        "--log-io",
        "--log-in",
        "--log-out",
        "--log-timing",
        "--logging-format",
        "--output-limit",
    ],
    &["--timing"],
);
pub(super) const XVFB_RUN: Table = Table::new("adl", "efnpsw").long(
    &["--auto-servernum", "--auto-display", "--listen-tcp"],
    &[
        "--error-file",
        "--auth-file",
        "--server-num",
        "--xauth-protocol",
        "--server-args",
        "--wait",
    ],
    &[],
);
pub(super) const STRACE: Table = Table::new("AcCdDfFhiknqrtTvVwxyzZ", "abeEIoOpPsSuUX").long(
    &[
        "--follow-forks",
        "--output-separately",
        "--summary-only",
        "--summary",
        "--summary-wall-clock",
        "--debug",
        "--instruction-pointer",
        "--stack-trace",
        "--relative-timestamps",
        "--no-abbrev",
        "--successful-only",
        "--failed-only",
        "--seccomp-bpf",
        "--kill-on-exit",
        "--syscall-number",
        "--summary-syscall-overhead",
    ],
    &[
        "--trace",
        "--trace-path",
        "--signal",
        "--status",
        "--string-limit",
        "--output",
        "--attach",
        "--user",
        "--env",
        "--columns",
        "--summary-sort",
        "--summary-columns",
        "--abbrev",
        "--verbose",
        "--raw",
        "--read",
        "--write",
        "--fault",
        "--inject",
        "--const-print-style",
        "--interruptible",
        "--detach-on",
        "--trace-fds",
    ],
    &[
        "--absolute-timestamps",
        "--timestamps",
        "--syscall-times",
        "--decode-fds",
        "--decode-pids",
        "--quiet",
        "--silence",
    ],
);
pub(super) const LTRACE: Table = Table::new("bcCfhiLrStTV", "aADeEFlnopsuwx");
/// `valgrind`: every option is `--name=value` or a flag.
pub(super) const VALGRIND: Table = Table::new("qvh", "").long(
    &["--quiet", "--verbose", "--help"],
    &[],
    &[
        "--tool",
        "--leak-check",
        "--show-leak-kinds",
        "--errors-for-leak-kinds",
        "--show-reachable",
        "--track-origins",
        "--track-fds",
        "--error-exitcode",
        "--num-callers",
        "--suppressions",
        "--gen-suppressions",
        "--trace-children",
        "--trace-children-skip",
        "--child-silent-after-fork",
        "--log-file",
        "--log-fd",
        "--xml",
        "--xml-file",
        "--xml-fd",
        "--max-stackframe",
        "--main-stacksize",
        "--undef-value-errors",
        "--read-var-info",
        "--read-inline-info",
        "--time-stamp",
        "--leak-resolution",
        "--malloc-fill",
        "--free-fill",
        "--fair-sched",
        "--smc-check",
        "--demangle",
        "--keep-debuginfo",
        "--expensive-definedness-checks",
        "--cachegrind-out-file",
        "--callgrind-out-file",
        "--massif-out-file",
        "--dhat-out-file",
    ],
);
/// GNU `time` (the program, not the shell keyword).
pub(super) const TIME: Table = Table::new("apqvV", "fo").long(
    &["--append", "--portability", "--quiet", "--verbose", "--version"],
    &["--format", "--output"],
    &[],
);
pub(super) const WATCH: Table = Table::new("bcCegprtwx", "nqs").optional("d").long(
    &[
        "--beep",
        "--color",
        "--no-color",
        "--errexit",
        "--chgexit",
        "--precise",
        "--no-rerun",
        "--no-title",
        "--no-wrap",
        "--exec",
    ],
    &["--interval", "--equexit", "--shotsdir"],
    &["--differences"],
);
pub(super) const XARGS: Table = Table::new("0oprtx", "adEILnPs").optional("eil").long(
    &[
        "--null",
        "--open-tty",
        "--interactive",
        "--no-run-if-empty",
        "--verbose",
        "--exit",
        "--show-limits",
    ],
    &[
        "--arg-file",
        "--delimiter",
        "--max-args",
        "--max-procs",
        "--max-chars",
        "--process-slot-var",
    ],
    &["--eof", "--replace", "--max-lines"],
);
pub(super) const EXEC: Table = Table::new("cl", "a");
pub(super) const COMMAND: Table = Table::new("pvV", "");
pub(super) const FAKEROOT: Table = Table::new("u", "lsi").long(&["--unknown-is-real"], &["--lib", "--faked"], &[]);
pub(super) const UNBUFFER: Table = Table::new("p", "");
pub(super) const PARALLEL: Table = Table::new("kqvX", "jnN").long(
    &[
        "--keep-order",
        "--bar",
        "--progress",
        "--dry-run",
        "--tag",
        "--line-buffer",
        "--group",
        "--ungroup",
    ],
    &["--jobs", "--halt", "--max-args", "--delay", "--timeout", "--joblog"],
    &[],
);
