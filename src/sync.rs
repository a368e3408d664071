//! The poison-tolerant mutex lock used everywhere, and `Part`: one field of a larger state
//! behind that state's one mutex. A panic while a lock is held poisons it; our guarded data
//! (maps, lists, caches) stays consistent between statements, and a panic in one turn must not
//! make every later lock of that data panic too, so we take the data anyway.
//!
//! `Part` lets a session keep all its small mutable state behind one short std mutex while each
//! lower layer (the workspace, the tool state, the usage meter, auto-compaction) holds only a
//! handle to its own field and never names the session's type. Built alone (`Part::new`) it has
//! a mutex of its own, which is what tests and subagents use.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Locks `m`, recovering the data if an earlier holder panicked.
pub fn lock<T: ?Sized>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A handle to one field `T` of a state kept behind a single `std::sync::Mutex`. Locking a part
/// locks the whole state, so a part's closure must stay short, never await, and never lock
/// another part of the same state (std mutexes are not reentrant).
pub struct Part<T: 'static> {
    cell: Arc<dyn Project<T>>,
}

impl<T: 'static> Clone for Part<T> {
    fn clone(&self) -> Self {
        Part {
            cell: self.cell.clone(),
        }
    }
}

// Printing a part never locks: a `{:?}` inside another part's closure must not deadlock.
impl<T: 'static> std::fmt::Debug for Part<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Part(..)")
    }
}

impl<T: Default + Send + 'static> Default for Part<T> {
    fn default() -> Self {
        Part::new(T::default())
    }
}

/// How a part reaches its field: through the whole state's mutex.
trait Project<T>: Send + Sync {
    fn with_field(&self, f: &mut dyn FnMut(&mut T));
}

struct Field<S, T> {
    whole: Arc<Mutex<S>>,
    field: fn(&mut S) -> &mut T,
}

impl<S: Send + 'static, T: 'static> Project<T> for Field<S, T> {
    fn with_field(&self, f: &mut dyn FnMut(&mut T)) {
        f((self.field)(&mut lock(&self.whole)))
    }
}

impl<T: Send + 'static> Part<T> {
    /// A part that is its own whole (a mutex of its own).
    pub fn new(value: T) -> Part<T> {
        Part::of(&Arc::new(Mutex::new(value)), |whole| whole)
    }

    /// The field `field` picks out of the state behind `whole`.
    pub fn of<S: Send + 'static>(whole: &Arc<Mutex<S>>, field: fn(&mut S) -> &mut T) -> Part<T> {
        Part {
            cell: Arc::new(Field {
                whole: whole.clone(),
                field,
            }),
        }
    }
}

impl<T: 'static> Part<T> {
    /// Runs `f` on the field under the whole state's lock.
    pub fn with<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        let (mut f, mut out) = (Some(f), None);
        self.cell.with_field(&mut |value| out = f.take().map(|f| f(value)));
        out.expect("the projection runs the closure exactly once")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_of_one_state_share_its_one_lock() {
        #[derive(Default)]
        struct Whole {
            a: u32,
            b: String,
        }
        let whole = Arc::new(Mutex::new(Whole::default()));
        let a = Part::of(&whole, |w| &mut w.a);
        let b = Part::of(&whole, |w| &mut w.b);
        a.with(|a| *a += 2);
        b.with(|b| b.push('x'));
        {
            let seen = lock(&whole);
            assert_eq!((seen.a, seen.b.as_str()), (2, "x"));
        }
        lock(&whole).a = 7;
        assert_eq!(a.clone().with(|a| *a), 7);
        assert_eq!(Part::new(5).with(|n| *n + 1), 6);
    }

    #[test]
    fn a_poisoned_lock_still_hands_out_the_data() {
        let m = std::sync::Arc::new(Mutex::new(1));
        let held = m.clone();
        let _ = std::thread::spawn(move || {
            let _guard = held.lock().unwrap();
            panic!("poison it");
        })
        .join();
        assert!(m.is_poisoned());
        *lock(&m) += 1;
        assert_eq!(*lock(&m), 2);
    }
}
