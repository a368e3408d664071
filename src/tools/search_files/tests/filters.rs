//! What is searched: ignore files, hidden and binary files, globs, mtime order, secrets.

use super::*;

/// The fixture's parent is a `GIT_CEILING_DIRECTORIES` boundary, so whatever lies above the
/// temp dir (a `.git` in /tmp, a repository around TMPDIR) cannot change the answer.
#[test]
fn gitignore_applies_inside_git_repos_like_rg() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".gitignore", "ignored.txt\nbuild/\n");
    write(dir.path(), "ignored.txt", "needle\n");
    write(dir.path(), "build/out.txt", "needle\n");
    write(dir.path(), "kept.txt", "needle\n");
    write(dir.path(), "sub/.ignore", "private.txt\n");
    write(dir.path(), "sub/private.txt", "needle\n");
    let ceiling = dir.path().parent().unwrap().to_path_buf();
    let files = |names: bool, pattern: &str| {
        let mut params = params(dir.path(), pattern);
        params.names = names;
        params.git_ceilings = vec![ceiling.clone()];
        let outcome = super::super::execute(&params, &CancellationToken::new())
            .unwrap()
            .unwrap();
        outcome.to_json()["files"].clone()
    };
    // Not a repository: rg ignores .gitignore, but .ignore files always apply.
    assert_eq!(
        files(false, "needle"),
        json!(["build/out.txt", "ignored.txt", "kept.txt"])
    );
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    assert_eq!(files(false, "needle"), json!(["kept.txt"]));
    assert_eq!(files(true, "*.txt"), json!(["kept.txt"]));
}

#[test]
fn a_repository_is_looked_for_up_to_the_ceiling_and_not_beyond() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "outer/.gitignore", "ignored.txt\n");
    std::fs::create_dir(dir.path().join("outer/.git")).unwrap();
    write(dir.path(), "outer/inner/ignored.txt", "needle\n");
    write(dir.path(), "outer/inner/kept.txt", "needle\n");
    let inner = dir.path().join("outer/inner");
    let search = |ceilings: Vec<std::path::PathBuf>| {
        let mut params = params(&inner, "needle");
        params.git_ceilings = ceilings;
        let outcome = super::super::execute(&params, &CancellationToken::new())
            .unwrap()
            .unwrap();
        outcome.to_json()["files"].clone()
    };
    // The repository above the root counts, as in rg and git.
    assert_eq!(search(Vec::new()), json!(["kept.txt"]));
    assert_eq!(search(vec![dir.path().to_path_buf()]), json!(["kept.txt"]));
    // A ceiling between them hides it, as `git status` would.
    assert_eq!(
        search(vec![dir.path().join("outer")]),
        json!(["ignored.txt", "kept.txt"])
    );
}

#[tokio::test]
async fn hidden_files_and_binary_files_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".hidden.txt", "needle\n");
    write(dir.path(), ".config/settings.txt", "needle\n");
    write(dir.path(), "visible.txt", "needle\n");
    std::fs::write(dir.path().join("blob.dat"), b"\x00\x01needle\n").unwrap();
    let ctx = test_ctx(dir.path());
    let (value, _, _) = search(&ctx, json!({"pattern": "needle", "output_mode": "files_only"})).await;
    assert_eq!(value["files"], json!(["visible.txt"]));
    // `find` is the alias of `files`; hidden files are skipped there too.
    let (value, _, _) = search(&ctx, json!({"pattern": "*", "target": "find"})).await;
    let mut files: Vec<String> = value["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    files.sort();
    assert_eq!(files, ["blob.dat", "visible.txt"]);
}

#[tokio::test]
async fn file_glob_filters_content_search() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "src/lib.rs", "needle\n");
    write(dir.path(), "src/notes.md", "needle\n");
    write(dir.path(), "deep/er/mod.rs", "needle\n");
    let ctx = test_ctx(dir.path());
    let (value, _, _) = search(
        &ctx,
        json!({"pattern": "needle", "file_glob": "*.rs", "output_mode": "files_only"}),
    )
    .await;
    assert_eq!(value["files"], json!(["deep/er/mod.rs", "src/lib.rs"]));
    let (value, _, is_error) = search(&ctx, json!({"pattern": "needle", "file_glob": "{unclosed"})).await;
    assert!(is_error);
    assert!(
        value["error"]
            .as_str()
            .unwrap()
            .starts_with("Search failed: invalid file_glob '{unclosed'")
    );
}

#[tokio::test]
async fn file_search_is_sorted_newest_first() {
    let dir = tempfile::tempdir().unwrap();
    for (name, age) in [
        ("old.txt", 300),
        ("new.txt", 10),
        ("mid.txt", 100),
        ("x.rs", 1),
        ("sub/deep.txt", 50),
    ] {
        write(dir.path(), name, "x\n");
        set_mtime(dir.path(), name, age);
    }
    let ctx = test_ctx(dir.path());
    let (value, _, _) = search(&ctx, json!({"pattern": "*.txt", "target": "files"})).await;
    assert_eq!(
        value,
        json!({"total_count": 4, "files": ["new.txt", "sub/deep.txt", "mid.txt", "old.txt"]})
    );
    // A bare name becomes `*<name>` and matches at any depth.
    let (value, _, _) = search(&ctx, json!({"pattern": "deep.txt", "target": "files"})).await;
    assert_eq!(value["files"], json!(["sub/deep.txt"]));
    // Paging keeps the order.
    let (value, hint, _) = search(
        &ctx,
        json!({"pattern": "*.txt", "target": "files", "offset": 1, "limit": 2}),
    )
    .await;
    assert_eq!(
        value,
        json!({"total_count": 4, "files": ["sub/deep.txt", "mid.txt"], "truncated": true})
    );
    assert!(hint.unwrap().contains("offset=3"));
}

#[tokio::test]
async fn secret_roots_are_refused_and_secret_paths_filtered() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".env", "KEY=1\n");
    let (value, _, is_error) = search(&test_ctx(dir.path()), json!({"pattern": "KEY", "path": ".env"})).await;
    assert!(is_error);
    assert!(
        value["error"]
            .as_str()
            .unwrap()
            .contains("secret-bearing environment file")
    );
    let deny = DenyList::new(None);
    assert!(crate::tools::search_files::walk::is_denied(
        &deny,
        Path::new("/p/.env.local")
    ));
    assert!(!crate::tools::search_files::walk::is_denied(
        &deny,
        Path::new("/p/.env.example")
    ));
}

#[tokio::test]
async fn without_a_path_every_project_folder_is_searched_once() {
    let app = tempfile::tempdir().unwrap();
    let lib = tempfile::tempdir().unwrap();
    write(app.path(), "src/main.rs", "fn needle() {}\n");
    write(lib.path(), "src/lib.rs", "pub fn needle() {}\n");
    let ctx = test_ctx(app.path());
    // The cwd listed again and a folder inside it are walked once.
    ctx.session.workspace.set_additional(vec![
        lib.path().to_path_buf(),
        app.path().to_path_buf(),
        app.path().join("src"),
    ]);
    let (result, _, _) = search(&ctx, json!({"pattern": "needle", "output_mode": "files_only"})).await;
    let lib_file = lib.path().join("src/lib.rs").display().to_string();
    // Newest first (Hermes' order): compare as a set.
    let mut files: Vec<String> = serde_json::from_value(result["files"].clone()).unwrap();
    files.sort();
    let mut expected = vec!["src/main.rs".to_string(), lib_file];
    expected.sort();
    assert_eq!(files, expected, "{result}");
    let (result, _, _) = search(&ctx, json!({"pattern": "*.rs", "target": "files"})).await;
    assert_eq!(result["total_count"], 2, "{result}");
    // A path names exactly what is searched.
    let (result, _, _) = search(
        &ctx,
        json!({"pattern": "needle", "path": "src", "output_mode": "files_only"}),
    )
    .await;
    assert_eq!(result["files"], json!(["src/main.rs"]));
    let shown = lib.path().display().to_string();
    let (result, _, _) = search(
        &ctx,
        json!({"pattern": "needle", "path": shown, "output_mode": "count"}),
    )
    .await;
    assert_eq!(result["total_count"], 1, "{result}");
}
