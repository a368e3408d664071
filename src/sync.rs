//! The poison-tolerant mutex lock used everywhere. A panic while a lock is held poisons it;
//! our guarded data (maps, lists, caches) stays consistent between statements, and a panic in
//! one turn must not make every later lock of that data panic too, so we take the data anyway.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks `m`, recovering the data if an earlier holder panicked.
pub fn lock<T: ?Sized>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

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
