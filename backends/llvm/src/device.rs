//! [`CpuDevice`]: the device `cpu`. Kernels are lowered by `convert-qd-to-lowered`, compiled by
//! LLVM at O3 for the host CPU and JIT-compiled (once per process: see `cache`), and run on a
//! rayon thread pool:
//!
//! - tasks run in order; a range task's threads are split into chunks that the pool's workers
//!   take; each worker runs its chunk's threads one after another with its own launch context
//!   (its heap row, its error and overflow records). A task too small to be worth a pool
//!   dispatch (serial, one call's SIMD lanes, or threads the last launch measured as cheap) runs
//!   on the calling thread as worker 0 (`launch`);
//! - the launch path allocates nothing once a kernel has run: its context and temporaries are
//!   sized at compile time, the workers' contexts are kept between launches;
//! - adstack heaps have one row per worker (workers x stride, not threads x stride): a stack's
//!   alloca resets its count, so a worker reuses its row thread after thread. Before each task
//!   the heap layout comes from the launch's adstack plan through the runtime's `HeapLayout` and
//!   is published into the contexts; a heap grows by doubling (or to exactly what is needed when
//!   doubling cannot be allocated), is never shrunk, and is only replaced between tasks, when
//!   no work uses it; the rows a task uses are zeroed before it runs, as a fresh heap is;
//! - the kernel computes directly in the program's host memory (fields, adjoints, ndarrays), so
//!   `upload` and `download` have nothing to copy;
//! - errors: a failing check stops its thread; the device reports the error of the lowest
//!   failing thread (the one the interpreter, running threads in order, meets first), through
//!   the kernel's error sites and source map; later tasks do not run;
//! - overflow: each worker records its first overflow (thread, stack); after the task the
//!   device keeps the lowest thread's, and `sync` reports it as the interpreters do (the kernel,
//!   the stack's alloca location and its capacity in this launch);
//! - cancel: a launch with a deadline (`qd_runtime::cancel`) passes its cancel flag's address
//!   in every worker's context ([`W_CANCEL`]); each `while` back edge loads it (relaxed) and, once
//!   set, stops its thread with the loop's error site; a worker whose chunk stopped so leaves
//!   the chunks not yet started undone, so every worker soon stops. Launches without a deadline
//!   pass a flag nothing sets, and no watchdog runs;
//! - bounds: field and ndarray indices are checked only with [`CpuDevice::with_check_bounds`]
//!   (`qd-run --check-bounds`), which lowers with [`PIPELINE`]; by default the device lowers
//!   with [`PIPELINE_UNCHECKED`] and an out-of-range index is undefined behaviour. Local arrays
//!   are checked either way (see `convert-qd-to-lowered`'s option `check-bounds`).

use crate::cache::CompiledCode;
use crate::codegen::{task_infos, TaskInfo};
use crate::compile::{jit_kernel, KernelInput};
use crate::frame::*;
use crate::guard::{AdstackGuard, GuardedHeaps, GUARD_ENV};
use crate::jit::Options;
use crate::launch::{run_inline, run_range, Contexts, TaskCost};
use crate::sites::Sites;
use qd_ir::{Context, Diagnostic, Location};
use qd_lowered::{TaskBound, TaskKind};
use qd_runtime::adstack::host_heap::ensure_host_heap;
use qd_runtime::adstack::layout::{lowered_entry_bytes, Heap, HeapLayout};
use qd_runtime::device::KernelIr;
use qd_runtime::{
    AdstackOverflow, AdstackPlan, Arg, CancelFlag, CompiledKernel, DType, Device, KernelStacks,
    Memory, RuntimeError, RuntimeErrorKind, Storage, TaskNote,
};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The device's name, as `--device` spells it.
pub const NAME: &str = "cpu";
/// The lowering with every bounds check (`--check-bounds`; what `qd-translate` emits).
pub const PIPELINE: &str = "builtin.module(convert-qd-to-lowered)";
/// The default lowering: field and ndarray accesses unchecked.
pub const PIPELINE_UNCHECKED: &str = "builtin.module(convert-qd-to-lowered{check-bounds=false})";

/// The lowering pipeline with or without the field and ndarray bounds checks.
pub fn pipeline(check_bounds: bool) -> &'static str {
    if check_bounds {
        PIPELINE
    } else {
        PIPELINE_UNCHECKED
    }
}

struct Kernel {
    name: String,
    code: Arc<CompiledCode>,
    tasks: Vec<TaskInfo>,
    frame: FrameLayout,
    sites: Sites,
    notes: Vec<TaskNote>,
    /// Per task: what its threads cost in its last launch (where the next one runs).
    cost: Vec<TaskCost>,
    /// The launch context (`frame.words` words) and the temporaries (`temps` slots), allocated
    /// at compile time and refilled by each launch.
    base: Vec<u64>,
    temps_buf: Vec<u64>,
}

/// The multi-threaded CPU device (LLVM JIT).
pub struct CpuDevice {
    pool: rayon::ThreadPool,
    opts: Options,
    /// Whether kernels are lowered with field and ndarray bounds checks.
    check_bounds: bool,
    /// The adstack heaps' debug guard (`guard`).
    guard: AdstackGuard,
    kernels: Vec<Kernel>,
    /// The adstack heaps (float, int), in 8-byte words.
    heaps: [Vec<u64>; 2],
    /// The first overflow since the last sync.
    overflow: Option<AdstackOverflow>,
    /// The workers' contexts of pool runs, kept between launches.
    ctxs: Contexts,
    /// How many tasks were handed to the pool (the others ran on the calling thread).
    pool_runs: Arc<AtomicU64>,
    /// The bytes a task must write through its streaming stores for them to be non-temporal
    /// (`simd::driver`); None: never.
    stream_bytes: Option<u64>,
}

/// The threshold [`CpuDevice::STREAM_ENV`]'s value `v` sets ([`CpuDevice::STREAM_BYTES`] when
/// unset).
fn stream_from_env(v: Option<&str>) -> Result<Option<u64>, String> {
    match v.map(str::trim) {
        None | Some("") => Ok(Some(CpuDevice::STREAM_BYTES)),
        Some("off") => Ok(None),
        Some(b) => b.parse().map(Some).map_err(|_| {
            format!(
                "{}={b}: expected a byte count or 'off'",
                CpuDevice::STREAM_ENV
            )
        }),
    }
}

/// The address of a host buffer's first element.
fn storage_ptr(s: &mut Storage) -> u64 {
    (match s {
        Storage::I1(v) => v.as_mut_ptr() as *mut u8,
        Storage::I8(v) => v.as_mut_ptr() as *mut u8,
        Storage::I16(v) => v.as_mut_ptr() as *mut u8,
        Storage::I32(v) => v.as_mut_ptr() as *mut u8,
        Storage::I64(v) => v.as_mut_ptr() as *mut u8,
        Storage::U8(v) => v.as_mut_ptr(),
        Storage::U16(v) => v.as_mut_ptr() as *mut u8,
        Storage::U32(v) => v.as_mut_ptr() as *mut u8,
        Storage::U64(v) => v.as_mut_ptr() as *mut u8,
        Storage::F32(v) => v.as_mut_ptr() as *mut u8,
        Storage::F64(v) => v.as_mut_ptr() as *mut u8,
    }) as u64
}

impl CpuDevice {
    /// The default of [`CpuDevice::with_stream_threshold`]: 16 MiB written by one task. Below
    /// it the written data likely stays in the last-level cache for the next kernel to read,
    /// and plain stores are faster; above it the read for ownership of each line a plain store
    /// fills costs a third of a copy's memory traffic, which non-temporal stores avoid.
    /// Measured on the Zen 5 this was tuned on (32 MiB L3, 2 threads, `y = x + 1` repeated,
    /// non-temporal time / plain time): 4 MiB written 1.07, 8 MiB 1.45, 16 MiB 0.73, 64 MiB 0.74.
    pub const STREAM_BYTES: u64 = 16 << 20;

    /// Sets [`CpuDevice::new`]'s streaming threshold: a byte count, or `off`.
    pub const STREAM_ENV: &'static str = "QD_CPU_STREAM_BYTES";

    /// A device with one worker per available core, without field and ndarray bounds checks;
    /// its adstack guard is the one `QD_CPU_ADSTACK_GUARD` names (`guard::GUARD_ENV`: tests set
    /// it for a qd-run child), normally none.
    pub fn new() -> Result<Self, String> {
        let n = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        Ok(Self::with_threads(n)?
            .with_adstack_guard(AdstackGuard::from_env()?)
            .with_stream_threshold(stream_from_env(
                std::env::var(Self::STREAM_ENV).ok().as_deref(),
            )?))
    }

    /// A device with `threads` workers (at least 1), without field and ndarray bounds checks.
    pub fn with_threads(threads: usize) -> Result<Self, String> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .thread_name(|i| format!("qd-cpu-{i}"))
            .build()
            .map_err(|e| format!("cannot start the thread pool: {e}"))?;
        Ok(CpuDevice {
            pool,
            opts: Options::default(),
            check_bounds: false,
            guard: AdstackGuard::Off,
            kernels: Vec::new(),
            heaps: [Vec::new(), Vec::new()],
            overflow: None,
            ctxs: Contexts::default(),
            pool_runs: Arc::default(),
            stream_bytes: Some(Self::STREAM_BYTES),
        })
    }

    /// The device checking (or not) every field and ndarray index of the kernels it compiles:
    /// with checks, an out-of-range index is the interpreter's located error.
    pub fn with_check_bounds(mut self, check_bounds: bool) -> Self {
        self.check_bounds = check_bounds;
        self
    }

    /// The device with `threads` workers (at least 1) instead of one per core.
    pub fn with_thread_count(mut self, threads: usize) -> Result<Self, String> {
        self.pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .thread_name(|i| format!("qd-cpu-{i}"))
            .build()
            .map_err(|e| format!("cannot start the thread pool: {e}"))?;
        Ok(self)
    }

    /// The device compiling every task as scalar code (one parallel iteration per call) when
    /// `scalar` is set, instead of vectorising across SIMD lanes where it can.
    pub fn with_scalar_tasks(mut self, scalar: bool) -> Self {
        self.opts.vectorize = !scalar;
        self
    }

    /// The device compiling `while` back edges without polling the cancel flag when `checks`
    /// is off: it then refuses deadlines (`Device::supports_cancel` is false). Only to measure
    /// what the poll costs (benches/benches/timeout_cost.rs).
    pub fn with_cancel_checks(mut self, checks: bool) -> Self {
        self.opts.cancel_checks = checks;
        self
    }

    /// The device making a task's full-line vector stores to fields and ndarrays it does not
    /// read non-temporal when the task writes at least `bytes` through them (None: never; see
    /// `simd::driver`). Default [`CpuDevice::STREAM_BYTES`]; tests set 0 to take that path at any size.
    pub fn with_stream_threshold(mut self, bytes: Option<u64>) -> Self {
        self.stream_bytes = bytes;
        self
    }

    /// Whether field and ndarray indices are checked.
    pub fn check_bounds(&self) -> bool {
        self.check_bounds
    }

    /// The device laying out adstack heaps with `guard` (a debug mode, see `guard`).
    pub fn with_adstack_guard(mut self, guard: AdstackGuard) -> Self {
        self.guard = guard;
        self
    }

    /// The number of workers.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// A counter of the tasks this device handed to its thread pool; the others ran on the
    /// calling thread (`launch`). It stays readable once the device is boxed into a `Program`:
    /// for tests and benchmarks.
    pub fn pool_runs(&self) -> Arc<AtomicU64> {
        self.pool_runs.clone()
    }

    /// Bytes currently held by heap `h` (for tests: heaps are workers x stride).
    pub fn heap_bytes(&self, h: Heap) -> usize {
        self.heaps[h.index()].len() * 8
    }
}

impl Default for CpuDevice {
    fn default() -> Self {
        Self::new().expect("cannot start the CPU device's thread pool")
    }
}

impl Device for CpuDevice {
    fn name(&self) -> &str {
        NAME
    }

    fn lowering_pipeline(&self) -> &str {
        pipeline(self.check_bounds)
    }

    fn compile(
        &mut self,
        ctx: &Context,
        kernel: KernelIr<'_>,
        stacks: &KernelStacks,
        memory: &Memory,
    ) -> Result<CompiledKernel, Vec<Diagnostic>> {
        let op = kernel.op;
        if ctx.name(op) != qd_lowered::KERNEL_OP {
            return Err(vec![Diagnostic::error(
                ctx.loc(op),
                format!("{NAME} runs a lowered.kernel, got '{}'", ctx.name(op)),
            )]);
        }
        let input = KernelInput {
            ctx,
            op,
            name: kernel.name,
            stacks,
            memory,
        };
        let frame = input.frame();
        let sites = Sites::collect(ctx, op);
        // The guard lays out heap rows for one lane: a kernel with stacks runs scalar code.
        let mut opts = self.opts.clone();
        let guarded = self.guard != AdstackGuard::Off && !stacks.stacks.is_empty();
        if guarded {
            opts.vectorize = false;
        }
        let mut tasks = task_infos(ctx, op, kernel.name, stacks, &opts).map_err(|d| vec![d])?;
        if guarded && self.opts.vectorize {
            for t in &mut tasks {
                t.scalar_reason = Some(format!(
                    "the adstack guard ({GUARD_ENV}) lays out heap rows for scalar tasks"
                ));
            }
        }
        let notes = tasks
            .iter()
            .map(|t| TaskNote {
                loc: t.loc,
                lanes: t.lanes,
                scalar_reason: t.scalar_reason.clone(),
            })
            .collect();
        let temps = qd_lowered::KernelOp::from_op(ctx, op)
            .and_then(|k| k.temps_checked(ctx))
            .unwrap_or(0) as usize;
        let (code, _) = jit_kernel(&input, &frame, &sites, &opts).map_err(|d| vec![d])?;
        let mut temps_buf: Vec<u64> = Vec::new();
        if temps_buf.try_reserve_exact(temps).is_err() {
            return Err(vec![Diagnostic::error(
                ctx.loc(op),
                format!("cannot allocate {temps} temporaries slots"),
            )]);
        }
        temps_buf.resize(temps, 0);
        self.kernels.push(Kernel {
            name: kernel.name.to_string(),
            code,
            cost: vec![TaskCost::default(); tasks.len()],
            tasks,
            base: vec![0; frame.words as usize],
            frame,
            sites,
            temps_buf,
            notes,
        });
        Ok(CompiledKernel((self.kernels.len() - 1) as u32))
    }

    /// `while` back edges poll the flag, unless compiled without (`with_cancel_checks`).
    fn supports_cancel(&self) -> bool {
        self.opts.cancel_checks
    }

    fn launch(
        &mut self,
        ctx: &Context,
        kernel: CompiledKernel,
        args: &[Arg],
        adstacks: &AdstackPlan,
        memory: &mut Memory,
        cancel: &CancelFlag,
    ) -> Result<(), RuntimeError> {
        let CpuDevice {
            pool,
            guard,
            kernels,
            heaps,
            overflow,
            ctxs,
            pool_runs,
            stream_bytes,
            ..
        } = self;
        let Some(k) = kernels.get_mut(kernel.0 as usize) else {
            return Err(kernel.not_compiled_by(NAME));
        };
        // The launch path allocates nothing: the context and temporaries were sized at compile
        // time and are refilled here.
        let Kernel {
            name,
            code,
            tasks,
            frame,
            sites,
            cost,
            base,
            temps_buf,
            ..
        } = k;
        let name: &str = name;
        // Every word a task reads is written below or by `TaskRun::run_task` (a stack's words
        // by the task that owns it), so the context needs no clearing.
        if !temps_buf.is_empty() {
            temps_buf.fill(0);
        }
        base[W_TEMPS as usize] = temps_buf.as_mut_ptr() as u64;
        // The flag outlives the launch: the runtime owns it until `launch` returns.
        base[W_CANCEL as usize] = cancel.as_ptr() as u64;
        for i in 0..memory.num_fields() {
            let slot = memory.field_mut(i);
            base[frame.field(i, false) as usize] = storage_ptr(&mut slot.value);
            base[frame.field(i, true) as usize] = match slot.grad.as_mut() {
                Some(g) => storage_ptr(g),
                None => 0,
            };
        }
        for (j, a) in args.iter().enumerate() {
            let Some(&w) = frame.args.get(j) else {
                return Err(RuntimeError::device(name, "too many arguments"));
            };
            let w = w as usize;
            match a {
                Arg::Scalar(s) => base[w] = s.to_bits(),
                Arg::Ndarray(id) => {
                    let Some(nd) = memory.ndarray_mut(*id) else {
                        return Err(RuntimeError::device(
                            name,
                            format!("ndarray argument {j} is not registered"),
                        ));
                    };
                    let rank = frame.ranks.get(j).copied().flatten().unwrap_or(0);
                    for (axis, &d) in nd.shape().iter().take(rank).enumerate() {
                        base[w + 1 + axis] = d as u64;
                    }
                    base[w] = storage_ptr(nd.data_mut());
                }
            }
        }
        let mut run = TaskRun {
            ctx,
            pool,
            heaps,
            overflow,
            guard: *guard,
            ctxs,
            pool_runs,
            name,
            frame,
            sites,
            plan: adstacks,
            cancel,
            stream_bytes: *stream_bytes,
        };
        for ((t, &f), cost) in tasks.iter().zip(&code.tasks).zip(cost.iter_mut()) {
            run.run_task(t, f, cost, base, temps_buf).map_err(|e| *e)?;
        }
        Ok(())
    }

    fn sync(&mut self, memory: &mut Memory) -> Result<(), Vec<RuntimeError>> {
        // Launches run to completion before `launch` returns; the overflow flag is read here.
        if let Some(o) = self.overflow.take() {
            memory.record_adstack_overflow(o);
        }
        Ok(())
    }

    fn error_location(&self, kernel: CompiledKernel, code: u32) -> Option<Location> {
        self.kernels
            .get(kernel.0 as usize)?
            .sites
            .source_map
            .location(code)
    }

    fn task_notes(&self, kernel: CompiledKernel) -> Vec<TaskNote> {
        self.kernels
            .get(kernel.0 as usize)
            .map(|k| k.notes.clone())
            .unwrap_or_default()
    }

    /// The lowered layout: i1 stacks hold i32 entries.
    fn adstack_entry_bytes(&self, elem: DType) -> u64 {
        lowered_entry_bytes(elem)
    }
}

/// What the tasks of one launch share: the parts of the device they use and the kernel's.
struct TaskRun<'a> {
    ctx: &'a Context,
    pool: &'a rayon::ThreadPool,
    heaps: &'a mut [Vec<u64>; 2],
    overflow: &'a mut Option<AdstackOverflow>,
    guard: AdstackGuard,
    ctxs: &'a mut Contexts,
    pool_runs: &'a AtomicU64,
    name: &'a str,
    frame: &'a FrameLayout,
    sites: &'a Sites,
    plan: &'a AdstackPlan,
    cancel: &'a CancelFlag,
    stream_bytes: Option<u64>,
}

impl TaskRun<'_> {
    /// Runs one task: resolves its range, lays out and publishes its heaps, runs its threads
    /// (on the calling thread or the pool: `launch`), and gathers its error and overflow.
    fn run_task(
        &mut self,
        task: &TaskInfo,
        f: crate::cache::TaskFn,
        cost: &mut TaskCost,
        base: &mut [u64],
        temps: &[u64],
    ) -> Result<(), Box<RuntimeError>> {
        let (ctx, name, frame, plan) = (self.ctx, self.name, self.frame, self.plan);
        let at = |msg: String| {
            Box::new(RuntimeError::at(
                ctx,
                task.loc,
                RuntimeErrorKind::Device,
                name,
                msg,
            ))
        };
        let resolve = |b: TaskBound| match b {
            TaskBound::Const(v) => v,
            TaskBound::Temp(s) => temps.get(s as usize).copied().unwrap_or(0) as i64,
        };
        let (begin, threads) = match task.kind {
            TaskKind::Serial => (0, 1u64),
            TaskKind::Range { begin, end } => {
                let (b, e) = (resolve(begin), resolve(end));
                (b, (i128::from(e) - i128::from(b)).max(0) as u64)
            }
        };
        if threads == 0 {
            return Ok(());
        }
        if threads > i64::MAX as u64 {
            return Err(at(format!("a task of {threads} threads is too large")));
        }
        let layout = HeapLayout::compute(plan, &task.stacks).map_err(|e| at(e.to_string()))?;
        let pool_workers = self.pool.current_num_threads();
        let inline = match task.kind {
            TaskKind::Serial => true,
            TaskKind::Range { .. } => cost.runs_inline(threads, task.lanes, pool_workers),
        };
        let workers = if inline {
            1
        } else {
            (pool_workers as u64).min(threads)
        };
        // A vectorised task's row holds its lanes' stacks interleaved: `lanes` scalar rows.
        let rows = workers * u64::from(task.lanes);
        for heap in [Heap::Float, Heap::Int] {
            let bytes = layout
                .heap_bytes(name, heap, rows)
                .map_err(|e| at(e.to_string()))?;
            ensure_host_heap(&mut self.heaps[heap.index()], name, heap, bytes).map_err(Box::new)?;
        }
        base[W_HEAP_FLOAT as usize] = self.heaps[0].as_mut_ptr() as u64;
        base[W_HEAP_INT as usize] = self.heaps[1].as_mut_ptr() as u64;
        base[W_STRIDE_FLOAT as usize] = layout.stride(Heap::Float);
        base[W_STRIDE_INT as usize] = layout.stride(Heap::Int);
        base[W_BEGIN as usize] = begin as u64;
        // Per thread: a task streams when `threads * its bytes per thread` reaches the bound.
        base[W_STREAM as usize] = self.stream_bytes.map_or(NONE, |b| b.div_ceil(threads));
        for s in layout.stacks() {
            if let Some(&w) = frame.stacks.get(&s.id) {
                base[w as usize] = s.offset;
                base[w as usize + 1] = s.max_size;
            }
        }
        // A debug guard (`guard`) replaces the heaps of this task; they live until it is done.
        let mut guarded = GuardedHeaps::new(self.guard, name, &layout, workers).map_err(at)?;
        if let Some(g) = guarded.as_mut() {
            g.publish(base, &frame.stacks);
        }
        base[W_ERR_SITE as usize] = NONE;
        base[W_OVF_THREAD as usize] = NONE;
        let ((failure, overflow), busy) = if inline {
            // Serial tasks and single calls always run here: their cost decides nothing.
            let measure = matches!(task.kind, TaskKind::Range { .. })
                && !TaskCost::always_inline(threads, task.lanes, pool_workers);
            run_inline(f, base, threads, measure)
        } else {
            let ctxs = self.ctxs.prepare(base, workers as usize, |c, w| {
                if let Some(g) = &guarded {
                    g.publish_row(c, w, &frame.stacks);
                }
            });
            self.pool_runs.fetch_add(1, Ordering::Relaxed);
            let (outcome, busy) = run_range(self.pool, f, ctxs, (threads, task.lanes), self.cancel);
            (outcome, Some(busy))
        };
        // A run cut short by an error says little about what its threads cost.
        if let (None, Some(busy)) = (&failure, busy) {
            cost.record(threads, busy);
        }
        if let Some(v) = guarded.as_ref().and_then(GuardedHeaps::check) {
            let loc = plan.stack(v.stack).map_or(task.loc, |s| s.loc);
            let e = RuntimeError::at(ctx, loc, RuntimeErrorKind::Device, name, v.message());
            return Err(Box::new(e));
        }
        // The interpreter stops at the first failing thread: overflows after it never happen.
        let overflow = overflow.filter(|(t, _)| failure.as_ref().is_none_or(|x| *t <= x.thread));
        if let Some((_, id)) = overflow {
            let capacity = layout.max_size(id as u32).unwrap_or(0);
            let loc = plan.stack(id as u32).map(|s| s.loc);
            if let (None, Some(loc)) = (&self.overflow, loc) {
                *self.overflow = Some(AdstackOverflow {
                    kernel: name.to_string(),
                    loc,
                    capacity,
                });
            }
        }
        match failure {
            Some(fl) => Err(Box::new(self.sites.error(name, fl.site, &fl.values))),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_threshold_comes_from_the_environment() {
        assert_eq!(stream_from_env(None), Ok(Some(CpuDevice::STREAM_BYTES)));
        assert_eq!(stream_from_env(Some("off")), Ok(None));
        assert_eq!(stream_from_env(Some(" 4096 ")), Ok(Some(4096)));
        let e = stream_from_env(Some("16M")).unwrap_err();
        assert!(
            e.contains(CpuDevice::STREAM_ENV) && e.contains("16M"),
            "{e}"
        );
    }
}
