//! Normalisation and lexing: spelling tricks, wrappers, chains and subshells must not hide a
//! command, quoted prose must not trip the hardline floor, and oversized or malformed payloads
//! are refused.

use super::super::normalize::{Homes, normalize, parser_limit_exceeded};
use super::super::{
    CommandVerdict, MALFORMED_EXEC_DESCRIPTION, PARSER_LIMIT_DESCRIPTION, Severity, classify, detect, findings,
    sudo_stdin_guard,
};

const ROOT: &str = "recursive delete of root filesystem";

fn is_root_delete(command: &str) -> bool {
    classify(command)
        == CommandVerdict::Hardline {
            description: ROOT.to_string(),
        }
}

#[test]
fn quoting_escapes_and_encodings_do_not_hide_the_command() {
    for command in [
        "\"rm\" -rf /",
        "'rm' -rf /",
        "r\\m -rf /",
        "r''m -rf /",
        "r\"\"m -rf /",
        "rm${IFS}-rf${IFS}/",
        "rm$IFS-rf$IFS/",
        "\x1b[0mrm -rf /",
        "\x1b]0;title\x07rm -rf /",
        "ｒｍ -rf /",
        "rm -rf \\\n/",
        "r\0m -rf /",
        "$(echo rm) -rf /",
        "`printf rm` -rf /",
        "${x:-rm} -rf /",
        "rm -rf \"/\"",
        "rm -rf '//'",
    ] {
        assert!(is_root_delete(command), "{command:?} => {:?}", classify(command));
    }
}

#[test]
fn wrappers_and_environment_prefixes_are_seen_through() {
    for command in [
        "FOO=1 rm -rf /",
        "FOO=\"a b\" BAR=2 rm -rf /",
        "sudo rm -rf /",
        "sudo -u root rm -rf /",
        "env -i PATH=/bin rm -rf /",
        "command rm -rf /",
        "nohup rm -rf / &",
        "timeout 5 rm -rf /",
        "nice -n 10 rm -rf /",
        "exec rm -rf /",
        "echo / | xargs -n 1 rm -rf /",
        "/bin/rm -rf /",
    ] {
        assert!(is_root_delete(command), "{command:?} => {:?}", classify(command));
    }
    // `command -v` only looks a name up.
    assert!(
        !findings("command -v reboot")
            .iter()
            .any(|f| f.severity == Severity::Hardline)
    );
}

#[test]
fn chained_commands_and_subshells_are_each_checked() {
    for command in [
        "ls; rm -rf /",
        "ls && rm -rf /",
        "ls || rm -rf /",
        "ls | rm -rf /",
        "ls & rm -rf /",
        "ls\nrm -rf /",
        "echo $(rm -rf /)",
        "echo \"$(rm -rf /)\"",
        "echo `rm -rf /`",
        "(rm -rf /)",
        "{ rm -rf /; }",
        "bash -c \"rm -rf /\"",
        "sh -c 'cd / && rm -rf /'",
        "bash -lc 'bash -c \"rm -rf /\"'",
        "eval \"rm -rf /\"",
    ] {
        assert!(is_root_delete(command), "{command:?} => {:?}", classify(command));
    }
    assert_eq!(
        classify("make && /sbin/reboot"),
        CommandVerdict::Hardline {
            description: "system shutdown/reboot".into()
        }
    );
}

#[test]
fn quoted_prose_does_not_trip_the_hardline_floor() {
    for command in [
        "echo \"rm -rf /\"",
        "git commit -m \"never run rm -rf / or reboot\"",
        "echo 'a; reboot'",
        "echo \"cat x > /dev/sda\"",
        "grep -P '(rm -rf /|x)' notes.txt",
        "man mkfs",
        "echo kill -1",
        "kill -1 1234",
        "./scripts/reboot.sh",
        "shutdown-server --graceful",
        "bin/halt",
    ] {
        let verdict = classify(command);
        assert!(
            !matches!(verdict, CommandVerdict::Hardline { .. }),
            "{command:?} => {verdict:?}"
        );
    }
    // Prose is still dangerous where Hermes says so (the approval tier matches anywhere).
    assert!(matches!(
        classify("echo \"rm -rf /\""),
        CommandVerdict::Dangerous { .. }
    ));
    // A quoted redirect target is a target, not prose; a shell carrier runs its quotes.
    assert!(matches!(
        classify("cat x > \"/dev/sda\""),
        CommandVerdict::Hardline { .. }
    ));
    assert!(matches!(
        classify("sh -c 'cat x > /dev/sda'"),
        CommandVerdict::Hardline { .. }
    ));
    assert_eq!(classify("grep -P '(rm -rf /|x)' notes.txt"), CommandVerdict::Safe);
}

#[test]
fn home_prefixes_fold_to_tilde_forms() {
    let homes = Homes {
        user: vec!["/home/alice".into()],
        hermes: vec!["/srv/hermes-home".into()],
    };
    assert_eq!(normalize("cat /home/alice/.bashrc", &homes), "cat ~/.bashrc");
    assert_eq!(
        normalize("cat /srv/hermes-home/config.yaml", &homes),
        "cat ~/.hermes/config.yaml"
    );
    // Without a following segment the home itself is left alone.
    assert_eq!(normalize("ls /home/alice", &homes), "ls /home/alice");
    let found = detect::analyze("echo x >> /home/alice/.bashrc", &homes);
    assert!(
        found
            .iter()
            .any(|f| f.pattern_key == "overwrite system file via redirection"),
        "{found:?}"
    );
    let found = detect::analyze("sed -i s/a/b/ /srv/hermes-home/.env", &homes);
    assert!(
        found
            .iter()
            .any(|f| f.pattern_key == "in-place edit of Hermes config/env"),
        "{found:?}"
    );
    assert!(detect::analyze("echo x >> /home/bob/.bashrc", &homes).is_empty());
}

#[test]
fn parser_limits_hard_block_oversized_payloads() {
    let limit = CommandVerdict::Hardline {
        description: PARSER_LIMIT_DESCRIPTION.into(),
    };
    assert!(!parser_limit_exceeded(&"a".repeat(4096)));
    assert_eq!(classify(&"a".repeat(4097)), limit, "separator-free over 4,096 chars");
    assert!(!parser_limit_exceeded(&format!("{};b", "a".repeat(5000))));
    assert_eq!(classify(&"true;".repeat(25_000)), limit, "25,000 separators");
    assert!(!parser_limit_exceeded(&"t;".repeat(24_999)));
    assert_eq!(
        classify(&format!("{};", "a".repeat(99)).repeat(1_300)),
        limit,
        "over 128,000 chars"
    );
}

#[test]
fn malformed_program_payloads_are_hard_blocked() {
    let malformed = CommandVerdict::Hardline {
        description: MALFORMED_EXEC_DESCRIPTION.into(),
    };
    assert_eq!(classify("python3 -c \"print(1)"), malformed);
    assert_eq!(classify("grep -P"), malformed);
    assert_eq!(classify("grep -e"), malformed);
    // Escaped quotes are valid shell: Hermes' escape stripping misread these as unbalanced.
    assert_eq!(classify("grep -oP \"[^\\\"]*\" file.txt"), CommandVerdict::Safe);
    assert_eq!(classify("echo \"unbalanced"), CommandVerdict::Safe);
}

#[test]
fn hermes_own_temp_script_cleanup_is_exempt() {
    let temp = std::env::temp_dir();
    let script = temp.join("hermes-verify-ab12.py");
    assert_eq!(classify(&format!("rm -f {}", script.display())), CommandVerdict::Safe);
    let dir = temp.join("hermes-verify-ab12");
    assert!(matches!(
        classify(&format!("rm -rf {}", dir.display())),
        CommandVerdict::Dangerous { .. }
    ));
    assert!(matches!(
        classify("rm -f /etc/hermes-verify-x"),
        CommandVerdict::Dangerous { .. }
    ));
}

#[test]
fn sudo_stdin_guard_blocks_password_piping_without_sudo_password() {
    let blocked = sudo_stdin_guard("echo hunter2 | sudo -S apt-get update");
    if std::env::var_os("SUDO_PASSWORD").is_none() {
        assert!(blocked.is_some_and(|m| m.starts_with("BLOCKED: sudo password guessing via stdin")));
    } else {
        assert_eq!(blocked, None);
    }
    // `-s` (shell) is not `-S`; it is a dangerous pattern instead.
    assert_eq!(sudo_stdin_guard("sudo -s"), None);
    assert_eq!(sudo_stdin_guard("echo 'sudo -S is bad'"), None);
}

#[test]
fn kill_minus_one_is_hardline_only_as_the_target_pid() {
    let all = CommandVerdict::Hardline {
        description: "kill all processes".into(),
    };
    for command in [
        "kill -9 -1",
        "kill -HUP -1",
        "kill -s KILL -- -1",
        "kill -1",
        "sudo kill -TERM -1; ls",
    ] {
        assert_eq!(classify(command), all, "{command:?}");
    }
    for command in ["kill -1 1234", "kill -9 -1234", "kill 1"] {
        assert_ne!(classify(command), all, "{command:?}");
    }
}
