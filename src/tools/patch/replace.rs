//! Replace mode: read the file (BOM stripped), run the fuzzy matcher off the async executor,
//! keep the file's CRLF endings, refuse broken JSON/YAML/TOML, ask the user with the whole-file
//! before/after, write (to the site judged, through directory descriptors on disk), re-read
//! to verify, and answer with a unified diff.

use serde_json::{Value, json};

use super::outcome::{Outcome, patch_error, tool_error};
use crate::runtime::file_io::GuardEnv;
use crate::runtime::file_io::beneath::FileMode;
use crate::runtime::file_io::{
    self, EditSite, UTF8_BOM, WriteRoute, detect_line_ending, normalize_line_endings, strip_bom,
};
use crate::runtime::fuzzy::{self, NO_MATCH};
use crate::runtime::{FileChange, ToolContext, ToolDisplay};

pub(super) async fn run(guard: &GuardEnv, ctx: &ToolContext, args: &Value, raw_path: Option<&str>) -> Outcome {
    let Some(raw_path) = raw_path else {
        return tool_error("path required");
    };
    let (old, new) = match (args.get("old_string"), args.get("new_string")) {
        (Some(Value::String(old)), Some(Value::String(new))) => (old.clone(), new.clone()),
        (None | Some(Value::Null), _) | (_, None | Some(Value::Null)) => {
            return tool_error("old_string and new_string required");
        }
        _ => return tool_error("old_string and new_string must be strings"),
    };
    let replace_all = crate::runtime::args::boolean(args, "replace_all", false);
    let path = ctx.session.workspace.resolve(raw_path);
    let shown = file_io::display_path(&path);

    if let Some(e) = file_io::write_denied_error(guard, &path, "Write") {
        return patch_error(e);
    }
    // Resolved once: what is read, judged and written is this one site.
    let site = file_io::EditSite::for_write(ctx, path.clone());
    let mut content = match file_io::read_site(ctx, &site).await {
        Ok(Some(raw)) => raw,
        Ok(None) | Err(_) => return patch_error(format!("Failed to read file: {shown}")),
    };
    // The file's conventions live in its BOM and first lines; keep just those, not a second copy.
    let had_bom = strip_bom(&content).1;
    if had_bom {
        content.drain(..UTF8_BOM.len_utf8());
    }
    let template = format!("{}{}", if had_bom { "\u{feff}" } else { "" }, head(&content));

    // Matching can be slow on big files with the fuzzy strategies: keep it off the executor.
    let job = tokio::task::spawn_blocking(move || {
        let result = fuzzy::find_and_replace(&content, &old, &new, replace_all);
        let hint = match &result {
            Err(e) if e == NO_MATCH => fuzzy::did_you_mean(&old, &content),
            _ => String::new(),
        };
        (result, hint, content)
    });
    let (result, hint, content) = match job.await {
        Ok(done) => done,
        Err(e) => return patch_error(format!("Matching failed: {e}")),
    };
    let mut new_content = match result {
        Ok(done) => done.content,
        Err(e) => return patch_error(format!("{e}{hint}")),
    };
    // Models send LF; a CRLF file stays CRLF everywhere, including the replaced region.
    if detect_line_ending(&content) == Some("\r\n") {
        new_content = normalize_line_endings(&new_content, "\r\n");
    }
    if let Err(e) = file_io::syntax_gate(&path, &new_content) {
        return patch_error(format!("Failed to write changes: {e}"));
    }
    if let Err(e) = file_io::request_edit_approval(ctx, "patch", &site, Some(&content), &new_content, args).await {
        return tool_error(e);
    }
    let final_text = file_io::preserve_conventions(Some(&template), new_content.as_str());
    ctx.session.checkpoints.before_change().await;
    match file_io::write_site(ctx, &site, final_text, FileMode::Keep).await {
        Err(e) => return patch_error(format!("Failed to write changes: Failed to write file: {e}")),
        // The atomic disk write either landed whole or failed; an editor may have done otherwise.
        Ok(WriteRoute::Disk) => {}
        Ok(WriteRoute::Editor) => {
            if let Err(e) = verify(ctx, &site, &new_content).await {
                return patch_error(e);
            }
        }
    }

    let diff = file_io::unified_diff(&content, &new_content, &format!("a/{shown}"), &format!("b/{shown}"));
    let mut result = json!({
        "success": true,
        "files_modified": [shown],
        "lint": file_io::lint_report(&path, &new_content),
        "resolved_path": shown,
    });
    if !diff.is_empty() {
        result["diff"] = json!(diff);
    }
    let change = FileChange {
        path,
        old_text: Some(content),
        new_text: Some(new_content),
    };
    Outcome::Done(result, ToolDisplay::Changes(vec![change]))
}

/// Re-reads the file and checks the intended text landed (line endings and BOM aside).
async fn verify(ctx: &ToolContext, site: &EditSite, intended: &str) -> Result<(), String> {
    let shown = site.path.display();
    let Ok(Some(back)) = file_io::read_site(ctx, site).await else {
        return Err(format!("Post-write verification failed: could not re-read {shown}"));
    };
    let lf = |t: &str| normalize_line_endings(strip_bom(t).0, "\n");
    let (back, intended) = (lf(&back), lf(intended));
    if back != intended {
        return Err(format!(
            "Post-write verification failed for {shown}: on-disk content differs from intended write (wrote {} \
             chars, read back {} chars after normalizing line endings). The patch did not persist. Re-read the file \
             and try again.",
            intended.chars().count(),
            back.chars().count()
        ));
    }
    Ok(())
}

/// The first 4 KiB of `text` (on a char boundary): enough to judge its line endings.
fn head(text: &str) -> &str {
    let mut end = text.len().min(4096);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}
