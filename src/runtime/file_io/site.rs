//! Where an edit lands, decided once and used for everything after: the model's path is
//! resolved to the target the policy judges (`EditTarget.real`), and that same target, rooted
//! in the directory it was judged inside (the canonical project folder — the cwd or an
//! additional one — else `/`), is what the
//! disk reads, writes, deletes and moves go through — by directory descriptors, never by the
//! path string again (`beneath`). The editor's file system (`FileSystem`, when the editor
//! offers `fs/*`) is path-based by protocol: it gets the path as named, as before.

use std::io;
use std::path::PathBuf;

use super::beneath::{
    self, Durability, FileMode, RootedPath, create_dirs_beneath, read_beneath, remove_beneath, rename_beneath,
    write_beneath,
};
use super::{WriteRoute, blocking};
use crate::runtime::ToolContext;
use crate::runtime::permission::{self, FinalLink};
use crate::safety::policy::EditTarget;

/// One file an edit touches: as named, as judged, and as the disk operations reach it.
#[derive(Debug, Clone, PartialEq)]
pub struct EditSite {
    /// The path as the model named it, resolved against the session cwd (results, cards, the
    /// editor's file system).
    pub path: PathBuf,
    /// What the policy decides on.
    pub judged: EditTarget,
    /// `judged.real` below the root it was judged inside: the only path the disk sees.
    pub rooted: RootedPath,
}

impl EditSite {
    /// For writing `path`: a final symlink is followed (the link stays, its target changes).
    pub fn for_write(ctx: &ToolContext, path: PathBuf) -> EditSite {
        EditSite::resolve(ctx, path, FinalLink::Followed)
    }

    /// For deleting or moving away `path`: the final name itself (a link goes, not its target).
    pub fn for_removal(ctx: &ToolContext, path: PathBuf) -> EditSite {
        EditSite::resolve(ctx, path, FinalLink::Kept)
    }

    fn resolve(ctx: &ToolContext, path: PathBuf, final_link: FinalLink) -> EditSite {
        let judged = permission::edit_target(ctx, &path, final_link);
        // Below the project folder it was judged inside (any of the session's), else `/`.
        let (roots, _) = permission::project_roots(ctx);
        let rooted = match roots
            .iter()
            .find(|root| judged.inside_project && judged.real.starts_with(root))
        {
            Some(root) => RootedPath::within(root, &judged.real),
            None => RootedPath::absolute(&judged.real),
        };
        EditSite { path, judged, rooted }
    }

    /// The directory that holds the file, rooted the same way (`None` at the top of the root).
    fn parent(&self) -> Option<RootedPath> {
        RootedPath::new(self.rooted.root(), self.rooted.rel().parent()?)
    }
}

/// The text of the file at `site`: the editor's view first (unsaved buffers), else the disk.
/// `Ok(None)` when it does not exist; text that is not UTF-8 is an `InvalidData` error.
pub async fn read_site(ctx: &ToolContext, site: &EditSite) -> io::Result<Option<String>> {
    read_site_with(ctx, site, false).await
}

/// Like [`read_site`], but text that is not UTF-8 is decoded lossily: for callers that only
/// show the old text (write_file replaces the whole file anyway).
pub async fn read_site_lossy(ctx: &ToolContext, site: &EditSite) -> io::Result<Option<String>> {
    read_site_with(ctx, site, true).await
}

async fn read_site_with(ctx: &ToolContext, site: &EditSite, lossy: bool) -> io::Result<Option<String>> {
    match ctx.session.fs.read_text(&site.path).await {
        Some(Ok(text)) => return Ok(Some(text)),
        Some(Err(e)) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Some(Err(e)) if lossy && e.kind() == io::ErrorKind::InvalidData => {}
        Some(Err(e)) => {
            // The editor could not serve it (e.g. not a buffer it knows): the disk decides.
            tracing::debug!(path = %site.path.display(), error = %e, "editor read failed; using disk");
        }
        None => {}
    }
    let (rooted, shown) = (site.rooted.clone(), site.path.clone());
    let bytes = blocking(move || read_beneath(&rooted).map_err(io::Error::from)).await?;
    let Some(bytes) = bytes else { return Ok(None) };
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Some(text)),
        Err(e) if lossy => Ok(Some(String::from_utf8_lossy(e.as_bytes()).into_owned())),
        Err(_) => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is not valid UTF-8 text", shown.display()),
        )),
    }
}

/// Writes a whole file at `site`: missing parent directories are created below the site's
/// root, then the editor takes the text when it handles writes (by the named path), else the
/// disk gets it atomically below the root. `mode` is the disk file's permission bits (after
/// an editor write only an `Exact` mode is applied).
pub async fn write_site(ctx: &ToolContext, site: &EditSite, content: String, mode: FileMode) -> io::Result<WriteRoute> {
    if let Some(parent) = site.parent() {
        blocking(move || create_dirs_beneath(&parent).map_err(io::Error::from)).await?;
    }
    if let Some(result) = ctx.session.fs.write_text(&site.path, &content).await {
        result?;
        if let FileMode::Exact(_) = mode {
            let rooted = site.rooted.clone();
            blocking(move || {
                beneath::Root::open(rooted.root())?
                    .set_mode(rooted.rel(), mode)
                    .map_err(io::Error::from)
            })
            .await?;
        }
        return Ok(WriteRoute::Editor);
    }
    let rooted = site.rooted.clone();
    blocking(move || write_beneath(&rooted, content.as_bytes(), mode, Durability::Synced).map_err(io::Error::from))
        .await?;
    Ok(WriteRoute::Disk)
}

/// Deletes the file (or link) at `site` on disk; a directory is refused.
pub async fn remove_site(site: &EditSite) -> io::Result<()> {
    let rooted = site.rooted.clone();
    blocking(move || remove_beneath(&rooted, Durability::Synced).map_err(io::Error::from)).await
}

/// Moves the regular file at `from` to `to` on disk: one `renameat` between the two resolved
/// directories (copy and delete across file systems).
pub async fn move_site(from: &EditSite, to: &EditSite) -> io::Result<()> {
    let (from, to) = (from.rooted.clone(), to.rooted.clone());
    blocking(move || rename_beneath(&from, &to, Durability::Synced).map_err(io::Error::from)).await
}

/// The permission bits of the file at `site`, `None` when there is none.
pub async fn site_mode(site: &EditSite) -> io::Result<Option<u32>> {
    let rooted = site.rooted.clone();
    blocking(move || beneath::mode_beneath(&rooted).map_err(io::Error::from)).await
}
