//! The clarify seam: the `clarify` tool asks the user a question and a `Clarifier` shows it.
//! The editor bridge implements it with an ACP form (`acp/elicitation.rs`); tools never see ACP.
//! Without an editor that can show a form, `NoClarifier` answers that nobody can be asked.

use futures::future::BoxFuture;

/// A question for the user: the text and up to four choices (empty: open-ended). The user can
/// always type an answer of their own instead of picking a choice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClarifyQuestion {
    pub question: String,
    pub choices: Vec<String>,
}

/// How the question ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClarifyAnswer {
    /// The user answered (a choice or their own text, possibly empty).
    Answered(String),
    /// The user explicitly refused to answer.
    Declined,
    /// The user dismissed the question without choosing (closed the form).
    Cancelled,
    /// Nobody answered within the time limit.
    TimedOut,
    /// The question could not be shown (no editor form, or the request failed): why.
    Unavailable(String),
}

/// Shows questions to the user for one turn.
pub trait Clarifier: Send + Sync {
    /// `call_id` is the tool call asking (its card is already announced). Dropping the future
    /// withdraws the question.
    fn ask<'a>(&'a self, call_id: &'a str, question: &'a ClarifyQuestion) -> BoxFuture<'a, ClarifyAnswer>;
}

/// Nobody to ask: the default of a session scope without an editor form.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoClarifier;

impl Clarifier for NoClarifier {
    fn ask<'a>(&'a self, _call_id: &'a str, _question: &'a ClarifyQuestion) -> BoxFuture<'a, ClarifyAnswer> {
        Box::pin(async { ClarifyAnswer::Unavailable("no editor form to show the question in".into()) })
    }
}
