//! Cooperative cancellation of long work (a Ctrl-C in the caller).
//!
//! [`crate::pool::run_interruptible`] gives the work a flag and polls the caller's
//! `interrupted()` while it waits; the batch runner reads the flag of the work it belongs to
//! ([`current`]) and stops between pairs once it is set, returning `Error::Interrupted`.
//! The flag is per call, so a Ctrl-C on one Python thread never stops another's batch.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A cancellation flag shared by the caller and the work.
pub type Flag = Arc<AtomicBool>;

thread_local! {
    static CURRENT: RefCell<Option<Flag>> = const { RefCell::new(None) };
}

/// Runs `f` with `flag` as this thread's current flag (restoring the previous one after).
pub fn with_flag<R>(flag: Flag, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Flag>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let prev = self.0.take();
            CURRENT.with(|c| *c.borrow_mut() = prev);
        }
    }
    let prev = CURRENT.with(|c| c.borrow_mut().replace(flag));
    let _restore = Restore(prev);
    f()
}

/// The flag of the work running on this thread, if any (capture it before going parallel).
pub fn current() -> Option<Flag> {
    CURRENT.with(|c| c.borrow().clone())
}

/// Whether `flag` is set.
#[inline]
pub fn is_set(flag: &Option<Flag>) -> bool {
    flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
}

/// Checks the current work's flag from inside one long kernel, every so many units of work,
/// so a Ctrl-C during a single long pair is seen within a fraction of a second. A kernel
/// that sees [`Poll::stop`] return true returns early with any value: the batch runner
/// checks the same flag after the pair and discards the whole result.
#[derive(Debug)]
pub struct Poll {
    /// The work's flag, looked up at the first check (short kernels never pay for it).
    flag: Option<Option<Flag>>,
    every: u32,
    left: u32,
}

/// Units of work (64-bit word operations or DP cells) between two looks at the flag:
/// a few milliseconds.
const POLL_WORK: usize = 1 << 22;

impl Poll {
    /// A poll for a loop whose iterations each cost `cost` units of work.
    #[inline]
    pub fn new(cost: usize) -> Self {
        let every = (POLL_WORK / cost.max(1)).clamp(1, u32::MAX as usize) as u32;
        Self {
            flag: None,
            every,
            left: every,
        }
    }

    /// Counts one iteration; true once the work's flag is set (looked at every `every`).
    #[inline]
    pub fn stop(&mut self) -> bool {
        self.left -= 1;
        if self.left == 0 {
            self.left = self.every;
            is_set(self.flag.get_or_insert_with(current))
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poll_sees_the_flag_of_its_work() {
        let flag: Flag = Arc::new(AtomicBool::new(false));
        with_flag(flag.clone(), || {
            let mut poll = Poll::new(POLL_WORK / 4);
            assert!(!(0..8).any(|_| poll.stop()));
            flag.store(true, Ordering::Relaxed);
            assert!(!poll.stop() && !poll.stop() && !poll.stop() && poll.stop());
        });
        // Outside any work there is no flag: never stops.
        let mut poll = Poll::new(POLL_WORK);
        assert!(!(0..8).any(|_| poll.stop()));
    }

    /// Every kernel that polls stops early on a set flag, without panicking, on a pair that
    /// would take long (so the early exits are exercised, whatever they leave half done).
    #[test]
    fn long_kernels_stop_early_without_panicking() {
        use crate::kernels::{edit_distance_bits::BlockMyers, lcs_long::LongLcs, wlcs};
        use crate::metrics::{rouge::rouge155::Wlcs155Scratch, sia, ter::TerScratch};
        let n = 6000u32;
        let a: Vec<u32> = (0..n).map(|i| (i * 7) % 50).collect();
        let b: Vec<u32> = (0..n).map(|i| (i * 11) % 50).collect();
        let flag: Flag = Arc::new(AtomicBool::new(true));
        with_flag(flag, || {
            let start = std::time::Instant::now();
            let mut lcs = LongLcs::new();
            lcs.prepare(&a);
            lcs.lcs(&b);
            lcs.mark_union(&b, &mut vec![false; b.len()]);
            BlockMyers::new().distance(&a, &b);
            wlcs::wlcs(&a, &b, 1.2);
            Wlcs155Scratch::default().hit(&a, &b, 1.2);
            TerScratch::default().edits(&a[..3000], &b[..3000]);
            let cells: Vec<sia::Cell> = (1..=400u32)
                .flat_map(|i| (1..=400u32).map(move |j| sia::Cell { i, j, w: 1.0 }))
                .collect();
            sia::best_chain(&cells);
            // Each would take seconds (a debug build: minutes) without the flag.
            assert!(start.elapsed().as_secs_f64() < 5.0);
        });
    }
}
