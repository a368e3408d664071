//! What happens to a memory call before it is stored: the known secret values in its contents
//! are redacted (the redactor of every other sink: values and their encoded forms), and an
//! entry that would lower the guard of every future session (`approvals.rs`) goes through the
//! permission gate as an edit of the memory file: a sensitive target, so it asks in every mode
//! but yolo, with the file's diff on the card. A dry run of the same call gives the diff, and
//! a call that would fail anyway fails without asking.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::approvals;
use super::entries::{ENTRY_DELIMITER, MemoryFile, MemoryLimits, failure};
use crate::runtime::{ApprovalDecision, ApprovalRequest, ToolContext, permission};
use crate::safety::policy::EditTarget;
use crate::safety::secrets::SecretSet;

/// `args` with every entry text (`content`, `operations[].content`) redacted.
pub fn redact_contents(secrets: &SecretSet, mut args: Value) -> Value {
    let redact = |slot: Option<&mut Value>| {
        if let Some(Value::String(text)) = slot {
            let redacted = secrets.redact(text).into_owned();
            *text = redacted;
        }
    };
    redact(args.get_mut("content"));
    if let Some(Value::Array(operations)) = args.get_mut("operations") {
        for operation in operations {
            redact(operation.get_mut("content"));
        }
    }
    args
}

/// Every entry text of the call (whatever its shape: nothing is left unscanned).
fn contents(args: &Value) -> Vec<&str> {
    let operations = args.get("operations").and_then(Value::as_array);
    std::iter::once(args.get("content"))
        .chain(operations.into_iter().flatten().map(|op| op.get("content")))
        .filter_map(|v| v.and_then(Value::as_str))
        .collect()
}

/// The memory file before and after the call, from a dry run.
struct Plan {
    path: PathBuf,
    old_text: Option<String>,
    new_text: String,
}

/// The dry run: `Ok(None)` when the call would change nothing, `Err` with the result the call
/// would fail with.
fn plan(home: &Path, limits: &MemoryLimits, args: &Value) -> Result<Option<Plan>, Value> {
    let file = MemoryFile::planning(home, super::target(args)?, limits);
    let result = super::dispatch(&file, args);
    if result.get("success").and_then(Value::as_bool) == Some(false) {
        return Err(result);
    }
    let Some(entries) = file.planned() else {
        return Ok(None);
    };
    Ok(Some(Plan {
        old_text: std::fs::read_to_string(&file.path).ok(),
        new_text: entries.join(ENTRY_DELIMITER),
        path: file.path,
    }))
}

/// Asks the user when an entry of the call would lower the guard; `Err` is the result to
/// return instead of storing.
pub async fn ask_if_lowering(ctx: &ToolContext, home: &Path, limits: MemoryLimits, args: &Value) -> Result<(), Value> {
    let mut found: Vec<_> = contents(args).into_iter().flat_map(approvals::lowerings).collect();
    found.sort_by_key(|w| *w as u8);
    found.dedup();
    if found.is_empty() {
        return Ok(());
    }
    let lowering = approvals::describe(&found);
    let (home, planned_args) = (home.to_path_buf(), args.clone());
    let plan = match tokio::task::spawn_blocking(move || plan(&home, &limits, &planned_args)).await {
        Ok(plan) => plan?,
        Err(e) => return Err(failure(format!("Memory operation failed: {e}"))),
    };
    let Some(plan) = plan else {
        return Ok(());
    };
    let reason = format!(
        "this memory entry would tell every future session to {lowering}, and memory is part of \
         every new session's system prompt"
    );
    let target = EditTarget {
        path: plan.path.clone(),
        real: plan.path.clone(),
        inside_project: false,
        in_temp: false,
        sensitive: Some(reason.clone()),
    };
    let decision = permission::gate_edit(ctx, target, |_| ApprovalRequest::Edit {
        tool: "memory",
        path: plan.path.clone(),
        real_path: plan.path.clone(),
        reason: reason.clone(),
        old_text: plan.old_text.clone(),
        new_text: plan.new_text.clone(),
        arguments: args.clone(),
    })
    .await;
    match decision {
        d if d.is_allowed() => Ok(()),
        d => Err(failure(refusal(d, &lowering))),
    }
}

/// The result text when the entry was not approved.
fn refusal(decision: ApprovalDecision, lowering: &str) -> String {
    let why = format!("it would tell every future session to {lowering}. Nothing was saved");
    let what = match decision {
        ApprovalDecision::TimedOut => format!("Nobody answered the approval request for this memory entry ({why})."),
        ApprovalDecision::Cancelled => {
            format!("The turn was cancelled while this memory entry waited for approval ({why}).")
        }
        _ => format!("The user did not approve this memory entry: {why}."),
    };
    format!(
        "{what} Do NOT save it another way (a file, a skill, a rephrased entry); tell the user what you wanted \
         to remember and why, and wait for them."
    )
}
