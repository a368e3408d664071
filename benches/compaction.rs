//! Compression planning cost on a long session: `plan` + `prune_middle` + `apply` over a
//! generated ~150 000-token agentic history (what runs before every model call once the
//! threshold is crossed). Run with `cargo bench --bench compaction`.

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use hermes_acp::agent::compaction::{CompactionPolicy, apply, estimate_tokens, plan, prune_middle};
use hermes_acp::transcript::{Message, ToolCall};

/// Turns of: user ask, assistant with two parallel calls, their results, a follow-up call and
/// result, and an answer — until the history holds about `target_tokens`.
fn history(target_tokens: u64) -> Vec<Message> {
    let mut out = vec![Message::user("Start the refactor"), Message::assistant("Ready.")];
    let mut n = 0;
    let mut turn = 0;
    while estimate_tokens(&out) < target_tokens {
        out.push(Message::user(format!(
            "Step {turn}: update module {turn} and run its tests"
        )));
        let mut asking = Message::assistant(format!("Reading module {turn}."));
        for name in ["read_file", "search_files"] {
            n += 1;
            asking.tool_calls.push(ToolCall {
                id: format!("call_{n}"),
                name: name.into(),
                arguments: format!(r#"{{"path":"src/m{turn}.rs","pattern":"fn f{turn}"}}"#),
            });
        }
        let calls = asking.tool_calls.clone();
        out.push(asking);
        for call in &calls {
            out.push(Message::tool_result(call, "line of source code\n".repeat(120), false));
        }
        n += 1;
        let test = ToolCall {
            id: format!("call_{n}"),
            name: "terminal".into(),
            arguments: format!(r#"{{"command":"cargo test m{turn}"}}"#),
        };
        let mut running = Message::assistant("");
        running.tool_calls.push(test.clone());
        out.push(running);
        out.push(Message::tool_result(&test, "test result: ok\n".repeat(60), false));
        out.push(Message::assistant(format!(
            "Module {turn} is updated and its tests pass."
        )));
        turn += 1;
    }
    out
}

fn bench(c: &mut Criterion) {
    let history = history(150_000);
    let cfg = CompactionPolicy::default();
    let window = 256_000;
    c.bench_function("compaction plan+prune+apply 150k tokens", |b| {
        b.iter(|| {
            let p = plan(black_box(&history), &cfg, window, 200_000).expect("over the threshold");
            let (pruned, _) = prune_middle(&history, &p);
            black_box(apply(&pruned, &p, "## Goal\nsummary"))
        })
    });
    c.bench_function("compaction estimate 150k tokens", |b| {
        b.iter(|| estimate_tokens(black_box(&history)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
