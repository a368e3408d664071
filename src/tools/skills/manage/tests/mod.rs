//! `skill_manage` round trips against a temporary HERMES_HOME: every action, the name, category,
//! front-matter and size rules, path escapes (`..`, absolute paths, symlinks), `absorbed_into`
//! and pinning on delete, the guard's refusal with rollback, and that `skills_list`/`skill_view`
//! see each change at once. Shared helpers here; `rules.rs` (create/edit and validation),
//! `files.rs` (patch, write_file, remove_file, delete, symlinks), `tool.rs` (guard, redaction,
//! the tool).

mod files;
mod rules;
mod tool;

use std::path::Path;

use serde_json::{Value, json};

use super::*;
use crate::tools::skills::list_skills;

pub const SKILL: &str = "---\nname: docker-debug\ndescription: Debug containers step by step\n---\n\n# Docker debug\n\n1. Run `docker ps`.\n";

pub fn call(home: &Path, args: Value) -> Outcome {
    manage(home, false, Default::default(), request(&args))
}

pub fn guarded(home: &Path, args: Value) -> Outcome {
    manage(home, true, Default::default(), request(&args))
}

pub fn error(outcome: &Outcome) -> String {
    assert!(!outcome.success(), "expected a failure: {}", outcome.result);
    outcome.result["error"].as_str().unwrap_or_default().to_string()
}

pub fn create(home: &Path, name: &str) -> Outcome {
    let out = call(
        home,
        json!({"action": "create", "name": name, "content": SKILL.replace("docker-debug", name)}),
    );
    assert!(out.success(), "{}", out.result);
    out
}

pub fn skills(home: &Path) -> Vec<String> {
    let listed = list_skills(&home.join("skills"), None);
    listed["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect()
}
