//! Create, edit and the rules every write is checked against.

use serde_json::json;

use super::*;

#[test]
fn create_writes_skill_md_and_the_read_tools_see_it_at_once() {
    let home = tempfile::tempdir().unwrap();
    let out = create(home.path(), "docker-debug");
    let md = home.path().join("skills/docker-debug/SKILL.md");
    assert_eq!(std::fs::read_to_string(&md).unwrap(), SKILL);
    assert_eq!(out.result["message"], "Skill 'docker-debug' created.");
    assert_eq!(out.result["path"], "docker-debug");
    assert_eq!(out.result["skill_md"], md.display().to_string());
    assert_eq!(out.result["_change"]["description"], "Debug containers step by step");
    assert!(out.result["hint"].as_str().unwrap().contains("name='docker-debug'"));
    assert_eq!(out.changes[0].path, md);
    assert_eq!(out.changes[0].old_text, None);
    assert_eq!(skills(home.path()), ["docker-debug"]);
    let viewed = crate::tools::skills::view_skill(&home.path().join("skills"), "docker-debug", None);
    assert!(viewed["content"].as_str().unwrap().contains("docker ps"), "{viewed}");
}

#[test]
fn a_category_becomes_a_folder_and_is_reported() {
    let home = tempfile::tempdir().unwrap();
    let out = call(
        home.path(),
        json!({"action": "create", "name": "k8s", "category": "devops", "content": SKILL}),
    );
    assert!(out.success(), "{}", out.result);
    assert!(home.path().join("skills/devops/k8s/SKILL.md").is_file());
    assert_eq!(out.result["path"], "devops/k8s");
    assert_eq!(out.result["category"], "devops");
    let listed = list_skills(&home.path().join("skills"), Some("devops"));
    assert_eq!(listed["count"], 1);
}

#[test]
fn names_follow_hermes_rules() {
    let home = tempfile::tempdir().unwrap();
    let create = |name: &str| call(home.path(), json!({"action": "create", "name": name, "content": SKILL}));
    assert_eq!(error(&create("")), "Skill name is required.");
    assert_eq!(error(&create(&"a".repeat(65))), "Skill name exceeds 64 characters.");
    for bad in ["Docker", "-lead", "has space", "a/b", "../x", ".hidden"] {
        assert_eq!(
            error(&create(bad)),
            format!(
                "Invalid skill name '{bad}'. Use lowercase letters, numbers, hyphens, dots, and underscores. Must \
                 start with a letter or digit."
            )
        );
    }
    for good in ["a", "v2.1_notes-x", &"z".repeat(64)] {
        assert!(create(good).success(), "{good}");
    }
}

#[test]
fn categories_are_one_valid_folder_name() {
    let home = tempfile::tempdir().unwrap();
    let create = |cat: &str| {
        call(
            home.path(),
            json!({"action": "create", "name": "s", "category": cat, "content": SKILL}),
        )
    };
    let invalid = |c: &str| {
        format!(
            "Invalid category '{c}'. Use lowercase letters, numbers, hyphens, dots, and underscores. Categories \
             must be a single directory name."
        )
    };
    assert_eq!(error(&create("a/b")), invalid("a/b"));
    assert_eq!(error(&create("..\\x")), invalid("..\\x"));
    assert_eq!(error(&create("..")), invalid(".."));
    assert_eq!(error(&create("Dev")), invalid("Dev"));
    assert_eq!(error(&create(&"c".repeat(65))), "Category exceeds 64 characters.");
    let blank = create("  ");
    assert!(blank.success());
    assert!(home.path().join("skills/s/SKILL.md").is_file());
}

#[test]
fn front_matter_is_validated() {
    let home = tempfile::tempdir().unwrap();
    let create = |content: &str| {
        call(
            home.path(),
            json!({"action": "create", "name": "s", "content": content}),
        )
    };
    let cases = [
        ("   \n", "Content cannot be empty."),
        (
            "# no front matter\n",
            "SKILL.md must start with YAML frontmatter (---). See existing skills for format.",
        ),
        (
            "---\nname: s\ndescription: d\n",
            "SKILL.md frontmatter is not closed. Ensure you have a closing '---' line.",
        ),
        (
            "---\n- a\n- b\n---\nbody\n",
            "Frontmatter must be a YAML mapping (key: value pairs).",
        ),
        (
            "---\ndescription: d\n---\nbody\n",
            "Frontmatter must include 'name' field.",
        ),
        (
            "---\nname: s\n---\nbody\n",
            "Frontmatter must include 'description' field.",
        ),
        (
            "---\nname: s\ndescription: d\n---\n\n  \n",
            "SKILL.md must have content after the frontmatter (instructions, procedures, etc.).",
        ),
    ];
    for (content, expected) in cases {
        assert_eq!(error(&create(content)), expected, "{content:?}");
    }
    let long = format!("---\nname: s\ndescription: {}\n---\nbody\n", "d".repeat(1025));
    assert_eq!(error(&create(&long)), "Description exceeds 1024 characters.");
    assert!(
        error(&create("---\nname: [unclosed\ndescription: d\n---\nbody\n"))
            .starts_with("YAML frontmatter parse error: ")
    );
    assert!(create("\u{feff}---\nname: s\ndescription: d\n---\nbody\n").success());
}

#[test]
fn content_over_the_limit_is_refused() {
    let home = tempfile::tempdir().unwrap();
    let content = format!("{SKILL}{}", "x".repeat(100_001));
    let out = call(
        home.path(),
        json!({"action": "create", "name": "big", "content": content}),
    );
    assert!(error(&out).starts_with("SKILL.md content is 100,"), "{}", out.result);
    assert!(error(&out).contains("(limit: 100,000). Consider splitting"));
}

#[test]
fn a_second_skill_of_the_same_name_is_refused_even_in_another_category() {
    let home = tempfile::tempdir().unwrap();
    create(home.path(), "dup");
    let out = call(
        home.path(),
        json!({"action": "create", "name": "dup", "category": "x", "content": SKILL}),
    );
    let dir = home.path().join("skills/dup");
    assert_eq!(
        error(&out),
        format!("A skill named 'dup' already exists at {}.", dir.display())
    );
}

#[test]
fn edit_rewrites_skill_md_and_a_missing_skill_is_named() {
    let home = tempfile::tempdir().unwrap();
    create(home.path(), "ed");
    let new = "---\nname: ed\ndescription: Rewritten\n---\nNew body\n";
    let out = call(home.path(), json!({"action": "edit", "name": "ed", "content": new}));
    assert_eq!(out.result["message"], "Skill 'ed' updated (full rewrite).");
    assert_eq!(out.result["_change"]["description"], "Rewritten");
    assert_eq!(
        std::fs::read_to_string(home.path().join("skills/ed/SKILL.md")).unwrap(),
        new
    );
    assert!(out.changes[0].old_text.as_deref().unwrap().contains("docker ps"));
    let missing = call(home.path(), json!({"action": "edit", "name": "nope", "content": new}));
    assert_eq!(
        error(&missing),
        "Skill 'nope' not found in active profile 'default'. Use skills_list() to see available skills."
    );
    let bad = call(
        home.path(),
        json!({"action": "edit", "name": "ed", "content": "no fence"}),
    );
    assert!(error(&bad).starts_with("SKILL.md must start with YAML frontmatter"));
}

#[test]
fn required_arguments_and_unknown_actions_have_hermes_messages() {
    let home = tempfile::tempdir().unwrap();
    let cases = [
        (
            json!({"action": "create", "name": "s"}),
            "content is required for 'create'. Provide the full SKILL.md text (frontmatter + body).",
        ),
        (
            json!({"action": "edit", "name": "s", "content": ""}),
            "content is required for 'edit'. Provide the full updated SKILL.md text.",
        ),
        (
            json!({"action": "patch", "name": "s", "new_string": "x"}),
            "old_string is required for 'patch'. Provide the text to find.",
        ),
        (
            json!({"action": "patch", "name": "s", "old_string": "x"}),
            "new_string is required for 'patch'. Use empty string to delete matched text.",
        ),
        (
            json!({"action": "write_file", "name": "s", "file_content": "x"}),
            "file_path is required for 'write_file'. Example: 'references/api-guide.md'",
        ),
        (
            json!({"action": "write_file", "name": "s", "file_path": "references/a.md"}),
            "file_content is required for 'write_file'.",
        ),
        (
            json!({"action": "remove_file", "name": "s"}),
            "file_path is required for 'remove_file'.",
        ),
        (
            json!({"action": "rename", "name": "s"}),
            "Unknown action 'rename'. Use: create, edit, patch, delete, write_file, remove_file",
        ),
    ];
    for (args, expected) in cases {
        assert_eq!(error(&call(home.path(), args.clone())), expected, "{args}");
    }
}
