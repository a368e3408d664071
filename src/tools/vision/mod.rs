//! `vision_analyze`: Hermes' image tool. The image (a local path resolved against the session
//! cwd, an http(s) URL through the SSRF guard, or a `data:` URL) is read, checked by its magic
//! bytes, shrunk when over the provider's limits, and sent with Hermes' prompt to the auxiliary
//! vision model (`auxiliary.vision`), else to the session's own model when it accepts images.
//! The model's answer is the result: `{"success": true, "analysis": …}`. Offered only when a
//! vision model resolves.

pub mod backend;
pub mod picture;
pub mod source;

use std::path::Path;

use futures::future::BoxFuture;
use serde_json::{Value, json};

use crate::runtime::describe::{self, Location, Presentation, ToolEffect, ToolKind};
use crate::runtime::{Offer, Tool, ToolContext, ToolOutput};
pub use backend::{DEFAULT_DOWNLOAD_TIMEOUT, DEFAULT_TIMEOUT, VisionServices, VisionSettings};
use source::Source;

const DESCRIPTION: &str = "Load an image into the conversation so you can see it. Accepts a URL, local file path, or data URL. When your active model has native vision, the image is attached to your context directly and you read the pixels yourself on the next turn — call this any time the user references an image (filepath in their message, URL in tool output, screenshot from the browser, etc.). For non-vision models, falls back to an auxiliary vision model that returns a text description.";

/// What Hermes asks the vision model, the question appended.
const PROMPT: &str = "Fully describe and explain everything about this image, then answer the following question:\n\n";

/// Hermes' answer when the model returned nothing, even on a second try.
const EMPTY_ANSWER: &str = "There was a problem with the request and the image could not be analyzed.";

/// Image preparations running at once: one per core.
static ENCODE_SLOTS: std::sync::LazyLock<tokio::sync::Semaphore> = std::sync::LazyLock::new(|| {
    tokio::sync::Semaphore::new(std::thread::available_parallelism().map_or(1, |n| n.get()))
});

/// The `vision_analyze` tool, built with the vision model it asks (`auxiliary.vision`).
#[derive(Clone, Default)]
pub struct VisionAnalyzeTool {
    vision: VisionServices,
}

impl VisionAnalyzeTool {
    pub fn new(vision: VisionServices) -> VisionAnalyzeTool {
        VisionAnalyzeTool { vision }
    }
}

impl Tool for VisionAnalyzeTool {
    fn name(&self) -> &'static str {
        "vision_analyze"
    }

    fn description(&self) -> String {
        DESCRIPTION.to_string()
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "image_url": {
                    "type": "string",
                    "description": "Image URL (http/https), local file path, or data: URL to load."
                },
                "question": {
                    "type": "string",
                    "description": "Your specific question or request about the image. Optional context the model uses on the next turn after seeing the image."
                }
            },
            "required": ["image_url", "question"]
        })
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(run(&self.vision, ctx, args))
    }

    fn effect(&self, _args: &Value) -> ToolEffect {
        ToolEffect::ReadOnly
    }

    /// "Analyze image <where it comes from>" (never a `data:` URL, which can be megabytes); a
    /// local image is the location.
    fn present(&self, args: &Value, cwd: &Path) -> Presentation {
        let source = describe::arg(args, "image_url").and_then(|raw| Source::parse(raw, cwd).ok());
        let mut title = match &source {
            Some(Source::File(path)) => format!("Analyze image {}", describe::shown_path(&path.to_string_lossy(), cwd)),
            Some(Source::Http(url)) => format!("Analyze image {}", describe::first_line(url, 100)),
            Some(Source::Data(_)) => "Analyze an inline image".to_string(),
            None => "Analyze an image".to_string(),
        };
        if let Some(question) = describe::arg(args, "question") {
            title.push_str(&format!(" \u{2014} {}", describe::first_line(question, 50)));
        }
        Presentation {
            kind: match source {
                Some(Source::Http(_)) => ToolKind::Fetch,
                _ => ToolKind::Read,
            },
            title,
            locations: (source.as_ref().and_then(Source::path))
                .map(|path| Location {
                    path: path.to_path_buf(),
                    line: None,
                })
                .into_iter()
                .collect(),
            start_text: None,
        }
    }

    fn summarise(&self, _args: &Value, result: &Value) -> String {
        match result.get("analysis").and_then(Value::as_str) {
            Some(analysis) => analysis.to_string(),
            None => describe::generic_summary(self.name(), result),
        }
    }

    /// A `data:` URL is never quoted back (it can be megabytes).
    fn brief(&self, args: &Value) -> Option<String> {
        let raw = describe::arg(args, "image_url")?;
        let shown = match raw.trim_start().get(..5) {
            Some(scheme) if scheme.eq_ignore_ascii_case("data:") => "a data: URL".to_string(),
            _ => crate::text::clip(raw, 80),
        };
        Some(format!("analyzed image {shown}"))
    }

    fn offered(&self, _offer: &Offer) -> bool {
        self.vision.available()
    }
}

async fn run(vision: &VisionServices, ctx: &ToolContext, args: Value) -> ToolOutput {
    let raw = args.get("image_url").and_then(Value::as_str).unwrap_or("");
    let question = match args.get("question") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    };
    let chosen = match vision.choose(ctx.session.model.as_ref()) {
        Ok(chosen) => chosen,
        Err(e) => return failure(&e.to_string()),
    };
    let work = async {
        let source = Source::parse(raw, &ctx.session.workspace.root()).map_err(|e| e.to_string())?;
        let loaded = source::load(ctx, &source, vision.download_timeout)
            .await
            .map_err(|e| e.to_string())?;
        let limits = chosen.limits;
        // Decoding and re-encoding take a core each: a fan-out over many images queues here
        // instead of taking every core at once (Hermes bounds the same burst the same way).
        let _slot = ENCODE_SLOTS.acquire().await.map_err(|e| e.to_string())?;
        let prepared = tokio::task::spawn_blocking(move || picture::prepare(&loaded.bytes, loaded.kind, &limits))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
        if let Some((w, h)) = prepared.resized {
            tracing::debug!(width = w, height = h, "image re-encoded to fit the vision model");
        }
        ctx.progress
            .content(&ctx.call_id, format!("Asking {} about the image…", chosen.model));
        let request = backend::request(&chosen.model, &format!("{PROMPT}{question}"), &prepared.data_url);
        let mut analysis = backend::ask(&chosen, &request, vision, &ctx.cancel).await?;
        if analysis.trim().is_empty() {
            tracing::warn!("the vision model returned no text; asking once more");
            analysis = backend::ask(&chosen, &request, vision, &ctx.cancel).await?;
        }
        Ok::<String, Failure>(analysis)
    };
    let outcome = tokio::select! {
        biased;
        () = ctx.cancel.cancelled() => return interrupted(),
        outcome = work => outcome,
    };
    match outcome {
        Ok(analysis) if analysis.trim().is_empty() => {
            ToolOutput::json(json!({"success": true, "analysis": EMPTY_ANSWER}))
        }
        Ok(analysis) => ToolOutput::json(json!({"success": true, "analysis": analysis})),
        Err(Failure::Cancelled) => interrupted(),
        Err(Failure::Other(message)) => failure(&message),
    }
}

/// Why the work stopped: cancelled, or an error to report.
enum Failure {
    Cancelled,
    Other(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Other(message)
    }
}

impl From<backend::AskError> for Failure {
    fn from(error: backend::AskError) -> Failure {
        match error {
            backend::AskError::Cancelled => Failure::Cancelled,
            other => Failure::Other(other.to_string()),
        }
    }
}

fn interrupted() -> ToolOutput {
    ToolOutput::json_error(json!({"error": "Interrupted", "success": false}))
}

/// Hermes' failure result: the error, and an `analysis` that tells the model what to do.
fn failure(message: &str) -> ToolOutput {
    ToolOutput::json_error(json!({
        "success": false,
        "error": format!("Error analyzing image: {message}"),
        "analysis": hint(message),
    }))
}

/// Hermes' reading of an error, in its words.
fn hint(message: &str) -> String {
    let lower = message.to_lowercase();
    let any = |hints: &[&str]| hints.iter().any(|h| lower.contains(h));
    if any(&["402", "insufficient", "payment required", "credits", "billing"]) {
        format!(
            "Insufficient credits or payment required. Please top up your API provider account and try again. Error: {message}"
        )
    } else if any(&[
        "does not support",
        "not support image",
        "content_policy",
        "multimodal",
        "unrecognized request argument",
        "image input",
    ]) {
        format!("The model does not support vision or our request was not accepted by the server. Error: {message}")
    } else if any(&["invalid_request", "image_url"]) {
        format!(
            "The vision API rejected the image. This can happen when the image is in an unsupported format, corrupted, or still too large after auto-resize. Try a smaller JPEG/PNG and retry. Error: {message}"
        )
    } else {
        format!("There was a problem with the request and the image could not be analyzed. Error: {message}")
    }
}

#[cfg(test)]
mod tests;
