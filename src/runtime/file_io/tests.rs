//! Tests of the shared edit plumbing: conventions, atomic writes, the read/write seams, the
//! path guards and the approval wording.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::Arc;

use super::beneath::FileMode;
use super::test_support::{EditorFs, Recorder, ctx_with_fs, test_ctx, test_guard};
use super::*;
use crate::runtime::approver::AllowAll;

#[test]
fn line_endings_and_bom_are_detected_and_preserved() {
    assert_eq!(strip_bom("\u{feff}x"), ("x", true));
    assert_eq!(strip_bom("x"), ("x", false));
    assert_eq!(detect_line_ending("a\r\nb\n"), Some("\r\n"));
    assert_eq!(detect_line_ending("a\nb"), Some("\n"));
    assert_eq!(detect_line_ending("ab"), None);
    assert_eq!(normalize_line_endings("a\nb\r\nc\rd", "\r\n"), "a\r\nb\r\nc\r\nd");
    assert_eq!(normalize_line_endings("a\r\nb", "\n"), "a\nb");
    assert_eq!(
        preserve_conventions(Some("\u{feff}x\r\ny\r\n"), "a\nb\n"),
        "\u{feff}a\r\nb\r\n"
    );
    assert_eq!(preserve_conventions(Some("\u{feff}x"), "\u{feff}a"), "\u{feff}a");
    assert_eq!(preserve_conventions(Some("x\ny\n"), "a\r\nb"), "a\r\nb");
    assert_eq!(preserve_conventions(None, "a\nb"), "a\nb");
}

#[test]
fn atomic_write_keeps_mode_creates_parents_and_leaves_no_temp_files() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("script.sh");
    std::fs::write(&file, "old").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o754)).unwrap();
    atomic_write(&file, b"new").unwrap();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "new");
    assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o754);

    let nested = dir.path().join("a/b/c.txt");
    atomic_write(&nested, b"deep").unwrap();
    assert_eq!(std::fs::read_to_string(&nested).unwrap(), "deep");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        names.iter().all(|n| !n.to_string_lossy().contains("hermes-tmp")),
        "{names:?}"
    );
    assert!(atomic_write(dir.path(), b"x").is_err(), "a directory is never replaced");
}

#[test]
fn atomic_write_through_a_symlink_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.txt");
    let link = dir.path().join("link.txt");
    std::fs::write(&real, "one").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    atomic_write(&link, b"two").unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "two");
}

#[tokio::test]
async fn reads_fall_back_to_disk_and_report_missing_files_as_none() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = test_ctx(dir.path(), Arc::new(AllowAll));
    std::fs::write(dir.path().join("a.txt"), "disk").unwrap();
    std::fs::write(dir.path().join("bin"), [0xff, 0xfe, 0x00]).unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let site = |name: &str| EditSite::for_write(&ctx, dir.path().join(name));
    assert_eq!(read_site(&ctx, &site("a.txt")).await.unwrap().as_deref(), Some("disk"));
    assert_eq!(read_site(&ctx, &site("missing")).await.unwrap(), None);
    assert_eq!(read_site(&ctx, &site("no/such/dir/f")).await.unwrap(), None);
    assert!(read_site(&ctx, &site("sub")).await.is_err());
    let err = read_site(&ctx, &site("bin")).await.unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
    assert!(read_site_lossy(&ctx, &site("bin")).await.unwrap().is_some());
}

#[tokio::test]
async fn the_editor_serves_reads_and_takes_writes_first() {
    let dir = tempfile::tempdir().unwrap();
    let editor = Arc::new(EditorFs::default());
    let path = dir.path().join("open.txt");
    std::fs::write(&path, "saved").unwrap();
    editor.buffers.lock().unwrap().insert(path.clone(), "unsaved".into());
    let ctx = ctx_with_fs(dir.path(), Arc::new(AllowAll), editor.clone());
    let site = EditSite::for_write(&ctx, path.clone());
    assert_eq!(read_site(&ctx, &site).await.unwrap().as_deref(), Some("unsaved"));
    let route = write_site(&ctx, &site, "edited".into(), FileMode::Keep).await.unwrap();
    assert_eq!(route, WriteRoute::Editor);
    assert_eq!(editor.buffers.lock().unwrap()[&path], "edited");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "saved",
        "the editor handled the write"
    );
}

#[test]
fn sensitive_system_paths_and_the_hermes_config_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let env = test_guard(dir.path());
    let err = check_sensitive_system_path(&env, "/etc/hosts", Path::new("/etc/hosts")).unwrap_err();
    assert_eq!(
        err,
        "Refusing to write to sensitive system path: /etc/hosts\nUse the terminal tool with sudo if you need to modify system files."
    );
    for p in [
        "/boot/grub/grub.cfg",
        "/usr/lib/systemd/system/x.service",
        "/var/run/docker.sock",
        "/run/docker.sock",
    ] {
        assert!(check_sensitive_system_path(&env, p, Path::new(p)).is_err(), "{p}");
    }
    assert!(check_sensitive_system_path(&env, "notes.txt", &dir.path().join("notes.txt")).is_ok());
    let config = env.hermes_home.join("config.yaml");
    let err = check_sensitive_system_path(&env, "config.yaml", &config).unwrap_err();
    assert!(
        err.starts_with("Refusing to write to Hermes config file: config.yaml\n"),
        "{err}"
    );
}

#[test]
fn credential_files_and_hermes_state_are_protected() {
    let dir = tempfile::tempdir().unwrap();
    let env = test_guard(dir.path());
    let home = env.home.clone();
    for p in [
        home.join(".ssh/id_rsa"),
        home.join(".ssh/anything"),
        home.join(".aws/credentials"),
        home.join(".config/gh/hosts.yml"),
        home.join(".netrc"),
        env.hermes_home.join(".env"),
        env.hermes_home.join("state.db"),
        env.hermes_home.join("sessions/x.json"),
        env.hermes_home.join("mcp-tokens/t"),
        Path::new("/etc/shadow").to_path_buf(),
    ] {
        let err = write_denied_error(&env, &p, "Write").unwrap_or_else(|| panic!("{} allowed", p.display()));
        assert_eq!(
            err,
            format!("Write denied: '{}' is a protected system/credential file.", p.display())
        );
    }
    assert!(write_denied_error(&env, &home.join("project/a.rs"), "Write").is_none());
    // A symlink into ~/.ssh is followed.
    std::fs::create_dir_all(home.join(".ssh")).unwrap();
    std::os::unix::fs::symlink(home.join(".ssh"), dir.path().join("innocent")).unwrap();
    assert!(
        write_denied_error(&env, &dir.path().join("innocent/config"), "Delete")
            .unwrap()
            .starts_with("Delete denied")
    );
}

#[test]
fn safe_roots_confine_writes() {
    let dir = tempfile::tempdir().unwrap();
    let mut env = test_guard(dir.path());
    env.safe_roots = vec![guards::real_path(&dir.path().join("allowed"))];
    assert!(write_denied_error(&env, &dir.path().join("allowed/x"), "Write").is_none());
    let err = write_denied_error(&env, &dir.path().join("other/x"), "Write").unwrap();
    assert!(err.contains("is outside HERMES_WRITE_SAFE_ROOT"), "{err}");
}

#[test]
fn another_profiles_areas_need_cross_profile() {
    let dir = tempfile::tempdir().unwrap();
    let env = test_guard(dir.path());
    let other = env.hermes_root.join("profiles/coder/skills/x/SKILL.md");
    let warning = cross_profile_warning(&env, &other).unwrap();
    assert!(
        warning.starts_with("Cross-profile write blocked by soft guard"),
        "{warning}"
    );
    assert!(cross_profile_warning(&env, &env.hermes_root.join("skills/x/SKILL.md")).is_none());
    assert!(check_edit_target(&env, "x", &other, true).is_ok());
    assert!(check_edit_target(&env, "x", &other, false).is_err());
}

#[test]
fn read_file_display_text_is_refused_as_content() {
    assert!(check_internal_content("1|fn main() {\n2|}\n").is_err());
    assert!(check_internal_content("a|b\nc|d\n").is_ok());
    assert!(check_internal_content("1|only one line").is_ok());
    assert!(check_internal_content(&format!("{}\n", guards_status_text())).is_err());
}

fn guards_status_text() -> &'static str {
    "File unchanged since last read. The content from the earlier read_file result in this conversation is still \
     current — refer to that instead of re-reading."
}

#[tokio::test]
async fn approval_outcomes_read_differently() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f");
    let args = serde_json::json!({"path": "f"});
    for (decision, expected) in [
        (ApprovalDecision::AllowOnce, None),
        (ApprovalDecision::AllowSession, None),
        (ApprovalDecision::Deny, Some(EDIT_DENIED)),
        (ApprovalDecision::DenyAlways, Some(EDIT_DENIED)),
        (ApprovalDecision::TimedOut, Some("timed out")),
        (ApprovalDecision::Cancelled, Some("cancelled")),
    ] {
        let recorder = Recorder::new(decision);
        let ctx = test_ctx(dir.path(), recorder.clone());
        let site = EditSite::for_write(&ctx, path.clone());
        let result = request_edit_approval(&ctx, "write_file", &site, None, "new", &args).await;
        match expected {
            None => assert!(result.is_ok()),
            Some(text) => assert!(result.unwrap_err().contains(text), "{decision:?}"),
        }
        assert_eq!(recorder.edits(), [(path.clone(), None, "new".to_string())]);
    }
    let timed_out = decision_error(ApprovalDecision::TimedOut).unwrap();
    assert!(
        !timed_out.contains("denied"),
        "a timeout is not a user denial: {timed_out}"
    );
}
