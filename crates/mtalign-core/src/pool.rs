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
use std::panic::{catch_unwind, AssertUnwindSafe};
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

/// Runs `job` on the private pool of `threads` threads while `here` runs on the calling
/// thread, which may hold what must stay on it (Python's GIL, objects it reads); both results
/// once both are done. `job` can use the pool's threads itself. With one thread they run one
/// after the other (`job` first), so one thread is all that ever works.
pub fn run_beside<A: Send, B>(
    threads: Option<usize>,
    job: impl FnOnce() -> A + Send,
    here: impl FnOnce() -> B,
) -> Result<(A, B)> {
    let n = check_threads(threads)?;
    let pool = pool(n)?;
    if n == 1 {
        let a = pool.install(job);
        return Ok((a, here()));
    }
    let mut out = None;
    let slot = &mut out;
    let b = pool.in_place_scope(|scope| {
        scope.spawn(move |_| *slot = Some(job()));
        here()
    });
    // The scope ends after the spawned job: its slot is filled (a panic would have
    // propagated out of the scope instead).
    out.map(|a| (a, b)).ok_or(Error::Interrupted)
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

/// What [`run_streamed`] gives: each part's result in the order the parts were read, or the
/// error that stopped the reading.
pub type Streamed<R, E> = std::result::Result<Vec<R>, E>;

/// Runs `work` on the private pool of `threads` threads for each part that `next` reads on
/// the calling thread, each part as soon as it is read: reading (which may have to stay on
/// the calling thread, as Python's objects must, under its GIL) overlaps the work on the
/// parts before it. Once `next` gives `Ok(None)`, the calling thread waits inside `detached`
/// (which releases what the workers never need, the GIL) and calls `interrupted()` every
/// [`POLL`] as [`run_interruptible`] does; an error from `next` sets the work's flag and is
/// returned once the parts under way have stopped. A part's panic is raised again here.
pub fn run_streamed<P: Send, R: Send, E>(
    threads: Option<usize>,
    mut next: impl FnMut() -> std::result::Result<Option<P>, E>,
    work: impl Fn(P) -> R + Sync,
    detached: impl FnOnce(&mut (dyn FnMut() + Send)),
    mut interrupted: impl FnMut() -> bool + Send,
) -> Result<Streamed<R, E>> {
    let n = check_threads(threads)?;
    let pool = pool(n)?;
    let flag = Arc::new(AtomicBool::new(false));
    let (sent, received) = channel::<(usize, std::thread::Result<R>)>();
    let work = &work;
    let mut results: Vec<Option<R>> = Vec::new();
    let mut panicked = None;
    let mut failed = None;
    pool.in_place_scope(|scope| {
        loop {
            match next() {
                Ok(Some(part)) => {
                    let (k, sent, flag) = (results.len(), sent.clone(), flag.clone());
                    results.push(None);
                    scope.spawn(move |_| {
                        let run = || interrupt::with_flag(flag, || work(part));
                        let _ = sent.send((k, catch_unwind(AssertUnwindSafe(run))));
                    });
                }
                Ok(None) => break,
                Err(e) => {
                    flag.store(true, Ordering::Relaxed);
                    failed = Some(e);
                    break;
                }
            }
        }
        let mut left = results.len();
        let (results, panicked, flag) = (&mut results, &mut panicked, &flag);
        // Moved in (a receiver is Send, not Sync); the rest by the references above.
        detached(&mut move || {
            while left > 0 {
                match received.recv_timeout(POLL) {
                    Ok((k, Ok(r))) => results[k] = Some(r),
                    Ok((_, Err(payload))) => {
                        panicked.get_or_insert(payload);
                    }
                    Err(RecvTimeoutError::Timeout) => {
                        if !flag.load(Ordering::Relaxed) && interrupted() {
                            flag.store(true, Ordering::Relaxed);
                        }
                        continue;
                    }
                    // Never: this thread holds a sender.
                    Err(RecvTimeoutError::Disconnected) => break,
                }
                left -= 1;
            }
        });
    });
    if let Some(payload) = panicked {
        std::panic::resume_unwind(payload);
    }
    if let Some(e) = failed {
        return Ok(Err(e));
    }
    // Every part sent its result before the scope ended.
    let results: Option<Vec<R>> = results.into_iter().collect();
    results.map(Ok).ok_or(Error::Interrupted)
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
    fn a_job_beside_the_calling_thread_gives_both_results() {
        for threads in [1, 2, 3] {
            let here_thread = std::thread::current().id();
            let (a, b) = run_beside(
                Some(threads),
                || (0..1000u64).sum::<u64>(),
                || std::thread::current().id() == here_thread,
            )
            .unwrap();
            assert_eq!((a, b), (499_500, true));
        }
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

    #[test]
    fn streamed_parts_overlap_the_read_and_come_back_in_order() {
        for threads in [1, 2, 3] {
            let here_thread = std::thread::current().id();
            let mut read = 0u64;
            let mut detached_on_caller = false;
            let out = run_streamed(
                Some(threads),
                || -> std::result::Result<Option<u64>, String> {
                    read += 1;
                    Ok((read <= 20).then_some(read))
                },
                |k: u64| {
                    // Later parts finish first: the order comes from the reading.
                    std::thread::sleep(Duration::from_millis(20 - k));
                    (k * k, std::thread::current().id() != here_thread)
                },
                |wait| {
                    detached_on_caller = std::thread::current().id() == here_thread;
                    wait()
                },
                || false,
            )
            .unwrap()
            .unwrap();
            let expected: Vec<(u64, bool)> = (1..=20).map(|k| (k * k, true)).collect();
            assert_eq!(out, expected);
            assert!(detached_on_caller);
        }
    }

    #[test]
    fn a_streamed_read_error_stops_the_parts_under_way_and_is_returned() {
        let (s, hyps, sets) = slow_batch();
        let start = std::time::Instant::now();
        let mut parts = 0;
        let out = run_streamed(
            Some(2),
            || {
                parts += 1;
                match parts {
                    1 => Ok(Some(())),
                    _ => Err("refs[7] is not a str"),
                }
            },
            |()| statistics_of_sentences(&Slow, &s, &hyps, &sets),
            |wait| wait(),
            || false,
        )
        .unwrap();
        assert_eq!(out, Err("refs[7] is not a str"));
        // 1,000 pairs of 20 ms on 2 threads would take 10 s; the flag stops them.
        assert!(start.elapsed() < Duration::from_secs(5));
        // An interrupt while waiting stops the parts the same way.
        let mut polls = 0;
        let mut parts = 0;
        let out = run_streamed(
            Some(2),
            || -> std::result::Result<Option<()>, ()> {
                parts += 1;
                Ok((parts <= 2).then_some(()))
            },
            |()| statistics_of_sentences(&Slow, &s, &hyps, &sets),
            |wait| wait(),
            || {
                polls += 1;
                polls >= 2
            },
        )
        .unwrap()
        .unwrap();
        assert_eq!(out, vec![Err(Error::Interrupted), Err(Error::Interrupted)]);
    }
}
