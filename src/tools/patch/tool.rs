//! `PatchTool`: the schema, argument handling, the path guards every named file goes through
//! before either mode runs, and the retry hints Hermes adds to a failed match (escalating after
//! three misses on the same file in a session).

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use futures::future::BoxFuture;
use serde_json::{Value, json};

use super::outcome::{Outcome, tool_error};
use super::{replace, v4a};
use crate::runtime::describe::{self, Location, Presentation, ToolEffect, ToolKind};
use crate::runtime::file_io::{self, GuardEnv};
use crate::runtime::{Tool, ToolContext, ToolOutput};
use crate::sync::lock;

const DESCRIPTION: &str = "Targeted find-and-replace edits in files. Use this instead of sed/awk in terminal. Uses \
fuzzy matching (9 strategies) so minor whitespace/indentation differences won't break it. Returns a unified diff. \
Auto-runs syntax checks after editing.\n\nREPLACE MODE (mode='replace', default): find a unique string and replace \
it. REQUIRED PARAMETERS: mode, path, old_string, new_string.\nPATCH MODE (mode='patch'): apply V4A multi-file \
patches for bulk changes. REQUIRED PARAMETERS: mode, patch.";

/// `patch`: replace mode and V4A patch mode.
pub struct PatchTool {
    pub(super) guard: GuardEnv,
    /// Consecutive "not found" failures per (session, file), for the escalating hint.
    failures: Mutex<HashMap<(String, PathBuf), u32>>,
}

impl PatchTool {
    /// With the environment of the path guards (`GuardEnv::new` from the configuration).
    pub fn with_guard(guard: GuardEnv) -> PatchTool {
        PatchTool {
            guard,
            failures: Mutex::new(HashMap::new()),
        }
    }

    async fn patch(&self, ctx: &ToolContext, args: Value) -> ToolOutput {
        let mode = match args.get("mode") {
            None | Some(Value::Null) => "replace".to_string(),
            Some(Value::String(m)) => m.clone(),
            Some(other) => other.to_string(),
        };
        let raw_path = args.get("path").and_then(Value::as_str).filter(|p| !p.is_empty());
        let patch_text = args.get("patch").and_then(Value::as_str);
        let cross_profile = crate::runtime::args::boolean(&args, "cross_profile", false);

        // Every path the call names is checked before anything else, as Hermes does.
        let mut named: Vec<&str> = raw_path.into_iter().collect();
        let header_paths = match (mode.as_str(), patch_text) {
            ("patch", Some(text)) => v4a::header_paths(text),
            _ => Vec::new(),
        };
        for header in &header_paths {
            if Path::new(header).components().any(|c| c == Component::ParentDir) {
                return ToolOutput::error(format!(
                    "V4A patch header contains '..' traversal: '{header}'. Use the agent's cwd-relative path (no \
                     '..') or an absolute path in '*** Update File:' / '*** Add File:' / '*** Delete File:' / '*** \
                     Move File:' headers."
                ));
            }
            named.push(header);
        }
        for raw in &named {
            let resolved = ctx.session.workspace.resolve(raw);
            if let Err(e) = file_io::check_edit_target(&self.guard, raw, &resolved, cross_profile) {
                return ToolOutput::error(e);
            }
        }

        let outcome = match mode.as_str() {
            "replace" => replace::run(&self.guard, ctx, &args, raw_path).await,
            "patch" => v4a::run::run(&self.guard, ctx, &args, patch_text).await,
            other => tool_error(format!("Unknown mode: {other}")),
        };
        let key = |raw: &str| (ctx.session.session_id.clone(), ctx.session.workspace.resolve(raw));
        match outcome {
            Outcome::Done(value, display) => {
                let mut failures = lock(&self.failures);
                for raw in &named {
                    failures.remove(&key(raw));
                }
                ToolOutput::json(value).with_display(display)
            }
            Outcome::Failed(mut value) => {
                let error = value
                    .get("error")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string();
                if error.contains("Could not find") {
                    let count = match (mode.as_str(), raw_path) {
                        ("replace", Some(raw)) => {
                            let mut failures = lock(&self.failures);
                            let count = failures.entry(key(raw)).or_insert(0);
                            *count += 1;
                            *count
                        }
                        _ => 0,
                    };
                    if count >= 3 {
                        value["_hint"] = json!(format!(
                            "This is failure #{count} patching '{}'. Stop retrying with variations of the same \
                             old_string. Either: (1) re-read the file fresh to verify current content, (2) use a \
                             longer / more unique old_string with surrounding context lines, or (3) use write_file to \
                             replace the entire file if the targeted region is hard to anchor.",
                            raw_path.unwrap_or_default()
                        ));
                    } else if !error.contains("Did you mean one of these sections?") {
                        value["_hint"] = json!(
                            "old_string not found. Use read_file to verify the current content, or search_files to \
                             locate the text."
                        );
                    }
                }
                ToolOutput::json_error(value)
            }
        }
    }
}

impl Tool for PatchTool {
    fn name(&self) -> &'static str {
        "patch"
    }

    fn description(&self) -> String {
        DESCRIPTION.to_string()
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "mode": {
                    "type": "string",
                    "enum": ["replace", "patch"],
                    "description": "Edit mode. 'replace' (default): requires path + old_string + new_string. 'patch': \
        requires patch content only.",
                    "default": "replace"
                },
                "path": {"type": "string", "description": "REQUIRED when mode='replace'. File path to edit."},
                "old_string": {
                    "type": "string",
                    "description": "REQUIRED when mode='replace'. Exact text to find and replace. Must be unique in \
        the file unless replace_all=true. Include surrounding context lines to ensure uniqueness."
                },
                "new_string": {
                    "type": "string",
                    "description": "REQUIRED when mode='replace'. Replacement text. Pass empty string '' to delete \
        the matched text."
                },
                "replace_all": {
                    "type": "boolean",
                    "description": "Replace all occurrences instead of requiring a unique match (default: false)",
                    "default": false
                },
                "patch": {
                    "type": "string",
                    "description": "REQUIRED when mode='patch'. V4A format patch content. Format:\n*** Begin Patch\n\
        *** Update File: path/to/file\n@@ context hint @@\n context line\n-removed line\n+added line\n*** End Patch"
                },
                "cross_profile": {
                    "type": "boolean",
                    "description": "Opt out of the cross-profile soft guard. Defaults to false. Set true ONLY after \
        explicit user direction to edit another Hermes profile's skills/plugins/cron/memories.",
                    "default": false
                }
            },
            "required": ["mode"]
        })
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(self.patch(ctx, args))
    }

    fn effect(&self, _args: &Value) -> ToolEffect {
        ToolEffect::EditsFiles
    }

    fn present(&self, args: &Value, cwd: &Path) -> Presentation {
        let mode = describe::arg(args, "mode").unwrap_or("replace");
        let path = describe::arg(args, "path");
        let named = v4a_paths(args);
        let target = match path {
            Some(p) => describe::shown_path(p, cwd),
            None => named
                .iter()
                .map(|p| describe::shown_path(p, cwd))
                .collect::<Vec<_>>()
                .join(", "),
        };
        let locations = match path {
            Some(_) => describe::path_location(args, cwd, None).into_iter().collect(),
            None => named
                .iter()
                .map(|p| Location {
                    path: crate::runtime::workspace::resolve_against(cwd, p),
                    line: None,
                })
                .collect(),
        };
        Presentation {
            kind: ToolKind::Edit,
            title: match (mode, target.is_empty()) {
                (_, true) => "Apply a patch".to_string(),
                ("patch", false) => format!("Apply patch to {target}"),
                (_, false) => format!("Edit {target}"),
            },
            locations,
            start_text: Some(match target.is_empty() {
                true => "Preparing a patch.".to_string(),
                false => format!("Preparing {mode} edit for {target}."),
            }),
        }
    }

    fn brief(&self, args: &Value) -> Option<String> {
        describe::arg(args, "path").map(|p| describe::clip(p, 80))
    }
}

/// All paths named in a V4A patch (`*** Update/Add/Delete File:` headers), for the card.
fn v4a_paths(args: &Value) -> Vec<String> {
    let Some(patch) = describe::arg(args, "patch") else {
        return Vec::new();
    };
    patch
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            ["*** Update File:", "*** Add File:", "*** Delete File:"]
                .iter()
                .find_map(|p| l.strip_prefix(p))
                .map(|p| p.trim().to_string())
        })
        .collect()
}
