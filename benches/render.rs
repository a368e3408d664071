//! Criterion benches of edit rendering on a 1 MB file with a few hundred changed lines spread
//! over the whole file (the worst case for the windowed diff: the window is the whole file):
//! - `runtime::file_io::unified_diff`, the diff the model gets back from `patch`/`write_file`,
//! - the finished `patch` card (`ToolDisplay::Changes`): the tool's `Outcome` (computed by the
//!   agent, `ToolRegistry::outcome` in `tools::catalog`) rendered by `acp::render::completion`, alone and
//!   serialised to the JSON that goes on the wire.
//!
//! Budget from our issues: ≤ 20 ms for each. After the criterion group a short explicit pass
//! measures the medians again and logs `budget …: PASS/FAIL` on stderr (never fails the run).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use agent_client_protocol::v1::schema::{ToolCallContent, ToolCallStatus};
use criterion::Criterion;
use hermes_acp::acp::render;
use hermes_acp::runtime::file_io::unified_diff;
use hermes_acp::runtime::{FileChange, ToolDisplay, ToolOutput};
use hermes_acp::tools::catalog::builtin_catalog;
use serde_json::{Value, json};

const FILE_BYTES: usize = 1024 * 1024;
/// Every this-many-th line is changed: ~26 000 lines → ~330 changed lines.
const CHANGE_EVERY: usize = 80;
const BUDGET: Duration = Duration::from_millis(20);
const BUDGET_RUNS: usize = 20;

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_render(&mut c);
    c.final_summary();
}

/// `(old, new, changed line count)`: ~1 MB of source-like lines, every 80th one edited.
fn texts() -> (String, String, usize) {
    let mut old = String::with_capacity(FILE_BYTES + 128);
    let mut new = String::with_capacity(FILE_BYTES + 4096);
    let mut changed = 0;
    let mut n = 0usize;
    while old.len() < FILE_BYTES {
        let line = format!(
            "    let value_{n} = compute(value_{}, {});\n",
            n.saturating_sub(1),
            n % 17
        );
        old.push_str(&line);
        if n % CHANGE_EVERY == CHANGE_EVERY / 2 {
            new.push_str(&format!(
                "    let value_{n} = compute_checked(value_{}, {})?;\n",
                n.saturating_sub(1),
                n % 17
            ));
            changed += 1;
        } else {
            new.push_str(&line);
        }
        n += 1;
    }
    (old, new, changed)
}

/// The `patch` result the card is rendered from: Hermes' JSON with the diff, plus the change.
fn patch_output(path: &str, old: &str, new: &str, diff: String) -> (Value, ToolOutput) {
    let args = json!({"mode": "replace", "path": path, "old_string": "compute(", "new_string": "compute_checked(",
        "replace_all": true});
    let content = json!({
        "success": true,
        "diff": diff,
        "files_modified": [path],
        "lint": {"status": "skipped", "message": "No linter for .rs files"},
        "resolved_path": path,
    });
    let output = ToolOutput::json(content).with_display(ToolDisplay::Changes(vec![FileChange {
        path: PathBuf::from(path),
        old_text: Some(old.to_string()),
        new_text: Some(new.to_string()),
    }]));
    (args, output)
}

/// The finished card: the tool's outcome, rendered.
fn card(args: &Value, output: &ToolOutput) -> (ToolCallStatus, Vec<ToolCallContent>, Option<Value>) {
    let outcome = builtin_catalog().outcome("patch", args, output, Path::new("/work/project"));
    render::completion("patch", outcome.summary.as_deref(), output)
}

/// The card as the client receives it: status, content (the diff blocks) and raw output.
fn card_json(args: &Value, output: &ToolOutput) -> String {
    let (status, content, raw) = card(args, output);
    serde_json::to_string(&json!({"status": status, "content": content, "rawOutput": raw})).expect("card JSON")
}

fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn check_budget(name: &str, measured: Duration) {
    let ok = measured <= BUDGET;
    eprintln!(
        "budget {name}: median {:.3} ms (budget <= {} ms): {}",
        measured.as_secs_f64() * 1e3,
        BUDGET.as_millis(),
        if ok { "PASS" } else { "FAIL" }
    );
}

fn bench_render(c: &mut Criterion) {
    let (old, new, changed) = texts();
    let path = "/work/project/src/big.rs";
    let (a, b) = (format!("a/{path}"), format!("b/{path}"));
    let diff = unified_diff(&old, &new, &a, &b);
    assert!(
        diff.lines()
            .filter(|l| l.starts_with('+') && !l.starts_with("+++"))
            .count()
            == changed
    );
    let (args, output) = patch_output(path, &old, &new, diff);
    eprintln!(
        "render fixture: {} bytes, {} lines, {changed} changed lines",
        old.len(),
        old.lines().count()
    );

    let mut group = c.benchmark_group("render_1mb");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("unified_diff", |bench| {
        bench.iter(|| unified_diff(black_box(&old), black_box(&new), &a, &b))
    });
    group.bench_function("completion_card", |bench| {
        bench.iter(|| card(black_box(&args), black_box(&output)))
    });
    group.bench_function("completion_card_json", |bench| {
        bench.iter(|| card_json(black_box(&args), black_box(&output)))
    });
    group.finish();

    check_budget(
        "render_1mb unified_diff",
        median(BUDGET_RUNS, || {
            black_box(unified_diff(&old, &new, &a, &b));
        }),
    );
    check_budget(
        "render_1mb completion_card",
        median(BUDGET_RUNS, || {
            black_box(card(&args, &output));
        }),
    );
    check_budget(
        "render_1mb completion_card_json",
        median(BUDGET_RUNS, || {
            black_box(card_json(&args, &output));
        }),
    );
}
