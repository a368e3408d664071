//! What containment costs real work: `cargo build` of a small crate (its source touched before
//! each build, so each is a real compile) and `npm test` of a small package, run plainly and
//! fully contained (namespaces, hidden secrets, read-only git hooks, Landlock, seccomp — the
//! sandbox preparation included), interleaved so machine load hits both alike. Budget: the
//! contained median at most 5 % above the plain one. Prints the medians and a PASS/FAIL line;
//! it never fails on a miss, timings on shared machines being noisy.
//!
//! Run with `cargo bench --bench sandbox_workloads` (needs cargo and npm on PATH).

use std::path::Path;
use std::time::{Duration, Instant};

use hermes_acp::safety::sandbox::{self, SandboxPolicy};

const RUNS: usize = 15;
const BUDGET: f64 = 1.05;

fn main() {
    assert!(
        sandbox::status().is_contained(),
        "no full sandbox here: {:?}",
        sandbox::status()
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path().canonicalize().unwrap();
    let krate = root.join("wlcrate");
    std::fs::create_dir_all(krate.join("src")).unwrap();
    std::fs::write(
        krate.join("Cargo.toml"),
        "[package]\nname = \"wlcrate\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .unwrap();
    let main = "fn main() {\n    let v: Vec<u64> = (1..100).map(|x| x * x).collect();\n    println!(\"{}\", v.iter().sum::<u64>());\n}\n";
    std::fs::write(krate.join("src/main.rs"), main).unwrap();
    let package = root.join("pkg");
    std::fs::create_dir_all(&package).unwrap();
    std::fs::write(
        package.join("package.json"),
        r#"{"name":"pkg","version":"1.0.0","scripts":{"test":"node test.js"}}"#,
    )
    .unwrap();
    std::fs::write(
        package.join("test.js"),
        "const assert = require('assert'); assert.strictEqual([1, 2, 3].reduce((a, b) => a + b), 6);\n",
    )
    .unwrap();
    std::fs::create_dir_all(root.join(".git/hooks")).unwrap();
    let home = tempfile::tempdir().unwrap();
    let secrets = sandbox::secrets(home.path(), &home.path().join(".hermes"));
    let policy = SandboxPolicy {
        writable: vec![root.clone(), std::env::temp_dir().canonicalize().unwrap()],
        hidden: secrets.hidden,
        kept: secrets.kept,
        protected: sandbox::protected::existing(std::slice::from_ref(&root), &[]),
        ..SandboxPolicy::default()
    };
    // Warm both (the first cargo build compiles from nothing).
    for contained in [false, true] {
        run(&rt, &krate, "cargo build -q --offline", contained.then_some(&policy));
    }
    for (name, dir, command) in [
        ("cargo build", &krate, "touch src/main.rs && cargo build -q --offline"),
        ("npm test", &package, "npm test --silent"),
    ] {
        let (mut plain, mut contained) = (Vec::new(), Vec::new());
        for _ in 0..RUNS {
            plain.push(run(&rt, dir, command, None));
            contained.push(run(&rt, dir, command, Some(&policy)));
        }
        let (plain, contained) = (median(plain), median(contained));
        let ratio = contained.as_secs_f64() / plain.as_secs_f64();
        let verdict = if ratio <= BUDGET { "PASS" } else { "FAIL" };
        eprintln!(
            "budget {name} contained ≤ 105 % of plain: {verdict} (plain median {plain:?}, contained median {contained:?}, {:.1} %)",
            ratio * 100.0
        );
    }
}

fn run(rt: &tokio::runtime::Runtime, dir: &Path, command: &str, policy: Option<&SandboxPolicy>) -> Duration {
    rt.block_on(async {
        let start = Instant::now();
        let prepared = policy.map(|p| p.prepare().unwrap());
        let mut child = tokio::process::Command::new("bash");
        child.args(["-c", command]).current_dir(dir).kill_on_drop(true);
        if let Some(prepared) = &prepared {
            prepared.apply(&mut child);
        }
        let output = child.output().await.unwrap();
        assert!(
            output.status.success(),
            "{command} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        start.elapsed()
    })
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}
