//! Where the edit tools refuse to write, with Hermes' exact messages: sensitive system paths,
//! the Hermes config file, protected credential files and directories, paths outside
//! `HERMES_WRITE_SAFE_ROOT`, another Hermes profile's scoped directories, and content that is
//! really read_file's numbered display. Paths are compared after following symlinks, so a link
//! into `~/.ssh` is caught. (Which edits ask is the policy's: `safety::paths`.)

use std::path::{Component, Path, PathBuf};

use crate::runtime::workspace::{expand_home, home_dir, normalize};

const SENSITIVE_PREFIXES: [&str; 5] = ["/etc/", "/boot/", "/usr/lib/systemd/", "/private/etc/", "/private/var/"];
const SENSITIVE_EXACT: [&str; 2] = ["/var/run/docker.sock", "/run/docker.sock"];
const PROFILE_SCOPED_AREAS: [&str; 4] = ["skills", "plugins", "cron", "memories"];
const READ_DEDUP_STATUS: &str = "File unchanged since last read. The content from the earlier read_file result \
     in this conversation is still current — refer to that instead of re-reading.";

/// The parts of the environment the guards depend on (explicit so tests need no env vars).
#[derive(Debug, Clone)]
pub struct GuardEnv {
    pub home: PathBuf,
    /// The active `HERMES_HOME` (a profile directory in profile mode).
    pub hermes_home: PathBuf,
    /// The Hermes root that holds `profiles/` (`~/.hermes` normally).
    pub hermes_root: PathBuf,
    /// `HERMES_WRITE_SAFE_ROOT` entries; empty means unrestricted.
    pub safe_roots: Vec<PathBuf>,
}

impl GuardEnv {
    /// From the configuration: the resolved `HERMES_HOME` and `HERMES_WRITE_SAFE_ROOT` (a
    /// `:`-separated list, from the environment or `.env`), resolved once at start.
    pub fn new(hermes_home: &Path, write_safe_root: Option<&str>) -> GuardEnv {
        let home = home_dir();
        let default_home = home.join(".hermes");
        let hermes_root = hermes_root_of(hermes_home, &default_home);
        let safe_roots = write_safe_root
            .map(|v| {
                v.split(':')
                    .filter(|p| !p.is_empty())
                    .map(|p| real_path(&expand_home(p)))
                    .collect()
            })
            .unwrap_or_default();
        GuardEnv {
            home,
            hermes_home: hermes_home.to_path_buf(),
            hermes_root,
            safe_roots,
        }
    }

    /// A fixed environment rooted at `home` (`~/.hermes` as HERMES_HOME), for tests.
    pub fn with_home(home: &Path) -> GuardEnv {
        let hermes = home.join(".hermes");
        GuardEnv {
            home: home.to_path_buf(),
            hermes_home: hermes.clone(),
            hermes_root: hermes,
            safe_roots: vec![],
        }
    }

    fn active_profile(&self) -> String {
        let profiles = real_path(&self.hermes_root.join("profiles"));
        match real_path(&self.hermes_home)
            .strip_prefix(&profiles)
            .ok()
            .and_then(|r| r.components().next())
        {
            Some(Component::Normal(name)) => name.to_string_lossy().into_owned(),
            _ => "default".to_string(),
        }
    }
}

/// `HERMES_HOME` under `~/.hermes` → `~/.hermes`; `<root>/profiles/<name>` → `<root>`; else itself.
fn hermes_root_of(hermes_home: &Path, default_home: &Path) -> PathBuf {
    if real_path(hermes_home).starts_with(real_path(default_home)) {
        return default_home.to_path_buf();
    }
    match hermes_home.parent() {
        Some(parent) if parent.file_name().is_some_and(|n| n == "profiles") => parent
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| hermes_home.to_path_buf()),
        _ => hermes_home.to_path_buf(),
    }
}

/// Refuses system locations and the Hermes config file (`raw` is the path as the model gave it).
pub fn check_sensitive_system_path(env: &GuardEnv, raw: &str, resolved: &Path) -> Result<(), String> {
    let real = real_path(resolved).to_string_lossy().into_owned();
    let normalized = normalize(&expand_home(raw.trim())).to_string_lossy().into_owned();
    // The per-user temp dir lives under /private/var on macOS; writing there is not a system edit.
    let temp = real_path(&std::env::temp_dir());
    let in_temp = Path::new(&real).starts_with(&temp) && temp != Path::new("/");
    let hits_prefix = |p: &str| SENSITIVE_PREFIXES.iter().any(|prefix| p.starts_with(prefix));
    if (!in_temp && (hits_prefix(&real) || hits_prefix(&normalized)))
        || SENSITIVE_EXACT.contains(&real.as_str())
        || SENSITIVE_EXACT.contains(&normalized.as_str())
    {
        return Err(format!(
            "Refusing to write to sensitive system path: {raw}\nUse the terminal tool with sudo if you need to modify system files."
        ));
    }
    let config = real_path(&env.hermes_home.join("config.yaml"))
        .to_string_lossy()
        .into_owned();
    if real == config || normalized == config {
        return Err(format!(
            "Refusing to write to Hermes config file: {raw}\nAgent cannot modify security-sensitive configuration. \
             Edit ~/.hermes/config.yaml directly or use 'hermes config' instead."
        ));
    }
    Ok(())
}

/// Protected credential files and Hermes state, plus `HERMES_WRITE_SAFE_ROOT`. `verb` is
/// "Write", "Delete" or "Move"; `shown` is the path as the message should name it.
pub fn write_denied_error(env: &GuardEnv, path: &Path, verb: &str) -> Option<String> {
    let shown = path.display();
    let real = real_path(path);
    let home = &env.home;
    let exact: Vec<PathBuf> = [
        home.join(".ssh/authorized_keys"),
        home.join(".ssh/id_rsa"),
        home.join(".ssh/id_ed25519"),
        home.join(".ssh/config"),
        env.hermes_home.join(".env"),
        env.hermes_root.join(".env"),
        env.hermes_home.join(".anthropic_oauth.json"),
        env.hermes_root.join(".anthropic_oauth.json"),
        home.join(".netrc"),
        home.join(".pgpass"),
        home.join(".npmrc"),
        home.join(".pypirc"),
        home.join(".git-credentials"),
        PathBuf::from("/etc/sudoers"),
        PathBuf::from("/etc/passwd"),
        PathBuf::from("/etc/shadow"),
    ]
    .iter()
    .map(|p| real_path(p))
    .collect();
    // Hermes compares `realpath(dir) + sep` prefixes: the directory's contents, not itself.
    let under = |dir: &Path| {
        let dir = real_path(dir);
        real.starts_with(&dir) && real != dir
    };
    let credential = exact.contains(&real)
        || [
            ".ssh",
            ".aws",
            ".gnupg",
            ".kube",
            ".docker",
            ".azure",
            ".config/gh",
            ".config/gcloud",
        ]
        .iter()
        .any(|d| under(&home.join(d)))
        || ["/etc/sudoers.d", "/etc/systemd"].iter().any(|d| under(Path::new(d)))
        || [&env.hermes_home, &env.hermes_root].iter().any(|base| {
            real == real_path(&base.join("state.db"))
                || ["sessions", "mcp-tokens", "pairing"]
                    .iter()
                    .any(|d| real.starts_with(real_path(&base.join(d))))
        });
    if credential {
        return Some(format!(
            "{verb} denied: '{shown}' is a protected system/credential file."
        ));
    }
    if !env.safe_roots.is_empty() && !env.safe_roots.iter().any(|root| real.starts_with(root)) {
        let mut roots: Vec<String> = env.safe_roots.iter().map(|r| r.display().to_string()).collect();
        roots.sort();
        return Some(format!(
            "{verb} denied: '{shown}' is outside HERMES_WRITE_SAFE_ROOT ({}). Unset the variable or add this path's directory prefix.",
            roots.join(":")
        ));
    }
    None
}

/// The soft guard against editing another Hermes profile's skills/plugins/cron/memories.
pub fn cross_profile_warning(env: &GuardEnv, resolved: &Path) -> Option<String> {
    let target = real_path(resolved);
    let rel = target.strip_prefix(real_path(&env.hermes_root)).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let (profile, area) = match parts.as_slice() {
        [area, ..] if PROFILE_SCOPED_AREAS.contains(&area.as_str()) => ("default".to_string(), area.clone()),
        [p, name, area, ..] if p == "profiles" && PROFILE_SCOPED_AREAS.contains(&area.as_str()) => {
            (name.clone(), area.clone())
        }
        _ => return None,
    };
    let active = env.active_profile();
    if profile == active {
        return None;
    }
    Some(format!(
        "Cross-profile write blocked by soft guard: {} belongs to Hermes profile '{profile}', but the agent is \
         running under profile '{active}'. Editing another profile's {area}/ will affect that profile's future \
         sessions, not the one you are currently in. Confirm with the user before proceeding. To bypass this \
         guard after explicit user direction, retry the call with ``cross_profile=True``. (Defense-in-depth — \
         not a security boundary; the terminal tool can still bypass.)",
        target.display()
    ))
}

/// Refuses content that is read_file's display (numbered lines, or the dedup status stub)
/// rather than file bytes: writing it would corrupt the file.
pub fn check_internal_content(content: &str) -> Result<(), String> {
    let stripped = content.trim();
    let status = !stripped.is_empty()
        && (stripped == READ_DEDUP_STATUS
            || (stripped.contains(READ_DEDUP_STATUS) && stripped.len() <= 2 * READ_DEDUP_STATUS.len()));
    if status || looks_line_numbered(content) {
        return Err(
            "Refusing to write internal read_file display text as file content. Strip read_file \
                    line-number prefixes or reconstruct the intended file contents before writing."
                .to_string(),
        );
    }
    Ok(())
}

/// Mostly consecutive `N|text` lines: read_file output pasted back as content.
fn looks_line_numbered(content: &str) -> bool {
    let lines: Vec<&str> = content.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.len() < 2 {
        return false;
    }
    let numbered: Vec<u128> = lines
        .iter()
        .filter_map(|line| {
            let (prefix, _) = line.trim_start().split_once('|')?;
            (!prefix.is_empty() && prefix.bytes().all(|b| b.is_ascii_digit())).then(|| prefix.parse().ok())?
        })
        .collect();
    if numbered.len() < 2 || (numbered.len() as f64) / (lines.len() as f64) < 0.6 {
        return false;
    }
    let consecutive = numbered.windows(2).filter(|w| w[1] == w[0] + 1).count();
    consecutive >= numbered.len() - 1
}

/// Follows symlinks like `os.path.realpath`: the longest existing ancestor is canonicalised
/// and the rest appended, so paths that do not exist yet still resolve.
pub fn real_path(path: &Path) -> PathBuf {
    let path = normalize(path);
    let mut existing = path.clone();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(&existing) {
            let mut out = real;
            out.extend(rest.iter().rev());
            return out;
        }
        match (existing.file_name().map(|n| n.to_os_string()), existing.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                existing = parent.to_path_buf();
            }
            _ => return path,
        }
    }
}
