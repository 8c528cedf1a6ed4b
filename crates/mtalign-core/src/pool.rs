//! Private rayon pools, one per thread count, rebuilt after `fork()`.
//!
//! mtalign never uses rayon's global pool, so it cannot disturb (or be disturbed by) other
//! rayon users in the same process. At most [`MAX_POOLS`] pools are kept (the least recently
//! used is dropped, and its threads end), and no pool has more than [`max_threads`] threads:
//! asking for more gets that many (see [`capped_threads`]). A forked child inherits the pool's bookkeeping but not
//! its threads; the pool records the pid that built it and is replaced (and the dead one
//! leaked on purpose: joining threads that do not exist would hang) when the pid changes.

use crate::error::{Error, Result};
use crate::interrupt;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// Pools kept at most (distinct thread counts in use at once, in practice one or two).
pub const MAX_POOLS: usize = 4;

/// The largest thread count a pool gets: 4 per core, at least 16. More threads than that
/// only add memory and switching (every thread keeps its own scratch tables).
pub fn max_threads() -> usize {
    (4 * cores()).max(16)
}

/// `threads` capped at [`max_threads`], and whether it was capped.
pub fn capped_threads(threads: usize) -> (usize, bool) {
    let max = max_threads();
    if threads > max {
        (max, true)
    } else {
        (threads, false)
    }
}

/// Environment variable that sets the default thread count.
pub const THREADS_ENV: &str = "MTALIGN_NUM_THREADS";

struct Pools {
    pid: u32,
    pools: Vec<(usize, Arc<ThreadPool>)>,
}

static POOLS: Mutex<Option<Pools>> = Mutex::new(None);

/// The thread count used when the caller gives none: `MTALIGN_NUM_THREADS`, else all cores
/// (uncapped: [`check_threads`] caps it).
pub fn default_threads() -> Result<usize> {
    match std::env::var(THREADS_ENV) {
        Ok(v) => match v.trim().parse::<usize>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(Error::Config(format!(
                "{THREADS_ENV}={v:?} is not a positive integer (at most {} threads are used)",
                max_threads()
            ))),
        },
        Err(_) => Ok(cores()),
    }
}

/// The usable cores, read once: `available_parallelism` reads cgroup files on Linux, which
/// took ~50 µs, more than scoring a sentence pair.
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

fn pool(threads: usize) -> Result<Arc<ThreadPool>> {
    let pid = std::process::id();
    let mut guard = POOLS.lock().unwrap_or_else(|e| e.into_inner());
    if guard.as_ref().is_some_and(|p| p.pid != pid) {
        // Forked: the old pools' threads live only in the parent.
        if let Some(old) = guard.take() {
            std::mem::forget(old.pools);
        }
    }
    let state = guard.get_or_insert_with(|| Pools {
        pid,
        pools: Vec::new(),
    });
    if let Some(k) = state.pools.iter().position(|(n, _)| *n == threads) {
        // Most recently used last.
        let entry = state.pools.remove(k);
        let p = entry.1.clone();
        state.pools.push(entry);
        return Ok(p);
    }
    if state.pools.len() >= MAX_POOLS {
        // Dropping the last handle ends the pool's threads once their work is done.
        state.pools.remove(0);
    }
    let p = ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("mtalign-{i}"))
        .build()
        .map_err(|e| Error::Config(format!("cannot start {threads} threads: {e}")))?;
    let p = Arc::new(p);
    state.pools.push((threads, p.clone()));
    Ok(p)
}

/// The thread count `threads` stands for (`None`: the default count), checked and capped at
/// [`max_threads`].
pub fn check_threads(threads: Option<usize>) -> Result<usize> {
    let n = match threads {
        Some(0) => {
            return Err(Error::Config(
                "threads must be >= 1 (or None for all cores)".into(),
            ))
        }
        Some(n) => n,
        None => default_threads()?,
    };
    Ok(capped_threads(n).0)
}

/// Runs `f` inside the private pool of `threads` threads (`None`: the default count).
pub fn run<R: Send>(threads: Option<usize>, f: impl FnOnce() -> R + Send) -> Result<R> {
    let n = check_threads(threads)?;
    Ok(pool(n)?.install(f))
}

/// How often a waiting caller asks whether to stop.
pub const POLL: Duration = Duration::from_millis(50);

/// [`run`], calling `interrupted()` on the calling thread every [`POLL`] while `f` runs on
/// the pool; once it returns true, the work's flag ([`interrupt`]) is set, so the batch
/// runner stops between pairs and returns `Error::Interrupted`. Waits for `f` to return.
pub fn run_interruptible<R: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> R + Send,
    mut interrupted: impl FnMut() -> bool,
) -> Result<R> {
    let n = check_threads(threads)?;
    let pool = pool(n)?;
    let flag = Arc::new(AtomicBool::new(false));
    let (done, wait) = channel::<()>();
    let mut out = None;
    let slot = &mut out;
    let work_flag = flag.clone();
    pool.in_place_scope(|scope| {
        scope.spawn(move |_| {
            *slot = Some(interrupt::with_flag(work_flag, f));
            let _ = done.send(());
        });
        while let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(POLL) {
            if !flag.load(Ordering::Relaxed) && interrupted() {
                flag.store(true, Ordering::Relaxed);
            }
        }
    });
    out.ok_or(Error::Interrupted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::metric::{statistics_of_sentences, Metric, Pair};
    use crate::text::intern::Sentences;
    use crate::text::refs::RefSets;

    /// A metric that takes 20 ms a pair.
    struct Slow;
    impl Metric for Slow {
        type Scratch = ();
        type Context = ();
        const TASK_PAIRS: usize = 1;
        fn width(&self) -> usize {
            1
        }
        fn pair_statistics(&self, _: &(), _: &mut (), _: Pair<'_>, row: &mut [f64]) {
            std::thread::sleep(Duration::from_millis(20));
            row[0] = 1.0;
        }
    }

    /// 1,000 pairs for [`Slow`]: 10 s of work on two threads unless stopped.
    fn slow_batch() -> (Sentences, Vec<u32>, RefSets) {
        let s = Sentences::from_ids(&[vec![1u32], vec![2]]);
        let mut sets = RefSets::new();
        (0..1000).for_each(|_| sets.push([1u32]));
        (s, vec![0u32; 1000], sets)
    }

    #[test]
    fn threads_are_capped_and_pools_bounded() {
        assert_eq!(check_threads(Some(1_000_000)).unwrap(), max_threads());
        assert!(check_threads(Some(0)).is_err());
        for n in 1..=(MAX_POOLS + 3) {
            run(Some(n), || ()).unwrap();
        }
        let kept = POOLS.lock().unwrap().as_ref().map_or(0, |p| p.pools.len());
        assert!(kept <= MAX_POOLS);
    }

    #[test]
    fn an_interrupt_stops_a_batch_between_pairs() {
        let (s, hyps, sets) = slow_batch();
        let start = std::time::Instant::now();
        let mut polls = 0;
        let out = run_interruptible(
            Some(2),
            || statistics_of_sentences(&Slow, &s, &hyps, &sets),
            || {
                polls += 1;
                polls >= 2
            },
        )
        .unwrap();
        assert_eq!(out, Err(Error::Interrupted));
        assert!(start.elapsed() < Duration::from_secs(5));
        // Without an interrupt the same work completes.
        let out = run_interruptible(
            Some(2),
            || {
                statistics_of_sentences(&Slow, &s, &hyps[..40], &{
                    let mut r = RefSets::new();
                    (0..40).for_each(|_| r.push([1u32]));
                    r
                })
            },
            || false,
        );
        assert_eq!(out.unwrap().unwrap(), vec![1.0; 40]);
    }
}
