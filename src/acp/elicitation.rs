//! The question bridge: `runtime::seams::clarify::Clarifier` on top of `elicitation/create` in form mode.
//! One form per question, tied to the session and the tool call's card: the question is the
//! form's title and message; with choices, a required pick among them plus "Other", and a text
//! field for the user's own answer; without, one required text field. Accept, decline and cancel
//! come back as the matching `ClarifyAnswer`. Like permission requests, it waits at most the
//! approvals timeout; a timeout or a dropped question (a cancelled turn) abandons the request,
//! which sends `$/cancel_request` to the editor.

use std::collections::BTreeMap;
use std::time::Duration;

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    CreateElicitationRequest, ElicitationAction, ElicitationContentValue, ElicitationFormMode, ElicitationSchema,
    ElicitationSessionScope, SessionId, StringPropertySchema, ToolCallId,
};
use futures::future::BoxFuture;

use crate::runtime::seams::clarify::{Clarifier, ClarifyAnswer, ClarifyQuestion};

/// The form's field holding the answer (the pick, or the text of an open question).
const ANSWER: &str = "answer";
/// The form's free-text field when there are choices.
const OTHER: &str = "other";
/// The extra pick that points at the free-text field (Hermes' wording).
const OTHER_CHOICE: &str = "Other (type your answer)";

/// Asks the user one turn's questions through the editor's forms.
pub struct AcpClarifier {
    cx: ConnectionTo<Client>,
    session_id: SessionId,
    timeout: Duration,
}

impl AcpClarifier {
    pub fn new(cx: ConnectionTo<Client>, session_id: &str, timeout: Duration) -> AcpClarifier {
        AcpClarifier {
            cx,
            session_id: SessionId::new(session_id.to_string()),
            timeout,
        }
    }

    async fn ask_editor(&self, call_id: &str, question: &ClarifyQuestion) -> ClarifyAnswer {
        let scope = ElicitationSessionScope::new(self.session_id.clone()).tool_call_id(ToolCallId::new(call_id));
        let request = CreateElicitationRequest::new(
            ElicitationFormMode::new(scope, form(question)),
            question.question.clone(),
        );
        // Dropping the pending request (timeout, or this future dropped because the turn was
        // cancelled) sends `$/cancel_request` to the editor.
        let pending = self.cx.send_request(request).block_task();
        let response = match tokio::time::timeout(self.timeout, pending).await {
            Err(_) => {
                tracing::info!(call_id, timeout_s = self.timeout.as_secs(), "question timed out");
                return ClarifyAnswer::TimedOut;
            }
            Ok(Err(e)) => {
                tracing::warn!(call_id, error = %e, "elicitation request failed");
                return ClarifyAnswer::Unavailable(format!("Failed to get user input: {e}"));
            }
            Ok(Ok(response)) => response,
        };
        match response.action {
            ElicitationAction::Accept(accepted) => {
                ClarifyAnswer::Answered(answer(&question.choices, &accepted.content.unwrap_or_default()))
            }
            ElicitationAction::Decline => ClarifyAnswer::Declined,
            // Cancel, or an action of a later protocol version: no answer was given.
            _ => ClarifyAnswer::Cancelled,
        }
    }
}

impl Clarifier for AcpClarifier {
    fn ask<'a>(&'a self, call_id: &'a str, question: &'a ClarifyQuestion) -> BoxFuture<'a, ClarifyAnswer> {
        Box::pin(self.ask_editor(call_id, question))
    }
}

/// The form for `question`. Plain `enum` values (not titled `oneOf`) so that editors which only
/// know the older MCP form schema still render the choices; the values are the labels.
fn form(question: &ClarifyQuestion) -> ElicitationSchema {
    let schema = ElicitationSchema::new().title(question.question.clone());
    if question.choices.is_empty() {
        return schema.property(
            ANSWER,
            StringPropertySchema::new().title("Your answer".to_string()),
            true,
        );
    }
    let mut picks = question.choices.clone();
    if !picks.iter().any(|c| c == OTHER_CHOICE) {
        picks.push(OTHER_CHOICE.to_string());
    }
    schema
        .property(
            ANSWER,
            StringPropertySchema::new()
                .title("Choose an answer".to_string())
                .enum_values(picks),
            true,
        )
        .property(
            OTHER,
            StringPropertySchema::new()
                .title("Your own answer".to_string())
                .description(format!(
                    "Used when you pick \"{OTHER_CHOICE}\" (or type anything here)."
                )),
            false,
        )
}

/// The user's answer from an accepted form. Text typed in the free-text field wins (nobody
/// types there by accident, and an editor may preselect the first choice); otherwise the pick.
fn answer(choices: &[String], content: &BTreeMap<String, ElicitationContentValue>) -> String {
    let text = |key: &str| content.get(key).map(value_text).unwrap_or_default().trim().to_string();
    let own = text(OTHER);
    if !own.is_empty() {
        return own;
    }
    let pick = text(ANSWER);
    if pick == OTHER_CHOICE && !choices.iter().any(|c| c == OTHER_CHOICE) {
        // "Other" with nothing typed: no answer, said as such rather than as the label.
        return String::new();
    }
    pick
}

/// A form value as text (editors may send numbers or booleans for a string field).
fn value_text(value: &ElicitationContentValue) -> String {
    match value {
        ElicitationContentValue::String(s) => s.clone(),
        ElicitationContentValue::Integer(n) => n.to_string(),
        ElicitationContentValue::Number(n) => n.to_string(),
        ElicitationContentValue::Boolean(b) => b.to_string(),
        ElicitationContentValue::StringArray(items) => items.join(", "),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(choices: &[&str]) -> ClarifyQuestion {
        ClarifyQuestion {
            question: "Which target?".into(),
            choices: choices.iter().map(|c| c.to_string()).collect(),
        }
    }

    fn content(pairs: &[(&str, &str)]) -> BTreeMap<String, ElicitationContentValue> {
        pairs.iter().map(|(k, v)| (k.to_string(), (*v).into())).collect()
    }

    #[test]
    fn the_form_is_one_required_field_with_choices_and_other() {
        let open = serde_json::to_value(form(&question(&[]))).unwrap();
        assert_eq!(open["title"], "Which target?");
        assert_eq!(open["required"], serde_json::json!([ANSWER]));
        assert_eq!(open["properties"][ANSWER]["type"], "string");
        assert!(open["properties"].get(OTHER).is_none());
        let picked = serde_json::to_value(form(&question(&["staging", "prod"]))).unwrap();
        assert_eq!(
            picked["properties"][ANSWER]["enum"],
            serde_json::json!(["staging", "prod", OTHER_CHOICE])
        );
        assert_eq!(picked["properties"][OTHER]["type"], "string");
        assert_eq!(picked["required"], serde_json::json!([ANSWER]));
    }

    #[test]
    fn typed_text_wins_over_the_pick() {
        let choices = vec!["staging".to_string(), "prod".to_string()];
        assert_eq!(answer(&choices, &content(&[(ANSWER, "prod")])), "prod");
        assert_eq!(
            answer(&choices, &content(&[(ANSWER, OTHER_CHOICE), (OTHER, " qa ")])),
            "qa"
        );
        assert_eq!(answer(&choices, &content(&[(ANSWER, "staging"), (OTHER, "qa")])), "qa");
        assert_eq!(answer(&choices, &content(&[(ANSWER, OTHER_CHOICE)])), "");
        assert_eq!(answer(&[], &content(&[(ANSWER, "free text")])), "free text");
        assert_eq!(answer(&[], &BTreeMap::new()), "");
        let mut numeric = BTreeMap::new();
        numeric.insert(ANSWER.to_string(), ElicitationContentValue::Integer(3));
        assert_eq!(answer(&[], &numeric), "3");
    }
}
