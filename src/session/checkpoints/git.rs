//! Running the `git` CLI against a shadow repository, the way Hermes' checkpoint manager does:
//! `GIT_DIR` is the shadow repository, `GIT_WORK_TREE` the session folder, no user or system
//! configuration, no hooks, a fixed author, and every call bounded in time. The project's own
//! `.git` is never named, so it is never read or written. Blocking: call it on the blocking pool.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// Why a git call failed.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    #[error("git is not installed (no `git` on PATH)")]
    Missing,
    #[error("`git {args}` took longer than {secs} s")]
    Timeout { args: String, secs: u64 },
    #[error("`git {args}` failed: {stderr}")]
    Failed { args: String, stderr: String },
    #[error("running git: {0}")]
    Io(#[from] std::io::Error),
}

/// How long one git call may take (Hermes: 30 s by default).
pub const GIT_TIMEOUT: Duration = Duration::from_secs(30);

/// Settings that make the shadow repository behave the same whatever the user's git setup:
/// no hooks, no fsmonitor daemon, no line-ending or path quoting surprises, no background gc.
const CONFIG: &[&str] = &[
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "core.autocrlf=false",
    "core.safecrlf=false",
    "core.quotepath=false",
    "core.symlinks=true",
    "core.untrackedCache=false",
    "core.splitIndex=false",
    // Names that are valid on this file system are stored even if Windows or macOS would
    // refuse them: a file git cannot store cannot be restored.
    "core.protectNTFS=false",
    "core.protectHFS=false",
    "gc.auto=0",
    "commit.gpgSign=false",
    "advice.addEmbeddedRepo=false",
    // Each snapshot is one pack (a loose file per object costs more on a busy file system);
    // packs are merged geometrically, without bitmaps.
    "fastimport.unpackLimit=0",
    "repack.writeBitmaps=false",
];

/// Inherited variables that would point git somewhere else than the shadow repository.
pub(super) const CLEARED: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_NAMESPACE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_CEILING_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
];

/// A shadow repository (`git_dir`) whose work tree is the session folder.
#[derive(Debug, Clone)]
pub struct Git {
    pub git_dir: PathBuf,
    pub work_tree: PathBuf,
    pub timeout: Duration,
    /// The git executable (`git`, found on PATH).
    pub program: PathBuf,
}

impl Git {
    pub fn new(git_dir: PathBuf, work_tree: PathBuf) -> Git {
        Git {
            git_dir,
            work_tree,
            timeout: GIT_TIMEOUT,
            program: PathBuf::from("git"),
        }
    }

    /// Creates the bare shadow repository (no work tree: `git init --bare` refuses one).
    pub fn init_bare(&self) -> Result<(), GitError> {
        let mut cmd = base_command(&self.program);
        cmd.arg("init").arg("--bare").arg("--quiet").arg(&self.git_dir);
        cmd.current_dir(self.git_dir.parent().unwrap_or(Path::new("/")));
        run_command(cmd, None, self.timeout, "init --bare").map(|_| ())
    }

    /// Runs `git <args>` and returns its stdout.
    pub fn run(&self, args: &[&str]) -> Result<Vec<u8>, GitError> {
        self.run_input(args, None)
    }

    /// Runs `git <args>` with `input` on stdin.
    pub fn run_input(&self, args: &[&str], input: Option<Vec<u8>>) -> Result<Vec<u8>, GitError> {
        run_both(self.command(args), input, self.timeout, &args.join(" ")).map(|(out, _)| out)
    }

    /// Runs `git <args>` for up to `timeout` while `feed` writes its stdin; returns what
    /// `feed` returned and the command's stdout.
    pub fn run_feeding<T: Send + 'static>(
        &self,
        args: &[&str],
        timeout: Duration,
        feed: impl FnOnce(ChildStdin) -> T + Send + 'static,
    ) -> Result<(T, Vec<u8>), GitError> {
        let cmd = self.command(args);
        let (fed, out, _) = run_feeding(cmd, Some(feed), timeout, &args.join(" "))?;
        let fed = fed.ok_or_else(|| GitError::Io(std::io::Error::other("the input writer panicked")))?;
        Ok((fed, out))
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = base_command(&self.program);
        cmd.env("GIT_DIR", &self.git_dir)
            .env("GIT_WORK_TREE", &self.work_tree)
            .env("GIT_INDEX_FILE", self.git_dir.join("index"))
            .current_dir(&self.work_tree)
            .args(args);
        cmd
    }

    /// Runs `git <args>` and returns its stdout as trimmed text (ids, counts).
    pub fn text(&self, args: &[&str]) -> Result<String, GitError> {
        Ok(String::from_utf8_lossy(&self.run(args)?).trim().to_string())
    }
}

fn base_command(program: &Path) -> Command {
    let mut cmd = Command::new(program);
    for name in CLEARED {
        cmd.env_remove(name);
    }
    cmd.env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_SYSTEM", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_AUTHOR_NAME", "Hermes Checkpoint")
        .env("GIT_AUTHOR_EMAIL", "hermes@local")
        .env("GIT_COMMITTER_NAME", "Hermes Checkpoint")
        .env("GIT_COMMITTER_EMAIL", "hermes@local")
        .env("LC_ALL", "C");
    for setting in CONFIG {
        cmd.arg("-c").arg(setting);
    }
    cmd
}

/// Runs `cmd` to completion or until `timeout` (then it is killed); returns its stdout.
pub(super) fn run_command(
    cmd: Command,
    input: Option<Vec<u8>>,
    timeout: Duration,
    shown: &str,
) -> Result<Vec<u8>, GitError> {
    run_both(cmd, input, timeout, shown).map(|(out, _)| out)
}

/// Runs `cmd` to completion or until `timeout` (then it is killed), with `input` on stdin.
fn run_both(
    cmd: Command,
    input: Option<Vec<u8>>,
    timeout: Duration,
    shown: &str,
) -> Result<(Vec<u8>, Vec<u8>), GitError> {
    let feed = input.map(|bytes| {
        move |mut stdin: ChildStdin| {
            let _ = stdin.write_all(&bytes);
        }
    });
    run_feeding(cmd, feed, timeout, shown).map(|(_, out, err)| (out, err))
}

/// What a finished call left: the stdin writer's result (if there was one), stdout, stderr.
type Finished<T> = (Option<T>, Vec<u8>, Vec<u8>);

/// Runs `cmd` to completion or until `timeout` (then it is killed). `feed` writes its stdin
/// on a thread of its own (dropping the handle closes it) and its result comes back; output is
/// drained on threads so a chatty command never blocks on a full pipe.
pub(super) fn run_feeding<T: Send + 'static>(
    mut cmd: Command,
    feed: Option<impl FnOnce(ChildStdin) -> T + Send + 'static>,
    timeout: Duration,
    shown: &str,
) -> Result<Finished<T>, GitError> {
    cmd.stdin(if feed.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => GitError::Missing,
        _ => GitError::Io(e),
    })?;
    let writer = match (feed, child.stdin.take()) {
        (Some(feed), Some(stdin)) => Some(std::thread::spawn(move || feed(stdin))),
        _ => None,
    };
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stderr.read_to_end(&mut buf);
        buf
    });
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stdout.read_to_end(&mut buf);
        buf
    });
    let deadline = Instant::now() + timeout;
    // Most calls end within a few milliseconds: poll finely first, then every millisecond (a
    // coarser pause would add its length to every call).
    let mut pause = Duration::from_micros(100);
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(GitError::Timeout {
                args: shown.to_string(),
                secs: timeout.as_secs(),
            });
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(1));
    };
    let fed = writer.and_then(|w| w.join().ok());
    let out = out_reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    if !status.success() {
        return Err(GitError::Failed {
            args: shown.to_string(),
            stderr: String::from_utf8_lossy(&err).trim().to_string(),
        });
    }
    Ok((fed, out, err))
}
