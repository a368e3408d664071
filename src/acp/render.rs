//! How tool calls look in the editor (reference §4, with its bugs fixed), as ACP types: the
//! tool describes itself (`Presentation`, the summary of an `Outcome`) in our own words, handed
//! over with the agent's events or the stored history, and this maps that to ACP — kinds,
//! locations, capped text blocks, diffs and terminal previews. Pure functions used identically
//! by the live bridge and by `session/load` replay, so both show the same cards.

use agent_client_protocol::v1::schema::{Diff, ToolCallContent, ToolCallLocation, ToolCallStatus, ToolKind};
use serde_json::Value;

use crate::runtime as tools;
use crate::runtime::describe::{self, cap};
use crate::runtime::{Presentation, ToolDisplay, ToolOutput};

/// Text blocks are capped for UI safety.
pub const TEXT_CAP: usize = 5_000;
/// The start text is shorter: it is only a preview of what the call will do.
const START_CAP: usize = 1_200;

/// The ACP kind of our kind.
pub fn kind(kind: tools::ToolKind) -> ToolKind {
    match kind {
        tools::ToolKind::Read => ToolKind::Read,
        tools::ToolKind::Edit => ToolKind::Edit,
        tools::ToolKind::Delete => ToolKind::Delete,
        tools::ToolKind::Search => ToolKind::Search,
        tools::ToolKind::Execute => ToolKind::Execute,
        tools::ToolKind::Fetch => ToolKind::Fetch,
        tools::ToolKind::SwitchMode => ToolKind::SwitchMode,
        tools::ToolKind::Other => ToolKind::Other,
    }
}

/// Where the editor can follow along.
pub fn locations(presentation: &Presentation) -> Vec<ToolCallLocation> {
    presentation
        .locations
        .iter()
        .map(|l| ToolCallLocation::new(l.path.clone()).line(l.line))
        .collect()
}

/// Content shown while the call is pending/running (reference §4.3).
pub fn start_content(presentation: &Presentation) -> Vec<ToolCallContent> {
    presentation
        .start_text
        .as_deref()
        .map(|t| vec![text_block(&cap(t, START_CAP))])
        .unwrap_or_default()
}

/// Status, content and raw output of the finished card (reference §4.4). The status is the
/// tool's own outcome; `summary` is the tool's reading of a successful JSON result.
pub fn completion(
    name: &str,
    summary: Option<&str>,
    output: &ToolOutput,
) -> (ToolCallStatus, Vec<ToolCallContent>, Option<Value>) {
    let parsed: Option<Value> = serde_json::from_str(&output.content).ok();
    let failure = output.failure_message();
    let status = if failure.is_some() {
        ToolCallStatus::Failed
    } else {
        ToolCallStatus::Completed
    };
    let mut content = display_content(&output.display);
    if content.is_empty() || failure.is_some() {
        let summary = match (&parsed, failure) {
            (Some(_), Some(message)) => format!("{name} failed: {message}"),
            (Some(_), None) => summary.unwrap_or_default().to_string(),
            (None, _) => output.content.clone(),
        };
        if !summary.is_empty() {
            content.push(text_block(&cap(&summary, TEXT_CAP)));
        }
    }
    let raw_output = parsed.or_else(|| Some(Value::String(cap(&output.content, TEXT_CAP))));
    (status, content, raw_output)
}

/// Diffs for changed files, the command and its output for a terminal call.
fn display_content(display: &ToolDisplay) -> Vec<ToolCallContent> {
    match display {
        ToolDisplay::Changes(changes) => changes
            .iter()
            .map(|change| {
                let diff = Diff::new(change.path.clone(), change.new_text.clone().unwrap_or_default())
                    .old_text(change.old_text.clone());
                ToolCallContent::Diff(diff)
            })
            .collect(),
        ToolDisplay::Terminal { output, exit_code, .. } => vec![text_block(&terminal_text(output, *exit_code))],
        ToolDisplay::None => Vec::new(),
    }
}

/// A finished command's output as the card's text: fenced, so Zed and agent-shell keep its
/// lines and characters as they are (CodeCompanion drops the fence and shows the start). The
/// command is not repeated: the title shows it, and agent-shell prints the `rawInput` command
/// above the output itself. A non-zero exit code follows the output.
fn terminal_text(output: &str, exit_code: Option<i64>) -> String {
    let mut text = if output.trim().is_empty() {
        "(no output)".to_string()
    } else {
        describe::fence(&cap(output.trim_end_matches('\n'), TEXT_CAP - 200))
    };
    match exit_code {
        Some(0) | None => {}
        Some(code) => text.push_str(&format!("\n\nexit code {code}")),
    }
    text
}

pub fn text_block(text: &str) -> ToolCallContent {
    ToolCallContent::from(text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn our_kinds_map_to_acp_kinds() {
        assert_eq!(kind(tools::ToolKind::Edit), ToolKind::Edit);
        assert_eq!(kind(tools::ToolKind::Other), ToolKind::Other);
        assert_eq!(kind(tools::ToolKind::SwitchMode), ToolKind::SwitchMode);
    }

    #[test]
    fn command_output_is_fenced_with_its_exit_code() {
        assert_eq!(terminal_text("a\nb\n", Some(0)), "```\na\nb\n```");
        assert_eq!(terminal_text("", Some(0)), "(no output)");
        assert_eq!(terminal_text("oops\n", Some(2)), "```\noops\n```\n\nexit code 2");
    }

    #[test]
    fn the_tool_says_whether_it_failed() {
        let out =
            ToolOutput::json_error(json!({"output": "", "exit_code": -1, "error": "BLOCKED: no", "status": "blocked"}));
        let (status, content, _) = completion("t", None, &out);
        assert_eq!(status, ToolCallStatus::Failed);
        assert_eq!(content.len(), 1);
        // A result that merely mentions an error is not a failure unless the tool says so.
        let ok = ToolOutput::json(json!({"error": "none of your business"}));
        assert_eq!(completion("t", Some("done"), &ok).0, ToolCallStatus::Completed);
    }
}
