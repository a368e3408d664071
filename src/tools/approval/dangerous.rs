//! The dangerous-pattern catalogue (Hermes 0.19.0's 70 entries, in order, plus the
//! flags-after-operands `rm` rule Hermes added right after). A match asks the user; the
//! description is the approval key "allow for this session" remembers.

use std::sync::LazyLock;

use super::hardline::FORK_BOMB_PATTERN;
use super::rule::{Rule, compile, custom, re};

const SSH: &str = r"(?:~|\$home|\$\{home\})/\.ssh(?:/|$)";
const HERMES_DIR: &str = r"(?:~/\.hermes/|(?:\$home|\$\{home\})/\.hermes/|(?:\$hermes_home|\$\{hermes_home\})/)";
const SHELL_RC: &str = r"(?:~|\$home|\$\{home\})/\.(?:bashrc|zshrc|profile|bash_profile|zprofile)\b";
const CREDENTIALS: &str = r"(?:~|\$home|\$\{home\})/\.(?:netrc|pgpass|npmrc|pypirc)\b";
const SYSTEM_CONFIG: &str = r"(?:/etc/|/private/(?:etc|var|tmp|home)/)";
const PROJECT_ENV: &str = r#"(?:(?:/|\.{1,2}/)?(?:[^\s/"'`]+/)*\.env(?:\.[^/\s"'`]+)*)"#;
const PROJECT_CONFIG: &str = r#"(?:(?:/|\.{1,2}/)?(?:[^\s/"'`]+/)*config\.yaml)"#;
/// cp/mv/install: a path is a write target only as the last argument.
const COMMAND_TAIL: &str = r"(?:\s*(?:&&|\|\||;).*)?$";
/// `>`/tee targets end at a shell word boundary (Hermes uses a look-ahead; consuming the
/// boundary character instead changes nothing about whether a rule matches).
const WRITE_BOUNDARY: &str = r#"(?:[\s;&|<>"']|$)"#;
const SHELLS: &str = r"(?:bash|sh|zsh|ksh|dash)";

fn hermes_env() -> String {
    format!(r"{HERMES_DIR}\.env\b")
}
fn hermes_config() -> String {
    format!(r"{HERMES_DIR}config\.yaml\b")
}
/// `/etc`, raw disks, SSH, Hermes config/env, shell rc and credential files.
fn sensitive() -> String {
    let (env, config) = (hermes_env(), hermes_config());
    format!(r"(?:{SYSTEM_CONFIG}|/dev/sd|{SSH}|{env}|{config}|{SHELL_RC}|{CREDENTIALS})")
}
/// The per-user subset: SSH, shell rc and credential files.
fn user_sensitive() -> String {
    format!(r"(?:{SSH}|{SHELL_RC}|{CREDENTIALS})")
}
fn project_sensitive() -> String {
    format!(r"(?:{PROJECT_ENV}|{PROJECT_CONFIG})")
}

static DELETE_FROM: LazyLock<regex::Regex> = LazyLock::new(|| compile(r"\bDELETE\s+FROM\b"));
static WHERE: LazyLock<regex::Regex> = LazyLock::new(|| compile(r"\bWHERE\b"));

/// `DELETE FROM` with no `WHERE` later on the same line (a WHERE on the next line does not
/// count: that is a different statement as far as this check can tell).
fn delete_without_where(text: &str) -> bool {
    DELETE_FROM.find_iter(text).any(|m| {
        let rest = &text[m.end()..];
        let line = rest.split('\n').next().unwrap_or_default();
        !WHERE.is_match(line)
    })
}

static RM_WORD: LazyLock<regex::Regex> = LazyLock::new(|| compile(r"\brm\s+"));

/// GNU rm permutes options: `rm build/ -rf` is as recursive as `rm -rf build/`. The operand
/// run stops at a separator, a quote or a bare `--` (after which `-rf` is a file name).
fn rm_flags_after_operands(text: &str) -> bool {
    RM_WORD.find_iter(text).any(|m| {
        let rest = &text[m.end()..];
        let end = rest.find(['\n', '"', '\'', ';', '|', '&']).unwrap_or(rest.len());
        let mut words = rest[..end].split_whitespace();
        if words.next().is_none_or(|first| first == "--") {
            return false;
        }
        for word in words {
            if word == "--" {
                return false;
            }
            let lower = word.to_ascii_lowercase();
            let short = lower
                .strip_prefix('-')
                .is_some_and(|f| !f.starts_with('-') && f.contains('r') && f.chars().all(|c| c.is_ascii_lowercase()));
            if short || lower == "--recursive" {
                return true;
            }
        }
        false
    })
}

/// In catalogue order; the first match is the reported key.
pub static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    let (sens, user, project) = (sensitive(), user_sensitive(), project_sensitive());
    let (henv, hcfg) = (hermes_env(), hermes_config());
    let writable = r"(?:777|666|o\+[rwx]*w|a\+[rwx]*w)";
    vec![
        re("delete in root path", r"\brm\s+(?:-\S*\s+)*/"),
        re("recursive delete", r"\brm\s+-\S*r"),
        re("recursive delete (long flag)", r"\brm\s+--recursive\b"),
        custom("recursive delete (flags after operands)", rm_flags_after_operands),
        re(
            "Windows cmd destructive delete",
            r"\bcmd(?:\.exe)?\s+/(?:c|k)\s+.*\b(?:del|erase|rd|rmdir)\b",
        ),
        re(
            "Windows PowerShell destructive delete",
            r#"\b(?:powershell|pwsh)(?:\.exe)?\b(?:\s+-\S+)*\s+(?:-(?:command|c)\s+)?["']?(?:remove-item|rmdir|erase|del|rd|ri|rm)\b"#,
        ),
        re(
            "PowerShell encoded command execution",
            r"\b(?:powershell|pwsh)(?:\.exe)?\b.*\s-(?:encodedcommand|enc|e)\b",
        ),
        re(
            "world/other-writable permissions",
            &format!(r"\bchmod\s+(?:-\S*\s+)*{writable}\b"),
        ),
        re(
            "recursive world/other-writable (long flag)",
            &format!(r"\bchmod\s+--recursive\b.*{writable}"),
        ),
        re("recursive chown to root", r"\bchown\s+(?:-\S*)?R\s+root"),
        re(
            "recursive chown to root (long flag)",
            r"\bchown\s+--recur[a-z]*\b.*root",
        ),
        re("format filesystem", r"\bmkfs\b"),
        re("disk copy", r"\bdd\s+.*if="),
        re("write to block device", r">\s*/dev/sd"),
        re("SQL DROP", r"\bDROP\s+(?:TABLE|DATABASE)\b"),
        custom("SQL DELETE without WHERE", delete_without_where),
        re("SQL TRUNCATE", r"\bTRUNCATE\s+(?:TABLE)?\s*\w"),
        re("overwrite system config", &format!(r">\s*{SYSTEM_CONFIG}")),
        re(
            "stop/restart system service",
            r"\bsystemctl\s+(?:-\S+\s+)*(?:stop|restart|disable|mask)\b",
        ),
        re("kill all processes", r"\bkill\s+-9\s+-1\b"),
        re("force kill processes", r"\bpkill\s+-9\b"),
        re(
            "force kill processes (killall -KILL)",
            r"\bkillall\s+(?:-\S*\s+)*-(?:9|KILL|SIGKILL)\b",
        ),
        re(
            "force kill processes (killall -s KILL)",
            r"\bkillall\s+(?:-\S*\s+)*-s\s+(?:KILL|SIGKILL|9)\b",
        ),
        re("kill processes by regex (killall -r)", r"\bkillall\s+(?:-\S*\s+)*-r\b"),
        re("fork bomb", FORK_BOMB_PATTERN),
        // Hermes 0.19.0 only knew `sh`/`bash` here; zsh/ksh/dash run piped scripts the same way.
        re(
            "pipe remote content to shell",
            &format!(r"\b(?:curl|wget)\b.*\|\s*(?:[/\w]*/)?{SHELLS}(?:\s|$|-c)"),
        ),
        re(
            "execute remote script via process substitution",
            &format!(r"\b{SHELLS}\s+<\s*<?\s*\(\s*(?:curl|wget)\b"),
        ),
        // A double quote around the substitution (`eval "$(curl …)"`) changes nothing.
        re(
            "execute remote content via command substitution",
            r#"(?:\beval\b|\bsource\b|\.)\s*"?(?:\$\(\s*|`\s*)(?:curl|wget)\b"#,
        ),
        re(
            "pipe decoded content to shell (possible command obfuscation)",
            &format!(r"\b(?:base64|base32|base16)\s+(?:-[dD]|--decode)\b.*\|\s*\b{SHELLS}\b"),
        ),
        re(
            "pipe xxd-decoded content to shell (possible command obfuscation)",
            &format!(r"\bxxd\s+-r\b.*\|\s*\b{SHELLS}\b"),
        ),
        re(
            "pipe tr-transformed output to shell (possible command obfuscation)",
            &format!(r"\becho\b[^|]*\|\s*\btr\b[^|]*\|\s*\b{SHELLS}\b"),
        ),
        re(
            "pipe openssl-decoded content to shell (possible command obfuscation)",
            &format!(r"\bopenssl\b.*\b(?:base64|enc)\b[^|]*\s+-[dD]\b[^|]*\|\s*\b{SHELLS}\b"),
        ),
        re("overwrite system file via tee", &format!(r#"\btee\b.*["']?{sens}"#)),
        re(
            "overwrite system file via redirection",
            &format!(r#">>?\s*["']?{sens}"#),
        ),
        re(
            "overwrite project env/config via tee",
            &format!(r#"\btee\b.*["']?{project}["']?{WRITE_BOUNDARY}"#),
        ),
        re(
            "overwrite project env/config via redirection",
            &format!(r#">>?\s*["']?{project}["']?{WRITE_BOUNDARY}"#),
        ),
        re("xargs with rm", r"\bxargs\s+.*\brm\b"),
        re("find -exec/-execdir rm", r"\bfind\b.*-exec(?:dir)?\s+(?:/\S*/)?rm\b"),
        re("find -delete", r"\bfind\b.*-delete\b"),
        re(
            "stop/restart hermes gateway (kills running agents)",
            r"\bhermes\s+(?:-{1,2}\S+(?:\s+\S+)?\s+)*gateway\s+(?:stop|restart)\b",
        ),
        re(
            "hermes update (restarts gateway, kills running agents)",
            r"\bhermes\s+update\b",
        ),
        re(
            "docker compose restart/stop/kill/down (container lifecycle)",
            r"\bdocker(?:-compose|\s+compose)\s+(?:-{1,2}\S+(?:[=\s]\S+)?\s+)*(?:restart|stop|kill|down)\b",
        ),
        re(
            "docker restart/stop/kill (container lifecycle)",
            r"\bdocker\s+(?:-{1,2}\S+(?:[=\s]\S+)?\s+)*(?:restart|stop|kill)\b",
        ),
        re(
            "start gateway outside systemd (use 'systemctl --user restart hermes-gateway')",
            r"gateway\s+run\b.*(?:&\s*$|&\s*;|\bdisown\b|\bsetsid\b)",
        ),
        re(
            "start gateway outside systemd (use 'systemctl --user restart hermes-gateway')",
            r"\bnohup\b.*gateway\s+run\b",
        ),
        re(
            "kill hermes/gateway process (self-termination)",
            r"\b(?:pkill|killall)\b.*\b(?:hermes|gateway|cli\.py)\b",
        ),
        re(
            "kill process via pgrep/pidof expansion (self-termination)",
            r"\bkill\b.*\$\(\s*(?:pgrep|pidof)\b",
        ),
        re(
            "kill process via backtick pgrep/pidof expansion (self-termination)",
            r"\bkill\b.*`\s*(?:pgrep|pidof)\b",
        ),
        re(
            "stop/restart hermes launchd service (kills running agents)",
            r"\blaunchctl\s+(?:stop|kickstart|bootout|unload|kill|disable|remove)\b.*\b(?:hermes|ai\.hermes)\b",
        ),
        re(
            "copy/move file into system config path",
            &format!(r"\b(?:cp|mv|install)\b.*\s{SYSTEM_CONFIG}"),
        ),
        re(
            "overwrite project env/config file",
            &format!(r#"\b(?:cp|mv|install)\b.*\s["']?{project}["']?{COMMAND_TAIL}"#),
        ),
        re(
            "copy/move file into sensitive credential/SSH/shell-rc path",
            &format!(r#"\b(?:cp|mv|install)\b.*\s["']?{sens}[^\s"']*["']?{COMMAND_TAIL}"#),
        ),
        re(
            "in-place edit of sensitive credential/SSH/shell-rc path",
            &format!(r#"\bsed\s+-\S*i.*{user}[^\s"']*"#),
        ),
        re(
            "in-place edit of sensitive credential/SSH/shell-rc path (long flag)",
            &format!(r#"\bsed\s+--in-place\b.*{user}[^\s"']*"#),
        ),
        re(
            "in-place edit of sensitive credential/SSH/shell-rc path (perl/ruby)",
            &format!(r#"\b(?:perl|ruby)\b.*(?:^|\s)-\S*i\b.*{user}[^\s"']*"#),
        ),
        re(
            "in-place edit of system config",
            &format!(r"\bsed\s+-\S*i.*\s{SYSTEM_CONFIG}"),
        ),
        re(
            "in-place edit of system config (long flag)",
            &format!(r"\bsed\s+--in-place\b.*\s{SYSTEM_CONFIG}"),
        ),
        re(
            "in-place edit of Hermes config/env",
            &format!(r"\bsed\s+-\S*i.*(?:{hcfg}|{henv})"),
        ),
        re(
            "in-place edit of Hermes config/env (long flag)",
            &format!(r"\bsed\s+--in-place\b.*(?:{hcfg}|{henv})"),
        ),
        re(
            "in-place edit of Hermes config/env (perl/ruby)",
            &format!(r"\b(?:perl|ruby)\b.*(?:^|\s)-\S*i\b.*(?:{hcfg}|{henv})"),
        ),
        re("shell execution via heredoc", &format!(r"\b{SHELLS}\s+<<")),
        re(
            "git reset --hard (destroys uncommitted changes)",
            r"\bgit\s+reset\s+--h(?:a(?:r(?:d)?)?)?\b",
        ),
        re(
            "git force push (rewrites remote history)",
            r"\bgit\s+push\b.*--forc[a-z]*\b",
        ),
        re(
            "git force push short flag (rewrites remote history)",
            r"\bgit\s+push\b.*-f\b",
        ),
        re(
            "git clean with force (deletes untracked files)",
            r"\bgit\s+clean\s+-\S*f",
        ),
        // Only the capital `-D` forces; Hermes 0.19.0 lower-cased the command first, so a
        // safe `git branch -d` (refuses unmerged branches) asked too.
        re("git branch force delete", r"\bgit\s+branch\s+(?-i:-D)\b"),
        re(
            "git branch force delete (long flags)",
            r"\bgit\s+branch\b[^;|&\n]*?(?:-d\b|--delete\b)[^;|&\n]*?(?:-f\b|--force\b)",
        ),
        re(
            "git branch force delete (long flags, force-first)",
            r"\bgit\s+branch\b[^;|&\n]*?(?:-f\b|--force\b)[^;|&\n]*?(?:-d\b|--delete\b)",
        ),
        re(
            "chmod +x followed by immediate execution",
            r"\bchmod\s+\+x\b.*[;&|]+\s*\./",
        ),
        re(
            "sudo with privilege flag (stdin/askpass/shell/list)",
            r"\bsudo\b[^;|&\n]*?\s+(?:-s\b|--st[a-z]*\b|-a\b|--a[a-z]*\b)",
        ),
        re(
            "sudo with combined-flag privilege escalation",
            r"\bsudo\b[^;|&\n]*?\s+-[a-z]*[sa][a-z]*\b",
        ),
    ]
});
