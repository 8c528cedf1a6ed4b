//! Prefetch hints: asking the processor for a cache line before it is read.
//!
//! A batch reads each text (and each Python object) once, from memory scattered over the
//! heap; where the next address is known early, asking for it a few items ahead hides the
//! wait for memory behind the work on the current item. A hint never faults and changes
//! no result, so these functions are safe; elsewhere than x86_64 they do nothing.

#![allow(unsafe_code)]

/// Asks for the cache line holding `p` (any address: nothing is read into the program).
#[inline]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch is a hint that never faults, whatever the address, and reads
        // nothing into the program; `sse` is part of the x86_64 baseline.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p as *const i8) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Asks for the first two cache lines of `text` (most sentences are within them).
#[inline]
pub fn prefetch_text(text: &str) {
    let p = text.as_ptr();
    prefetch(p);
    if text.len() > 64 {
        prefetch(p.wrapping_add(64));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_change_nothing() {
        let text = "a".repeat(200);
        prefetch_text(&text);
        prefetch_text("");
        prefetch(std::ptr::null::<u8>());
        assert_eq!(text.len(), 200);
    }
}
