//! The file-system seam. Tools read and write the disk themselves; an editor-backed
//! implementation (in the ACP layer) may serve reads from unsaved buffers and route writes
//! through the editor. `None` means "not handled here, use the disk".

use std::io;
use std::path::Path;

use futures::future::BoxFuture;

/// Optional editor-side file access.
pub trait FileSystem: Send + Sync {
    /// The editor's view of a text file (including unsaved edits), or `None` to read the disk.
    fn read_text<'a>(&'a self, path: &'a Path) -> BoxFuture<'a, Option<io::Result<String>>>;
    /// Writes through the editor, or `None` to write the disk.
    fn write_text<'a>(&'a self, path: &'a Path, content: &'a str) -> BoxFuture<'a, Option<io::Result<()>>>;
}

/// Plain disk access: never handles anything, so tools use their own disk code.
#[derive(Debug, Default, Clone, Copy)]
pub struct LocalFs;

impl FileSystem for LocalFs {
    fn read_text<'a>(&'a self, _path: &'a Path) -> BoxFuture<'a, Option<io::Result<String>>> {
        Box::pin(async { None })
    }

    fn write_text<'a>(&'a self, _path: &'a Path, _content: &'a str) -> BoxFuture<'a, Option<io::Result<()>>> {
        Box::pin(async { None })
    }
}
