//! What a restore does, decided before anything is touched: the paths that differ between a
//! checkpoint and the folder now, each mapped to the file it stands for (`files/…` to the
//! folder's files, metadata under `.git/<key>/…` back to `<repo>/.git/…`), with the
//! checkpoint's content, mode and permission bits, plus the files whose permissions alone a
//! command changed. A file the checkpoint did not contain is removed only when the checkpoint
//! could have seen it: never inside a folder it skipped as regenerable, never a path it left
//! out, never past the count cap's cutoff, and never for checkpoints of earlier versions, which
//! recorded none of this.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::CheckpointError;
use super::import::FILES;
use super::meta;
use super::modes::Modes;
use super::shadow::{Change, ChangeKind, Records, Shadow};
use super::walk::{path_from_bytes, permission_bits, walk_order};

const GITLINK: u32 = 0o160000;

/// One file to put back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The file, relative to the session folder.
    pub rel: Vec<u8>,
    pub kind: ChangeKind,
    /// The checkpoint's git mode.
    pub mode: u32,
    /// The checkpoint's content; `None` for a file to remove.
    pub content: Option<Vec<u8>>,
    /// Git metadata: written to the disk, never through the editor.
    pub metadata: bool,
    /// The permission bits the file gets once written; `None` where the checkpoint knows only
    /// the executable bit (earlier versions; git metadata).
    pub perms: Option<u32>,
}

/// Everything a restore will do, and what it will leave alone.
#[derive(Debug, Default)]
pub struct Plan {
    pub steps: Vec<Step>,
    /// Files the checkpoint did not contain and could not see: left as they are.
    pub kept: Vec<String>,
    /// Paths the restore refuses to write (why, per path).
    pub refused: Vec<String>,
    /// Files whose content is as checkpointed but whose permission bits a command changed.
    pub permissions: Vec<(Vec<u8>, u32)>,
    /// (the shadow repository, the folder) when the checkpoint held the folder's own
    /// repository: its kept object files missing from `.git` go back (`objects_back.rs`).
    pub own_objects: Option<(PathBuf, PathBuf)>,
}

/// Where a tree path leads.
#[derive(Debug, PartialEq, Eq)]
enum Place {
    Work(Vec<u8>),
    Metadata(Vec<u8>),
    /// Git hooks or configuration: recreated where missing, never written over or removed.
    CreateOnly(Vec<u8>),
    /// One of the snapshot's own records.
    Record,
    Refused(&'static str),
}

/// Plans putting the folder of `home`'s shadow `cwd` back to `commit`.
pub fn plan(home: &Path, cwd: &Path, commit: &str) -> Result<Plan, CheckpointError> {
    let shadow = Shadow::open(home, cwd)?;
    let current = shadow.current()?;
    let records = shadow.records(commit)?;
    let changes = shadow.changes(commit, &current, records.is_some())?;
    let mut plan = Plan::default();
    let own_head = format!(
        "{commit}:{}/{}/HEAD",
        meta::ENTRY,
        meta::encode_key(meta::ENTRY.as_bytes())
    );
    if shadow.exist(&[own_head.as_str()])?.first() == Some(&true) {
        plan.own_objects = Some((shadow.dir().to_path_buf(), shadow.work_tree().to_path_buf()));
    }
    let mut wanted: Vec<(Change, Vec<u8>, bool)> = Vec::new();
    // Hooks and configuration the checkpoint did not hold: removed only with the repository
    // that holds them, when the turn created it.
    let mut added_guarded: Vec<(Change, Vec<u8>)> = Vec::new();
    for change in changes {
        if change.old_mode == GITLINK {
            continue;
        }
        let (rel, metadata) = match place(&change.path, records.is_some()) {
            Place::Work(rel) => (rel, false),
            Place::Metadata(rel) => (rel, true),
            // Hooks and configuration a command changed are left as they are (and listed),
            // never written over.
            Place::CreateOnly(rel) => match change.kind {
                ChangeKind::Deleted => (rel, true),
                ChangeKind::Created => {
                    added_guarded.push((change, rel));
                    continue;
                }
                ChangeKind::Modified => {
                    plan.kept.push(display(&rel));
                    continue;
                }
            },
            Place::Record => continue,
            Place::Refused(why) => {
                plan.refused.push(format!("{}: {why}", display(&change.path)));
                continue;
            }
        };
        if change.kind == ChangeKind::Created && !removable(&rel, metadata, records.as_ref()) {
            plan.kept.push(display(&rel));
            continue;
        }
        wanted.push((change, rel, metadata));
    }
    let keys: Vec<String> = added_guarded
        .iter()
        .map(|(change, _)| format!("{commit}:{}", display(repository_entry(&change.path))))
        .collect();
    let held = shadow.exist(&keys.iter().map(String::as_str).collect::<Vec<_>>())?;
    for ((change, rel), held) in added_guarded.into_iter().zip(held) {
        match held {
            true => plan.kept.push(display(&rel)),
            false => wanted.push((change, rel, true)),
        }
    }
    let blobs: Vec<&str> = wanted
        .iter()
        .filter(|(c, ..)| c.kind != ChangeKind::Created)
        .map(|(c, ..)| c.old_blob.as_str())
        .collect();
    let mut contents = shadow.blobs(&blobs)?.into_iter();
    let modes = records.as_ref().map(|r| &r.modes);
    plan.steps = wanted
        .into_iter()
        .map(|(change, rel, metadata)| {
            let written = change.kind != ChangeKind::Created;
            let regular = !metadata && change.old_mode != 0o120000;
            Step {
                content: written.then(|| contents.next().unwrap_or_default()),
                perms: modes
                    .filter(|_| written && regular)
                    .map(|m| m.of_file(&rel, change.old_mode & 0o111 != 0)),
                rel,
                kind: change.kind,
                mode: change.old_mode,
                metadata,
            }
        })
        .collect();
    if let Some(base) = modes
        && let Some(now) = shadow.records(&current)?.map(|r| r.modes)
        && *base != now
    {
        let mut skip: HashSet<Vec<u8>> = plan.steps.iter().map(|s| s.rel.clone()).collect();
        skip.extend(plan.kept.iter().map(|k| k.as_bytes().to_vec()));
        let candidates: Vec<Vec<u8>> = match base.same_common(&now) {
            true => base.exceptions.keys().chain(now.exceptions.keys()).cloned().collect(),
            false => shadow.files_of(&current)?,
        };
        plan.permissions = permission_fixes(cwd, base, candidates, &skip);
    }
    Ok(plan)
}

/// The files among `candidates` whose permission bits differ from the checkpoint's.
fn permission_fixes(
    cwd: &Path,
    base: &Modes,
    candidates: Vec<Vec<u8>>,
    skip: &HashSet<Vec<u8>>,
) -> Vec<(Vec<u8>, u32)> {
    let mut fixes: Vec<(Vec<u8>, u32)> = candidates
        .into_iter()
        .filter(|p| !skip.contains(p))
        .filter_map(|rel| {
            let meta = std::fs::symlink_metadata(cwd.join(path_from_bytes(&rel))).ok()?;
            let now = permission_bits(&meta);
            let want = base.of_file(&rel, now & 0o100 != 0);
            (meta.is_file() && now != want).then_some((rel, want))
        })
        .collect();
    fixes.sort();
    fixes.dedup();
    fixes
}

/// Where a tree path leads. Checkpoints of earlier versions (`recorded` false) held only the
/// folder's files, at the top of the tree.
fn place(path: &[u8], recorded: bool) -> Place {
    if !recorded {
        return Place::Work(path.to_vec());
    }
    if let Some(file) = path.strip_prefix(format!("{FILES}/").as_bytes()) {
        return Place::Work(file.to_vec());
    }
    let Some(inside) = path.strip_prefix(format!("{}/", meta::ENTRY).as_bytes()) else {
        return Place::Refused("not a path of the folder");
    };
    let (key, rest) = match memchr::memchr(b'/', inside) {
        Some(i) => (&inside[..i], &inside[i + 1..]),
        None => (inside, &[][..]),
    };
    if meta::RECORDS.iter().any(|r| r.as_bytes() == key) {
        return Place::Record;
    }
    let Some(mut rel) = meta::decode_key(key) else {
        return Place::Refused("not a git directory of this folder");
    };
    if rest.is_empty() {
        return Place::Metadata(rel);
    }
    if rest.split(|b| *b == b'/').any(|p| p == b".." || p.is_empty()) {
        return Place::Refused("not a path of the folder");
    }
    let access = meta::access(&rel, rest);
    rel.push(b'/');
    rel.extend_from_slice(rest);
    match access {
        meta::Access::Free => Place::Metadata(rel),
        meta::Access::CreateOnly => Place::CreateOnly(rel),
        meta::Access::Never => Place::Refused("the folder's own git objects are never restored"),
    }
}

/// The tree entry of the repository a metadata path belongs to: `.git/<key>`.
fn repository_entry(path: &[u8]) -> &[u8] {
    let start = meta::ENTRY.len() + 1;
    match path.get(start..).and_then(|rest| memchr::memchr(b'/', rest)) {
        Some(i) => &path[..start + i],
        None => path,
    }
}

/// Whether a file absent from the checkpoint may be removed: only if the checkpoint would
/// have held it.
fn removable(rel: &[u8], metadata: bool, records: Option<&Records>) -> bool {
    let Some(records) = records else {
        return false;
    };
    let under = |dir: &Vec<u8>| rel == dir.as_slice() || (rel.starts_with(dir) && rel.get(dir.len()) == Some(&b'/'));
    if records.left_out.iter().any(under) {
        return false;
    }
    if metadata {
        return true;
    }
    !records.excluded.iter().any(under)
        && records
            .cutoff
            .as_ref()
            .is_none_or(|c| walk_order(rel, c) != std::cmp::Ordering::Greater)
}

/// A path for people (lossy where it is not UTF-8).
pub fn display(path: &[u8]) -> String {
    String::from_utf8_lossy(path).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_paths_lead_to_files_metadata_or_nowhere() {
        assert_eq!(place(b"files/src/a.rs", true), Place::Work(b"src/a.rs".to_vec()));
        assert_eq!(
            place(b"src/a.rs", false),
            Place::Work(b"src/a.rs".to_vec()),
            "earlier versions"
        );
        assert_eq!(place(b".git/%2Egit/HEAD", true), Place::Metadata(b".git/HEAD".to_vec()));
        assert_eq!(
            place(b".git/sub%2F%2Egit/refs/heads/main", true),
            Place::Metadata(b"sub/.git/refs/heads/main".to_vec())
        );
        assert_eq!(place(b".git/sub%2F%2Egit", true), Place::Metadata(b"sub/.git".to_vec()));
        assert_eq!(place(b".git/left-out", true), Place::Record);
        for (create_only, rel) in [
            (".git/%2Egit/hooks/pre-commit", ".git/hooks/pre-commit"),
            (".git/%2Egit/config", ".git/config"),
            (
                ".git/%2Egit/modules/lib/hooks/post-checkout",
                ".git/modules/lib/hooks/post-checkout",
            ),
            (".git/sub%2F%2Egit/config", "sub/.git/config"),
        ] {
            assert_eq!(
                place(create_only.as_bytes(), true),
                Place::CreateOnly(rel.as_bytes().to_vec())
            );
        }
        assert_eq!(
            place(b".git/sub%2F%2Egit/objects/ab/cdef", true),
            Place::Metadata(b"sub/.git/objects/ab/cdef".to_vec()),
            "a nested repository's objects"
        );
        for refused in [
            ".git/%2Egit/objects/ab/cdef",
            ".git/%2Egit/lfs/objects/ab/cdef",
            ".git/%2Egit/fsmonitor--daemon/cookies/x",
            ".git/%2Egit/refs/../config",
            ".git/%2E%2E%2F%2Egit/HEAD",
            ".git/elsewhere/HEAD",
            "src/a.rs",
        ] {
            assert!(
                matches!(place(refused.as_bytes(), true), Place::Refused(_)),
                "{refused}"
            );
        }
    }

    #[test]
    fn metadata_paths_belong_to_their_repository_entry() {
        assert_eq!(
            repository_entry(b".git/sub%2F%2Egit/hooks/pre-commit"),
            b".git/sub%2F%2Egit"
        );
        assert_eq!(repository_entry(b".git/%2Egit/config"), b".git/%2Egit");
        assert_eq!(repository_entry(b".git/%2Egit"), b".git/%2Egit");
    }

    #[test]
    fn only_files_the_checkpoint_could_see_are_removed() {
        let mut records = Records {
            excluded: vec![b"node_modules".to_vec()],
            left_out: vec![b"big.bin".to_vec(), b"locked".to_vec()],
            cutoff: None,
            modes: Modes::of(&[]),
        };
        assert!(removable(b"new.txt", false, Some(&records)));
        assert!(!removable(b"node_modules/x/y.js", false, Some(&records)));
        assert!(removable(b"node_modules2/x", false, Some(&records)));
        assert!(!removable(b"big.bin", false, Some(&records)));
        assert!(!removable(b"locked/inner", false, Some(&records)));
        assert!(removable(b".git/refs/heads/new", true, Some(&records)));
        assert!(!removable(b"new.txt", false, None), "an earlier version's checkpoint");
        records.cutoff = Some(b"m/z".to_vec());
        assert!(removable(b"a.txt", false, Some(&records)));
        assert!(removable(b"m/a", false, Some(&records)));
        assert!(!removable(b"n/a", false, Some(&records)), "past the cutoff");
        assert!(!removable(b"new.txt", false, Some(&records)), "past the cutoff");
    }
}
