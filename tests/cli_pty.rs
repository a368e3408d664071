//! The command line on a real terminal, through a pseudo-terminal: `--setup` answered prompt by
//! prompt (a bad answer re-asked, the key typed without echo, files written private) against
//! the mock LLM, and the one short note the server prints when a person starts it by hand.
//! The pty is opened with libc (posix_openpt), so no extra dependency; Unix only.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use crate::support::TestHome;
use crate::support::mock_llm::{self, MockLlm};

/// A child process whose stdin, stdout, stderr and controlling terminal are a pty we hold.
struct PtyChild {
    /// `None` once `wait` has taken it.
    child: Option<Child>,
    master: File,
    /// Everything the child wrote to the terminal so far (the terminal's echo included).
    screen: Arc<(Mutex<String>, Condvar)>,
    /// How far `expect` has consumed `screen`.
    seen: usize,
}

impl PtyChild {
    fn spawn(mut command: Command) -> PtyChild {
        // SAFETY: plain libc calls on a descriptor we own; ptsname_r writes into our buffer.
        let (master, slave_path) = unsafe {
            let fd = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC);
            assert!(fd >= 0, "posix_openpt");
            assert_eq!(libc::grantpt(fd), 0, "grantpt");
            assert_eq!(libc::unlockpt(fd), 0, "unlockpt");
            let mut name = [0 as libc::c_char; 128];
            assert_eq!(libc::ptsname_r(fd, name.as_mut_ptr(), name.len()), 0, "ptsname_r");
            let path = std::ffi::CStr::from_ptr(name.as_ptr()).to_string_lossy().into_owned();
            (File::from_raw_fd(fd), path)
        };
        let slave = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&slave_path)
            .unwrap();
        command
            .stdin(slave.try_clone().unwrap())
            .stdout(slave.try_clone().unwrap())
            .stderr(slave);
        // SAFETY: only async-signal-safe calls between fork and exec: a new session whose
        // controlling terminal is the pty (so /dev/tty, used for hidden input, is ours).
        unsafe {
            command.pre_exec(|| {
                if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY as _, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("spawn hermes-acp on a pty");
        drop(command); // closes our copies of the slave, so reads end when the child exits
        let screen = Arc::new((Mutex::new(String::new()), Condvar::new()));
        let sink = screen.clone();
        let mut reader = master.try_clone().unwrap();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            // EIO once the child (the last holder of the slave) is gone.
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.0.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
                sink.1.notify_all();
            }
        });
        PtyChild {
            child: Some(child),
            master,
            screen,
            seen: 0,
        }
    }

    /// Waits until `text` appears after what was already matched; returns the screen up to
    /// and including it.
    fn expect(&mut self, text: &str) -> String {
        let deadline = Instant::now() + crate::support::TIMEOUT;
        let (lock, ready) = &*self.screen;
        let mut screen = lock.lock().unwrap();
        loop {
            if let Some(at) = screen[self.seen..].find(text) {
                let end = self.seen + at + text.len();
                let shown = screen[self.seen..end].to_string();
                self.seen = end;
                return shown;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(!left.is_zero(), "never saw {text:?}; the screen:\n{}", screen.as_str());
            screen = ready.wait_timeout(screen, left).unwrap().0;
        }
    }

    /// Types `line` and Enter.
    fn send(&mut self, line: &str) {
        write!(self.master, "{line}\r").unwrap();
        self.master.flush().unwrap();
    }

    /// Sends a line once the program has turned the terminal's echo off (hidden input): the
    /// prompt is printed before echo goes off, and a person cannot type in between, but a test
    /// can. Polls the terminal's own state, with a hang guard.
    fn send_hidden(&mut self, line: &str) {
        let deadline = Instant::now() + std::time::Duration::from_secs(10);
        loop {
            // SAFETY: tcgetattr fills a termios we own, from a descriptor we own.
            let echo_off = unsafe {
                let mut termios: libc::termios = std::mem::zeroed();
                libc::tcgetattr(self.master.as_raw_fd(), &mut termios) == 0 && termios.c_lflag & libc::ECHO == 0
            };
            if echo_off {
                return self.send(line);
            }
            assert!(Instant::now() < deadline, "echo never went off:\n{}", self.screen());
            std::thread::yield_now();
        }
    }

    fn screen(&self) -> String {
        self.screen.0.lock().unwrap().clone()
    }

    /// Waits for the exit (bounded), returns the exit code.
    fn wait(&mut self) -> i32 {
        let mut child = self.child.take().expect("not waited yet");
        let pid = child.id();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(child.wait());
        });
        match rx.recv_timeout(crate::support::TIMEOUT) {
            Ok(status) => status.unwrap().code().unwrap_or(-1),
            Err(_) => {
                // SAFETY: kill only sends a signal to our own child.
                unsafe { libc::kill(pid as i32, libc::SIGKILL) };
                panic!("did not exit; the screen:\n{}", self.screen());
            }
        }
    }
}

impl Drop for PtyChild {
    fn drop(&mut self) {
        if let Some(child) = self.child.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn hermes(home: &Path, path: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_hermes-acp"));
    command
        .env_clear()
        .env("PATH", path)
        .env("HOME", home)
        .env("HERMES_HOME", home)
        .env("TERM", "dumb");
    command
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

// The mock LLM runs on the runtime while this test blocks on the terminal: two workers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn setup_on_a_terminal_re_asks_hides_the_key_and_writes_private_files() {
    let mock = MockLlm::start().await;
    mock.push(mock_llm::text(&["OK"]));
    let home = TestHome::unconfigured();
    let empty_path = tempfile::tempdir().unwrap();
    let mut command = hermes(home.path(), empty_path.path());
    command.arg("--setup");
    let mut term = PtyChild::spawn(command);

    term.expect("Provider [1]: ");
    term.send("cusotm");
    term.expect("'cusotm' is not one of the choices: type 1-4 or a name");
    term.expect("Provider [1]: ");
    term.send("custom");
    term.expect("Base URL [http://127.0.0.1:11434/v1]: ");
    term.send("localhost:1/v1");
    term.expect("which is not a usable URL: it must start with http:// or https://");
    term.expect("Base URL [");
    term.send(&mock.url());
    term.expect("API key, if the server needs one (input hidden, Enter for none): ");
    term.send_hidden("sk-pty-secret-4242");
    term.expect("Model (number or id) [1]: ");
    term.send("2");
    term.expect("Testing mock-large with one tiny completion…");
    term.expect("  OK: mock-large answered in ");
    term.expect("Check it any time with `hermes-acp --check`.");
    assert_eq!(term.wait(), 0, "{}", term.screen());

    let screen = term.screen();
    assert!(
        !screen.contains("sk-pty-secret-4242"),
        "the key is never echoed:\n{screen}"
    );
    let env = home.path().join(".env");
    assert_eq!(
        std::fs::read_to_string(&env).unwrap(),
        "CUSTOM_API_KEY=sk-pty-secret-4242\n"
    );
    assert_eq!(mode(&env), 0o600, ".env holds a key: private");
    let config = std::fs::read_to_string(home.path().join("config.yaml")).unwrap();
    assert!(
        config.contains("default: mock-large") && !config.contains("sk-pty"),
        "{config}"
    );
    assert_eq!(mock.requests().last().unwrap()["max_tokens"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn started_by_hand_it_says_once_what_it_is_and_how_to_quit() {
    let home = TestHome::unconfigured();
    let mut term = PtyChild::spawn(hermes(home.path(), Path::new("/usr/bin:/bin")));
    let note = term.expect("Press Ctrl-C to quit.");
    for needle in [
        "hermes-acp is an ACP agent server: your editor starts it",
        "hermes-acp --setup",
        "hermes-acp --check",
        "Add it to your editor",
    ] {
        assert!(note.contains(needle), "missing {needle:?} in:\n{note}");
    }
    // Ctrl-C from the terminal takes the clean path.
    term.master.write_all(b"\x03").unwrap();
    assert_eq!(term.wait(), 0, "{}", term.screen());
    let screen = term.screen();
    assert_eq!(screen.matches("Press Ctrl-C to quit.").count(), 1, "{screen}");
    assert!(
        screen.matches("no usable provider").count() <= 1,
        "the provider warning is said at most once:\n{screen}"
    );
}
