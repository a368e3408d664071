//! The plan tool against a recording approver and the local mode switch: the plan is shown
//! before the question, each answer leads where its option says, and the tool is refused
//! outside plan mode.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use super::*;
use crate::runtime::file_io::test_support::{Recorder, test_ctx};
use crate::runtime::{ApprovalDecision, ToolProgress, ToolRegistry};

/// Records the plans a tool publishes.
#[derive(Default)]
struct Plans(Mutex<Vec<Vec<String>>>);

impl ToolProgress for Plans {
    fn content(&self, _call_id: &str, _text: String) {}
    fn nested_started(&self, _call_id: &str, _name: &str, _arguments: &Value) {}
    fn nested_finished(&self, _: &str, _: &str, _: &Value, _: &ToolOutput, _: Duration) {}
    fn plan(&self, items: Vec<PlanItem>) {
        self.0
            .lock()
            .unwrap()
            .push(items.into_iter().map(|i| i.content).collect());
    }
}

async fn present(decision: ApprovalDecision, args: Value) -> (ToolOutput, Mode, Arc<Recorder>, Vec<Vec<String>>) {
    let dir = tempfile::tempdir().unwrap();
    let approver = Recorder::new(decision);
    let plans = Arc::new(Plans::default());
    let ctx = test_ctx(dir.path(), approver.clone()).with_progress(plans.clone());
    ctx.session.state.set_mode(Mode::Plan);
    let registry = ToolRegistry::new(vec![Arc::new(ExitPlanModeTool)]);
    let out = registry.dispatch(&ctx, NAME, &args.to_string()).await;
    let published = plans.0.lock().unwrap().clone();
    (out, ctx.session.state.mode(), approver, published)
}

fn result(out: &ToolOutput) -> Value {
    serde_json::from_str(&out.content).unwrap()
}

#[tokio::test]
async fn each_answer_leads_where_its_option_says() {
    let plan = json!({"plan": "1. Add a test\n2. Fix the parser"});
    let (out, mode, approver, published) = present(ApprovalDecision::AllowSession, plan.clone()).await;
    assert_eq!((out.is_error, mode), (false, Mode::AcceptEdits));
    assert_eq!(result(&out)["mode"], "accept_edits");
    assert_eq!(published, [["Add a test", "Fix the parser"]]);
    assert!(matches!(
        &approver.requests()[..],
        [ApprovalRequest::Plan { steps, .. }] if steps.len() == 2
    ));
    // The approved result carries the steps, so a replay shows the plan again.
    let items = ExitPlanModeTool.plan(&result(&out)).unwrap();
    assert_eq!(items.len(), 2);

    let (out, mode, ..) = present(ApprovalDecision::AllowOnce, plan.clone()).await;
    assert_eq!((out.is_error, mode), (false, Mode::Default));
    assert!(result(&out)["message"].as_str().unwrap().contains("Carry out the plan"));

    let (out, mode, ..) = present(ApprovalDecision::Deny, plan.clone()).await;
    assert_eq!((out.is_error, mode), (false, Mode::Plan));
    assert_eq!(result(&out)["approved"], false);
    assert_eq!(ExitPlanModeTool.plan(&result(&out)), None);

    let (out, mode, ..) = present(ApprovalDecision::TimedOut, plan).await;
    assert_eq!((out.is_error, mode), (true, Mode::Plan));
}

#[tokio::test]
async fn the_model_s_steps_win_and_an_empty_plan_is_refused() {
    let args = json!({"plan": "Refactor.", "steps": ["one", "  ", "two"]});
    let (_, _, _, published) = present(ApprovalDecision::Deny, args).await;
    assert_eq!(published, [["one", "two"]]);
    let (out, mode, approver, published) = present(ApprovalDecision::AllowSession, json!({"plan": "  "})).await;
    assert!(out.is_error && out.content.contains("missing required field 'plan'"));
    assert_eq!(mode, Mode::Plan);
    assert!(approver.requests().is_empty() && published.is_empty());
}

#[tokio::test]
async fn only_plan_mode_offers_it_and_refusals_there_point_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = test_ctx(dir.path(), Recorder::new(ApprovalDecision::AllowSession));
    let registry = ToolRegistry::new(vec![Arc::new(ExitPlanModeTool)]);
    for mode in Mode::ALL {
        assert_eq!(
            registry.schemas_for(mode).len(),
            usize::from(mode == Mode::Plan),
            "{mode:?}"
        );
    }
    assert!(registry.names_in_every_mode().is_empty());
    ctx.session.state.set_mode(Mode::AcceptEdits);
    let out = registry.dispatch(&ctx, NAME, r#"{"plan": "x"}"#).await;
    assert!(out.is_error && out.content.contains("not available in accept_edits mode"));
    assert_eq!(ctx.session.state.mode(), Mode::AcceptEdits);
    assert!(
        (registry.with_way_out(Mode::Plan, "Plan mode: no.".into()))
            .ends_with(&format!("Call {NAME} with the plan when it is ready."))
    );
    assert_eq!(registry.with_way_out(Mode::ReadOnly, "no".into()), "no");
    assert!(mode_note(Mode::Plan).unwrap().contains(NAME));
    assert_eq!(mode_note(Mode::Default), None);
}
