//! The policy for everything but commands: edits, agent state, external tools; and the words
//! a question is asked in.

use std::path::PathBuf;

use super::*;

fn edit(real: &str, inside: bool, sensitive: Option<&str>) -> Effect {
    Effect::Edit(vec![EditTarget {
        path: PathBuf::from(real),
        real: PathBuf::from(real),
        inside_project: inside,
        in_temp: real.starts_with("/tmp"),
        sensitive: sensitive.map(str::to_string),
    }])
}

/// A = Allow, Q = Ask, R = Refuse, one letter per mode in `Mode::ALL` order
/// (default, accept_edits, dont_ask, read_only, yolo, plan, observe).
pub(super) fn row(effect: &Effect, remembered: &Remembered) -> String {
    Mode::ALL
        .iter()
        .map(|&mode| match decide(mode, effect, remembered) {
            Decision::Allow(_) => 'A',
            Decision::Ask(_) => 'Q',
            Decision::Refuse(_) => 'R',
        })
        .collect()
}

#[test]
fn the_policy_table_for_edits_and_tools() {
    let none = Remembered::default();
    let session_edits = Remembered {
        session_edits: true,
        ..Default::default()
    };
    let table: Vec<(&str, Effect, &Remembered, &str)> = vec![
        ("read", Effect::Read, &none, "AAAAAAA"),
        ("memory write", Effect::AgentState, &none, "AAARARA"),
        ("edit inside", edit("/p/a.rs", true, None), &none, "QAARARQ"),
        (
            "edit inside, session edits",
            edit("/p/a.rs", true, None),
            &session_edits,
            "AAARARA",
        ),
        ("edit in temp", edit("/tmp/a", false, None), &none, "QAARARQ"),
        ("edit outside", edit("/home/u/a", false, None), &none, "QQQRARQ"),
        (
            "edit outside, session edits",
            edit("/home/u/a", false, None),
            &session_edits,
            "QQQRARQ",
        ),
        (
            "edit sensitive",
            edit("/p/.git/hooks/pre-commit", true, Some("git hook")),
            &none,
            "QQQRARQ",
        ),
        (
            "sensitive, session edits",
            edit("/h/.bashrc", false, Some("shell rc")),
            &session_edits,
            "QQQRARQ",
        ),
        (
            "external",
            Effect::External {
                read_only: false,
                destructive: false,
            },
            &none,
            "AAARARA",
        ),
        (
            "external read-only",
            Effect::External {
                read_only: true,
                destructive: false,
            },
            &none,
            "AAAAAAA",
        ),
        (
            "external destructive",
            Effect::External {
                read_only: false,
                destructive: true,
            },
            &none,
            "QQQRARQ",
        ),
    ];
    let mismatches: Vec<String> = table
        .iter()
        .filter_map(|(name, effect, remembered, expected)| {
            let got = row(effect, remembered);
            (got != *expected).then(|| format!("{name}: expected {expected}, got {got}"))
        })
        .collect();
    assert!(mismatches.is_empty(), "{mismatches:#?}");
}

#[test]
fn edit_questions_name_the_real_target_and_the_concern() {
    let Decision::Ask(question) = decide(
        Mode::AcceptEdits,
        &edit("/home/u/a", false, None),
        &Remembered::default(),
    ) else {
        panic!("an edit outside the project asks");
    };
    assert_eq!(question.reason(), "writes outside the project: /home/u/a");
    assert_eq!(question.concerns[0].promise(), Promise::Project);
    let symlinked = Effect::Edit(vec![EditTarget {
        path: PathBuf::from("/p/link/x"),
        real: PathBuf::from("/outside/x"),
        inside_project: false,
        in_temp: false,
        sensitive: None,
    }]);
    let Decision::Ask(question) = decide(Mode::DontAsk, &symlinked, &Remembered::default()) else {
        panic!("a symlinked edit outside asks");
    };
    assert_eq!(question.reason(), "writes outside the project: /outside/x");
    let Decision::Ask(question) = decide(
        Mode::DontAsk,
        &edit("/p/.git/hooks/x", true, Some("git hook (runs on commit, checkout…)")),
        &Remembered::default(),
    ) else {
        panic!("a hook edit asks");
    };
    assert_eq!(
        question.reason(),
        "changes a sensitive file (git hook (runs on commit, checkout…)): /p/.git/hooks/x"
    );
    let Decision::Ask(question) = decide(Mode::Default, &edit("/p/a", true, None), &Remembered::default()) else {
        panic!("default asks for an edit");
    };
    assert_eq!(question.reason(), "edit");
}

#[test]
fn every_concern_has_words_and_a_promise() {
    let concerns = [
        (
            Concern::Recognised("deletes files: x (rm)".into()),
            Promise::Undo,
            "deletes files: x (rm)",
        ),
        (
            Concern::Secret("reads a secrets file: .env".into()),
            Promise::Secrets,
            "reads a secrets file: .env",
        ),
        (
            Concern::Network(vec!["curl".into()]),
            Promise::Network,
            "needs the network (curl)",
        ),
        (
            Concern::Network(vec![]),
            Promise::Network,
            "needs the network (the model asked for it)",
        ),
        (
            Concern::Outside(PathBuf::from("/etc/x")),
            Promise::Project,
            "writes outside the project: /etc/x",
        ),
        (
            Concern::Unsandboxed,
            Promise::Containment,
            "runs outside the sandbox (it can write anywhere the user can)",
        ),
        (
            Concern::NotUndoable,
            Promise::Undo,
            "cannot be undone (no checkpoint covers what it may change)",
        ),
        (
            Concern::NotContained(Containment::None),
            Promise::Containment,
            "not contained (no OS sandbox for this command)",
        ),
        (
            Concern::NotHarmless(vec!["`cargo test …`".into()]),
            Promise::Undo,
            "not known to be harmless: `cargo test …`",
        ),
    ];
    for (concern, promise, words) in concerns {
        assert_eq!(concern.promise(), promise, "{concern:?}");
        assert_eq!(concern.to_string(), words);
    }
}

#[test]
fn mode_ids_round_trip() {
    for mode in Mode::ALL {
        assert_eq!(Mode::from_id(mode.id()), Some(mode));
    }
    assert_eq!(Mode::from_id("bogus"), None);
}

#[test]
fn plan_and_observe_refusals_say_how_to_get_out() {
    let none = Remembered::default();
    let Decision::Refuse(reason) = decide(Mode::Plan, &edit("/p/a.rs", true, None), &none) else {
        panic!("plan mode refuses edits");
    };
    assert!(reason.starts_with("Plan mode: file edits are disabled.") && reason.ends_with(PLAN_NOTE));
    let Decision::Refuse(reason) = decide(Mode::ReadOnly, &Effect::AgentState, &none) else {
        panic!("read-only mode refuses agent state");
    };
    assert!(reason.starts_with("Read-only mode") && reason.ends_with(READ_ONLY_NOTE));
    assert!(Mode::Plan.changes_nothing() && Mode::ReadOnly.changes_nothing() && !Mode::Observe.changes_nothing());
    assert!(!Mode::Observe.runs_commands() && Mode::Plan.runs_commands());
}
