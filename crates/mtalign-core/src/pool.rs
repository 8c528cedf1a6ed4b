//! Private rayon pools, one per thread count, rebuilt after `fork()`.
//!
//! mtalign never uses rayon's global pool, so it cannot disturb (or be disturbed by) other
//! rayon users in the same process. A forked child inherits the pool's bookkeeping but not
//! its threads; the pool records the pid that built it and is replaced (and the dead one
//! leaked on purpose: joining threads that do not exist would hang) when the pid changes.

use crate::error::{Error, Result};
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::{Arc, Mutex, OnceLock};

/// Environment variable that sets the default thread count.
pub const THREADS_ENV: &str = "MTALIGN_NUM_THREADS";

struct Pools {
    pid: u32,
    pools: Vec<(usize, Arc<ThreadPool>)>,
}

static POOLS: Mutex<Option<Pools>> = Mutex::new(None);

/// The thread count used when the caller gives none: `MTALIGN_NUM_THREADS`, else all cores.
pub fn default_threads() -> Result<usize> {
    match std::env::var(THREADS_ENV) {
        Ok(v) => match v.trim().parse::<usize>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(Error::Config(format!(
                "{THREADS_ENV}={v:?} is not a positive integer"
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
    if let Some((_, p)) = state.pools.iter().find(|(n, _)| *n == threads) {
        return Ok(p.clone());
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

/// The thread count `threads` stands for (`None`: the default count), checked.
pub fn check_threads(threads: Option<usize>) -> Result<usize> {
    match threads {
        Some(0) => Err(Error::Config(
            "threads must be >= 1 (or None for all cores)".into(),
        )),
        Some(n) => Ok(n),
        None => default_threads(),
    }
}

/// Runs `f` inside the private pool of `threads` threads (`None`: the default count).
pub fn run<R: Send>(threads: Option<usize>, f: impl FnOnce() -> R + Send) -> Result<R> {
    let n = check_threads(threads)?;
    Ok(pool(n)?.install(f))
}
