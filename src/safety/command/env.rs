//! Environment assignments: `NAME=value cmd`, `env NAME=value cmd`, `export NAME=value` (which
//! the session's shell keeps for later commands) and plain `NAME=value` for the variables the
//! shell itself acts on (`PATH`, `PS4`…). Only names the table knows as inert keep a command
//! harmless; a variable that makes a program run code (`BASH_ENV`, `LD_PRELOAD`,
//! `GIT_CONFIG_*`, `NODE_OPTIONS`…) is unknown; one whose value is a command line run later
//! (`GIT_PAGER`, `EDITOR`, `GIT_SSH_COMMAND`…) has that command analysed.

use super::Risk;
use super::analysis::Analysis;
use super::words::Arg;

/// What setting a variable can do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Formatting, locale, verbosity: changes no program's behaviour beyond that.
    Inert,
    /// The value is a shell command a program runs later (a pager, an editor, an ssh command).
    Command,
    /// Makes programs load or run code (a preload library, a startup file, a config).
    Code,
    /// Not in the table: may change what a program does.
    Unknown,
}

const INERT: &[&str] = &[
    "LANG",
    "LANGUAGE",
    "TZ",
    "NO_COLOR",
    "FORCE_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "COLORTERM",
    "TERM",
    "COLUMNS",
    "LINES",
    "CI",
    "DEBUG",
    "VERBOSE",
    "NODE_ENV",
    "RUST_BACKTRACE",
    "RUST_LIB_BACKTRACE",
    "RUST_LOG",
    "RUST_TEST_THREADS",
    "CARGO_TERM_COLOR",
    "CARGO_TERM_VERBOSE",
    "CARGO_TERM_QUIET",
    "CARGO_TERM_PROGRESS_WHEN",
    "CARGO_INCREMENTAL",
    "CARGO_BUILD_JOBS",
    "PYTHONUNBUFFERED",
    "PYTHONDONTWRITEBYTECODE",
    "PYTHONHASHSEED",
    "PYTHONIOENCODING",
    "PYTHONUTF8",
    "PYTHONWARNINGS",
    "PIP_DISABLE_PIP_VERSION_CHECK",
    "PIP_NO_INPUT",
    "GOOS",
    "GOARCH",
    "CGO_ENABLED",
    "GIT_AUTHOR_NAME",
    "GIT_AUTHOR_EMAIL",
    "GIT_AUTHOR_DATE",
    "GIT_COMMITTER_NAME",
    "GIT_COMMITTER_EMAIL",
    "GIT_COMMITTER_DATE",
    "GIT_TERMINAL_PROMPT",
    "GIT_OPTIONAL_LOCKS",
    "GIT_FLUSH",
    "GIT_CONFIG_NOSYSTEM",
    "TIMEFORMAT",
    "LESS",
    "MORE",
    "GREP_COLOR",
    "GREP_COLORS",
    "LS_COLORS",
    "JQ_COLORS",
    "HOSTNAME",
    "PWD",
    "OLDPWD",
    "SHLVL",
    "_",
];

/// Variables whose value is a command line a program hands to a shell later.
const COMMAND: &[&str] = &[
    "PAGER",
    "GIT_PAGER",
    "MANPAGER",
    "SYSTEMD_PAGER",
    "BAT_PAGER",
    "EDITOR",
    "VISUAL",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_SSH_COMMAND",
    "GIT_EXTERNAL_DIFF",
    "GIT_PROXY_COMMAND",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "RSYNC_RSH",
];

/// Variables that make programs load or run code, by exact name.
const CODE: &[&str] = &[
    "BASH_ENV",
    "ENV",
    "ZDOTDIR",
    "PATH",
    "CDPATH",
    "HOME",
    "IFS",
    "SHELL",
    "SHELLOPTS",
    "BASHOPTS",
    "PROMPT_COMMAND",
    "PS0",
    "PS1",
    "PS2",
    "PS3",
    "PS4",
    "GLOBIGNORE",
    "EXECIGNORE",
    "BASH_XTRACEFD",
    "HISTFILE",
    "GCONV_PATH",
    "GIT_SSH",
    "GIT_CONFIG",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_EXEC_PATH",
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_TEMPLATE_DIR",
    "GIT_INDEX_FILE",
    "LESSOPEN",
    "LESSCLOSE",
    "LESSKEY",
    "LESSKEYIN",
    "LESSEDIT",
    "NODE_OPTIONS",
    "NODE_PATH",
    "PERL5OPT",
    "PERL5LIB",
    "PERLLIB",
    "PERL5DB",
    "RUBYOPT",
    "RUBYLIB",
    "PYTHONSTARTUP",
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONBREAKPOINT",
    "PYTHONUSERBASE",
    "PYTEST_ADDOPTS",
    "PYTEST_PLUGINS",
    "MAKEFLAGS",
    "MFLAGS",
    "MAKEFILES",
    "GNUMAKEFLAGS",
    "RUSTC",
    "RUSTC_WRAPPER",
    "RUSTC_WORKSPACE_WRAPPER",
    "RUSTDOC",
    "CC",
    "CXX",
    "CPP",
    "LD",
    "AR",
    "AS",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "MAVEN_OPTS",
    "GRADLE_OPTS",
    "DOTNET_STARTUP_HOOKS",
    "CLASSPATH",
    "BROWSER",
    "XDG_CONFIG_HOME",
    "SSLKEYLOGFILE",
    "GOFLAGS",
    "GOTOOLCHAIN",
];

/// Name prefixes that make programs load or run code.
const CODE_PREFIXES: &[&str] = &[
    "LD_",
    "DYLD_",
    "BASH_FUNC_",
    "GIT_CONFIG_KEY_",
    "GIT_CONFIG_VALUE_",
    "CARGO_TARGET_",
    "CARGO_BUILD_",
    "NPM_CONFIG_",
    "YARN_",
];

/// Compiler flag variables: inert unless the flags name a program or plugin to run.
const FLAGS: &[&str] = &["RUSTFLAGS", "RUSTDOCFLAGS", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS"];
const FLAGS_THAT_RUN: &[&str] = &[
    "linker",
    "plugin",
    "-B",
    "wrapper",
    "specs",
    "load",
    "-Z",
    "llvm-args",
    "runner",
];

fn kind(name: &str, value: &str) -> Kind {
    let upper = name.to_ascii_uppercase();
    if CODE.contains(&name) || CODE_PREFIXES.iter().any(|p| upper.starts_with(p)) || upper.starts_with("NPM_CONFIG") {
        return Kind::Code;
    }
    if COMMAND.contains(&name) {
        return Kind::Command;
    }
    if FLAGS.contains(&name) {
        return match FLAGS_THAT_RUN.iter().any(|f| value.contains(f)) {
            true => Kind::Code,
            false => Kind::Inert,
        };
    }
    if INERT.contains(&name) || name.starts_with("LC_") {
        return Kind::Inert;
    }
    Kind::Unknown
}

/// `NAME=value` of an argument (`None` when it is not an assignment).
pub(super) fn split(assign: &Arg) -> Option<(&str, &str)> {
    let (name, value) = assign.text.split_once('=')?;
    let name = name.strip_suffix('+').unwrap_or(name);
    let valid = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    valid.then_some((name, value))
}

/// An assignment the program (and, for `export`, every later command) gets in its environment.
pub(super) fn exported(a: &mut Analysis, assign: &Arg, depth: usize) {
    let Some((name, value)) = split(assign) else {
        a.flag(
            Risk::Unknown,
            format!("environment entry not understood: {}", assign.text),
        );
        return;
    };
    match kind(name, value) {
        Kind::Inert => {}
        Kind::Command => command_value(a, name, value, assign.literal, depth),
        Kind::Code => a.flag(
            Risk::Unknown,
            format!("sets {name}, which makes programs run other code"),
        ),
        Kind::Unknown => a.opaque(&format!(
            "sets an environment variable the analysis does not know: {name}"
        )),
    }
}

/// A plain `NAME=value` with no command: a shell variable, which matters only for the names
/// the shell acts on and for variables that are usually exported already (`PATH`, `PAGER`).
pub(super) fn shell_variable(a: &mut Analysis, assign: &Arg, depth: usize) {
    let Some((name, value)) = split(assign) else {
        return;
    };
    match kind(name, value) {
        Kind::Command => command_value(a, name, value, assign.literal, depth),
        Kind::Code => a.flag(
            Risk::Unknown,
            format!("sets {name}, which makes programs run other code"),
        ),
        Kind::Inert | Kind::Unknown => {}
    }
}

/// A pager, editor or ssh command: analysed as the command line it is.
fn command_value(a: &mut Analysis, name: &str, value: &str, literal: bool, depth: usize) {
    if !literal {
        a.flag(Risk::Unknown, format!("sets {name} to a command that is not literal"));
        return;
    }
    a.script(value, depth + 1);
}

/// `export`/`declare`/`typeset`/`local`/`readonly` arguments: `-x` (or `export`) puts them in
/// the environment of every later command.
pub(super) fn declaration(a: &mut Analysis, prog: &str, args: &[Arg], depth: usize) {
    let exports = prog == "export"
        || args
            .iter()
            .any(|w| w.text.starts_with('-') && w.text.contains('x') && !w.text.starts_with("--"));
    let functions = args.iter().any(|w| w.text.starts_with('-') && w.text.contains('f'));
    for w in args.iter().filter(|w| !w.text.starts_with('-')) {
        if !w.literal && split(w).is_none() {
            a.flag(
                Risk::Unknown,
                format!("{prog} of a name that is not literal: {}", w.text),
            );
        } else if split(w).is_some() {
            match exports {
                true => exported(a, w, depth),
                false => shell_variable(a, w, depth),
            }
        } else if exports && functions {
            // `export -f name`: a child bash runs it in place of a program of that name.
            a.flag(
                Risk::Unknown,
                format!("exports a shell function to child shells: {}", w.text),
            );
        } else if exports && matches!(kind(&w.text, ""), Kind::Code | Kind::Command) {
            a.flag(
                Risk::Unknown,
                format!("exports {}, which makes programs run other code", w.text),
            );
        }
    }
}
