//! `/permissions`: the rules remembered for this project (revocable one by one) and the
//! commands allowed for this session only, which `/permissions always` keeps as project rules.
//! That is how "always allow in this project" is reached: permission requests offer one option
//! per kind, and their `allow_always` option means this session (see `acp/questions.rs`).

use super::AcpState;
use crate::session::Session;

/// The reply to `/permissions [revoke <n|command> | always [n]]`.
pub(super) async fn reply(state: &AcpState, session: &Session, args: &str) -> String {
    let workspace = session.workspace.root().display().to_string();
    let rules = match state.manager.permission_rules(&workspace).await {
        Ok(rules) => rules,
        Err(e) => return format!("Error executing /permissions: {e}"),
    };
    let session_only: Vec<String> = session
        .tool_state
        .session_commands()
        .into_iter()
        .filter(|key| !rules.iter().any(|r| &r.command == key && r.decision == "allow"))
        .collect();
    if let Some(target) = args.strip_prefix("revoke").map(str::trim) {
        let rule = match target.parse::<usize>() {
            Ok(n) if n >= 1 && n <= rules.len() => Some(&rules[n - 1]),
            _ => rules.iter().find(|r| r.command == target),
        };
        let Some(rule) = rule else {
            return format!("No remembered rule '{target}'. Run /permissions to list them.");
        };
        return match state.manager.revoke_rule(&workspace, &rule.command).await {
            Ok(_) => format!("Revoked: {} `{}`", rule.decision, rule.command),
            Err(e) => format!("Error executing /permissions: {e}"),
        };
    }
    if let Some(target) = args.strip_prefix("always").map(str::trim) {
        return keep(state, &workspace, &session_only, target).await;
    }
    let mut out = match rules.is_empty() {
        true => format!("No remembered permission rules for {workspace}."),
        false => {
            let mut out = format!("Remembered permission rules for {workspace}:");
            for (i, rule) in rules.iter().enumerate() {
                out.push_str(&format!("\n  {}. {}: `{}`", i + 1, rule.decision, rule.command));
            }
            out.push_str("\n\nRevoke one with /permissions revoke <number>.");
            out
        }
    };
    if !session_only.is_empty() {
        out.push_str("\n\nAllowed for this session only:");
        for (i, command) in session_only.iter().enumerate() {
            out.push_str(&format!("\n  {}. `{command}`", i + 1));
        }
        out.push_str("\n\nAlways allow them in this project with /permissions always (or always <number> for one).");
    }
    out
}

/// `/permissions always [n]`: this session's allowed commands (or the n-th) become rules of
/// the project, remembered across sessions and restarts.
async fn keep(state: &AcpState, workspace: &str, session_only: &[String], target: &str) -> String {
    let chosen: Vec<&String> = match target {
        "" => session_only.iter().collect(),
        n => match n.parse::<usize>() {
            Ok(n) if n >= 1 && n <= session_only.len() => vec![&session_only[n - 1]],
            _ => {
                return format!(
                    "No session command '{n}'. Run /permissions to list the commands allowed for this session."
                );
            }
        },
    };
    if chosen.is_empty() {
        return "Nothing to keep: no command was allowed for this session only.".to_string();
    }
    let mut out = String::from("Always allowed in this project from now on:");
    for command in chosen {
        if let Err(e) = state.manager.allow_always(workspace, command).await {
            return format!("Error executing /permissions: {e}");
        }
        out.push_str(&format!("\n  `{command}`"));
    }
    out
}
