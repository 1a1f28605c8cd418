//! How the `cpu` device runs one task's threads: on the calling thread or on the pool.
//!
//! Handing a task to the rayon pool costs a few microseconds whatever the task (a job injected
//! into the pool, a worker woken through a futex, the caller parked until the last chunk is
//! done). A task whose threads do less work than that runs faster on the calling thread, in one
//! call over all its threads, as worker 0 (heap row 0, worker 0's context): a serial task, a
//! range task of one call's threads (its SIMD lanes), and a range task whose threads the last
//! launch of the same task measured to take less than [`INLINE_NS`] in all
//! ([`TaskCost::runs_inline`]). Which thread runs where changes no result: a thread's adstacks
//! are reset at their allocas, whichever row holds them, and the error and overflow reported are
//! the lowest thread's either way (a call runs its threads in order and stops at the first
//! failing one). A wrong guess (a task whose threads cost far more in this launch than in the
//! last) runs that launch on one core; the launch measures again.

use crate::cache::TaskFn;
use crate::frame::*;
use qd_runtime::CancelFlag;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The work (summed over threads, in ns) below which a task runs on the calling thread: about
/// what a pool dispatch costs (benches/benches/launch_overhead.rs measures it), so running it
/// inline loses at most about that much to the lost parallelism.
pub const INLINE_NS: u64 = 10_000;

/// The error record of the lowest failing thread of a task.
pub(crate) struct Failure {
    pub thread: u64,
    pub site: u64,
    pub values: [u64; MAX_ERR_VALUES as usize],
}

/// What one task's run found: the lowest failing thread's record, the lowest thread's
/// overflow (thread, stack id).
pub(crate) type Outcome = (Option<Failure>, Option<(u64, u64)>);

/// What a task's threads cost in its last launch, to choose where the next one runs.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TaskCost {
    /// Busy nanoseconds per thread, times 1024 (fixed point); None before the first measure.
    per_thread: Option<u64>,
}

impl TaskCost {
    /// Whether `threads` threads of a task of `lanes` SIMD lanes run on the calling thread.
    pub fn runs_inline(&self, threads: u64, lanes: u32, workers: usize) -> bool {
        if Self::always_inline(threads, lanes, workers) {
            return true;
        }
        match self.per_thread {
            Some(p) => threads.saturating_mul(p.max(1)) / 1024 <= INLINE_NS,
            None => false,
        }
    }

    /// Whether the task runs on the calling thread whatever its threads cost: one call, or one
    /// worker (the pool would run it on one thread too).
    pub fn always_inline(threads: u64, lanes: u32, workers: usize) -> bool {
        threads <= u64::from(lanes.max(1)) || workers <= 1
    }

    /// Records a run of `threads` threads that kept the workers busy for `busy_ns` in all.
    pub fn record(&mut self, threads: u64, busy_ns: u64) {
        if let Some(p) = busy_ns.saturating_mul(1024).checked_div(threads) {
            self.per_thread = Some(p);
        }
    }
}

/// The failure record a context holds after its call returned nonzero.
fn failure_of(ctx: &[u64]) -> Failure {
    let v = W_ERR_VALUES as usize;
    let mut values = [0; MAX_ERR_VALUES as usize];
    values.copy_from_slice(&ctx[v..v + MAX_ERR_VALUES as usize]);
    Failure {
        thread: ctx[W_ERR_THREAD as usize],
        site: ctx[W_ERR_SITE as usize],
        values,
    }
}

/// Takes a context's overflow record (thread, stack id), leaving it empty.
fn take_overflow(ctx: &mut [u64]) -> Option<(u64, u64)> {
    let t = ctx[W_OVF_THREAD as usize];
    if t == NONE {
        return None;
    }
    ctx[W_OVF_THREAD as usize] = NONE;
    Some((t, ctx[W_OVF_STACK as usize]))
}

/// Runs threads `0..threads` of task `f` on the calling thread as worker 0, in `ctx` (the
/// launch's context, its records empty); returns what it found and, when `measure` asks (a
/// clock read costs tens of ns: only where the next launch's choice depends on it), the busy
/// nanoseconds.
pub(crate) fn run_inline(
    f: TaskFn,
    ctx: &mut [u64],
    threads: u64,
    measure: bool,
) -> (Outcome, Option<u64>) {
    ctx[W_ROW as usize] = 0;
    let start = measure.then(Instant::now);
    // SAFETY: `ctx` has the kernel's frame layout; the pointers in it stay valid for the
    // launch (the program's memory is borrowed by it, the heaps are not replaced).
    let rc = unsafe { f(ctx.as_mut_ptr(), 0, threads as i64) };
    let busy = start.map(|s| s.elapsed().as_nanos() as u64);
    let failure = (rc != 0).then(|| failure_of(ctx));
    ((failure, take_overflow(ctx)), busy)
}

/// The per-worker contexts of pool runs, kept between tasks and launches (no allocation once
/// they are large enough).
#[derive(Default)]
pub(crate) struct Contexts(Vec<Mutex<Vec<u64>>>);

impl Contexts {
    /// `workers` contexts, each a copy of `base` with its own row; `each` finishes worker
    /// `w`'s (the adstack guard's rows).
    pub fn prepare(
        &mut self,
        base: &[u64],
        workers: usize,
        mut each: impl FnMut(&mut [u64], u64),
    ) -> &[Mutex<Vec<u64>>] {
        if self.0.len() < workers {
            self.0.resize_with(workers, || Mutex::new(Vec::new()));
        }
        for (w, m) in self.0[..workers].iter_mut().enumerate() {
            let c = m.get_mut().unwrap_or_else(|e| e.into_inner());
            c.clear();
            c.extend_from_slice(base);
            c[W_ROW as usize] = w as u64;
            each(c, w as u64);
        }
        &self.0[..workers]
    }
}

/// Runs `f` over threads `0..threads` of a task of `lanes` SIMD lanes in chunks on `pool`, each
/// worker with its own context; returns what it found and the workers' busy nanoseconds, summed.
pub(crate) fn run_range(
    pool: &rayon::ThreadPool,
    f: TaskFn,
    ctxs: &[Mutex<Vec<u64>>],
    (threads, lanes): (u64, u32),
    cancel: &CancelFlag,
) -> (Outcome, u64) {
    use rayon::prelude::*;
    let workers = ctxs.len() as u64;
    let chunk = chunk_size(threads, workers, lanes);
    let chunks = threads.div_ceil(chunk);
    let failure: Mutex<Option<Failure>> = Mutex::new(None);
    let overflow: Mutex<Option<(u64, u64)>> = Mutex::new(None);
    let lowest_failure = AtomicU64::new(u64::MAX);
    let busy = AtomicU64::new(0);
    pool.install(|| {
        (0..chunks).into_par_iter().for_each(|c| {
            let first = c * chunk;
            // Threads after a known failure need not run: the reported error is the lowest.
            let lowest = lowest_failure.load(Ordering::Relaxed);
            if first > lowest {
                return;
            }
            // A cancelled launch stops: once a thread reported the cancel (so the launch has its
            // error), the chunks not yet started are left undone.
            if lowest != u64::MAX && cancel.is_cancelled() {
                return;
            }
            let last = (first + chunk).min(threads);
            let w = rayon::current_thread_index().unwrap_or(0) % ctxs.len();
            let mut ctx = ctxs[w].lock().unwrap_or_else(|e| e.into_inner());
            let start = Instant::now();
            // SAFETY: as in `run_inline`.
            let rc = unsafe { f(ctx.as_mut_ptr(), first as i64, last as i64) };
            busy.fetch_add(start.elapsed().as_nanos() as u64, Ordering::Relaxed);
            if rc != 0 {
                let fl = failure_of(&ctx);
                lowest_failure.fetch_min(fl.thread, Ordering::Relaxed);
                let mut lowest = failure.lock().unwrap_or_else(|e| e.into_inner());
                if lowest.as_ref().is_none_or(|x| fl.thread < x.thread) {
                    *lowest = Some(fl);
                }
            }
            if let Some((t, id)) = take_overflow(&mut ctx) {
                let mut l = overflow.lock().unwrap_or_else(|e| e.into_inner());
                if l.is_none_or(|(lt, _)| t < lt) {
                    *l = Some((t, id));
                }
            }
        })
    });
    let outcome = (
        failure.into_inner().unwrap_or_else(|e| e.into_inner()),
        overflow.into_inner().unwrap_or_else(|e| e.into_inner()),
    );
    (outcome, busy.into_inner())
}

/// Threads per chunk: about 8 chunks a worker, at most 2^14 threads, a multiple of the lanes
/// (every chunk but the last runs full groups only, and a group that starts a chunk starts
/// where it would in one run over all threads: aligned when the buffers are, see
/// `simd::driver`'s streaming stores).
fn chunk_size(threads: u64, workers: u64, lanes: u32) -> u64 {
    let lanes = u64::from(lanes.max(1));
    threads
        .div_ceil(workers * 8)
        .clamp(1, 1 << 14)
        .next_multiple_of(lanes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_whole_groups() {
        assert_eq!(chunk_size(1 << 24, 2, 16), 1 << 14);
        assert_eq!(chunk_size(1000, 2, 16), 64);
        assert_eq!(chunk_size(1000, 2, 1), 63);
        assert_eq!(chunk_size(5, 4, 16), 16);
        assert_eq!(chunk_size(u64::MAX / 2, 2, 16), 1 << 14);
    }

    #[test]
    fn one_call_or_one_worker_runs_inline() {
        let c = TaskCost::default();
        assert!(c.runs_inline(1, 1, 8));
        assert!(c.runs_inline(8, 8, 8));
        assert!(c.runs_inline(1 << 20, 1, 1));
        // Unmeasured and more than one call: the pool.
        assert!(!c.runs_inline(9, 8, 8));
        assert!(!c.runs_inline(2, 1, 2));
    }

    #[test]
    fn the_last_measure_decides() {
        let mut c = TaskCost::default();
        // 100 ns a thread: 100 threads (10 us) inline, 101 not.
        c.record(1000, 100_000);
        assert!(c.runs_inline(100, 1, 4));
        assert!(!c.runs_inline(101, 1, 4));
        // Cheap threads: a large task inline; then a costly launch sends it back to the pool.
        c.record(1000, 1000);
        assert!(c.runs_inline(4096, 1, 4));
        c.record(4096, 4096 * 1000);
        assert!(!c.runs_inline(4096, 1, 4));
        // A huge count does not overflow into "cheap".
        assert!(!c.runs_inline(u64::MAX, 1, 4));
    }

    #[test]
    fn contexts_are_reused_with_their_rows() {
        let mut cs = Contexts::default();
        let base = vec![7u64; W_CANCEL as usize + 1];
        let n = cs.prepare(&base, 3, |c, w| c[0] = 100 + w).len();
        assert_eq!(n, 3);
        let ptr = cs.0[1].lock().unwrap().as_ptr();
        let ctxs = cs.prepare(&base, 2, |_, _| {});
        assert_eq!(ctxs.len(), 2);
        let c1 = ctxs[1].lock().unwrap();
        assert_eq!((c1[W_ROW as usize], c1[0], c1[1]), (1, 7, 7));
        assert_eq!(c1.as_ptr(), ptr, "no new allocation");
    }
}
