//! The `clarify` tool: the model asks the user a question, open-ended or with up to four
//! choices (the user can always type their own answer), and gets the answer back as Hermes
//! returns it. The question is shown through the `Clarifier` seam (an editor form); it is only
//! offered when the editor said it can show one. A decline, a dismissed form or a timeout is
//! reported to the model in words it can act on.

#[cfg(test)]
mod tests;

use futures::future::BoxFuture;
use serde_json::{Value, json};

use crate::runtime::seams::clarify::{ClarifyAnswer, ClarifyQuestion};

use crate::runtime::describe::{self, Presentation, ToolEffect, ToolKind};
use crate::runtime::{Offer, Tool, ToolContext, ToolOutput};

/// Most choices the model may offer (Hermes' limit); an "Other" free-text answer is always added.
pub const MAX_CHOICES: usize = 4;

/// Hermes' own words when nobody answered in time: the model decides and goes on.
const TIMED_OUT: &str = "The user did not provide a response within the time limit. Use your best judgement to make the choice and proceed.";
const DECLINED: &str = "The user declined to answer this question. Do not ask it again; proceed with your best \
judgement, or go on without this information.";
const CANCELLED: &str = "The user closed the question without answering. Proceed with your best judgement; ask \
again only if you cannot continue without an answer.";

const DESCRIPTION: &str = "Ask the user a question when you need clarification, feedback, or a \
decision before proceeding. Supports two modes:\n\n\
1. **Multiple choice** — provide up to 4 choices. The user picks one or types their own answer \
via a 5th 'Other' option.\n\
2. **Open-ended** — omit choices entirely. The user types a free-form response.\n\n\
CRITICAL: when you are offering options, put each option ONLY in the `choices` array — NEVER \
enumerate the options inside the `question` text. The UI renders `choices` as selectable rows; \
options written into the question string render as dead prose the user can't pick. Right: \
question='Which deployment target?', choices=['staging', 'prod']. Wrong: question='Which \
target? 1) staging 2) prod', choices=[].\n\n\
Use this tool when:\n\
- The task is ambiguous and you need the user to choose an approach\n\
- You want post-task feedback ('How did that work out?')\n\
- You want to offer to save a skill or update memory\n\
- A decision has meaningful trade-offs the user should weigh in on\n\n\
Do NOT use this tool for simple yes/no confirmation of dangerous commands (the terminal tool \
handles that). Prefer making a reasonable default choice yourself when the decision is \
low-stakes.";

/// The `clarify` tool.
#[derive(Debug, Default, Clone, Copy)]
pub struct ClarifyTool;

impl Tool for ClarifyTool {
    fn name(&self) -> &'static str {
        "clarify"
    }

    fn description(&self) -> String {
        DESCRIPTION.to_string()
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "question": {
                    "type": "string",
                    "description": "The question itself, and ONLY the question (e.g. 'Which deployment target?'). Do NOT embed the answer options here — pass them as separate elements in `choices`."
                },
                "choices": {
                    "type": "array",
                    "items": {"type": "string"},
                    "maxItems": MAX_CHOICES,
                    "description": "REQUIRED whenever you are presenting selectable options: each distinct option is its own array element (up to 4). The UI renders these as pickable rows and auto-appends an 'Other (type your answer)' option. Omit this parameter entirely ONLY for a genuinely open-ended free-text question."
                }
            },
            "required": ["question"]
        })
    }

    /// A question waits for the user: nothing else of the response runs meanwhile.
    fn interactive(&self) -> bool {
        true
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(run(ctx, args))
    }

    fn effect(&self, _args: &Value) -> ToolEffect {
        ToolEffect::ReadOnly
    }

    fn present(&self, args: &Value, _cwd: &std::path::Path) -> Presentation {
        let question = describe::arg(args, "question").unwrap_or_default();
        let start_text = parse_choices(args.get("choices"))
            .ok()
            .filter(|c| !c.is_empty())
            .map(|c| c.iter().map(|c| format!("- {c}")).collect::<Vec<_>>().join("\n"));
        Presentation {
            kind: ToolKind::Other,
            title: format!("Ask \u{201c}{}\u{201d}", describe::clip(question, 100)),
            locations: Vec::new(),
            start_text,
        }
    }

    fn summarise(&self, _args: &Value, result: &Value) -> String {
        match (result.get("user_response"), result.get("message")) {
            (Some(Value::String(answer)), _) => format!("Answer: {}", describe::cap(answer, 1_500)),
            (_, Some(Value::String(message))) => message.clone(),
            _ => describe::generic_summary(self.name(), result),
        }
    }

    fn brief(&self, args: &Value) -> Option<String> {
        describe::arg(args, "question").map(|q| format!("'{}'", describe::clip(q, 80)))
    }

    /// Only where a question can be shown: an editor that renders forms. Hermes leaves the
    /// tool out of ACP entirely; offering it without a form would only produce errors.
    fn offered(&self, offer: &Offer) -> bool {
        offer.client.elicitation_form
    }
}

async fn run(ctx: &ToolContext, args: Value) -> ToolOutput {
    let question = match args.get("question").and_then(Value::as_str).map(str::trim) {
        Some(q) if !q.is_empty() => q.to_string(),
        _ => return ToolOutput::error("Question text is required."),
    };
    let choices = match parse_choices(args.get("choices")) {
        Ok(choices) => choices,
        Err(message) => return ToolOutput::error(message),
    };
    let asked = ClarifyQuestion { question, choices };
    let answer = tokio::select! {
        biased;
        // Dropping the pending question withdraws it from the editor.
        () = ctx.cancel.cancelled() => return ToolOutput::error("The question was withdrawn: the turn was cancelled."),
        answer = ctx.session.clarifier.ask(&ctx.call_id, &asked) => answer,
    };
    result(&asked, answer)
}

/// The result for the model: Hermes' `{question, choices_offered, user_response}` for an
/// answer (and for a timeout, with Hermes' text), a `status` and `message` otherwise.
fn result(asked: &ClarifyQuestion, answer: ClarifyAnswer) -> ToolOutput {
    let offered = if asked.choices.is_empty() {
        Value::Null
    } else {
        json!(asked.choices)
    };
    let status = |status: &str, message: &str| {
        ToolOutput::json(json!({
            "question": asked.question,
            "choices_offered": offered,
            "user_response": null,
            "status": status,
            "message": message,
        }))
    };
    match answer {
        ClarifyAnswer::Answered(text) => ToolOutput::json(json!({
            "question": asked.question,
            "choices_offered": offered,
            "user_response": text.trim(),
        })),
        ClarifyAnswer::TimedOut => ToolOutput::json(json!({
            "question": asked.question,
            "choices_offered": offered,
            "user_response": TIMED_OUT,
        })),
        ClarifyAnswer::Declined => status("declined", DECLINED),
        ClarifyAnswer::Cancelled => status("cancelled", CANCELLED),
        ClarifyAnswer::Unavailable(message) => ToolOutput::error(message),
    }
}

/// The choices as display strings, like Hermes: dict-shaped choices unwrap to their label,
/// empty ones are dropped, at most `MAX_CHOICES` kept. A JSON-encoded list (a model quirk) is
/// read as the list; any other non-list is refused.
fn parse_choices(raw: Option<&Value>) -> Result<Vec<String>, String> {
    let items = match raw {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items.clone(),
        Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
            Ok(Value::Array(items)) => items,
            _ => return Err("choices must be a list of strings.".into()),
        },
        Some(_) => return Err("choices must be a list of strings.".into()),
    };
    let mut choices: Vec<String> = items.iter().map(flatten).filter(|c| !c.is_empty()).collect();
    choices.truncate(MAX_CHOICES);
    Ok(choices)
}

/// One choice as the text the user sees. Only human-readable keys count for an object (`name`
/// and `value` may be raw identifiers); an object without one is dropped rather than shown as
/// JSON.
fn flatten(choice: &Value) -> String {
    match choice {
        Value::Null => String::new(),
        Value::String(s) => s.trim().to_string(),
        Value::Object(map) => ["label", "description", "text", "title"]
            .iter()
            .find_map(|k| {
                map.get(*k)
                    .and_then(Value::as_str)
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
            })
            .unwrap_or_default()
            .to_string(),
        Value::Array(items) => items
            .iter()
            .map(flatten)
            .collect::<Vec<_>>()
            .join(" ")
            .trim()
            .to_string(),
        other => other.to_string(),
    }
}
