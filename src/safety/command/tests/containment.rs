//! The containment classes as a table (`containment_cases*`): risk, harmless, network and
//! sensitive writes per command; plus rule patterns and what every named write goes through.

use super::super::Risk;
use super::containment_cases::{SCRIPTS, WRAPPERS};
use super::containment_cases2::{EVERYDAY, OVERWRITES, RUNS_PROGRAMS, SECRETS};
use super::table::run;

fn check(table: &[(&str, Risk, &str)], wrong: &mut Vec<String>) {
    for (command, risk, flags) in table {
        let got = run(command);
        let mut problems = Vec::new();
        if got.risk != *risk {
            problems.push(format!("risk {:?}", got.risk));
        }
        for flag in flags.chars() {
            let ok = match flag {
                'h' => got.harmless,
                'H' => !got.harmless,
                'n' => !got.network.is_empty(),
                'N' => got.network.is_empty(),
                's' => !got.sensitive_writes.is_empty(),
                'S' => got.sensitive_writes.is_empty(),
                _ => panic!("unknown flag {flag}"),
            };
            if !ok {
                problems.push(format!("flag {flag}"));
            }
        }
        // Fail-closed invariants, whatever the table says.
        if got.read_only && !got.harmless {
            problems.push("read_only without harmless".into());
        }
        if got.harmless && got.risk != Risk::Safe {
            problems.push("harmless but not safe".into());
        }
        if !problems.is_empty() {
            wrong.push(format!(
                "{command:?}: {} (risk {:?}, harmless {}, network {:?}, sensitive {:?}, reasons {:?}, unresolved {:?})",
                problems.join(", "),
                got.risk,
                got.harmless,
                got.network,
                got.sensitive_writes,
                got.reasons,
                got.unresolved
            ));
        }
    }
}

#[test]
fn the_containment_classes_hold() {
    let mut wrong = Vec::new();
    let tables = [SCRIPTS, WRAPPERS, RUNS_PROGRAMS, OVERWRITES, SECRETS, EVERYDAY];
    for table in tables {
        check(table, &mut wrong);
    }
    let total: usize = tables.iter().map(|t| t.len()).sum();
    assert!(total >= 300, "only {total} cases");
    assert!(wrong.is_empty(), "{} wrong:\n{}", wrong.len(), wrong.join("\n"));
}
