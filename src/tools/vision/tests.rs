//! `vision_analyze` without a network: sources, type detection, the size cap and re-encoding,
//! the read policy, and whole calls against a scripted provider.

use std::path::Path;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::picture::{ImageKind, Limits, Unsupported, data_url, prepare};
use super::source::{Source, SourceError, decode_data_url, read_local};
use super::*;
use crate::llm::ApiMode;
use crate::llm::{ChatRequest, EventStream, LlmError, Provider, StreamEvent};
use crate::runtime::scope::SessionModel;
use crate::runtime::{DenyAll, SessionScope, ToolServices};
use crate::transcript::Part;

fn png(width: u32, height: u32, pixel: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
    let image = image::RgbaImage::from_fn(width, height, |x, y| image::Rgba(pixel(x, y)));
    let mut out = std::io::Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// Pixels no encoder can squeeze: a PNG of noise stays large.
fn noise_png(width: u32, height: u32) -> Vec<u8> {
    let mut rng = fastrand::Rng::with_seed(7);
    let pixels: Vec<[u8; 4]> = (0..width * height)
        .map(|_| [rng.u8(..), rng.u8(..), rng.u8(..), 255])
        .collect();
    png(width, height, |x, y| pixels[(y * width + x) as usize])
}

fn dimensions_of(url: &str) -> (u32, u32) {
    let bytes = decode_data_url(url).unwrap();
    image::load_from_memory(&bytes).unwrap().into_rgb8().dimensions()
}

#[test]
fn sources_are_classified_and_paths_resolve_against_the_session_cwd() {
    let cwd = Path::new("/work/project");
    assert_eq!(
        Source::parse("shots/a.png", cwd).unwrap(),
        Source::File("/work/project/shots/a.png".into())
    );
    assert_eq!(
        Source::parse("file:///tmp/a.png", cwd).unwrap(),
        Source::File("/tmp/a.png".into())
    );
    assert_eq!(
        Source::parse(" https://example.com/a.png ", cwd).unwrap(),
        Source::Http("https://example.com/a.png".into())
    );
    assert!(matches!(
        Source::parse("data:image/png;base64,AA==", cwd).unwrap(),
        Source::Data(_)
    ));
    assert_eq!(
        Source::parse("ftp://host/a.png", cwd),
        Err(SourceError::UnsupportedScheme)
    );
    assert_eq!(Source::parse("  ", cwd), Err(SourceError::Missing));
}

#[test]
fn data_urls_must_be_base64_and_are_decoded_exactly() {
    let bytes = png(2, 2, |_, _| [1, 2, 3, 255]);
    assert_eq!(decode_data_url(&data_url("image/png", &bytes)).unwrap(), bytes);
    assert_eq!(
        decode_data_url("data:image/png,rawtext"),
        Err(SourceError::DataNotBase64)
    );
    assert!(matches!(
        decode_data_url("data:image/png;base64,@@@"),
        Err(SourceError::DataInvalid(_))
    ));
}

#[test]
fn the_type_comes_from_the_magic_bytes() {
    assert_eq!(ImageKind::detect(&png(1, 1, |_, _| [0; 4])), Ok(ImageKind::Png));
    assert_eq!(ImageKind::detect(b"\xff\xd8\xff\xe0rest"), Ok(ImageKind::Jpeg));
    assert_eq!(ImageKind::detect(b"GIF89a...."), Ok(ImageKind::Gif));
    assert_eq!(ImageKind::detect(b"RIFF\0\0\0\0WEBPVP8 "), Ok(ImageKind::Webp));
    assert_eq!(ImageKind::detect(b"BM\0\0"), Err(Unsupported::Bmp));
    assert_eq!(ImageKind::detect(b"<?xml?><SVG xmlns=..."), Err(Unsupported::Svg));
    assert_eq!(ImageKind::detect(b"%PDF-1.7"), Err(Unsupported::Unknown));
    // A name or a declared type never decides.
    assert_eq!(source::checked(b"not an image".to_vec()), Err(SourceError::NotAnImage));
    assert_eq!(source::checked(b"BM....".to_vec()), Err(SourceError::Bmp));
}

#[test]
fn an_image_within_the_limits_is_sent_byte_for_byte() {
    let bytes = png(10, 10, |x, y| [x as u8, y as u8, 0, 255]);
    let prepared = prepare(&bytes, ImageKind::Png, &picture::ANTHROPIC_LIMITS).unwrap();
    assert_eq!(prepared.data_url, data_url("image/png", &bytes));
    assert_eq!(prepared.resized, None);
}

#[test]
fn an_image_over_the_byte_limit_is_shrunk_to_a_jpeg_under_the_target() {
    let bytes = noise_png(300, 200);
    assert!(bytes.len() > 150_000, "{}", bytes.len());
    let limits = Limits {
        resize_above: 40_000,
        target: 40_000,
        max_side: None,
    };
    let prepared = prepare(&bytes, ImageKind::Png, &limits).unwrap();
    assert!(prepared.data_url.starts_with("data:image/jpeg;base64,"));
    assert!(prepared.data_url.len() <= 40_000, "{}", prepared.data_url.len());
    let (w, h) = prepared.resized.unwrap();
    assert_eq!(dimensions_of(&prepared.data_url), (w, h));
    // The aspect ratio survives the halvings.
    assert_eq!(w * 2, h * 3);
}

#[test]
fn an_image_over_the_side_limit_is_scaled_to_fit_it() {
    // Tiny in bytes, far over Anthropic's 8000 px (Hermes aims at 7900).
    let bytes = png(8400, 20, |_, _| [200, 10, 10, 255]);
    let prepared = prepare(&bytes, ImageKind::Png, &picture::ANTHROPIC_LIMITS).unwrap();
    assert_eq!(prepared.resized, Some((7900, 20)));
    assert_eq!(dimensions_of(&prepared.data_url), (7900, 20));
    // OpenAI-compatible servers have no side limit: untouched.
    let prepared = prepare(&bytes, ImageKind::Png, &picture::OPENAI_LIMITS).unwrap();
    assert_eq!(prepared.resized, None);
}

#[test]
fn transparency_is_laid_on_white_when_re_encoded() {
    let bytes = png(64, 64, |_, _| [0, 0, 0, 0]);
    let limits = Limits {
        resize_above: 0,
        target: usize::MAX,
        max_side: None,
    };
    let prepared = prepare(&bytes, ImageKind::Png, &limits).unwrap();
    let decoded = image::load_from_memory(&decode_data_url(&prepared.data_url).unwrap())
        .unwrap()
        .into_rgb8();
    assert!(
        decoded.get_pixel(5, 5).0.iter().all(|c| *c > 240),
        "{:?}",
        decoded.get_pixel(5, 5)
    );
}

#[test]
fn local_reads_follow_the_read_file_policy() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("hermes");
    std::fs::create_dir_all(&home).unwrap();
    for (name, text) in [(".env", "KEY=1"), ("secrets.png", "x")] {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    std::fs::write(home.join("auth.json"), "{}").unwrap();
    let refused = |path: &Path| match read_local(path, Some(&home)) {
        Err(SourceError::Refused(message)) => message,
        other => panic!("{path:?} was not refused: {other:?}"),
    };
    assert!(refused(&dir.path().join(".env")).contains("secret-bearing environment file"));
    assert!(refused(&home.join("auth.json")).contains("credential store"));
    assert!(refused(Path::new("/dev/zero")).contains("device file"));
    assert!(matches!(read_local(dir.path(), None), Err(SourceError::NotAFile(_))));
    assert!(matches!(
        read_local(&dir.path().join("nope.png"), None),
        Err(SourceError::NotFound(_))
    ));
    assert_eq!(read_local(&dir.path().join("secrets.png"), None).unwrap(), b"x");
}

/// Answers every call with `answer` and keeps the requests.
struct Scripted {
    answer: &'static str,
    requests: Mutex<Vec<ChatRequest>>,
}

impl Provider for Scripted {
    fn id(&self) -> &str {
        "scripted"
    }
    fn stream<'a>(&'a self, request: &'a ChatRequest) -> BoxFuture<'a, Result<EventStream, LlmError>> {
        self.requests.lock().unwrap().push(request.clone());
        let events = vec![Ok(StreamEvent::Text(self.answer.to_string()))];
        Box::pin(async move { Ok(Box::pin(futures::stream::iter(events)) as EventStream) })
    }
    fn list_models(&self) -> BoxFuture<'_, Result<Vec<String>, LlmError>> {
        Box::pin(async { Ok(Vec::new()) })
    }
}

fn ctx(dir: &Path, model: &str, provider: Arc<Scripted>) -> ToolContext {
    let mut session = SessionScope::local("s1", dir.to_path_buf(), Arc::new(DenyAll));
    session.model = Some(SessionModel {
        provider,
        model: model.to_string(),
        api_mode: ApiMode::ChatCompletions,
    });
    ToolContext::new(
        Arc::new(session),
        Arc::new(ToolServices::default()),
        "call-1",
        CancellationToken::new(),
    )
}

fn scripted(answer: &'static str) -> Arc<Scripted> {
    Arc::new(Scripted {
        answer,
        requests: Mutex::new(Vec::new()),
    })
}

fn result(out: &ToolOutput) -> Value {
    serde_json::from_str(&out.content).unwrap()
}

#[tokio::test]
async fn a_vision_session_model_gets_the_prompt_and_the_exact_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = png(4, 4, |_, _| [9, 9, 9, 255]);
    std::fs::write(dir.path().join("shot.png"), &bytes).unwrap();
    let provider = scripted("A grey square.");
    let ctx = ctx(dir.path(), "gpt-4o", provider.clone());
    let out = VisionAnalyzeTool::default()
        .run(&ctx, json!({"image_url": "shot.png", "question": "what colour?"}))
        .await;
    assert!(!out.is_error, "{}", out.content);
    assert_eq!(result(&out), json!({"success": true, "analysis": "A grey square."}));
    let requests = provider.requests.lock().unwrap();
    let request = &requests[0];
    assert_eq!(request.model, "gpt-4o");
    assert_eq!(request.max_tokens, Some(2000));
    assert_eq!(
        request.messages[0].parts,
        vec![
            Part::Text {
                text: format!("{PROMPT}what colour?")
            },
            Part::Image {
                url: data_url("image/png", &bytes)
            },
        ]
    );
}

#[tokio::test]
async fn without_a_vision_model_the_call_says_how_to_configure_one() {
    let dir = tempfile::tempdir().unwrap();
    let provider = scripted("unused");
    let ctx = ctx(dir.path(), "mock-model", provider.clone());
    let out = VisionAnalyzeTool::default()
        .run(&ctx, json!({"image_url": "a.png", "question": "?"}))
        .await;
    assert!(out.is_error);
    let error = result(&out)["error"].as_str().unwrap().to_string();
    assert!(error.contains("auxiliary.vision"), "{error}");
    assert!(provider.requests.lock().unwrap().is_empty());
    assert!(!VisionAnalyzeTool::default().offered(&Offer {
        services: &ToolServices::default(),
        client: Default::default(),
    }));
}

#[tokio::test]
async fn bad_sources_fail_before_the_model_is_asked() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".env"), "KEY=secret").unwrap();
    std::fs::write(dir.path().join("notes.png"), "plain text").unwrap();
    let provider = scripted("unused");
    let ctx = ctx(dir.path(), "claude-sonnet-4", provider.clone());
    for (image_url, expected) in [
        (".env", "secret-bearing"),
        ("notes.png", "not a recognized image"),
        ("missing.png", "image file not found"),
        ("http://127.0.0.1:9/a.png", "web.allow_private"),
        ("gopher://x/a.png", "Unrecognized image source scheme"),
    ] {
        let out = VisionAnalyzeTool::default()
            .run(&ctx, json!({"image_url": image_url, "question": "?"}))
            .await;
        let value = result(&out);
        assert!(out.is_error && value["success"] == false, "{image_url}: {value}");
        let error = value["error"].as_str().unwrap();
        assert!(
            error.starts_with("Error analyzing image: ") && error.contains(expected),
            "{image_url}: {error}"
        );
        assert!(value["analysis"].as_str().unwrap().contains(expected), "{value}");
    }
    assert!(provider.requests.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_cancelled_call_is_interrupted() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.png"), png(2, 2, |_, _| [0; 4])).unwrap();
    let ctx = ctx(dir.path(), "gpt-4o", scripted("unused"));
    ctx.cancel.cancel();
    let out = VisionAnalyzeTool::default()
        .run(&ctx, json!({"image_url": "a.png", "question": "?"}))
        .await;
    assert_eq!(result(&out), json!({"error": "Interrupted", "success": false}));
}

#[test]
fn the_card_names_the_question_and_the_local_image() {
    let cwd = Path::new("/p");
    let card = VisionAnalyzeTool::default().present(&json!({"image_url": "img/a.png", "question": "what?"}), cwd);
    assert_eq!(card.title, "Analyze image img/a.png \u{2014} what?");
    assert_eq!(card.kind, describe::ToolKind::Read);
    assert_eq!(card.locations[0].path, Path::new("/p/img/a.png"));
    let card = VisionAnalyzeTool::default().present(&json!({"image_url": "https://x.org/a.png", "question": "q"}), cwd);
    assert_eq!((card.kind, card.locations.len()), (describe::ToolKind::Fetch, 0));
    assert_eq!(
        VisionAnalyzeTool::default()
            .brief(&json!({"image_url": "data:image/png;base64,AAAA"}))
            .as_deref(),
        Some("analyzed image a data: URL")
    );
    assert_eq!(VisionAnalyzeTool::default().effect(&json!({})), ToolEffect::ReadOnly);
}
