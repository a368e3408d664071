//! The check-then-write race, for real: a thread swaps a directory inside the project with a
//! symlink to a directory outside it (`renameat2(RENAME_EXCHANGE)`, so the name always exists)
//! in a tight loop, while the main thread decides each target the way the edit tools do
//! (`real_path`, inside the project or not) and writes, deletes or moves it hundreds of times.
//! Nothing outside ever changes; every operation lands inside or fails as a changed path.

use std::fs::File;
use std::os::unix::fs::symlink;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;

use crate::runtime::file_io::test_support::names;

use rustix::fs::{RenameFlags, renameat_with};

use super::*;
use crate::runtime::file_io::real_path;

const ROUNDS: usize = 300;

struct Race {
    _dir: tempfile::TempDir,
    project: PathBuf,
    outside: PathBuf,
    stop: Arc<AtomicBool>,
    flipper: Option<JoinHandle<u64>>,
}

impl Race {
    /// `project/d` (a directory) and `project/d.alt` (a link to `outside`), swapped nonstop.
    /// `seed` makes the same files on both sides first.
    fn start(seed: &[&str]) -> Race {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let (project, outside) = (base.join("project"), base.join("outside"));
        std::fs::create_dir_all(project.join("d")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        symlink(&outside, project.join("d.alt")).unwrap();
        for name in seed {
            std::fs::write(project.join("d").join(name), "inside").unwrap();
            std::fs::write(outside.join(name), "outside").unwrap();
        }
        let stop = Arc::new(AtomicBool::new(false));
        let flips = Arc::new(AtomicU64::new(0));
        let handle = File::open(&project).unwrap();
        let (stop_flag, counter) = (Arc::clone(&stop), Arc::clone(&flips));
        let flipper = std::thread::spawn(move || {
            while !stop_flag.load(Ordering::Relaxed) {
                renameat_with(&handle, "d", &handle, "d.alt", RenameFlags::EXCHANGE).unwrap();
                counter.fetch_add(1, Ordering::Relaxed);
            }
            counter.load(Ordering::Relaxed)
        });
        // The race is on once the first swap happened.
        while flips.load(Ordering::Relaxed) == 0 {
            std::thread::yield_now();
        }
        Race {
            _dir: dir,
            project,
            outside,
            stop,
            flipper: Some(flipper),
        }
    }

    /// Decides `d/<name>` as the edit tools do: `Some` when it resolves inside the project.
    fn decide(&self, name: &str) -> Option<RootedPath> {
        let real = real_path(&self.project.join("d").join(name));
        real.starts_with(&self.project)
            .then(|| RootedPath::within(&self.project, &real))
    }

    /// Stops swapping; returns the real directory (wherever the swaps left it).
    fn stop(&mut self) -> PathBuf {
        self.stop.store(true, Ordering::Relaxed);
        let flips = self.flipper.take().unwrap().join().unwrap();
        assert!(flips > 0);
        ["d", "d.alt"]
            .iter()
            .map(|n| self.project.join(n))
            .find(|p| !p.is_symlink())
            .unwrap()
    }
}

/// `Ok` or a changed-path refusal; anything else fails the test.
fn landed(result: Result<(), BeneathError>) -> bool {
    match result {
        Ok(()) => true,
        Err(e) => {
            assert!(e.is_changed(), "a failure other than a changed path: {e}");
            assert!(e.to_string().contains("nothing was"), "{e}");
            false
        }
    }
}

#[test]
fn racing_writes_never_land_outside() {
    let mut race = Race::start(&[]);
    let mut written = Vec::new();
    for i in 0..ROUNDS {
        let name = format!("f{i:03}");
        if let Some(target) = race.decide(&name)
            && landed(write_beneath(&target, b"data", FileMode::Keep, Durability::Unsynced))
        {
            written.push(name);
        }
    }
    let real_dir = race.stop();
    assert_eq!(
        names(&race.outside),
        Vec::<String>::new(),
        "nothing was written outside"
    );
    assert_eq!(
        names(&real_dir),
        written,
        "every write that succeeded is inside, and only those"
    );
}

#[test]
fn racing_deletes_and_moves_never_touch_outside() {
    let seed: Vec<String> = (0..ROUNDS).map(|i| format!("v{i:03}")).collect();
    let seed_refs: Vec<&str> = seed.iter().map(String::as_str).collect();
    let mut race = Race::start(&seed_refs);
    let moved_to = race.project.join("moved");
    let mut gone = Vec::new();
    for (i, name) in seed.iter().enumerate() {
        let Some(target) = race.decide(name) else { continue };
        let done = match i % 2 {
            0 => landed(remove_beneath(&target, Durability::Unsynced)),
            _ => {
                let dest = RootedPath::within(&race.project, &moved_to.join(name));
                landed(rename_beneath(&target, &dest, Durability::Unsynced))
            }
        };
        if done {
            gone.push(name.clone());
        }
    }
    let real_dir = race.stop();
    assert_eq!(names(&race.outside), seed, "every file outside is still there");
    for name in &seed {
        assert_eq!(std::fs::read_to_string(race.outside.join(name)).unwrap(), "outside");
    }
    let left: Vec<String> = seed.iter().filter(|n| !gone.contains(n)).cloned().collect();
    assert_eq!(names(&real_dir), left, "what went, went from inside");
    let moved: Vec<String> = if moved_to.exists() {
        names(&moved_to)
    } else {
        Vec::new()
    };
    assert!(moved.iter().all(|n| gone.contains(n)));
    for name in &moved {
        assert_eq!(std::fs::read_to_string(moved_to.join(name)).unwrap(), "inside");
    }
}
