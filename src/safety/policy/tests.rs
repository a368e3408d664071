//! The policy as a table: every mode against every kind of effect and remembered rule.

use std::path::PathBuf;

use super::*;
use crate::safety::command::{CommandAssessment, Risk};

fn command(risk: Risk, read_only: bool, sandboxed: bool, writes: &[&str]) -> Effect {
    Effect::Command(CommandEffect {
        command: "cmd".into(),
        assessment: CommandAssessment {
            risk,
            reasons: match risk {
                Risk::Safe => vec![],
                _ => vec![format!("{risk:?} reason")],
            },
            read_only,
            write_targets: writes.iter().map(PathBuf::from).collect(),
            programs: vec![],
        },
        sandboxed,
        unsandboxed: false,
        background: false,
        project: PathBuf::from("/p"),
        temp: PathBuf::from("/tmp"),
    })
}

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
/// (default, accept_edits, dont_ask, read_only, yolo).
fn row(effect: &Effect, remembered: Remembered) -> String {
    Mode::ALL
        .iter()
        .map(|&mode| match decide(mode, effect, &remembered) {
            Decision::Allow => 'A',
            Decision::Ask(_) => 'Q',
            Decision::Refuse(_) => 'R',
        })
        .collect()
}

#[test]
fn the_policy_table() {
    let none = Remembered::default();
    let session_cmd = Remembered {
        session_command: true,
        ..Default::default()
    };
    let project_allow = Remembered {
        project_command: Some(ProjectRule::Allow),
        ..Default::default()
    };
    let project_deny = Remembered {
        project_command: Some(ProjectRule::Deny),
        ..Default::default()
    };
    let session_edits = Remembered {
        session_edits: true,
        ..Default::default()
    };
    let unsandboxed = {
        let mut effect = command(Risk::Safe, false, true, &[]);
        if let Effect::Command(c) = &mut effect {
            c.unsandboxed = true;
        }
        effect
    };
    let background_read = {
        let mut effect = command(Risk::Safe, true, true, &[]);
        if let Effect::Command(c) = &mut effect {
            c.background = true;
        }
        effect
    };
    let table: Vec<(&str, Effect, Remembered, &str)> = vec![
        ("read", Effect::Read, none, "AAAAA"),
        ("memory write", Effect::AgentState, none, "AAARA"),
        ("read-only command", command(Risk::Safe, true, true, &[]), none, "AAAAA"),
        (
            "safe writing command",
            command(Risk::Safe, false, true, &[]),
            none,
            "AAARA",
        ),
        ("background read-only", background_read, none, "AAARA"),
        (
            "destructive",
            command(Risk::Destructive, false, true, &[]),
            none,
            "QQQRA",
        ),
        ("unknown", command(Risk::Unknown, false, true, &[]), none, "QQQRA"),
        ("hardline", command(Risk::Hardline, false, true, &[]), none, "RRRRR"),
        (
            "hardline allowed",
            command(Risk::Hardline, false, true, &[]),
            project_allow,
            "RRRRR",
        ),
        (
            "destructive, session",
            command(Risk::Destructive, false, true, &[]),
            session_cmd,
            "AAARA",
        ),
        (
            "destructive, project",
            command(Risk::Destructive, false, true, &[]),
            project_allow,
            "AAARA",
        ),
        (
            "safe, project deny",
            command(Risk::Safe, false, true, &[]),
            project_deny,
            "RRRRR",
        ),
        (
            "read-only, project deny",
            command(Risk::Safe, true, true, &[]),
            project_deny,
            "RRRAR",
        ),
        (
            "sandboxed write outside",
            command(Risk::Safe, false, true, &["/etc/x"]),
            none,
            "AAARA",
        ),
        (
            "unsandboxed write outside",
            command(Risk::Safe, false, false, &["/etc/x"]),
            none,
            "QQQRA",
        ),
        (
            "unsandboxed write inside",
            command(Risk::Safe, false, false, &["/p/x", "/tmp/y"]),
            none,
            "AAARA",
        ),
        ("unsandboxed request", unsandboxed, none, "QQQRA"),
        ("edit inside", edit("/p/a.rs", true, None), none, "QAARA"),
        (
            "edit inside, session edits",
            edit("/p/a.rs", true, None),
            session_edits,
            "AAARA",
        ),
        ("edit in temp", edit("/tmp/a", false, None), none, "QAARA"),
        ("edit outside", edit("/home/u/a", false, None), none, "QQQRA"),
        (
            "edit outside, session edits",
            edit("/home/u/a", false, None),
            session_edits,
            "QQQRA",
        ),
        (
            "edit sensitive",
            edit("/p/.git/hooks/pre-commit", true, Some("git hook")),
            none,
            "QQQRA",
        ),
        (
            "sensitive, session edits",
            edit("/h/.bashrc", false, Some("shell rc")),
            session_edits,
            "QQQRA",
        ),
        (
            "external",
            Effect::External {
                read_only: false,
                destructive: false,
            },
            none,
            "AAARA",
        ),
        (
            "external read-only",
            Effect::External {
                read_only: true,
                destructive: false,
            },
            none,
            "AAAAA",
        ),
        (
            "external destructive",
            Effect::External {
                read_only: false,
                destructive: true,
            },
            none,
            "QQQRA",
        ),
    ];
    let mismatches: Vec<String> = table
        .iter()
        .filter_map(|(name, effect, remembered, expected)| {
            let got = row(effect, *remembered);
            (got != *expected).then(|| format!("{name}: expected {expected}, got {got}"))
        })
        .collect();
    assert!(mismatches.is_empty(), "{mismatches:#?}");
}

#[test]
fn reasons_name_the_real_target_and_the_concern() {
    let Decision::Ask(reason) = decide(
        Mode::AcceptEdits,
        &edit("/home/u/a", false, None),
        &Remembered::default(),
    ) else {
        panic!("an edit outside the project asks");
    };
    assert_eq!(reason, "writes outside the project: /home/u/a");
    let symlinked = Effect::Edit(vec![EditTarget {
        path: PathBuf::from("/p/link/x"),
        real: PathBuf::from("/outside/x"),
        inside_project: false,
        in_temp: false,
        sensitive: None,
    }]);
    assert_eq!(
        decide(Mode::DontAsk, &symlinked, &Remembered::default()),
        Decision::Ask("writes outside the project: /outside/x".into())
    );
    let Decision::Ask(reason) = decide(
        Mode::Default,
        &command(Risk::Safe, false, false, &["/etc/x"]),
        &Remembered::default(),
    ) else {
        panic!("unsandboxed write outside asks");
    };
    assert_eq!(reason, "writes outside the project: /etc/x");
    let Decision::Refuse(reason) = decide(
        Mode::Yolo,
        &command(Risk::Hardline, false, true, &[]),
        &Remembered::default(),
    ) else {
        panic!("hardline refuses");
    };
    assert_eq!(reason, "Hardline reason");
}

#[test]
fn mode_ids_round_trip() {
    for mode in Mode::ALL {
        assert_eq!(Mode::from_id(mode.id()), Some(mode));
    }
    assert_eq!(Mode::from_id("bogus"), None);
}
