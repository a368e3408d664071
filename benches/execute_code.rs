//! Criterion bench of `execute_code` start-up: from the call to the script's first tool call
//! arriving at the agent (approval skipped in yolo mode; staging the files, binding the socket,
//! starting python under the sandbox, importing `hermes_tools`, connecting, sending the first
//! `read_file`). Budget: ≤ 150 ms, Python start-up included. After the criterion group a short
//! explicit pass measures the median again, and the median of a bare `python -c pass` (the
//! same interpreter) beside it, and logs `budget …: PASS/FAIL` with both on stderr; the bench
//! never fails on a miss because timings on shared machines are noisy (the bare start-up says
//! how loaded the machine was).
//!
//! Run with `cargo bench --bench execute_code`.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use criterion::Criterion;
use hermes_acp::runtime::approver::AllowAll;
use hermes_acp::runtime::file_io::GuardEnv;
use hermes_acp::runtime::{SessionScope, Tool, ToolContext, ToolOutput, ToolProgress};
use hermes_acp::safety::policy::Mode;
use hermes_acp::tools::execute_code::ExecuteCodeTool;
use serde_json::{Value, json};
use tokio::runtime::Runtime;
use tokio_util::sync::CancellationToken;

const BUDGET: Duration = Duration::from_millis(150);
const BUDGET_RUNS: usize = 30;
const SCRIPT: &str = "from hermes_tools import read_file\nread_file('a.txt')\n";

/// Remembers when the first nested call started.
#[derive(Default)]
struct FirstCall(Mutex<Option<Instant>>);

impl ToolProgress for FirstCall {
    fn content(&self, _: &str, _: String) {}
    fn nested_started(&self, _: &str, _: &str, _: &Value) {
        self.0.lock().unwrap().get_or_insert_with(Instant::now);
    }
    fn nested_finished(&self, _: &str, _: &str, _: &Value, _: &ToolOutput, _: Duration) {}
    fn plan(&self, _: Vec<hermes_acp::runtime::PlanItem>) {}
}

/// One run; the time from the call to its first tool call.
fn startup(rt: &Runtime, project: &std::path::Path) -> Duration {
    let first = Arc::new(FirstCall::default());
    let mut session = SessionScope::local("bench", project.to_path_buf(), Arc::new(AllowAll));
    session.tools = hermes_acp::tools::builtin(GuardEnv::with_home(&project.join("home")), Default::default());
    session.state.set_mode(Mode::Yolo);
    let ctx = ToolContext::new(Arc::new(session), Default::default(), "bench", CancellationToken::new())
        .with_progress(first.clone());
    let start = Instant::now();
    let out = rt.block_on(ExecuteCodeTool::default().run(&ctx, json!({"code": SCRIPT})));
    assert!(!out.is_error, "{}", out.content);
    let at = first.0.lock().unwrap().expect("the script made its tool call");
    at - start
}

fn main() {
    let rt = Runtime::new().unwrap();
    let project = tempfile::tempdir().unwrap();
    std::fs::write(project.path().join("a.txt"), "a\n").unwrap();
    // The first run finds and resolves the interpreter (once per process): not start-up.
    startup(&rt, project.path());
    let mut criterion = Criterion::default().configure_from_args().sample_size(20);
    criterion.bench_function("execute_code_startup_to_first_tool_call", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| startup(&rt, project.path())).sum())
    });
    criterion.final_summary();

    let median = |mut times: Vec<Duration>| {
        times.sort();
        times[times.len() / 2]
    };
    let ours = median((0..BUDGET_RUNS).map(|_| startup(&rt, project.path())).collect());
    let python = interpreter();
    let bare = median((0..BUDGET_RUNS).map(|_| bare_start(&python)).collect());
    let verdict = if ours <= BUDGET { "PASS" } else { "FAIL" };
    eprintln!(
        "budget execute_code start-up to first tool call ≤ {BUDGET:?}: {verdict} (median {ours:?}; \
         bare `{} -c pass` median {bare:?})",
        python.display()
    );
}

/// The interpreter behind `python3` on PATH (what the tool resolves to).
fn interpreter() -> std::path::PathBuf {
    let out = std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .unwrap();
    std::path::PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

fn bare_start(python: &std::path::Path) -> Duration {
    let start = Instant::now();
    let status = std::process::Command::new(python)
        .args(["-c", "pass"])
        .status()
        .unwrap();
    assert!(status.success());
    start.elapsed()
}
