//! Refusals (binary, devices, FIFOs, secrets), missing-file suggestions, path resolution and
//! the editor overlay.

use super::*;

#[tokio::test]
async fn binary_content_and_binary_extensions_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "blob.bin2", b"abc\x00def\n");
    write(dir.path(), "img.png", b"not really a png");
    let ctx = test_ctx(dir.path());
    let (value, is_error) = read(&ctx, json!({"path": "blob.bin2"})).await;
    assert!(is_error);
    assert_eq!(value["is_binary"], true);
    assert_eq!(value["file_size"], 8);
    assert_eq!(
        value["error"],
        "Binary file - cannot display as text. Use appropriate tools to handle this file type."
    );
    let (value, is_error) = read(&ctx, json!({"path": "img.png"})).await;
    assert!(is_error);
    assert_eq!(
        value,
        json!({"error": "Cannot read binary file 'img.png' (.png). Use vision_analyze for images, or terminal to inspect binary files."})
    );
}

#[tokio::test]
async fn device_paths_and_fifos_are_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = test_ctx(dir.path());
    for device in ["/dev/zero", "/dev/urandom", "/dev/stdin", "/dev/fd/0"] {
        let (value, is_error) = read(&ctx, json!({"path": device})).await;
        assert!(is_error);
        assert_eq!(
            value["error"],
            format!("Cannot read '{device}': this is a device file that would block or produce infinite output.")
        );
    }
    // A symlink to a device is caught through its target.
    let link = dir.path().join("zero-link");
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    let (value, _) = read(&ctx, json!({"path": "zero-link"})).await;
    assert!(value["error"].as_str().unwrap().contains("device file"));

    // A FIFO with no writer would block open(); it must be refused by stat alone.
    let fifo = dir.path().join("pipe");
    let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    let (value, is_error) = tokio::time::timeout(Duration::from_secs(5), read(&ctx, json!({"path": "pipe"})))
        .await
        .expect("reading a FIFO must not block");
    assert!(is_error);
    assert!(value["error"].as_str().unwrap().contains("not a regular file"));

    let (value, is_error) = read(&ctx, json!({"path": "."})).await;
    assert!(is_error);
    assert!(value["error"].as_str().unwrap().contains("is a directory"));
}

#[tokio::test]
async fn missing_files_suggest_similar_names() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["config.yaml", "main.rs", "README.md", "zzz.txt"] {
        write(dir.path(), &format!("src/{name}"), b"x\n");
    }
    let ctx = test_ctx(dir.path());
    let (value, is_error) = read(&ctx, json!({"path": "src/config.yml"})).await;
    assert!(is_error);
    assert_eq!(value["error"], "File not found: src/config.yml");
    assert_eq!(value["similar_files"][0], "src/config.yaml");
    assert_eq!(value["content"], "");
    assert_eq!(value["is_binary"], false);
    // A typo is found by edit distance.
    let (value, _) = read(&ctx, json!({"path": "src/mian.rs"})).await;
    assert_eq!(value["similar_files"][0], "src/main.rs");
    assert!(
        !value["similar_files"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v == "src/zzz.txt")
    );
    // Nothing similar: no similar_files key at all.
    let (value, _) = read(&ctx, json!({"path": "src/qqqqqqqq"})).await;
    assert!(value.get("similar_files").is_none());
    // A missing directory is just "not found".
    let (value, _) = read(&ctx, json!({"path": "nope/file.txt"})).await;
    assert_eq!(value["error"], "File not found: nope/file.txt");
}

#[tokio::test]
async fn relative_paths_resolve_against_the_session_workspace() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "nested/deep/file.txt", b"workspace copy\n");
    let ctx = test_ctx(dir.path());
    let (value, _) = read(&ctx, json!({"path": "nested/deep/file.txt"})).await;
    assert_eq!(value["content"], "1|workspace copy");
    let (value, _) = read(&ctx, json!({"path": "./nested/../nested/deep/file.txt"})).await;
    assert_eq!(value["content"], "1|workspace copy");
    let absolute = dir.path().join("nested/deep/file.txt");
    let (value, _) = read(&ctx, json!({"path": absolute.to_str().unwrap()})).await;
    assert_eq!(value["content"], "1|workspace copy");
}

/// Serves one path from "the editor", like an unsaved buffer.
struct EditorFs {
    path: PathBuf,
    text: String,
}

impl FileSystem for EditorFs {
    fn read_text<'a>(&'a self, path: &'a Path) -> BoxFuture<'a, Option<std::io::Result<String>>> {
        Box::pin(async move { (path == self.path).then(|| Ok(self.text.clone())) })
    }

    fn write_text<'a>(&'a self, _: &'a Path, _: &'a str) -> BoxFuture<'a, Option<std::io::Result<()>>> {
        Box::pin(async { None })
    }
}

#[tokio::test]
async fn editor_buffers_win_over_the_disk_inside_the_workspace() {
    let dir = tempfile::tempdir().unwrap();
    let on_disk = write(dir.path(), "doc.txt", b"saved text\n");
    let fs = Arc::new(EditorFs {
        path: on_disk.clone(),
        text: "unsaved edit\nline two\n".into(),
    });
    let ctx = ctx_with_fs(dir.path(), fs);
    let (value, is_error) = read(&ctx, json!({"path": "doc.txt"})).await;
    assert!(!is_error);
    assert_eq!(value["content"], "1|unsaved edit\n2|line two");
    assert_eq!(value["file_size"], 22);

    // An unsaved new buffer that is not on disk yet is readable too.
    let unsaved = dir.path().join("new.txt");
    let ctx = ctx_with_fs(
        dir.path(),
        Arc::new(EditorFs {
            path: unsaved,
            text: "fresh\n".into(),
        }),
    );
    let (value, _) = read(&ctx, json!({"path": "new.txt"})).await;
    assert_eq!(value["content"], "1|fresh");

    // Outside the workspace the editor is not asked.
    let other = tempfile::tempdir().unwrap();
    let outside = write(other.path(), "x.txt", b"disk\n");
    let ctx = ctx_with_fs(
        dir.path(),
        Arc::new(EditorFs {
            path: outside.clone(),
            text: "editor\n".into(),
        }),
    );
    let (value, _) = read(&ctx, json!({"path": outside.to_str().unwrap()})).await;
    assert_eq!(value["content"], "1|disk");
}

#[tokio::test]
async fn env_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".env", b"SECRET=1\n");
    write(dir.path(), ".env.example", b"SECRET=\n");
    let ctx = test_ctx(dir.path());
    let (value, is_error) = read(&ctx, json!({"path": ".env"})).await;
    assert!(is_error);
    assert!(
        value["error"]
            .as_str()
            .unwrap()
            .contains("secret-bearing environment file")
    );
    let (value, is_error) = read(&ctx, json!({"path": ".env.example"})).await;
    assert!(!is_error);
    assert_eq!(value["content"], "1|SECRET=");
}

#[tokio::test]
async fn the_configured_hermes_home_is_the_one_protected() {
    // HERMES_HOME comes from the configuration (`ToolServices`), never the process environment.
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("custom-home");
    write(&home, "auth.json", b"{}\n");
    let mut ctx = test_ctx(dir.path());
    let (_, is_error) = read(&ctx, json!({"path": "custom-home/auth.json"})).await;
    assert!(!is_error, "not a Hermes home unless configured");
    ctx.services = Arc::new(crate::runtime::ToolServices {
        hermes_home: Some(home),
        ..Default::default()
    });
    let (value, is_error) = read(&ctx, json!({"path": "custom-home/auth.json"})).await;
    assert!(is_error);
    assert!(value["error"].as_str().unwrap().contains("credential store"), "{value}");
}

#[tokio::test]
async fn missing_path_argument_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let (value, is_error) = read(&test_ctx(dir.path()), json!({"offset": 2})).await;
    assert!(is_error);
    assert_eq!(value, json!({"error": "read_file: missing required field 'path'"}));
}
