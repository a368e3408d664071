//! Tests of the `clarify` tool against a scripted `Clarifier`: what is asked (trimmed question,
//! flattened and capped choices), the result for each answer, validation, the offer, and a
//! cancelled turn withdrawing the question.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::*;
use crate::runtime::approver::AllowAll;
use crate::runtime::seams::clarify::Clarifier;
use crate::runtime::{ClientFeatures, SessionScope, ToolServices};

/// Answers every question with `answer` (never, when `None`) and records what was asked.
struct Scripted {
    answer: Option<ClarifyAnswer>,
    asked: Mutex<Vec<(String, ClarifyQuestion)>>,
    /// Set when an unanswered question's future is dropped.
    dropped: Arc<std::sync::atomic::AtomicBool>,
}

/// Sets its flag when dropped.
struct DropFlag(Arc<std::sync::atomic::AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Clarifier for Scripted {
    fn ask<'a>(&'a self, call_id: &'a str, question: &'a ClarifyQuestion) -> BoxFuture<'a, ClarifyAnswer> {
        self.asked.lock().unwrap().push((call_id.to_string(), question.clone()));
        let answer = self.answer.clone();
        let flag = DropFlag(self.dropped.clone());
        Box::pin(async move {
            let _flag = flag;
            match answer {
                Some(answer) => answer,
                None => std::future::pending().await,
            }
        })
    }
}

fn ctx(answer: Option<ClarifyAnswer>, cancel: CancellationToken) -> (ToolContext, Arc<Scripted>) {
    let scripted = Arc::new(Scripted {
        answer,
        asked: Mutex::new(Vec::new()),
        dropped: Default::default(),
    });
    let mut session = SessionScope::local("s1", std::env::temp_dir(), Arc::new(AllowAll));
    session.clarifier = scripted.clone();
    (
        ToolContext::new(Arc::new(session), Default::default(), "call-1", cancel),
        scripted,
    )
}

async fn call(answer: ClarifyAnswer, args: Value) -> (Value, bool, Vec<(String, ClarifyQuestion)>) {
    let (ctx, scripted) = ctx(Some(answer), CancellationToken::new());
    let out = ClarifyTool.run(&ctx, args).await;
    let asked = scripted.asked.lock().unwrap().clone();
    (serde_json::from_str(&out.content).unwrap(), out.is_error, asked)
}

#[tokio::test]
async fn an_answer_comes_back_as_hermes_returns_it() {
    let args =
        json!({"question": "  Which target? ", "choices": ["staging", {"label": "prod"}, {"name": "x"}, "", "a", "b"]});
    let (result, is_error, asked) = call(ClarifyAnswer::Answered(" prod \n".into()), args).await;
    assert!(!is_error);
    assert_eq!(
        result,
        json!({"question": "Which target?", "choices_offered": ["staging", "prod", "a", "b"], "user_response": "prod"})
    );
    assert_eq!(asked[0].0, "call-1");
    assert_eq!(asked[0].1.choices, ["staging", "prod", "a", "b"]);
    let (open, _, _) = call(ClarifyAnswer::Answered("anything".into()), json!({"question": "Why?"})).await;
    assert_eq!(open["choices_offered"], Value::Null);
    let (encoded, _, asked) = call(
        ClarifyAnswer::Answered("x".into()),
        json!({"question": "Q", "choices": "[\"x\", \"y\"]"}),
    )
    .await;
    assert_eq!(encoded["user_response"], "x");
    assert_eq!(asked[0].1.choices, ["x", "y"]);
}

#[tokio::test]
async fn decline_cancel_and_timeout_say_what_the_model_should_do() {
    let (declined, is_error, _) = call(ClarifyAnswer::Declined, json!({"question": "Q"})).await;
    assert!(!is_error);
    assert_eq!(
        (declined["status"].as_str(), &declined["user_response"]),
        (Some("declined"), &Value::Null)
    );
    assert!(declined["message"].as_str().unwrap().contains("declined to answer"));
    let (cancelled, _, _) = call(ClarifyAnswer::Cancelled, json!({"question": "Q"})).await;
    assert_eq!(cancelled["status"], "cancelled");
    assert!(cancelled["message"].as_str().unwrap().contains("without answering"));
    let (timed_out, _, _) = call(ClarifyAnswer::TimedOut, json!({"question": "Q"})).await;
    assert!(
        timed_out["user_response"]
            .as_str()
            .unwrap()
            .contains("Use your best judgement")
    );
    let (unavailable, is_error, _) = call(ClarifyAnswer::Unavailable("no form".into()), json!({"question": "Q"})).await;
    assert!(is_error);
    assert_eq!(unavailable["error"], "no form");
}

#[tokio::test]
async fn bad_arguments_are_refused_before_asking() {
    for args in [
        json!({}),
        json!({"question": "  "}),
        json!({"question": "Q", "choices": 3}),
    ] {
        let (result, is_error, asked) = call(ClarifyAnswer::Answered("x".into()), args.clone()).await;
        assert!(is_error, "{args}");
        assert!(asked.is_empty(), "{args}");
        assert!(result["error"].as_str().is_some());
    }
}

#[tokio::test]
async fn a_cancelled_turn_withdraws_the_question() {
    let cancel = CancellationToken::new();
    let (ctx, scripted) = ctx(None, cancel.clone());
    let cancel_once_asked = async {
        while scripted.asked.lock().unwrap().is_empty() {
            tokio::task::yield_now().await;
        }
        cancel.cancel();
    };
    let (out, ()) = tokio::join!(ClarifyTool.run(&ctx, json!({"question": "Q"})), cancel_once_asked);
    assert!(out.is_error);
    assert!(out.content.contains("withdrawn"), "{}", out.content);
    // The pending question was dropped, which is what withdraws it from the editor.
    assert!(scripted.dropped.load(std::sync::atomic::Ordering::SeqCst));
}

#[test]
fn offered_only_when_the_editor_shows_forms() {
    let services = ToolServices::default();
    let offer = |elicitation_form| Offer {
        services: &services,
        client: ClientFeatures {
            elicitation_form,
            subagents: false,
        },
    };
    assert!(ClarifyTool.offered(&offer(true)));
    assert!(!ClarifyTool.offered(&offer(false)));
    assert!(ClarifyTool.interactive());
    assert_eq!(ClarifyTool.effect(&json!({})), ToolEffect::ReadOnly);
}

#[test]
fn the_card_shows_the_question_and_the_answer() {
    let args = json!({"question": "Which target?", "choices": ["staging", "prod"]});
    let card = ClarifyTool.present(&args, std::path::Path::new("/w"));
    assert_eq!(card.title, "Ask \u{201c}Which target?\u{201d}");
    assert_eq!(card.start_text.as_deref(), Some("- staging\n- prod"));
    assert_eq!(
        ClarifyTool.summarise(&args, &json!({"user_response": "prod"})),
        "Answer: prod"
    );
    assert!(
        ClarifyTool
            .summarise(&args, &json!({"message": "declined"}))
            .contains("declined")
    );
}
