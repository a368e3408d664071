//! Unit tests of restoring: bytes, modes, symlinks, created files removed, text through the
//! file-system seam.

use std::sync::Mutex;

use futures::future::BoxFuture;

use super::*;
use crate::tools::LocalFs;

/// Takes text writes like an editor would (and saves them), recording the paths.
#[derive(Default)]
struct Editor(Mutex<Vec<PathBuf>>);

impl FileSystem for Editor {
    fn read_text<'a>(&'a self, _path: &'a Path) -> BoxFuture<'a, Option<std::io::Result<String>>> {
        Box::pin(async { None })
    }
    fn write_text<'a>(&'a self, path: &'a Path, content: &'a str) -> BoxFuture<'a, Option<std::io::Result<()>>> {
        Box::pin(async move {
            self.0.lock().unwrap().push(path.to_path_buf());
            Some(std::fs::write(path, content))
        })
    }
}

#[tokio::test]
async fn every_kind_of_change_is_put_back_exactly() {
    use std::os::unix::fs::PermissionsExt;
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let root = work.path().canonicalize().unwrap();
    std::fs::write(root.join("text.txt"), "one\r\ntwo\n").unwrap();
    std::fs::write(root.join("run.sh"), "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(root.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(root.join("data.bin"), [0u8, 1, 2, 255]).unwrap();
    std::os::unix::fs::symlink("text.txt", root.join("link")).unwrap();
    let commit = Shadow::open(home.path(), &root).unwrap().snapshot("before").unwrap();

    std::fs::write(root.join("text.txt"), "changed").unwrap();
    std::fs::set_permissions(root.join("run.sh"), std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::remove_file(root.join("data.bin")).unwrap();
    std::fs::remove_file(root.join("link")).unwrap();
    std::fs::create_dir_all(root.join("new/deep")).unwrap();
    std::fs::write(root.join("new/deep/file.txt"), "new").unwrap();

    let editor = Editor::default();
    let (mut restored, failures) = restore(home.path(), &root, &commit, &editor).await.unwrap();
    assert!(failures.is_empty(), "{failures:?}");
    restored.sort_by(|a, b| a.path.cmp(&b.path));
    let got: Vec<(&str, ChangeKind)> = restored.iter().map(|r| (r.path.as_str(), r.kind)).collect();
    assert_eq!(
        got,
        [
            ("data.bin", ChangeKind::Deleted),
            ("link", ChangeKind::Deleted),
            ("new/deep/file.txt", ChangeKind::Created),
            ("run.sh", ChangeKind::Modified),
            ("text.txt", ChangeKind::Modified),
        ]
    );
    assert_eq!(std::fs::read(root.join("text.txt")).unwrap(), b"one\r\ntwo\n");
    assert_eq!(std::fs::read(root.join("data.bin")).unwrap(), [0u8, 1, 2, 255]);
    assert_eq!(std::fs::read_link(root.join("link")).unwrap(), Path::new("text.txt"));
    assert!(!root.join("new/deep/file.txt").exists());
    let mode = std::fs::metadata(root.join("run.sh")).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o755);
    // Text went to the editor (the mode-only change of run.sh too); binary never did.
    let written = editor.0.lock().unwrap().clone();
    assert!(written.contains(&root.join("text.txt")) && !written.contains(&root.join("data.bin")));

    // Nothing left to restore: a second run changes nothing.
    let (again, _) = restore(home.path(), &root, &commit, &LocalFs).await.unwrap();
    assert!(again.is_empty(), "{again:?}");
}
