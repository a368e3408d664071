//! Compression over long scripted histories: plan boundaries never split a tool call from its
//! result, the first exchange and the tail survive, pruning stays in the middle, and the full
//! `compact` run streams, falls back, and honours cancellation.

use std::sync::Mutex;

use futures::future::BoxFuture;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::*;
use crate::llm::{ChatRequest, EventStream, LlmError, Provider, StreamEvent};
use crate::transcript::{Role, ToolCall};

/// A conversation of `turns` agentic turns after a one-call first exchange; tool outputs are
/// `output_bytes` long. Includes parallel calls, an error result and a budget-style note.
pub(super) fn scripted(turns: usize, output_bytes: usize) -> Vec<Message> {
    let mut history = Vec::new();
    let mut n = 0;
    let mut call = |name: &str, args: serde_json::Value| {
        n += 1;
        ToolCall {
            id: format!("call_{n}"),
            name: name.into(),
            arguments: args.to_string(),
        }
    };
    let first = call("terminal", json!({"command": "ls"}));
    let mut asking = Message::assistant("");
    asking.tool_calls.push(first.clone());
    history.push(Message::user("Set up the project"));
    history.push(asking);
    history.push(Message::tool_result(&first, "Cargo.toml\nsrc".into(), false));
    history.push(Message::assistant("The project has a Cargo.toml and src/."));
    for t in 0..turns {
        history.push(Message::user(format!("Step {t}: fix module {t}")));
        let a = call("read_file", json!({"path": format!("src/m{t}.rs")}));
        let b = call("search_files", json!({"pattern": format!("fn f{t}"), "path": "src"}));
        let mut parallel = Message::assistant(format!("Looking at module {t}."));
        parallel.tool_calls = vec![a.clone(), b.clone()];
        history.push(parallel);
        let mut read = Message::tool_result(&a, format!("{t}|{}", "x".repeat(output_bytes)), false);
        read.meta.display = crate::transcript::ToolDisplay::Terminal {
            command: format!("step {t}"),
            output: String::new(),
            exit_code: Some(0),
        };
        history.push(read);
        history.push(Message::tool_result(&b, "y".repeat(output_bytes / 2), t % 5 == 0));
        let c = call("terminal", json!({"command": format!("cargo test m{t}")}));
        let mut single = Message::assistant("");
        single.tool_calls.push(c.clone());
        history.push(single);
        history.push(Message::tool_result(
            &c,
            format!("ok {t}\n{}", "z".repeat(output_bytes)),
            false,
        ));
        if t % 7 == 3 {
            history.push(Message::user("Do not call any more tools. Summarise."));
        }
        history.push(Message::assistant(format!("Module {t} fixed.")));
    }
    history
}

fn cfg(protect_last_n: usize) -> CompactionPolicy {
    CompactionPolicy {
        protect_last_n,
        ..CompactionPolicy::default()
    }
}

#[test]
fn below_threshold_does_nothing() {
    let history = scripted(40, 2_000);
    let threshold = cfg(20).threshold_tokens(256_000);
    assert!(plan(&history, &cfg(20), 256_000, threshold - 1).is_none());
    assert!(plan(&history, &cfg(20), 256_000, threshold).is_some());
    // Too short to have a middle.
    assert!(plan(&scripted(1, 10), &cfg(20), 256_000, u64::MAX).is_none());
}

#[test]
fn keeps_first_exchange_and_protected_tail_without_splitting_pairs() {
    for turns in [3, 10, 60] {
        let history = scripted(turns, 1_500);
        for protect in [0, 1, 2, 3, 5, 8, 13, 20, 40] {
            for window in [64_000, 100_000, 256_000, 1_000_000] {
                let Some(p) = plan(&history, &cfg(protect), window, u64::MAX) else {
                    continue;
                };
                assert_eq!(p.head_end, 4, "first exchange kept");
                assert!(history.len() - p.tail_start >= protect.min(history.len() - 4));
                assert_ne!(
                    history[p.tail_start].role(),
                    Role::Tool,
                    "tail starts at a call, not a result"
                );
                assert!(p.tail_start >= p.head_end + 2);
                let out = apply(&history, &p, "summary");
                assert_eq!(
                    orphans(&out),
                    Vec::<String>::new(),
                    "turns {turns} protect {protect} window {window}"
                );
                assert_eq!(out.len(), history.len() - (p.tail_start - p.head_end) + 1);
                assert_eq!(out[..4], history[..4]);
                assert_eq!(out[5..], history[p.tail_start..]);
            }
        }
    }
}

#[test]
fn tail_grows_to_the_token_budget() {
    // Small messages: the 20 % budget holds far more than 20 messages.
    let history = scripted(200, 10);
    let p = plan(&history, &cfg(20), 64_000, u64::MAX).unwrap();
    let tail = &history[p.tail_start..];
    assert!(tail.len() > 20);
    assert!(estimate_tokens(tail) <= p.tail_budget + 200);
    // Huge messages: the tail is the message floor, even though it is over budget.
    let history = scripted(30, 200_000);
    let p = plan(&history, &cfg(6), 256_000, u64::MAX).unwrap();
    assert!(history.len() - p.tail_start >= 6 && history.len() - p.tail_start <= 8);
}

#[test]
fn a_huge_first_exchange_keeps_only_the_first_user_message() {
    let mut history = scripted(0, 0);
    // The first turn is a long agentic run that is still going.
    for i in 0..30 {
        let call = ToolCall {
            id: format!("first_{i}"),
            name: "read_file".into(),
            arguments: json!({"path": format!("f{i}")}).to_string(),
        };
        let mut m = Message::assistant("");
        m.tool_calls.push(call.clone());
        history.insert(history.len() - 1, m);
        history.insert(
            history.len() - 1,
            Message::tool_result(&call, "q".repeat(20_000), false),
        );
    }
    history.truncate(history.len() - 1);
    history.remove(3); // the first answer never came
    let p = plan(&history, &cfg(4), 256_000, u64::MAX).unwrap();
    assert_eq!(p.head_end, 1);
    assert_eq!(orphans(&apply(&history, &p, "s")), Vec::<String>::new());
    assert!(plan_manual(&history, &cfg(20), 256_000).is_some());
}

#[test]
fn compact_on_request_keeps_only_the_last_exchange() {
    let exchange = |n: usize| {
        [
            Message::user(format!("question {n}")),
            Message::assistant(format!("answer {n}")),
        ]
    };
    let history: Vec<Message> = (0..3).flat_map(exchange).collect();
    let p = plan_manual(&history, &cfg(20), 256_000).unwrap();
    assert_eq!((p.head_end, p.tail_start, p.manual), (0, 4, true));
    let after = apply(&history, &p, "s");
    assert_eq!(after.len(), 3);
    assert!(is_compaction_summary(&after[0]));
    assert_eq!(after[1].text_content(), "question 2");
    // A summary already there is not an exchange of its own: it is summarised again.
    let again = plan_manual(&after, &cfg(20), 256_000);
    assert!(again.is_none(), "nothing but the summary before the last exchange");
    assert!(
        plan_manual(&history[..2], &cfg(20), 256_000).is_none(),
        "one exchange, nothing before it"
    );
}

#[test]
fn pruning_clears_only_middle_outputs_and_only_when_enough() {
    let history = scripted(60, 3_000);
    let window = 256_000;
    let mut p = plan(&history, &cfg(20), window, u64::MAX).unwrap();
    let (pruned, freed) = prune_middle(&history, &p);
    assert!(freed > 0);
    assert_eq!(pruned[..p.head_end], history[..p.head_end]);
    assert_eq!(pruned[p.tail_start..], history[p.tail_start..]);
    for (old, new) in history[p.head_end..p.tail_start]
        .iter()
        .zip(&pruned[p.head_end..p.tail_start])
    {
        if old.role() == Role::Tool && old.text_content().len() > 600 {
            assert!(new.text_content().starts_with(CLEARED_PREFIX), "{}", new.text_content());
            assert_eq!(new.meta, old.meta, "editor display kept for replay");
            assert_eq!(new.tool_call_id, old.tool_call_id);
        } else {
            assert_eq!(new, old);
        }
    }
    // Just above the threshold: clearing is enough.
    p.prompt_tokens = p.threshold + 10;
    assert_eq!(prune(&history, &p), Some(pruned.clone()));
    // Far above: a summary is needed.
    p.prompt_tokens = p.threshold + freed;
    assert_eq!(prune(&history, &p), None);
    // `/compact` always summarises; a second pass finds nothing left to clear.
    let manual = plan_manual(&history, &cfg(20), window).unwrap();
    assert_eq!(prune(&history, &manual), None);
    assert_eq!(prune_middle(&pruned, &p).1, 0);
}

#[test]
fn a_second_compaction_folds_the_first_summary_in() {
    let history = scripted(40, 2_000);
    let first = plan(&history, &cfg(20), 256_000, u64::MAX).unwrap();
    let once = apply(&history, &first, "## Goal\nFirst summary body");
    let mut longer = once.clone();
    longer.extend(scripted(40, 2_000).into_iter().skip(4));
    let second = plan(&longer, &cfg(20), 256_000, u64::MAX).unwrap();
    assert_eq!(second.head_end, 4);
    let middle = second.middle(&longer);
    assert!(is_compaction_summary(&middle[0]));
    let prompt = summary_request(middle, "m", None).messages[1].text_content();
    assert!(prompt.contains("[EARLIER SUMMARY]: ## Goal\nFirst summary body"));
    assert!(fallback_summary(middle).contains("First summary body"));
    let twice = apply(&longer, &second, "second");
    assert_eq!(twice.iter().filter(|m| is_compaction_summary(m)).count(), 1);
    assert_eq!(orphans(&twice), Vec::<String>::new());
}

/// Replies with scripted streams, one per call.
struct FakeProvider {
    replies: Mutex<Vec<Result<Vec<StreamEvent>, LlmError>>>,
    requests: Mutex<Vec<ChatRequest>>,
    hang: bool,
}

impl Provider for FakeProvider {
    fn id(&self) -> &str {
        "fake"
    }
    fn stream<'a>(&'a self, request: &'a ChatRequest) -> BoxFuture<'a, Result<EventStream, LlmError>> {
        self.requests.lock().unwrap().push(request.clone());
        let reply = self.replies.lock().unwrap().remove(0);
        let hang = self.hang;
        Box::pin(async move {
            let events = reply?;
            let stream = futures::stream::iter(events.into_iter().map(Ok));
            if hang {
                Ok(Box::pin(futures::StreamExt::chain(stream, futures::stream::pending())) as EventStream)
            } else {
                Ok(Box::pin(stream) as EventStream)
            }
        })
    }
    fn list_models(&self) -> BoxFuture<'_, Result<Vec<String>, LlmError>> {
        Box::pin(async { Ok(Vec::new()) })
    }
}

fn provider(replies: Vec<Result<Vec<StreamEvent>, LlmError>>, hang: bool) -> FakeProvider {
    FakeProvider {
        replies: Mutex::new(replies),
        requests: Mutex::new(Vec::new()),
        hang,
    }
}

#[tokio::test]
async fn compact_streams_the_summary_into_the_new_history() {
    let history = scripted(40, 2_000);
    let p = plan_manual(&history, &cfg(20), 256_000).unwrap();
    let fake = provider(
        vec![Ok(vec![
            StreamEvent::Text("## Goal\n".into()),
            StreamEvent::Text("Fix all modules.".into()),
            StreamEvent::Finish("stop".into()),
        ])],
        false,
    );
    let mut events = Vec::new();
    let out = compact(&fake, "aux", &history, &p, &CancellationToken::new(), &mut |e| {
        events.push(e)
    })
    .await
    .unwrap();
    let sent = fake.requests.lock().unwrap()[0].clone();
    assert_eq!(sent.model, "aux");
    assert!(sent.tools.is_empty());
    assert_eq!(out.summary.as_deref(), Some("## Goal\nFix all modules."));
    assert!(!out.used_fallback);
    assert_eq!(out.messages_before, history.len());
    assert_eq!(out.messages_after, out.history.len());
    assert!(out.tokens_after < out.tokens_before);
    assert_eq!(
        summary_body(&out.history[p.head_end]),
        Some("## Goal\nFix all modules.")
    );
    assert_eq!(compaction_id(&out.history[p.head_end]), Some(p.id.as_str()));
    assert_eq!(orphans(&out.history), Vec::<String>::new());
    assert_eq!(events.len(), 4);
    assert_eq!(events[0], CompactionEvent::Started { id: p.id.clone() });
    assert_eq!(
        events[2],
        CompactionEvent::SummaryChunk {
            id: p.id.clone(),
            text: "Fix all modules.".into()
        }
    );
    assert!(matches!(
        &events[3],
        CompactionEvent::Completed {
            summary: Some(_),
            used_fallback: false,
            ..
        }
    ));
}

#[tokio::test]
async fn compact_falls_back_when_the_summariser_fails_and_stops_on_cancel() {
    let history = scripted(40, 2_000);
    let p = plan_manual(&history, &cfg(20), 256_000).unwrap();
    let auth = LlmError::Auth {
        provider: "fake".into(),
        status: 401,
        message: "bad key".into(),
        key_hint: "the key".into(),
    };
    let fake = provider(vec![Err(auth)], false);
    let out = compact(&fake, "aux", &history, &p, &CancellationToken::new(), &mut |_| {})
        .await
        .unwrap();
    assert!(out.used_fallback);
    assert!(out.fallback_reason.as_deref().unwrap().contains("rejected the API key"));
    let body = summary_body(&out.history[p.head_end]).unwrap();
    assert!(body.starts_with("## Goal\nAs first stated in the removed turns: Set up the project"));
    assert!(
        out.history[p.head_end]
            .meta
            .compaction
            .as_ref()
            .unwrap()
            .fallback
            .is_some()
    );
    assert_eq!(orphans(&out.history), Vec::<String>::new());

    let empty = provider(vec![Ok(vec![StreamEvent::Text("  ".into())])], false);
    let out = compact(&empty, "aux", &history, &p, &CancellationToken::new(), &mut |_| {})
        .await
        .unwrap();
    assert!(out.used_fallback);

    let hanging = provider(vec![Ok(vec![StreamEvent::Text("partial".into())])], true);
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        trigger.cancel();
    });
    let mut events = Vec::new();
    let result = compact(&hanging, "aux", &history, &p, &cancel, &mut |e| events.push(e)).await;
    assert!(matches!(result, Err(SummaryError::Cancelled)));
    assert_eq!(events.last(), Some(&CompactionEvent::Cancelled { id: p.id.clone() }));
}

#[tokio::test]
async fn compact_prunes_without_a_model_call_when_that_is_enough() {
    let history = scripted(60, 3_000);
    let mut p = plan(&history, &cfg(20), 256_000, u64::MAX).unwrap();
    p.prompt_tokens = p.threshold + 10;
    let fake = provider(Vec::new(), false);
    let out = compact(&fake, "aux", &history, &p, &CancellationToken::new(), &mut |_| {})
        .await
        .unwrap();
    assert!(fake.requests.lock().unwrap().is_empty());
    assert_eq!(out.summary, None);
    assert_eq!(out.history.len(), history.len());
    assert!(out.tokens_after < out.tokens_before);
}
