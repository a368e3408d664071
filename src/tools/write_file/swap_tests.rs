//! The edit tools when the disk changes between the check and the write: a directory of the
//! project swapped for a symlink to outside while the user is asked (every tool, every V4A
//! operation), the same swap racing hundreds of `write_file` calls, and symlinks as the final
//! name. Nothing outside the project ever changes; a write lands inside or fails saying the path
//! changed.

use std::os::unix::fs::symlink;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value, json};

use crate::runtime::file_io::test_support::{AskHook, json_of, names, test_ctx, test_guard};
use crate::runtime::{Tool, ToolOutput};
use crate::tools::patch::PatchTool;
use crate::tools::write_file::WriteFileTool;

/// `project/d/a.txt` ("inside") and `outside/a.txt` ("outside"), canonical paths.
struct Fixture {
    _dir: tempfile::TempDir,
    project: PathBuf,
    outside: PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let (project, outside) = (base.join("project"), base.join("outside"));
        std::fs::create_dir_all(project.join("d")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(project.join("d/a.txt"), "inside\n").unwrap();
        std::fs::write(outside.join("a.txt"), "outside\n").unwrap();
        Fixture {
            _dir: dir,
            project,
            outside,
        }
    }

    /// Approves edits inside the project, but first moves `d` aside and puts a link to
    /// `outside` in its place (once).
    fn swapping_approver(&self) -> Arc<AskHook> {
        let (project, outside) = (self.project.clone(), self.outside.clone());
        Arc::new(AskHook {
            project: self.project.clone(),
            on_ask: Box::new(move || {
                let d = project.join("d");
                if !d.is_symlink() {
                    std::fs::rename(&d, project.join("d.real")).unwrap();
                    symlink(&outside, &d).unwrap();
                }
            }),
        })
    }

    async fn run(&self, tool: &dyn Tool, args: Value) -> ToolOutput {
        tool.run(&test_ctx(&self.project, self.swapping_approver()), args).await
    }

    /// Outside holds only its own file, unchanged; the real `d` holds only its own, unchanged.
    fn assert_untouched(&self) {
        assert_eq!(names(&self.outside), ["a.txt"]);
        assert_eq!(
            std::fs::read_to_string(self.outside.join("a.txt")).unwrap(),
            "outside\n"
        );
        let real = self.project.join("d.real");
        assert_eq!(names(&real), ["a.txt"]);
        assert_eq!(std::fs::read_to_string(real.join("a.txt")).unwrap(), "inside\n");
    }
}

fn error_of(out: &ToolOutput) -> String {
    assert!(out.is_error, "{}", out.content);
    json_of(out)["error"].as_str().unwrap_or_default().to_string()
}

fn patch_tool(f: &Fixture) -> PatchTool {
    PatchTool::with_guard(test_guard(&f.project))
}

#[tokio::test]
async fn write_file_and_replace_do_not_follow_a_directory_swapped_after_the_check() {
    let f = Fixture::new();
    let writer = WriteFileTool::with_guard(test_guard(&f.project));
    let out = f.run(&writer, json!({"path": "d/new.txt", "content": "pwned\n"})).await;
    let link = f.project.join("d").display().to_string();
    assert_eq!(
        error_of(&out),
        format!("Failed to write file: the path changed while writing: {link} is a symbolic link; nothing was written")
    );
    f.assert_untouched();

    let f = Fixture::new();
    let args = json!({"path": "d/a.txt", "old_string": "inside", "new_string": "pwned"});
    let error = error_of(&f.run(&patch_tool(&f), args).await);
    assert!(error.contains("the path changed while writing: "), "{error}");
    f.assert_untouched();
}

#[tokio::test]
async fn v4a_updates_deletes_and_moves_fail_cleanly_through_a_swapped_directory() {
    let cases = [
        ("*** Update File: d/a.txt\n-inside\n+pwned\n", "writing"),
        ("*** Add File: d/b.txt\n+pwned\n", "writing"),
        ("*** Delete File: d/a.txt\n", "deleting"),
        ("*** Move File: d/a.txt -> moved.txt\n", "moving"),
        (
            "*** Update File: d/a.txt\n*** Move to: moved.txt\n-inside\n+changed\n",
            "moving",
        ),
    ];
    for (patch, doing) in cases {
        let f = Fixture::new();
        let out = f.run(&patch_tool(&f), json!({"mode": "patch", "patch": patch})).await;
        let error = error_of(&out);
        assert!(
            error.starts_with("Apply phase failed; the files already written were restored"),
            "{patch}: {error}"
        );
        assert!(
            error.contains(&format!("the path changed while {doing}: ")),
            "{patch}: {error}"
        );
        f.assert_untouched();
        assert!(!f.project.join("moved.txt").exists(), "{patch}");
    }

    // A move whose destination directory is swapped: the source stays where it was.
    let f = Fixture::new();
    std::fs::write(f.project.join("top.txt"), "top\n").unwrap();
    let out = f
        .run(
            &patch_tool(&f),
            json!({"mode": "patch", "patch": "*** Move File: top.txt -> d/top.txt\n"}),
        )
        .await;
    assert!(
        error_of(&out).contains("the path changed while moving: "),
        "{}",
        out.content
    );
    assert_eq!(std::fs::read_to_string(f.project.join("top.txt")).unwrap(), "top\n");
    f.assert_untouched();
}

#[tokio::test]
async fn a_write_racing_a_flipping_directory_lands_inside_or_fails_cleanly() {
    use rustix::fs::{RenameFlags, renameat_with};
    let f = Fixture::new();
    symlink(&f.outside, f.project.join("d.alt")).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let handle = std::fs::File::open(&f.project).unwrap();
    let flag = Arc::clone(&stop);
    let flipper = std::thread::spawn(move || {
        let mut flips = 0u64;
        while !flag.load(Ordering::Relaxed) {
            renameat_with(&handle, "d", &handle, "d.alt", RenameFlags::EXCHANGE).unwrap();
            flips += 1;
        }
        flips
    });
    // Asks for every edit (default mode) and approves only what was judged inside the project.
    let approver = Arc::new(AskHook {
        project: f.project.clone(),
        on_ask: Box::new(|| {}),
    });
    let ctx = test_ctx(&f.project, approver);
    let writer = WriteFileTool::with_guard(test_guard(&f.project));
    let mut landed = Vec::new();
    for i in 0..300 {
        let name = format!("w{i:03}.txt");
        let out = writer
            .run(&ctx, json!({"path": format!("d/{name}"), "content": format!("{i}\n")}))
            .await;
        if !out.is_error {
            landed.push(name);
            continue;
        }
        let error = json_of(&out)["error"].as_str().unwrap().to_string();
        assert!(
            error == crate::runtime::file_io::EDIT_DENIED || error.contains("the path changed while "),
            "a write failed for another reason: {error}"
        );
    }
    stop.store(true, Ordering::Relaxed);
    assert!(flipper.join().unwrap() > 0);
    let real = ["d", "d.alt"]
        .map(|n| f.project.join(n))
        .into_iter()
        .find(|p| !p.is_symlink());
    let real = real.unwrap();
    assert_eq!(names(&f.outside), ["a.txt"], "nothing was written outside");
    let mut expected = landed.clone();
    expected.push("a.txt".into());
    expected.sort();
    assert_eq!(
        names(&real),
        expected,
        "every write that succeeded is inside, and only those"
    );
    for name in &landed {
        let i: usize = name[1..4].parse().unwrap();
        assert_eq!(std::fs::read_to_string(real.join(name)).unwrap(), format!("{i}\n"));
    }
}

#[tokio::test]
async fn a_final_symlink_is_followed_when_it_resolves_and_refused_when_it_dangles() {
    let f = Fixture::new();
    let writer = WriteFileTool::with_guard(test_guard(&f.project));
    let ctx = test_ctx(
        &f.project,
        Arc::new(AskHook {
            project: f.project.clone(),
            on_ask: Box::new(|| {}),
        }),
    );
    symlink("d/a.txt", f.project.join("alias")).unwrap();
    let out = writer
        .run(&ctx, json!({"path": "alias", "content": "via alias\n"}))
        .await;
    assert!(!out.is_error, "{}", out.content);
    assert!(f.project.join("alias").is_symlink(), "the link stays");
    assert_eq!(
        std::fs::read_to_string(f.project.join("d/a.txt")).unwrap(),
        "via alias\n"
    );

    let missing = f.outside.join("made-by-the-link.txt");
    symlink(&missing, f.project.join("dangling")).unwrap();
    let out = writer.run(&ctx, json!({"path": "dangling", "content": "x\n"})).await;
    let error = error_of(&out);
    assert!(error.contains("is a symbolic link (to "), "{error}");
    assert!(!missing.exists(), "a dangling link's target is never created");
    assert!(f.project.join("dangling").is_symlink(), "nor is the link replaced");
}
