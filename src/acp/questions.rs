//! What a `session/request_permission` says (pure): the tool call as the question shows it and
//! the options. Clients do not all merge the request with the card announced before it
//! (CodeCompanion labels the prompt from this `title` alone and offers its diff view only when
//! the first content block is a diff; agent-shell takes this title as the card's), so every
//! request stands on its own: a title naming what would happen and why, the locations of an
//! edit, the diff first and the reason after it. Options come one per kind, because clients key
//! their buttons and shortcuts by kind: `allow_once`, `allow_always` (this session),
//! `reject_once`, `reject_always`, and an answer means what its option's kind means. The
//! persistent "always in this project" allow is not an option; `/permissions always` turns
//! what was allowed for the session into project rules. A plan's question (leaving plan mode)
//! offers the next mode the same way.

use std::path::{Path, PathBuf};

use agent_client_protocol::v1::schema::{
    Diff, PermissionOption, PermissionOptionKind, ToolCallContent, ToolCallLocation, ToolCallUpdateFields, ToolKind,
};
use serde_json::Value;

use super::render::text_block;
use crate::runtime::ApprovalDecision;
use crate::runtime::describe::{code_span, fence, first_line, shown_path};
use crate::safety::policy::Mode;

/// Option ids (Hermes' names; the kind says what each one is).
pub const ALLOW_ONCE: &str = "allow_once";
/// Allow this command (or edits inside the project) for the rest of the session.
pub const ALLOW_SESSION: &str = "allow_session";
pub const DENY: &str = "deny";
/// Deny this exact command in this project from now on (remembered, see `/permissions`).
pub const DENY_ALWAYS: &str = "deny_always";

/// The longest reason a title carries (the content has it whole).
const TITLE_REASON_MAX: usize = 160;
/// The longest command a title or an option label quotes (the content has it whole).
const TITLE_COMMAND_MAX: usize = 80;

/// A question ready to send: the tool call as the request shows it, and the options.
pub struct Question {
    pub fields: ToolCallUpdateFields,
    pub options: Vec<PermissionOption>,
}

impl Question {
    /// Whether `option_id` is one this question offered (any other answer is a denial).
    pub fn offers(&self, option_id: &str) -> bool {
        self.options.iter().any(|o| &*o.option_id.0 == option_id)
    }

    /// What choosing `option_id` decides: its kind says (one option per kind), so every
    /// question reads its answers the same way; an option it did not offer is a denial.
    pub fn decision(&self, option_id: &str) -> ApprovalDecision {
        let kind = self
            .options
            .iter()
            .find(|o| &*o.option_id.0 == option_id)
            .map(|o| o.kind);
        match kind {
            Some(PermissionOptionKind::AllowOnce) => ApprovalDecision::AllowOnce,
            Some(PermissionOptionKind::AllowAlways) => ApprovalDecision::AllowSession,
            Some(PermissionOptionKind::RejectAlways) => ApprovalDecision::DenyAlways,
            _ => ApprovalDecision::Deny,
        }
    }
}

/// Who asks: the agent itself, or a subagent working on a goal.
#[derive(Debug, Clone, Default)]
pub struct Asker {
    pub subagent_goal: Option<String>,
}

impl Asker {
    /// The opening words of the question's text.
    fn needs(&self) -> String {
        match &self.subagent_goal {
            Some(goal) => format!("Subagent \u{201c}{goal}\u{201d} needs your approval"),
            None => "Needs your approval".to_string(),
        }
    }

    /// Appended to a title, so a subagent's question says whose it is.
    fn suffix(&self) -> String {
        match &self.subagent_goal {
            Some(goal) => format!(" (subagent \u{201c}{}\u{201d})", first_line(goal, 60)),
            None => String::new(),
        }
    }
}

/// A shell command that needs the user's click: ``Run `rm -rf build` — deletes files: build``.
/// A command that needs the user's click. `remember` are the rule patterns (`cargo test …`)
/// "for this session" would keep (empty: the exact command).
pub fn command(
    asker: &Asker,
    command: &str,
    reason: &str,
    unsandboxed: bool,
    remember: &[String],
    raw_input: Value,
) -> Question {
    let shown = code_span(&first_line(command, TITLE_COMMAND_MAX));
    let kept = match remember {
        [] => shown.clone(),
        patterns => patterns.iter().map(|p| code_span(p)).collect::<Vec<_>>().join(", "),
    };
    let sandbox = if unsandboxed { " without the sandbox" } else { "" };
    let title = format!(
        "Run {shown}{sandbox} \u{2014} {}{}",
        first_line(reason, TITLE_REASON_MAX),
        asker.suffix()
    );
    let text = format!("{}{sandbox}: {reason}\n\n{}", asker.needs(), fence(command));
    let fields = ToolCallUpdateFields::new()
        .title(title)
        .kind(ToolKind::Execute)
        .content(vec![text_block(&text)])
        .raw_input(raw_input);
    let options = vec![
        PermissionOption::new(ALLOW_ONCE, "Allow once", PermissionOptionKind::AllowOnce),
        PermissionOption::new(
            ALLOW_SESSION,
            format!("Allow {kept}{sandbox} for this session"),
            PermissionOptionKind::AllowAlways,
        ),
        PermissionOption::new(DENY, "Deny", PermissionOptionKind::RejectOnce),
        PermissionOption::new(
            DENY_ALWAYS,
            format!("Always deny {shown} in this project"),
            PermissionOptionKind::RejectAlways,
        ),
    ];
    Question { fields, options }
}

/// A file edit that needs the user's click, with its whole-file texts.
pub struct Edit {
    /// What the write would really change (symlinks followed).
    pub real_path: PathBuf,
    /// Why it asks (`"edit"`: an ordinary edit inside the project).
    pub reason: String,
    /// `None` when the file does not exist yet.
    pub old_text: Option<String>,
    pub new_text: String,
}

/// The reason of an ordinary edit inside the project (the policy's word for it).
const PLAIN_EDIT: &str = "edit";

/// ``Edit src/main.rs`` (or ``Create …``, with the reason when it is more than an ordinary
/// edit), the file as location, the diff first and the reason after it.
pub fn edit(asker: &Asker, edit: Edit, cwd: &Path, raw_input: Value) -> Question {
    let verb = if edit.old_text.is_none() { "Create" } else { "Edit" };
    let path = shown_path(&edit.real_path.to_string_lossy(), cwd);
    let plain = edit.reason == PLAIN_EDIT;
    let title = match plain {
        true => format!("{verb} {path}{}", asker.suffix()),
        false => format!(
            "{verb} {path} \u{2014} {}{}",
            first_line(&edit.reason, TITLE_REASON_MAX),
            asker.suffix()
        ),
    };
    let why = match plain {
        true => format!("{}: {} a file in the project.", asker.needs(), verb.to_lowercase()),
        false => format!("{}: {}", asker.needs(), edit.reason),
    };
    let fields = ToolCallUpdateFields::new()
        .title(title)
        .kind(ToolKind::Edit)
        .locations(vec![ToolCallLocation::new(edit.real_path.clone())])
        .content(vec![
            ToolCallContent::Diff(Diff::new(edit.real_path, edit.new_text).old_text(edit.old_text)),
            text_block(&why),
        ])
        .raw_input(raw_input);
    let mut options = vec![PermissionOption::new(
        ALLOW_ONCE,
        "Allow this edit",
        PermissionOptionKind::AllowOnce,
    )];
    // "For the session" covers ordinary edits in the project; a sensitive or outside target
    // asks every time, so offering it there would promise what it does not do. No
    // "always deny": nothing would remember it for an edit.
    if plain {
        options.push(PermissionOption::new(
            ALLOW_SESSION,
            "Allow edits in this project for this session",
            PermissionOptionKind::AllowAlways,
        ));
    }
    options.push(PermissionOption::new(DENY, "Deny", PermissionOptionKind::RejectOnce));
    Question { fields, options }
}

/// A plan to approve before plan mode ends: the plan as written, then one option per kind —
/// approve and switch to `accept_edits` (`allow_always`), approve and keep asking (`allow_once`:
/// `default`), keep planning (`reject_once`). The option ids are the modes they lead to.
pub fn plan(asker: &Asker, plan: &str, steps: usize, raw_input: Value) -> Question {
    let title = format!("Ready to carry out this plan? ({steps} steps){}", asker.suffix());
    let text = format!("{}: approve the plan to leave plan mode.\n\n{plan}", asker.needs());
    let fields = ToolCallUpdateFields::new()
        .title(title)
        .kind(ToolKind::SwitchMode)
        .content(vec![text_block(&text)])
        .raw_input(raw_input);
    let options = vec![
        PermissionOption::new(
            Mode::AcceptEdits.id(),
            "Approve, and accept edits from now on",
            PermissionOptionKind::AllowAlways,
        ),
        PermissionOption::new(
            Mode::Default.id(),
            "Approve, and keep asking before edits",
            PermissionOptionKind::AllowOnce,
        ),
        PermissionOption::new(Mode::Plan.id(), "Keep planning", PermissionOptionKind::RejectOnce),
    ];
    Question { fields, options }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kinds(question: &Question) -> Vec<PermissionOptionKind> {
        question.options.iter().map(|o| o.kind).collect()
    }

    fn title(question: &Question) -> String {
        question.fields.title.clone().unwrap_or_default()
    }

    #[test]
    fn a_command_question_names_the_command_and_why_with_one_option_per_kind() {
        let q = command(
            &Asker::default(),
            "rm -rf build",
            "deletes files: build",
            false,
            &[],
            json!({}),
        );
        assert_eq!(title(&q), "Run `rm -rf build` \u{2014} deletes files: build");
        assert_eq!(
            kinds(&q),
            [
                PermissionOptionKind::AllowOnce,
                PermissionOptionKind::AllowAlways,
                PermissionOptionKind::RejectOnce,
                PermissionOptionKind::RejectAlways
            ]
        );
        assert!(q.offers(ALLOW_SESSION) && !q.offers("allow_always"));
        let sub = Asker {
            subagent_goal: Some("fix the tests".into()),
        };
        let patterns = ["make …".to_string()];
        let q = command(
            &sub,
            "make\nmake install",
            "unknown program",
            true,
            &patterns,
            json!({}),
        );
        assert_eq!(
            title(&q),
            "Run `make …` without the sandbox \u{2014} unknown program (subagent \u{201c}fix the tests\u{201d})"
        );
        // "For this session" names the rule it keeps.
        assert_eq!(q.options[1].name, "Allow `make …` without the sandbox for this session");
    }

    #[test]
    fn an_edit_question_shows_the_diff_first_and_the_file_as_location() {
        let new_file = Edit {
            real_path: PathBuf::from("/w/src/new.rs"),
            reason: "edit".into(),
            old_text: None,
            new_text: "fn main() {}\n".into(),
        };
        let q = edit(&Asker::default(), new_file, Path::new("/w"), json!({}));
        assert_eq!(title(&q), "Create src/new.rs");
        let content = q.fields.content.as_ref().unwrap();
        assert!(matches!(content[0], ToolCallContent::Diff(_)));
        assert_eq!(
            q.fields.locations.as_ref().unwrap()[0].path,
            PathBuf::from("/w/src/new.rs")
        );
        assert_eq!(kinds(&q).len(), 3);
        let outside = Edit {
            real_path: PathBuf::from("/etc/hosts"),
            reason: "writes outside the project: /etc/hosts".into(),
            old_text: Some("x".into()),
            new_text: "y".into(),
        };
        let q = edit(&Asker::default(), outside, Path::new("/w"), json!({}));
        assert_eq!(
            title(&q),
            "Edit /etc/hosts \u{2014} writes outside the project: /etc/hosts"
        );
        assert_eq!(
            kinds(&q),
            [PermissionOptionKind::AllowOnce, PermissionOptionKind::RejectOnce]
        );
    }
}
