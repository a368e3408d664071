//! The command policy as a table: every kind of command (harmless, project command, unknown,
//! recognised danger, secret, sensitive write, network, outside write, unsandboxed…) against
//! every mode, containment level and undoability; then remembered rules and grants.

use std::path::PathBuf;

use super::tests::row;
use super::*;
use crate::safety::command::{CommandAssessment, Finding, Risk, RulePattern, RuleTarget};

fn cmd(effect: CommandEffect) -> Effect {
    Effect::Command(Box::new(effect))
}

/// A command kind, a tweak of its effect, and the rows expected per setup.
type Case = (&'static str, Box<dyn Fn(&mut CommandEffect)>, [&'static str; 6]);

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
}

fn target(argv: &str, pattern: usize, harmless: bool, network: bool, unknown: bool) -> RuleTarget {
    let argv = words(argv);
    RuleTarget {
        pattern: RulePattern::new(argv[..pattern].to_vec()),
        argv,
        harmless,
        network: network.then(|| "curl".to_owned()),
        unknown,
    }
}

/// An assessment as the analysis would give it for each kind of command.
fn assessment(kind: &str) -> CommandAssessment {
    let mut a = CommandAssessment {
        risk: Risk::Safe,
        reasons: vec![],
        findings: vec![],
        read_only: false,
        harmless: true,
        write_targets: vec![],
        sensitive_writes: vec![],
        network: vec![],
        programs: vec![],
        simple_commands: vec![],
        rule_targets: vec![],
        unresolved: vec![],
    };
    let finding = |a: &mut CommandAssessment, risk: Risk, reason: &str| {
        a.risk = a.risk.max(risk);
        a.reasons.push(reason.into());
        a.findings.push(Finding {
            risk,
            reason: reason.into(),
        });
        a.harmless = false;
    };
    match kind {
        "ls" => a.read_only = true,
        "mkdir new" => a.write_targets = vec![PathBuf::from("/p/new")],
        "cargo test" => {
            a.harmless = false;
            a.rule_targets = vec![target("cargo test --lib", 2, false, false, false)];
        }
        "python3 x.py" => {
            finding(&mut a, Risk::Unknown, "runs a python3 script: x.py");
            a.rule_targets = vec![target("python3 x.py", 2, false, false, true)];
        }
        "eval $X" => {
            finding(&mut a, Risk::Unknown, "eval of text that is not literal");
            a.unresolved = vec!["eval of text that is not literal".into()];
        }
        "rm -rf dir" => {
            finding(&mut a, Risk::Destructive, "deletes files: dir (rm -r)");
            a.write_targets = vec![PathBuf::from("/p/dir")];
            a.rule_targets = vec![target("rm -rf dir", 1, false, false, false)];
        }
        "cat .env" => {
            finding(&mut a, Risk::Destructive, "reads a secrets file: .env");
            a.rule_targets = vec![target("cat .env", 1, false, false, false)];
        }
        "echo > hook" => {
            a.harmless = false;
            a.write_targets = vec![PathBuf::from("/p/.git/hooks/x")];
            a.sensitive_writes = vec![(PathBuf::from("/p/.git/hooks/x"), "git hook".into())];
            a.rule_targets = vec![target("echo x", 1, false, false, false)];
        }
        "curl" => {
            a.network = vec!["curl".into()];
            a.rule_targets = vec![target("curl https://x", 1, true, true, false)];
        }
        "cp a ../x" => {
            a.harmless = false;
            a.write_targets = vec![PathBuf::from("/elsewhere/x")];
            a.rule_targets = vec![target("cp a ../x", 1, false, false, false)];
        }
        "hardline" => finding(&mut a, Risk::Hardline, "deletes the root filesystem: / (rm)"),
        _ => panic!("no such kind {kind}"),
    }
    a
}

fn effect(kind: &str, containment: Containment, undoable: bool) -> CommandEffect {
    CommandEffect {
        command: kind.into(),
        assessment: assessment(kind),
        containment,
        unsandboxed: false,
        network_requested: false,
        network_open: false,
        background: false,
        undoable,
        roots: vec![PathBuf::from("/p")],
        temp: PathBuf::from("/tmp"),
    }
}

const SETUPS: [(Containment, bool); 6] = [
    (Containment::Full, true),
    (Containment::Full, false),
    (Containment::Partial, true),
    (Containment::Partial, false),
    (Containment::None, true),
    (Containment::None, false),
];

#[test]
fn every_mode_containment_and_undoability() {
    // Rows per setup in `SETUPS` order: full+undoable, full, partial+undoable, partial,
    // none+undoable, none. Letters per mode: default, accept_edits, dont_ask, read_only, yolo,
    // plan, observe.
    let contained_only = ["QAARARR", "QQQRARR", "QQQRARR", "QQQRARR", "QQQRARR", "QQQRARR"];
    let always_asks = ["QQQRARR"; 6];
    let table: Vec<Case> = vec![
        ("ls", Box::new(|_| {}), ["AAAAAAR"; 6]),
        ("mkdir new", Box::new(|_| {}), ["AAARARR"; 6]),
        ("cargo test", Box::new(|_| {}), contained_only),
        ("python3 x.py", Box::new(|_| {}), contained_only),
        ("eval $X", Box::new(|_| {}), contained_only),
        ("cp a ../x", Box::new(|_| {}), contained_only),
        ("rm -rf dir", Box::new(|_| {}), always_asks),
        ("cat .env", Box::new(|_| {}), always_asks),
        ("echo > hook", Box::new(|_| {}), always_asks),
        ("curl", Box::new(|_| {}), always_asks),
        ("curl", Box::new(|e| e.network_open = true), ["AAARARR"; 6]),
        ("ls", Box::new(|e| e.network_requested = true), always_asks),
        ("ls", Box::new(|e| e.unsandboxed = true), always_asks),
        ("ls", Box::new(|e| e.background = true), ["AAARARR"; 6]),
        ("cargo test", Box::new(|e| e.network_open = true), contained_only),
        ("hardline", Box::new(|_| {}), ["RRRRRRR"; 6]),
    ];
    let mut wrong = Vec::new();
    for (kind, tweak, expected) in &table {
        for ((containment, undoable), want) in SETUPS.iter().zip(expected) {
            let mut e = effect(kind, *containment, *undoable);
            tweak(&mut e);
            let got = row(&cmd(e), &Remembered::default());
            if got != *want {
                wrong.push(format!(
                    "{kind} {containment:?} undoable={undoable}: expected {want}, got {got}"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

fn rule(pattern: &str, network: bool) -> PrefixRule {
    PrefixRule {
        pattern: RulePattern::new(words(pattern)),
        network,
    }
}

#[test]
fn remembered_rules_cover_what_they_name_and_never_a_danger() {
    let cargo = Remembered {
        rules: vec![rule("cargo test", false)],
        ..Default::default()
    };
    let none = effect("cargo test", Containment::None, false);
    assert_eq!(row(&cmd(none.clone()), &cargo), "AAARARR");
    // The rule names `cargo test`: a `cargo build` is not covered.
    let mut build = none.clone();
    build.assessment.rule_targets = vec![target("cargo build", 2, false, false, false)];
    assert_eq!(row(&cmd(build), &cargo), "QQQRARR");
    // `cargo test; rm -rf x`: the rule never covers a recognised danger.
    let mut with_rm = none.clone();
    with_rm.assessment.risk = Risk::Destructive;
    with_rm.assessment.findings.push(Finding {
        risk: Risk::Destructive,
        reason: "deletes files: x (rm -r)".into(),
    });
    with_rm.assessment.reasons.push("deletes files: x (rm -r)".into());
    assert_eq!(row(&cmd(with_rm), &cargo), "QQQRARR");
    // What no literal simple command explains is never covered.
    let opaque = effect("eval $X", Containment::None, false);
    let eval = Remembered {
        rules: vec![rule("eval", false)],
        ..Default::default()
    };
    assert_eq!(row(&cmd(opaque), &eval), "QQQRARR");
    // Nor a sensitive write or running unsandboxed.
    let hook = effect("echo > hook", Containment::Full, true);
    let echo = Remembered {
        rules: vec![rule("echo", false)],
        ..Default::default()
    };
    assert_eq!(row(&cmd(hook), &echo), "QQQRARR");
    // An exact rule covers its command, dangers included; hardline never.
    let exact = Remembered {
        session_command: true,
        ..Default::default()
    };
    assert_eq!(
        row(&cmd(effect("rm -rf dir", Containment::None, false)), &exact),
        "AAARARR"
    );
    assert_eq!(
        row(&cmd(effect("hardline", Containment::Full, true)), &exact),
        "RRRRRRR"
    );
    let deny = Remembered {
        project_command: Some(ProjectRule::Deny),
        ..Default::default()
    };
    assert_eq!(
        row(&cmd(effect("mkdir new", Containment::Full, true)), &deny),
        "RRRRRRR"
    );
    assert_eq!(row(&cmd(effect("ls", Containment::Full, true)), &deny), "RRRARAR");
}

#[test]
fn network_grants_come_from_the_question_a_rule_or_config() {
    let curl = effect("curl", Containment::Full, true);
    let Decision::Ask(question) = decide(Mode::AcceptEdits, &cmd(curl.clone()), &Remembered::default()) else {
        panic!("curl asks for the network");
    };
    assert_eq!(question.reason(), "needs the network (curl)");
    assert!(question.grant.network);
    assert_eq!(question.remember, Remember::Patterns(vec![rule("curl", true)]));
    // A rule without the network does not cover the network.
    let plain = Remembered {
        rules: vec![rule("curl", false)],
        ..Default::default()
    };
    assert!(matches!(
        decide(Mode::Default, &cmd(curl.clone()), &plain),
        Decision::Ask(_)
    ));
    let with_network = Remembered {
        rules: vec![rule("curl", true)],
        ..Default::default()
    };
    assert_eq!(
        decide(Mode::Default, &cmd(curl.clone()), &with_network),
        Decision::Allow(Grant {
            network: true,
            sensitive_writes: false
        })
    );
    // A network rule for `cargo build` grants it even when neither the analysis nor the
    // model asked.
    let mut build = effect("cargo test", Containment::Full, true);
    build.assessment.rule_targets = vec![target("cargo build --release", 2, false, false, false)];
    let rules = Remembered {
        rules: vec![rule("cargo build", true)],
        ..Default::default()
    };
    assert_eq!(
        decide(Mode::Default, &cmd(build.clone()), &rules),
        Decision::Allow(Grant {
            network: true,
            sensitive_writes: false
        })
    );
    // Asked for by the model: covered only by a network rule for every simple command.
    build.network_requested = true;
    assert_eq!(row(&cmd(build.clone()), &Remembered::default()), "QQQRARR");
    assert_eq!(row(&cmd(build), &rules), "AAARARR");
    // Config opens the network for everything.
    let mut open = curl;
    open.network_open = true;
    assert_eq!(
        decide(Mode::Default, &cmd(open), &Remembered::default()),
        Decision::Allow(Grant {
            network: true,
            sensitive_writes: false
        })
    );
}

#[test]
fn always_remembers_the_network_only_for_the_commands_that_need_it() {
    let mut line = effect("cargo test", Containment::Full, true);
    line.assessment.network = vec!["curl".into()];
    line.assessment
        .rule_targets
        .push(target("curl https://x", 1, true, true, false));
    let Decision::Ask(question) = decide(Mode::Default, &cmd(line.clone()), &Remembered::default()) else {
        panic!("asks");
    };
    assert_eq!(
        question.remember,
        Remember::Patterns(vec![rule("cargo test", false), rule("curl", true)])
    );
    // Asked for by the model: every pattern gets the network.
    line.network_requested = true;
    let Decision::Ask(question) = decide(Mode::Default, &cmd(line), &Remembered::default()) else {
        panic!("asks");
    };
    assert_eq!(
        question.remember,
        Remember::Patterns(vec![rule("cargo test", true), rule("curl", true)])
    );
}

#[test]
fn sensitive_writes_are_granted_only_where_a_question_named_them() {
    let hook = effect("echo > hook", Containment::Full, true);
    let Decision::Ask(question) = decide(Mode::DontAsk, &cmd(hook.clone()), &Remembered::default()) else {
        panic!("a hook write asks");
    };
    assert!(question.grant.sensitive_writes);
    assert_eq!(question.remember, Remember::Exact);
    assert!(
        question
            .reason()
            .starts_with("changes a sensitive file (git hook): /p/.git/hooks/x")
    );
    let Decision::Allow(grant) = decide(
        Mode::AcceptEdits,
        &cmd(effect("cargo test", Containment::Full, true)),
        &Remembered::default(),
    ) else {
        panic!("contained and undoable runs");
    };
    assert_eq!(grant, Grant::default());
    let Decision::Allow(grant) = decide(Mode::Yolo, &cmd(hook), &Remembered::default()) else {
        panic!("yolo runs it");
    };
    assert!(grant.sensitive_writes);
}

#[test]
fn questions_say_which_promise_they_are_about() {
    let reason = |kind: &str, mode: Mode, containment: Containment, undoable: bool| match decide(
        mode,
        &cmd(effect(kind, containment, undoable)),
        &Remembered::default(),
    ) {
        Decision::Ask(q) => q.reason(),
        other => panic!("{kind}: {other:?}"),
    };
    assert_eq!(
        reason("cargo test", Mode::Default, Containment::Full, true),
        "not known to be harmless: `cargo test …`"
    );
    assert_eq!(
        reason("python3 x.py", Mode::Default, Containment::Full, true),
        "not known to be harmless: runs a python3 script: x.py"
    );
    assert_eq!(
        reason("cargo test", Mode::AcceptEdits, Containment::Full, false),
        "cannot be undone (no checkpoint covers what it may change); not known to be harmless: `cargo test …`"
    );
    assert_eq!(
        reason("cargo test", Mode::DontAsk, Containment::None, true),
        "not contained (no OS sandbox for this command); not known to be harmless: `cargo test …`"
    );
    assert_eq!(
        reason("cp a ../x", Mode::AcceptEdits, Containment::None, true),
        "writes outside the project: /elsewhere/x; not contained (no OS sandbox for this command); \
         not known to be harmless: `cp …`"
    );
    assert_eq!(
        reason("rm -rf dir", Mode::AcceptEdits, Containment::Full, true),
        "deletes files: dir (rm -r)"
    );
    assert_eq!(
        reason("cat .env", Mode::AcceptEdits, Containment::Full, true),
        "reads a secrets file: .env"
    );
}
