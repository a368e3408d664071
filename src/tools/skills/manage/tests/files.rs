//! Patch, write_file, remove_file, delete, and symlinks that would lead a write out.

use serde_json::json;

use super::*;

#[test]
fn patch_replaces_in_skill_md_and_supporting_files() {
    let home = tempfile::tempdir().unwrap();
    create(home.path(), "p");
    let md = home.path().join("skills/p/SKILL.md");
    let out = call(
        home.path(),
        json!({"action": "patch", "name": "p", "old_string": "docker ps", "new_string": "docker ps -a"}),
    );
    assert_eq!(out.result["message"], "Patched SKILL.md in skill 'p' (1 replacement).");
    assert_eq!(
        out.result["_change"],
        json!({"old": "docker ps", "new": "docker ps -a"})
    );
    assert!(std::fs::read_to_string(&md).unwrap().contains("docker ps -a"));

    let write = call(
        home.path(),
        json!({"action": "write_file", "name": "p", "file_path": "references/a.md", "file_content": "x\nx\n"}),
    );
    assert!(write.success());
    let unique = call(
        home.path(),
        json!({"action": "patch", "name": "p", "file_path": "references/a.md", "old_string": "x", "new_string": "y"}),
    );
    assert!(
        error(&unique).starts_with("Found 2 matches for old_string."),
        "{}",
        unique.result
    );
    let all = call(
        home.path(),
        json!({"action": "patch", "name": "p", "file_path": "references/a.md", "old_string": "x", "new_string": "y", "replace_all": true}),
    );
    assert_eq!(
        all.result["message"],
        "Patched references/a.md in skill 'p' (2 replacements)."
    );

    let miss = call(
        home.path(),
        json!({"action": "patch", "name": "p", "old_string": "kubectl", "new_string": "k"}),
    );
    assert!(error(&miss).starts_with("Could not find a match for old_string"));
    assert!(
        miss.result["file_preview"]
            .as_str()
            .unwrap()
            .starts_with("---\nname: p")
    );

    let breaks = call(
        home.path(),
        json!({"action": "patch", "name": "p", "old_string": "name: p\n", "new_string": ""}),
    );
    assert_eq!(
        error(&breaks),
        "Patch would break SKILL.md structure: Frontmatter must include 'name' field."
    );
    let absent = call(
        home.path(),
        json!({"action": "patch", "name": "p", "file_path": "scripts/none.sh", "old_string": "a", "new_string": "b"}),
    );
    assert_eq!(error(&absent), "File not found: scripts/none.sh");
}

#[test]
fn delete_removes_the_folder_and_an_emptied_category() {
    let home = tempfile::tempdir().unwrap();
    assert!(
        call(
            home.path(),
            json!({"action": "create", "name": "gone", "category": "tmp", "content": SKILL})
        )
        .success()
    );
    create(home.path(), "umbrella");
    let out = call(
        home.path(),
        json!({"action": "delete", "name": "gone", "absorbed_into": "umbrella"}),
    );
    assert_eq!(
        out.result["message"],
        "Skill 'gone' deleted. Content absorbed into 'umbrella'."
    );
    assert!(!home.path().join("skills/tmp").exists());
    assert_eq!(out.changes[0].new_text, None);
    assert_eq!(skills(home.path()), ["umbrella"]);
    let plain = call(
        home.path(),
        json!({"action": "delete", "name": "umbrella", "absorbed_into": ""}),
    );
    assert_eq!(plain.result["message"], "Skill 'umbrella' deleted.");
    assert!(home.path().join("skills").is_dir(), "the skills root itself stays");
}

#[test]
fn delete_checks_absorbed_into_and_pins() {
    let home = tempfile::tempdir().unwrap();
    create(home.path(), "keep");
    let same = call(
        home.path(),
        json!({"action": "delete", "name": "keep", "absorbed_into": "keep"}),
    );
    assert_eq!(
        error(&same),
        "absorbed_into='keep' cannot equal the skill being deleted."
    );
    let ghost = call(
        home.path(),
        json!({"action": "delete", "name": "keep", "absorbed_into": "ghost"}),
    );
    assert_eq!(
        error(&ghost),
        "absorbed_into='ghost' does not exist. Create or patch the umbrella skill first, then retry the delete."
    );
    std::fs::write(home.path().join("skills/.usage.json"), r#"{"keep": {"pinned": true}}"#).unwrap();
    let pinned = call(home.path(), json!({"action": "delete", "name": "keep"}));
    assert!(error(&pinned).starts_with("Skill 'keep' is pinned and cannot be deleted by skill_manage."));
    assert!(home.path().join("skills/keep/SKILL.md").is_file());
    let patched = call(
        home.path(),
        json!({"action": "patch", "name": "keep", "old_string": "docker ps", "new_string": "docker ps -q"}),
    );
    assert!(patched.success(), "pinned skills can still be patched");
}

#[test]
fn write_file_stays_under_the_support_folders() {
    let home = tempfile::tempdir().unwrap();
    create(home.path(), "w");
    let write = |path: &str| {
        call(
            home.path(),
            json!({"action": "write_file", "name": "w", "file_path": path, "file_content": "data"}),
        )
    };
    let ok = write("templates/deep/config.yaml");
    assert_eq!(
        ok.result["message"],
        "File 'templates/deep/config.yaml' written to skill 'w'."
    );
    assert!(home.path().join("skills/w/templates/deep/config.yaml").is_file());
    let allowed = "File must be under one of: assets, references, scripts, templates.";
    assert_eq!(error(&write("notes.md")), format!("{allowed} Got: 'notes.md'"));
    assert_eq!(error(&write("/etc/passwd")), format!("{allowed} Got: '/etc/passwd'"));
    assert_eq!(
        error(&write("references/../../escape.md")),
        "Path traversal ('..') is not allowed."
    );
    assert_eq!(
        error(&write("scripts")),
        "Provide a file path, not just a directory. Example: 'scripts/myfile.md'"
    );
    let missing = call(
        home.path(),
        json!({"action": "write_file", "name": "none", "file_path": "assets/a", "file_content": ""}),
    );
    assert!(
        error(&missing).ends_with("Use skills_list() to see available skills. Create it first with action='create'.")
    );
    let huge = call(
        home.path(),
        json!({"action": "write_file", "name": "w", "file_path": "assets/big.bin", "file_content": "x".repeat(1_048_577)}),
    );
    assert_eq!(
        error(&huge),
        "File content is 1,048,577 bytes (limit: 1,048,576 bytes / 1 MiB). Consider splitting into smaller files."
    );
    let broken = write("SKILL.md");
    assert!(
        error(&broken).starts_with("SKILL.md must start with YAML frontmatter"),
        "SKILL.md stays valid"
    );
}

#[test]
fn remove_file_deletes_and_lists_what_exists_when_missing() {
    let home = tempfile::tempdir().unwrap();
    create(home.path(), "r");
    for path in ["references/a.md", "scripts/run.sh"] {
        assert!(
            call(
                home.path(),
                json!({"action": "write_file", "name": "r", "file_path": path, "file_content": "x"})
            )
            .success()
        );
    }
    let out = call(
        home.path(),
        json!({"action": "remove_file", "name": "r", "file_path": "scripts/run.sh"}),
    );
    assert_eq!(out.result["message"], "File 'scripts/run.sh' removed from skill 'r'.");
    assert!(
        !home.path().join("skills/r/scripts").exists(),
        "an emptied support folder goes"
    );
    let missing = call(
        home.path(),
        json!({"action": "remove_file", "name": "r", "file_path": "assets/x.png"}),
    );
    assert_eq!(error(&missing), "File 'assets/x.png' not found in skill 'r'.");
    assert_eq!(missing.result["available_files"], json!(["references/a.md"]));
}

#[test]
fn symlinks_never_lead_a_write_out_of_the_skills_tree() {
    let home = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    create(home.path(), "s");
    // A support folder that points elsewhere.
    std::os::unix::fs::symlink(outside.path(), home.path().join("skills/s/assets")).unwrap();
    let out = call(
        home.path(),
        json!({"action": "write_file", "name": "s", "file_path": "assets/x.txt", "file_content": "x"}),
    );
    assert!(
        error(&out).starts_with("Path escapes allowed directory:"),
        "{}",
        out.result
    );
    // A dangling link in a support folder.
    std::fs::create_dir_all(home.path().join("skills/s/references")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("new.txt"),
        home.path().join("skills/s/references/l.md"),
    )
    .unwrap();
    let out = call(
        home.path(),
        json!({"action": "write_file", "name": "s", "file_path": "references/l.md", "file_content": "x"}),
    );
    assert!(
        error(&out).starts_with("Path escapes allowed directory:"),
        "{}",
        out.result
    );
    assert!(!outside.path().join("new.txt").exists() && !outside.path().join("x.txt").exists());
    // A whole skill folder that is a link to elsewhere: found, but never written or deleted.
    std::fs::write(outside.path().join("SKILL.md"), SKILL).unwrap();
    std::os::unix::fs::symlink(outside.path(), home.path().join("skills/linked")).unwrap();
    let edit = call(
        home.path(),
        json!({"action": "edit", "name": "linked", "content": SKILL}),
    );
    assert!(
        error(&edit).contains("does not resolve inside the skills directory"),
        "{}",
        edit.result
    );
    let delete = call(home.path(), json!({"action": "delete", "name": "linked"}));
    assert!(error(&delete).contains("is a symlink/junction"), "{}", delete.result);
    assert!(outside.path().join("SKILL.md").is_file());
}
