//! [`MlirCpuDevice`]: the device `mlir-cpu`, a second compiler next to `cpu`. Each kernel the
//! runtime compiles (lowered by `convert-qd-to-lowered`, as for `cpu`) is exported to upstream
//! MLIR ([`crate::export`]), lowered by MLIR's own passes to the LLVM dialect and JIT-compiled by
//! MLIR's ExecutionEngine ([`crate::pipeline`]); nothing of qd-llvm is used.
//!
//! The launch contract is the `cpu` device's, run on one host thread:
//! - tasks run in order, a task's threads one after another in ascending order (the parallel
//!   loops' iterations in the interpreter's order, so float atomics add in its order too);
//! - adstack heaps have one row (one thread runs at a time, and an alloca resets its stack),
//!   laid out per task by the runtime's `HeapLayout` from the launch's plan, grown by doubling
//!   (or exactly when doubling cannot be allocated), zeroed before each task;
//! - the kernel computes directly in the program's host memory: `upload`/`download` copy nothing;
//! - errors: a failing check records its site in the task's status record and stops its thread;
//!   later threads and tasks do not run; the error is the interpreter's (`Sites::error`), located
//!   through the kernel's source map;
//! - overflow: the first overflowing thread's stack is kept (unless a lower thread failed first)
//!   and `sync` reports it as the other devices do (the kernel, the stack's alloca location and
//!   its capacity in this launch);
//! - bounds: field and ndarray indices are checked only with `check_bounds`, as on `cpu`; local
//!   arrays always.
//! - deadlines: each `while` back edge polls the launch's cancel flag (`qd_runtime::cancel`),
//!   whose address a task with a `while` loop takes; a launch past its deadline stops there
//!   with the loop's error (`SiteKind::Cancelled`), its later threads and tasks not run, as on
//!   `cpu`.

use crate::context::MlirContext;
use crate::export::{export_kernel, status, Param, TaskSig};
use crate::pipeline::{lower_to_llvm, Jit};
use qd_ir::{Context, Diagnostic, Location};
use qd_lowered::{TaskBound, TaskKind};
use qd_runtime::adstack::host_heap::ensure_host_heap;
use qd_runtime::adstack::layout::{lowered_entry_bytes, Heap, HeapLayout};
use qd_runtime::device::KernelIr;
use qd_runtime::sites::Sites;
use qd_runtime::{
    AdstackOverflow, AdstackPlan, Arg, CancelFlag, CompiledKernel, DType, Device, KernelStacks,
    Memory, RuntimeError, RuntimeErrorKind, Storage,
};
use std::ffi::c_void;

/// The device's name, as `--device` spells it.
pub const NAME: &str = "mlir-cpu";
/// The lowering with every bounds check (as `cpu` with `--check-bounds`).
pub const PIPELINE: &str = "builtin.module(convert-qd-to-lowered)";
/// The default lowering: field and ndarray accesses unchecked (as `cpu`).
pub const PIPELINE_UNCHECKED: &str = "builtin.module(convert-qd-to-lowered{check-bounds=false})";

struct Kernel {
    name: String,
    jit: Jit,
    tasks: Vec<(TaskSig, Vec<(u32, DType)>)>,
    sites: Sites,
    temps: usize,
}

/// The `mlir-cpu` device.
#[derive(Default)]
pub struct MlirCpuDevice {
    check_bounds: bool,
    kernels: Vec<Kernel>,
    /// The adstack heaps (float, int), in 8-byte words.
    heaps: [Vec<u64>; 2],
    /// The first overflow since the last sync.
    overflow: Option<AdstackOverflow>,
}

/// The address and element count of a host buffer (through `as_mut_slice`, which the buffer
/// types of every variant have).
fn storage(s: &mut Storage) -> (u64, u64) {
    let n = s.len() as u64;
    let p = match s {
        Storage::I1(v) => v.as_mut_slice().as_mut_ptr() as *mut u8,
        Storage::I8(v) => v.as_mut_slice().as_mut_ptr() as *mut u8,
        Storage::I16(v) => v.as_mut_slice().as_mut_ptr() as *mut u8,
        Storage::I32(v) => v.as_mut_slice().as_mut_ptr() as *mut u8,
        Storage::I64(v) => v.as_mut_slice().as_mut_ptr() as *mut u8,
        Storage::U8(v) => v.as_mut_slice().as_mut_ptr(),
        Storage::U16(v) => v.as_mut_slice().as_mut_ptr() as *mut u8,
        Storage::U32(v) => v.as_mut_slice().as_mut_ptr() as *mut u8,
        Storage::U64(v) => v.as_mut_slice().as_mut_ptr() as *mut u8,
        Storage::F32(v) => v.as_mut_slice().as_mut_ptr() as *mut u8,
        Storage::F64(v) => v.as_mut_slice().as_mut_ptr() as *mut u8,
    };
    (p as u64, n)
}

/// The five words of a `memref<?xT>` descriptor of `n` elements at `p`.
fn descriptor(p: u64, n: u64) -> [u64; 5] {
    [p, p, 0, n, 1]
}

impl MlirCpuDevice {
    pub fn new() -> Self {
        Self::default()
    }

    /// The device checking (or not) every field and ndarray index, as `cpu`.
    pub fn with_check_bounds(mut self, check_bounds: bool) -> Self {
        self.check_bounds = check_bounds;
        self
    }
}

impl Device for MlirCpuDevice {
    fn name(&self) -> &str {
        NAME
    }

    fn lowering_pipeline(&self) -> &str {
        if self.check_bounds {
            PIPELINE
        } else {
            PIPELINE_UNCHECKED
        }
    }

    fn compile(
        &mut self,
        ctx: &Context,
        kernel: KernelIr<'_>,
        stacks: &KernelStacks,
        memory: &Memory,
    ) -> Result<CompiledKernel, Vec<Diagnostic>> {
        let op = kernel.op;
        let located = |m: String| vec![Diagnostic::error(ctx.loc(op), m)];
        let mcx = MlirContext::new();
        let exported = export_kernel(&mcx, ctx, op, kernel.name, memory).map_err(|d| vec![d])?;
        let mut module = exported.module;
        lower_to_llvm(&mcx, &mut module).map_err(located)?;
        let symbols: Vec<&str> = exported.tasks.iter().map(|t| t.symbol.as_str()).collect();
        let jit = Jit::new(&mcx, &module, &symbols).map_err(located)?;
        let mut tasks = Vec::new();
        for t in exported.tasks {
            let mut ts = Vec::new();
            for &id in &t.stacks {
                let s = stacks.get(id).ok_or_else(|| {
                    located(format!(
                        "lowered.task: adstack id {id} is not a stack of the kernel"
                    ))
                })?;
                ts.push((id, s.elem));
            }
            tasks.push((t, ts));
        }
        let temps = qd_lowered::KernelOp::from_op(ctx, op)
            .and_then(|k| k.temps_checked(ctx))
            .unwrap_or(0) as usize;
        self.kernels.push(Kernel {
            name: kernel.name.to_string(),
            jit,
            tasks,
            sites: exported.sites,
            temps,
        });
        Ok(CompiledKernel((self.kernels.len() - 1) as u32))
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
        let Some(k) = self.kernels.get(kernel.0 as usize) else {
            return Err(kernel.not_compiled_by(NAME));
        };
        let name = k.name.clone();
        let mut temps: Vec<u64> = Vec::new();
        if temps.try_reserve_exact(k.temps).is_err() {
            return Err(RuntimeError::device(
                &name,
                format!("cannot allocate {} temporaries slots", k.temps),
            ));
        }
        temps.resize(k.temps, 0);
        for i in 0..k.tasks.len() {
            self.run_task(ctx, kernel, i, args, adstacks, memory, &mut temps, cancel)?;
        }
        Ok(())
    }

    /// Every `while` back edge polls the flag.
    fn supports_cancel(&self) -> bool {
        true
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

    /// The lowered layout: i1 stacks hold i32 entries.
    fn adstack_entry_bytes(&self, elem: DType) -> u64 {
        lowered_entry_bytes(elem)
    }
}

impl MlirCpuDevice {
    /// Runs task `i` of `kernel`: resolves its range, lays out its heaps, calls its function
    /// for all its threads (polling `cancel` at `while` back edges), and reads its status
    /// record.
    #[allow(clippy::too_many_arguments)]
    fn run_task(
        &mut self,
        ctx: &Context,
        kernel: CompiledKernel,
        i: usize,
        args: &[Arg],
        plan: &AdstackPlan,
        memory: &mut Memory,
        temps: &mut [u64],
        cancel: &CancelFlag,
    ) -> Result<(), RuntimeError> {
        let k = &self.kernels[kernel.0 as usize];
        let name = k.name.clone();
        let (sig, task_stacks) = k.tasks[i].clone();
        let at = |msg: String| RuntimeError::at(ctx, sig.loc, RuntimeErrorKind::Device, &name, msg);
        let resolve = |b: TaskBound| match b {
            TaskBound::Const(v) => v,
            TaskBound::Temp(s) => temps.get(s as usize).copied().unwrap_or(0) as i64,
        };
        let (begin, threads) = match sig.kind {
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
        let layout = HeapLayout::compute(plan, &task_stacks).map_err(|e| at(e.to_string()))?;
        for heap in [Heap::Float, Heap::Int] {
            let bytes = layout
                .heap_bytes(&name, heap, 1)
                .map_err(|e| at(e.to_string()))?;
            ensure_host_heap(&mut self.heaps[heap.index()], &name, heap, bytes)?;
        }
        let mut meta: Vec<u64> = vec![layout.stride(Heap::Float), layout.stride(Heap::Int)];
        for &(id, _) in &task_stacks {
            meta.push(layout.offset(id).unwrap_or(0));
            meta.push(layout.max_size(id).unwrap_or(0));
        }
        let mut st = status::fresh();
        // One word per LLVM argument; the packed call reads each through a pointer.
        let mut words: Vec<u64> = Vec::new();
        for p in &sig.params {
            match p {
                Param::ThreadFirst => words.push(0),
                Param::ThreadLast => words.push(threads),
                Param::Begin => words.push(begin as u64),
                Param::Row => words.push(0),
                Param::Temps => words.extend(descriptor(
                    temps.as_mut_ptr() as u64,
                    temps.len() as u64 * 8,
                )),
                Param::HeapFloat | Param::HeapInt => {
                    let h = &mut self.heaps[usize::from(*p == Param::HeapInt)];
                    words.extend(descriptor(h.as_mut_ptr() as u64, h.len() as u64 * 8));
                }
                Param::Meta => {
                    words.extend(descriptor(meta.as_mut_ptr() as u64, meta.len() as u64))
                }
                Param::Status => words.extend(descriptor(st.as_mut_ptr() as u64, st.len() as u64)),
                // The runtime owns the flag until `launch` returns.
                Param::Cancel => words.push(cancel.as_ptr() as u64),
                Param::Scalar { arg } => match args.get(*arg) {
                    Some(Arg::Scalar(s)) => words.push(s.to_bits()),
                    _ => return Err(at(format!("argument {arg} is not a scalar"))),
                },
                Param::NdData { arg } => {
                    let Some(Arg::Ndarray(id)) = args.get(*arg) else {
                        return Err(at(format!("argument {arg} is not an ndarray")));
                    };
                    let nd = memory
                        .ndarray_mut(*id)
                        .ok_or_else(|| at(format!("ndarray argument {arg} is not registered")))?;
                    let (p, n) = storage(nd.data_mut());
                    words.extend(descriptor(p, n));
                }
                Param::NdDim { arg, axis } => {
                    let Some(Arg::Ndarray(id)) = args.get(*arg) else {
                        return Err(at(format!("argument {arg} is not an ndarray")));
                    };
                    let nd = memory
                        .ndarray(*id)
                        .ok_or_else(|| at(format!("ndarray argument {arg} is not registered")))?;
                    words.push(nd.shape().get(*axis).copied().unwrap_or(0) as u64);
                }
                Param::Field { index, grad } => {
                    let slot = memory.field_mut(*index);
                    let s = if *grad {
                        slot.grad
                            .as_mut()
                            .ok_or_else(|| at(format!("field {} has no adjoint", slot.info.name)))?
                    } else {
                        &mut slot.value
                    };
                    let (p, n) = storage(s);
                    words.extend(descriptor(p, n));
                }
            }
        }
        let mut ptrs: Vec<*mut c_void> = words
            .iter_mut()
            .map(|w| w as *mut u64 as *mut c_void)
            .collect();
        let k = &self.kernels[kernel.0 as usize];
        // SAFETY: the words follow the function's parameters (`TaskSig::params`), each memref's
        // descriptor describes a live host buffer of its length, which the launch borrows; the
        // heaps are not replaced while the task runs; the cancel flag outlives the call.
        unsafe { k.jit.invoke(&sig.symbol, &mut ptrs) }.map_err(at)?;
        let failed = st[status::ERR_THREAD];
        let ovf = st[status::OVF_THREAD];
        // The interpreter stops at the first failing thread: overflows after it never happen.
        if ovf != status::NONE
            && (failed == status::NONE || ovf <= failed)
            && self.overflow.is_none()
        {
            let id = st[status::OVF_STACK] as u32;
            if let Some(s) = plan.stack(id) {
                self.overflow = Some(AdstackOverflow {
                    kernel: name.clone(),
                    loc: s.loc,
                    capacity: layout.max_size(id).unwrap_or(0),
                });
            }
        }
        if failed != status::NONE {
            let values: Vec<u64> = st[status::ERR_VALUES..status::ERR_VALUES + status::MAX_VALUES]
                .iter()
                .map(|&v| v as u64)
                .collect();
            return Err(k.sites.error(&name, st[status::ERR_SITE] as u64, &values));
        }
        Ok(())
    }
}
