//! Criterion bench of the OS sandbox's cost per command: spawning and reaping `true` plainly vs
//! fully contained (user, mount, PID, IPC and network namespaces; a hidden Hermes folder and a
//! hidden credential file; read-only git hooks and config; Landlock; seccomp), the contained
//! side including building everything (done once per command in the agent). Budget: ≤ 3 ms
//! overhead. After the criterion group a short explicit pass
//! measures both medians again and logs `budget …: PASS/FAIL` on stderr; the bench never fails
//! on a miss because timings on shared machines are noisy.
//!
//! Run with `cargo bench --bench sandbox`.

use std::time::{Duration, Instant};

use criterion::Criterion;
use hermes_acp::safety::sandbox::{self, SandboxPolicy};
use tokio::process::Command;
use tokio::runtime::Runtime;

const BUDGET: Duration = Duration::from_millis(3);
const BUDGET_RUNS: usize = 200;

fn command() -> Command {
    let mut command = Command::new("true");
    command.kill_on_drop(true);
    command
}

async fn plain() {
    let status = command().status().await.unwrap();
    assert!(status.success());
}

async fn sandboxed(policy: &SandboxPolicy) {
    let prepared = policy.prepare().unwrap();
    let mut command = command();
    prepared.apply(&mut command);
    let status = command.status().await.unwrap();
    assert!(status.success());
}

fn median(rt: &Runtime, runs: usize, mut f: impl FnMut() -> Duration) -> Duration {
    rt.block_on(async {});
    let mut times: Vec<Duration> = (0..runs).map(|_| f()).collect();
    times.sort();
    times[times.len() / 2]
}

fn main() {
    assert!(
        sandbox::status().is_contained(),
        "no full sandbox here: {:?}",
        sandbox::status()
    );
    let rt = Runtime::new().unwrap();
    let project = tempfile::tempdir().unwrap();
    let project_path = project.path().canonicalize().unwrap();
    std::fs::create_dir_all(project_path.join(".git/hooks")).unwrap();
    std::fs::write(project_path.join(".git/config"), "[core]\n").unwrap();
    let home = tempfile::tempdir().unwrap();
    let hermes = home.path().join(".hermes");
    std::fs::create_dir_all(hermes.join("skills")).unwrap();
    std::fs::write(hermes.join(".env"), "KEY=x").unwrap();
    std::fs::write(home.path().join(".netrc"), "machine x").unwrap();
    let secrets = sandbox::secrets(home.path(), &hermes);
    let policy = SandboxPolicy {
        writable: vec![project_path.clone(), std::env::temp_dir().canonicalize().unwrap()],
        hidden: secrets.hidden,
        kept: secrets.kept,
        protected: sandbox::protected::existing(std::slice::from_ref(&project_path), &[]),
        ..SandboxPolicy::default()
    };
    let mut criterion = Criterion::default().configure_from_args();
    let mut group = criterion.benchmark_group("spawn_true");
    group.bench_function("plain", |b| b.iter(|| rt.block_on(plain())));
    group.bench_function("contained", |b| b.iter(|| rt.block_on(sandboxed(&policy))));
    group.finish();
    criterion.final_summary();

    let time = |f: &dyn Fn()| {
        let start = Instant::now();
        f();
        start.elapsed()
    };
    let plain_median = median(&rt, BUDGET_RUNS, || time(&|| rt.block_on(plain())));
    let sandboxed_median = median(&rt, BUDGET_RUNS, || time(&|| rt.block_on(sandboxed(&policy))));
    let overhead = sandboxed_median.saturating_sub(plain_median);
    let verdict = if overhead <= BUDGET { "PASS" } else { "FAIL" };
    eprintln!(
        "budget sandbox overhead ≤ {BUDGET:?}: {verdict} (plain median {plain_median:?}, sandboxed median \
         {sandboxed_median:?}, overhead {overhead:?})"
    );
}
