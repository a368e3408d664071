//! Tests of `skills_list` and `skill_view` against a temporary HERMES_HOME: nested category
//! layout, front matter parsing, lookups, linked files, path-escape refusal and the prompt index.

use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::*;
use crate::runtime::approver::AllowAll;
use crate::runtime::{SessionScope, ToolServices};

fn ctx(home: Option<&Path>) -> ToolContext {
    let session = SessionScope::local("s1", std::env::temp_dir(), Arc::new(AllowAll));
    ToolContext::new(
        Arc::new(session),
        Arc::new(ToolServices {
            hermes_home: home.map(Path::to_path_buf),
            store: None,
            ..Default::default()
        }),
        "call-1",
        CancellationToken::new(),
    )
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// skills/
///   devops/docker-debug/SKILL.md (+ references, scripts, assets, a stray note)
///   devops/DESCRIPTION.md
///   quick-notes/SKILL.md            (no front matter)
///   research/arxiv/SKILL.md         (+ its own references/SKILL.md that must not count)
///   .hub/cached/SKILL.md            (excluded)
///   other-os/SKILL.md               (platforms: [plan9])
fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let s = dir.path().join("skills");
    write(
        &s.join("devops/docker-debug/SKILL.md"),
        "---\nname: docker-debug\ndescription: Debug failing containers\ntags: [docker, debugging]\nmetadata:\n  hermes:\n    related_skills: [k8s]\n---\n# Docker debug\nSteps.\n",
    );
    write(&s.join("devops/docker-debug/references/api.md"), "# API\n");
    write(&s.join("devops/docker-debug/scripts/check.sh"), "#!/bin/sh\necho ok\n");
    write(&s.join("devops/docker-debug/assets/logo.bin"), "\0\u{1}binary");
    write(&s.join("devops/docker-debug/notes.txt"), "stray");
    write(
        &s.join("devops/DESCRIPTION.md"),
        "---\ndescription: Build and ops tooling\n---\n",
    );
    write(
        &s.join("quick-notes/SKILL.md"),
        "# Quick notes\n\nJot things down fast.\n",
    );
    write(
        &s.join("research/arxiv/SKILL.md"),
        "---\nname: arxiv\ndescription: 'Search papers: fast'\n---\nbody",
    );
    write(
        &s.join("research/arxiv/references/SKILL.md"),
        "---\nname: not-a-skill\n---\n",
    );
    write(&s.join(".hub/cached/SKILL.md"), "---\nname: cached\n---\n");
    write(
        &s.join("other-os/SKILL.md"),
        "---\nname: other-os\nplatforms: [plan9]\n---\n",
    );
    dir
}

async fn run(tool: &dyn Tool, home: &Path, args: Value) -> (Value, bool) {
    let out = tool.run(&ctx(Some(home)), args).await;
    (serde_json::from_str(&out.content).unwrap(), out.is_error)
}

#[tokio::test]
async fn lists_skills_by_category_like_hermes() {
    let home = fixture();
    let (r, err) = run(&SkillsListTool, home.path(), json!({})).await;
    assert!(!err, "{r}");
    assert_eq!(
        r["skills"],
        json!([
            {"name": "quick-notes", "description": "Jot things down fast.", "category": null},
            {"name": "docker-debug", "description": "Debug failing containers", "category": "devops"},
            {"name": "arxiv", "description": "Search papers: fast", "category": "research"},
        ])
    );
    assert_eq!(r["categories"], json!(["devops", "research"]));
    assert_eq!(r["count"], 3);
    let (r, _) = run(&SkillsListTool, home.path(), json!({"category": "research"})).await;
    assert_eq!(r["count"], 1);
    assert_eq!(r["skills"][0]["name"], "arxiv");

    let empty = tempfile::tempdir().unwrap();
    let (r, err) = run(&SkillsListTool, empty.path(), json!({})).await;
    assert!(!err);
    assert_eq!(
        r,
        json!({"success": true, "skills": [], "categories": [], "message": "No skills found in skills/ directory."})
    );
}

#[tokio::test]
async fn views_a_skill_with_metadata_and_linked_files() {
    let home = fixture();
    for name in ["docker-debug", "devops/docker-debug"] {
        let (r, err) = run(&SkillViewTool, home.path(), json!({"name": name})).await;
        assert!(!err, "{r}");
        assert_eq!(r["name"], "docker-debug");
        assert_eq!(r["description"], "Debug failing containers");
        assert_eq!(r["tags"], json!(["docker", "debugging"]));
        assert_eq!(r["related_skills"], json!(["k8s"]));
        assert!(r["content"].as_str().unwrap().contains("# Docker debug"));
        assert_eq!(r["path"], "devops/docker-debug/SKILL.md");
        assert_eq!(
            r["linked_files"],
            json!({"assets": ["assets/logo.bin"], "references": ["references/api.md"], "scripts": ["scripts/check.sh"]})
        );
        assert!(r["usage_hint"].is_string());
    }
    // A skill without front matter is found by its folder name.
    let (r, _) = run(&SkillViewTool, home.path(), json!({"name": "quick-notes"})).await;
    assert_eq!(r["name"], "quick-notes");
    assert_eq!(r["linked_files"], Value::Null);
}

#[tokio::test]
async fn views_files_inside_the_skill_only() {
    let home = fixture();
    let view = |file: &str| json!({"name": "docker-debug", "file_path": file});
    let (r, err) = run(&SkillViewTool, home.path(), view("references/api.md")).await;
    assert!(!err);
    assert_eq!(
        r,
        json!({"success": true, "name": "docker-debug", "file": "references/api.md", "content": "# API\n", "file_type": ".md"})
    );
    let (r, _) = run(&SkillViewTool, home.path(), view("assets/logo.bin")).await;
    assert_eq!(r["is_binary"], true);

    std::fs::write(home.path().join("secret.txt"), "top secret").unwrap();
    for escape in [
        "../../../secret.txt",
        "/etc/passwd",
        "references/../../../../secret.txt",
    ] {
        let (r, err) = run(&SkillViewTool, home.path(), view(escape)).await;
        assert!(err, "{escape} was served");
        assert!(!r.to_string().contains("top secret"));
        assert_eq!(r["hint"], "Use a relative path within the skill directory");
    }
    #[cfg(unix)]
    {
        let link = home.path().join("skills/devops/docker-debug/references/leak.md");
        std::os::unix::fs::symlink(home.path().join("secret.txt"), &link).unwrap();
        let (r, err) = run(&SkillViewTool, home.path(), view("references/leak.md")).await;
        assert!(err);
        assert!(r["error"].as_str().unwrap().contains("outside the skill directory"));
    }

    let (r, err) = run(&SkillViewTool, home.path(), view("references/missing.md")).await;
    assert!(err);
    assert_eq!(
        r["error"],
        "File 'references/missing.md' not found in skill 'docker-debug'."
    );
    assert_eq!(r["available_files"]["references"], json!(["references/api.md"]));
    assert_eq!(
        r["available_files"]["other"],
        Value::Null,
        "notes.txt is not a skill file type"
    );
}

#[tokio::test]
async fn refuses_bad_names_and_reports_missing_skills() {
    let home = fixture();
    for (name, error) in [
        ("../etc", "Skill name cannot contain '..' path traversal components."),
        (
            "/etc/passwd",
            "Skill name must be a relative path within the skills directory.",
        ),
        (
            "C:\\skills\\x",
            "Skill name must be a relative path within the skills directory.",
        ),
    ] {
        let (r, err) = run(&SkillViewTool, home.path(), json!({"name": name})).await;
        assert!(err);
        assert_eq!(r["error"], error);
    }
    let (r, err) = run(&SkillViewTool, home.path(), json!({"name": "nope"})).await;
    assert!(err);
    assert_eq!(r["error"], "Skill 'nope' not found.");
    assert_eq!(r["available_skills"], json!(["quick-notes", "docker-debug", "arxiv"]));
    // Excluded folders, support folders and other platforms are invisible.
    for hidden in ["cached", "not-a-skill", "other-os"] {
        let (r, _) = run(&SkillViewTool, home.path(), json!({"name": hidden})).await;
        assert_eq!(r["success"], false, "{hidden}: {r}");
    }
    // Two skills with one name are refused rather than guessed.
    write(
        &home.path().join("skills/research/docker-debug/SKILL.md"),
        "---\nname: docker-debug2\n---\n",
    );
    let (r, _) = run(&SkillViewTool, home.path(), json!({"name": "docker-debug"})).await;
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .starts_with("Ambiguous skill name 'docker-debug': 2 skills match.")
    );
    // `namespace:skill` falls back to the folder path.
    let (r, _) = run(&SkillViewTool, home.path(), json!({"name": "research:arxiv"})).await;
    assert_eq!(r["name"], "arxiv");
}

#[tokio::test]
async fn missing_home_is_a_clear_error() {
    let out = SkillsListTool.run(&ctx(None), json!({})).await;
    assert!(out.is_error);
    assert!(out.content.contains("HERMES_HOME"));
}

#[test]
fn prompt_index_groups_by_category() {
    let home = fixture();
    let index = prompt_index(home.path()).unwrap();
    assert!(index.starts_with("## Skills (mandatory)\n"));
    assert!(index.contains(
        "<available_skills>\n  devops: Build and ops tooling\n    - docker-debug: Debug failing containers\n  general:\n    - quick-notes: Jot things down fast.\n  research:\n    - arxiv: Search papers: fast\n</available_skills>"
    ));
    assert_eq!(prompt_index(tempfile::tempdir().unwrap().path()), None);
}

#[test]
fn front_matter_parsing_tolerates_bad_yaml() {
    let (fm, body) = scan::parse_front_matter("---\nname: x\ndescription: a: b: [c\n---\nbody\n");
    assert_eq!(fm["name"], "x");
    assert_eq!(body, "body\n");
    let (fm, body) = scan::parse_front_matter("no front matter");
    assert!(fm.is_empty());
    assert_eq!(body, "no front matter");
    let (fm, _) = scan::parse_front_matter("---\nname: y\n---   \nrest");
    assert_eq!(fm["name"], "y");
}
