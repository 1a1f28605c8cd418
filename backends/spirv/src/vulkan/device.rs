//! [`VulkanDevice`]: the device `vulkan`. Kernels are lowered by `convert-qd-to-lowered`,
//! compiled to one SPIR-V module each (an entry point per task, see `crate::abi`), and run as
//! one compute pipeline per task:
//!
//! - fields, adjoints and ndarrays live in device buffers, copied by `upload` and `download`;
//! - a launch records its tasks into the current batch, in order, with a barrier after each.
//!   A task's thread count comes from its real bounds: a constant, or a temporaries slot that
//!   the previous tasks wrote, read back after the batch so far has been submitted and waited
//!   for (when a task failed by then, the rest of the launch does not run);
//! - each dispatch gets a fresh metadata buffer (the task's begin, the dispatch's threads and
//!   first thread, heap strides, each stack's offset and capacity from the runtime's
//!   `HeapLayout`), and heaps of `threads x stride` bytes (zeroed before it, as fresh heaps
//!   are), grown as `heap` describes. A task whose heaps would pass what one binding holds
//!   (`maxStorageBufferRange`, 128 MiB on lavapipe; 2^31 without Int64) runs as several
//!   dispatches over consecutive threads reusing the rows, each told its first thread so that
//!   its threads' ids (and so their iterations) are the task's;
//! - bounds: field and ndarray indices are checked only with `with_check_bounds(true)`
//!   (`--check-bounds`), as on `cpu`; robust buffer access keeps an unchecked access inside
//!   its buffer (local arrays are always checked);
//! - errors and overflows go to per-task records, read at `sync` in task order (the first
//!   failing task ends what is reported, as the interpreter stops there): an error record becomes the
//!   interpreter's error through the kernel's error sites (located by the program through
//!   `error_location`), an overflow record the same `AdstackOverflow` the interpreters give (the
//!   kernel, the stack's location, its capacity in that launch); a later sync is clean;
//! - a driver that silently stops an invocation's loops after so many iterations in all
//!   (lavapipe: 65535, Mesa gallivm's loop limiter, shared by every loop of the invocation) is
//!   found by its driver id (`Capabilities::loop_limit`); kernels compiled for it count loop
//!   passes as the driver does (per subgroup) and a loop that ends at the cap is a located
//!   runtime error at sync (naming the loop, the thread and the count; a run of exactly the cap
//!   is reported too), never a cut-short result (`crate::abi::LoopLimit`; `--device cpu` has no
//!   such limit);
//! - a Vulkan failure (device lost, out of memory) is a runtime error, never a panic.

use super::error::VkError;
use super::heap::GrowingHeap;
use super::host::{fill_storage, storage_bytes};
use super::instance::{Capabilities, Gpu};
use super::memory::DeviceBuffer;
use super::pipeline::{DescriptorSet, KernelPipelines};
use super::submit::Submitter;
use crate::abi::{self, ArgSlot, BindingKind, Bound, Dispatch, Options, SpirvKernel, SpirvTask};
use ash::vk;
use qd_ir::{Context, Diagnostic, Location};
use qd_runtime::adstack::layout::{lowered_entry_bytes, Heap, HeapLayout};
use qd_runtime::device::{Buffer, KernelIr};
use qd_runtime::{
    AdstackOverflow, AdstackPlan, Arg, CancelFlag, CompiledKernel, DType, Device, FieldRef,
    KernelStacks, Memory, RuntimeError, RuntimeErrorKind, Storage,
};
use std::collections::HashMap;
use std::sync::Arc;

/// The device's name, as `--device` spells it.
pub const NAME: &str = "vulkan";
/// The lowering with every bounds check (`--check-bounds`).
pub const PIPELINE: &str = "builtin.module(convert-qd-to-lowered)";
/// The default lowering: field and ndarray accesses unchecked (robust buffer access keeps an
/// out-of-range access inside the buffer: a wrong value, never a fault).
pub const PIPELINE_UNCHECKED: &str = "builtin.module(convert-qd-to-lowered{check-bounds=false})";

/// The most workgroups of one dispatch along x (and y): Vulkan guarantees 65535.
const MAX_GROUPS: u64 = 65535;

struct Kernel {
    spirv: SpirvKernel,
    pipelines: KernelPipelines,
}

/// A launch whose records are read at the next sync.
struct PendingLaunch {
    kernel: usize,
    /// Each task's records, in task order.
    records: Vec<Records>,
    /// Each stack of the kernel in that launch: id, alloca location, capacity.
    stacks: Vec<(u32, Location, u64)>,
}

/// The Vulkan device.
pub struct VulkanDevice {
    // Field order is drop order: the submitter waits for all work before anything it uses goes.
    sub: Submitter,
    pending: Vec<PendingLaunch>,
    kernels: Vec<Kernel>,
    buffers: HashMap<Buffer, DeviceBuffer>,
    heaps: [GrowingHeap; 2],
    options: Options,
    /// Whether kernels are lowered with field and ndarray bounds checks.
    check_bounds: bool,
    /// A smaller limit on the bytes of one heap binding (tests of split dispatches).
    heap_limit_override: Option<u64>,
    gpu: Arc<Gpu>,
}

/// The codegen options for a device with `caps`: every capability it has, workgroups of 64
/// (at most what the device allows).
pub fn options_for(caps: &Capabilities) -> Options {
    Options {
        int64: caps.int64,
        float64: caps.float64,
        int8: caps.int8,
        int16: caps.int16,
        atomic_float_add: caps.float32_atomic_add,
        workgroup_size: 64.min(caps.max_workgroup_invocations.max(1)),
        loop_limit: caps.loop_limit,
    }
}

/// The workgroup grid `(gx, gy)` covering `groups` workgroups, gx at most [`MAX_GROUPS`].
pub fn grid(groups: u64) -> Option<(u32, u32)> {
    if groups == 0 {
        return Some((0, 0));
    }
    let gx = groups.min(MAX_GROUPS);
    let gy = groups.div_ceil(gx);
    (gy <= MAX_GROUPS).then_some((gx as u32, gy as u32))
}

fn heap_index(h: Heap) -> usize {
    match h {
        Heap::Float => 0,
        Heap::Int => 1,
    }
}

impl VulkanDevice {
    /// Starts Vulkan on the device the selection policy picks (see `instance`).
    pub fn new() -> Result<VulkanDevice, VkError> {
        let gpu = Arc::new(Gpu::new()?);
        let sub = Submitter::new(&gpu)?;
        Ok(VulkanDevice {
            sub,
            pending: Vec::new(),
            kernels: Vec::new(),
            buffers: HashMap::new(),
            heaps: [GrowingHeap::new("float"), GrowingHeap::new("int")],
            options: options_for(&gpu.caps),
            // Without robust buffer access an unchecked index could fault: always check.
            check_bounds: !gpu.robust,
            heap_limit_override: None,
            gpu,
        })
    }

    /// The device checking (or not) every field and ndarray index of the kernels it compiles
    /// (always, on a device without robust buffer access).
    pub fn with_check_bounds(mut self, check_bounds: bool) -> Self {
        self.check_bounds = check_bounds || !self.gpu.robust;
        self
    }

    /// What the device supports.
    pub fn capabilities(&self) -> &Capabilities {
        &self.gpu.caps
    }
    /// The physical device's name.
    pub fn device_name(&self) -> &str {
        &self.gpu.name
    }
    /// Whether it runs on the CPU (lavapipe).
    pub fn is_cpu(&self) -> bool {
        self.gpu.is_cpu()
    }
    /// The options kernels are compiled with.
    pub fn options(&self) -> &Options {
        &self.options
    }
    /// Replaces the options kernels are compiled with (tests: a device without a capability).
    pub fn set_options(&mut self, options: Options) {
        self.options = options;
    }

    /// Bytes currently held by heap `h`, and how often it grew (for tests).
    pub fn heap_state(&self, h: Heap) -> (u64, u32) {
        let heap = &self.heaps[heap_index(h)];
        (heap.capacity(), heap.grows)
    }
    /// Makes heap allocations above `limit` bytes fail as out of memory (tests of the
    /// exact-size retry).
    pub fn set_heap_alloc_limit(&mut self, limit: Option<u64>) {
        for h in &mut self.heaps {
            h.alloc_limit = limit;
        }
    }
    /// Limits the bytes one heap binding may take below the device's own limit (tests of
    /// tasks split into several dispatches).
    pub fn set_heap_limit(&mut self, bytes: Option<u64>) {
        self.heap_limit_override = bytes;
    }
    /// The buffers of fields, adjoints and ndarrays the device holds a copy of (for tests).
    pub fn device_buffers(&self) -> usize {
        self.buffers.len()
    }
    /// Submitted batches not known to have finished (for tests).
    pub fn batches_in_flight(&self) -> usize {
        self.sub.in_flight()
    }
    /// Resources waiting for their batch's fence before they are freed (for tests).
    pub fn pending_frees(&self) -> usize {
        self.sub.pending_retired()
    }

    /// Makes pipelines for a compiled kernel; refused (before any pipeline) when the device
    /// lacks a capability the module declares.
    pub fn load(&mut self, spirv: SpirvKernel) -> Result<CompiledKernel, VkError> {
        // A debugging aid: QD_SPIRV_DUMP=DIR writes each module to DIR/<kernel>.spv (for
        // spirv-val and spirv-dis); a failed write is ignored.
        if let Some(dir) = std::env::var_os("QD_SPIRV_DUMP") {
            let bytes: Vec<u8> = spirv.words.iter().flat_map(|w| w.to_le_bytes()).collect();
            let _ = std::fs::write(
                std::path::Path::new(&dir).join(format!("{}.spv", spirv.name)),
                bytes,
            );
        }
        let pipelines = KernelPipelines::new(&self.gpu, &spirv)?;
        self.kernels.push(Kernel { spirv, pipelines });
        Ok(CompiledKernel((self.kernels.len() - 1) as u32))
    }

    /// The device copy of `what`, made (and filled from `memory`) when missing or when the
    /// host buffer's size changed.
    fn ensure_buffer(&mut self, memory: &Memory, what: Buffer) -> Result<(), VkError> {
        let Some(s) = host_storage(memory, what) else {
            return Ok(());
        };
        let bytes = storage_bytes(s);
        if self
            .buffers
            .get(&what)
            .is_some_and(|b| b.len() == bytes.len() as u64)
        {
            return Ok(());
        }
        let mut b = DeviceBuffer::new(&self.gpu, bytes.len() as u64)?;
        b.write(0, bytes);
        if let Some(old) = self.buffers.insert(what, b) {
            let serial = self.sub.current_serial();
            self.sub.retire(serial, Box::new(old));
        }
        Ok(())
    }
}

/// The host storage of `what`, if it exists.
fn host_storage(memory: &Memory, what: Buffer) -> Option<&Storage> {
    match what {
        Buffer::Field(r) => {
            if r.index >= memory.num_fields() {
                return None;
            }
            let slot = memory.field(r.index);
            if r.grad {
                slot.grad.as_ref()
            } else {
                Some(&slot.value)
            }
        }
        Buffer::Ndarray(id) => memory.ndarray(id).map(|n| n.data()),
    }
}

fn rt(kernel: &str, e: VkError) -> RuntimeError {
    RuntimeError::device(kernel, e.to_string())
}

/// The error a failed compile is, at the kernel.
fn diag(ctx: &Context, kernel: KernelIr<'_>, message: String) -> Vec<Diagnostic> {
    vec![Diagnostic::error(ctx.loc(kernel.op), message)]
}

impl Device for VulkanDevice {
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
        if ctx.name(kernel.op) != qd_lowered::KERNEL_OP {
            return Err(diag(
                ctx,
                kernel,
                format!(
                    "{NAME} runs a lowered.kernel, got '{}'",
                    ctx.name(kernel.op)
                ),
            ));
        }
        let _ = memory;
        let spirv = crate::compile_kernel(ctx, kernel.op, kernel.name, stacks, &self.options)
            .map_err(|d| vec![d])?;
        self.load(spirv)
            .map_err(|e| diag(ctx, kernel, format!("kernel @{}: {e}", kernel.name)))
    }

    fn upload(&mut self, memory: &Memory, what: Buffer) -> Result<(), RuntimeError> {
        let Some(s) = host_storage(memory, what) else {
            return Ok(());
        };
        let len = storage_bytes(s).len() as u64;
        match self.buffers.get(&what) {
            Some(b) if b.len() == len => {
                // Work in flight may read or write this buffer: let it finish first.
                self.sub.wait_idle().map_err(|e| rt("?", e))?;
                let b = self.buffers.get_mut(&what).expect("checked above");
                b.write(0, storage_bytes(s));
                Ok(())
            }
            _ => self.ensure_buffer(memory, what).map_err(|e| rt("?", e)),
        }
    }

    fn download(&mut self, memory: &mut Memory, what: Buffer) -> Result<(), RuntimeError> {
        let Some(b) = self.buffers.get(&what) else {
            return Ok(());
        };
        self.sub.wait_idle().map_err(|e| rt("?", e))?;
        let s = match what {
            Buffer::Field(r) if r.index < memory.num_fields() => {
                let slot = memory.field_mut(r.index);
                if r.grad {
                    slot.grad.as_mut()
                } else {
                    Some(&mut slot.value)
                }
            }
            Buffer::Field(_) => None,
            Buffer::Ndarray(id) => memory.ndarray_mut(id).map(|n| n.data_mut()),
        };
        if let Some(s) = s {
            if storage_bytes(s).len() as u64 == b.len() {
                fill_storage(s, |out| b.read(0, out));
            }
        }
        Ok(())
    }

    fn launch(
        &mut self,
        ctx: &Context,
        kernel: CompiledKernel,
        args: &[Arg],
        adstacks: &AdstackPlan,
        memory: &mut Memory,
        // Never set: a shader cannot be stopped once submitted (`supports_cancel` is false).
        _cancel: &CancelFlag,
    ) -> Result<(), RuntimeError> {
        let k = kernel.0 as usize;
        let Some(name) = self.kernels.get(k).map(|k| k.spirv.name.clone()) else {
            return Err(kernel.not_compiled_by(NAME));
        };
        self.launch_kernel(ctx, k, args, adstacks, memory)
            .map_err(|e| match e {
                LaunchError::Vk(e) => rt(&name, e),
                LaunchError::Runtime(e) => *e,
            })
    }

    fn sync(&mut self, memory: &mut Memory) -> Result<(), Vec<RuntimeError>> {
        let mut errors = Vec::new();
        if let Err(e) = self.sub.wait_idle() {
            errors.push(rt("?", e));
        }
        for p in std::mem::take(&mut self.pending) {
            let k = &self.kernels[p.kernel].spirv;
            // Tasks in order, as the interpreter runs them: it stops at the first failing
            // task, so what later tasks recorded never happened (nor did an overflow of a
            // thread after the failing one).
            for r in &p.records {
                let failed = r.errors.read_u32(abi::ERR_CLAIM as u64) != 0;
                if r.overflow.read_u32(abi::OVF_CLAIM as u64) != 0 {
                    let id = r.overflow.read_u32(abi::OVF_STACK as u64);
                    let thread = r.overflow.read_u32(abi::OVF_THREAD as u64);
                    let before = !failed || thread <= r.errors.read_u32(abi::ERR_THREAD as u64);
                    let stack = p.stacks.iter().find(|s| s.0 == id);
                    if let (true, Some(&(_, loc, capacity))) = (before, stack) {
                        if memory.adstack_overflow().is_none() {
                            memory.record_adstack_overflow(AdstackOverflow {
                                kernel: k.name.clone(),
                                loc,
                                capacity,
                            });
                        }
                    }
                }
                if failed {
                    errors.extend(read_error(k, &r.errors));
                    break;
                }
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    fn error_location(&self, kernel: CompiledKernel, code: u32) -> Option<Location> {
        self.kernels
            .get(kernel.0 as usize)?
            .spirv
            .source_map()
            .location(code)
    }

    /// The lowered layout: i1 stacks hold i32 entries.
    fn adstack_entry_bytes(&self, elem: DType) -> u64 {
        lowered_entry_bytes(elem)
    }
}

/// The error of a launch's error record, if a thread failed.
fn read_error(k: &SpirvKernel, errors: &DeviceBuffer) -> Option<RuntimeError> {
    if errors.read_u32(abi::ERR_CLAIM as u64) == 0 {
        return None;
    }
    let site = errors.read_u32(abi::ERR_SITE as u64);
    let values: Vec<u64> = (0..abi::MAX_ERR_VALUES as u64)
        .map(|i| {
            let w = abi::ERR_VALUES as u64 + 2 * i;
            u64::from(errors.read_u32(w)) | (u64::from(errors.read_u32(w + 1)) << 32)
        })
        .collect();
    Some(k.sites.error(&k.name, u64::from(site), &values))
}

enum LaunchError {
    Vk(VkError),
    Runtime(Box<RuntimeError>),
}

impl From<VkError> for LaunchError {
    fn from(e: VkError) -> Self {
        LaunchError::Vk(e)
    }
}

/// The error and overflow records of one task of a launch (zeroed when made).
struct Records {
    errors: DeviceBuffer,
    overflow: DeviceBuffer,
}

/// The per-launch buffers the tasks bind.
struct LaunchBuffers {
    args: DeviceBuffer,
    temps: DeviceBuffer,
    records: Vec<Records>,
}

impl VulkanDevice {
    fn launch_kernel(
        &mut self,
        ctx: &Context,
        k: usize,
        args: &[Arg],
        plan: &AdstackPlan,
        memory: &Memory,
    ) -> Result<(), LaunchError> {
        let spirv = &self.kernels[k].spirv;
        let name = spirv.name.clone();
        let at = |loc: Location, msg: String| {
            LaunchError::Runtime(Box::new(RuntimeError::at(
                ctx,
                loc,
                RuntimeErrorKind::Device,
                &name,
                msg,
            )))
        };
        // The argument slots.
        let mut slots = vec![0u64; spirv.arg_slots as usize];
        let mut ndarrays: HashMap<u32, Buffer> = HashMap::new();
        for (j, (slot, arg)) in spirv.args.iter().zip(args).enumerate() {
            match (slot, arg) {
                (ArgSlot::Scalar { slot, .. }, Arg::Scalar(s)) => {
                    if let Some(w) = slots.get_mut(*slot as usize) {
                        *w = s.to_bits();
                    }
                }
                (ArgSlot::Ndarray { dims, rank, .. }, Arg::Ndarray(id)) => {
                    let Some(nd) = memory.ndarray(*id) else {
                        return Err(LaunchError::Runtime(Box::new(RuntimeError::device(
                            &name,
                            format!("ndarray argument {j} is not registered"),
                        ))));
                    };
                    for (axis, &d) in nd.shape().iter().take(*rank as usize).enumerate() {
                        if let Some(w) = slots.get_mut(*dims as usize + axis) {
                            *w = d as u64;
                        }
                    }
                    ndarrays.insert(j as u32, Buffer::Ndarray(*id));
                }
                _ => {
                    return Err(LaunchError::Runtime(Box::new(RuntimeError::device(
                        &name,
                        format!("argument {j} does not match the compiled kernel"),
                    ))))
                }
            }
        }
        // Every field and ndarray the kernel binds must be on the device.
        let mut data: HashMap<u32, Buffer> = HashMap::new();
        for d in &spirv.data {
            let b = match &d.kind {
                BindingKind::Field(f) | BindingKind::FieldGrad(f) => {
                    let Some(index) = memory.field_index(f) else {
                        return Err(LaunchError::Runtime(Box::new(RuntimeError::device(
                            &name,
                            format!("field @{f} is not in the program's memory"),
                        ))));
                    };
                    let grad = matches!(d.kind, BindingKind::FieldGrad(_));
                    Buffer::Field(FieldRef { index, grad })
                }
                BindingKind::Ndarray(n) => match ndarrays.get(n) {
                    Some(b) => *b,
                    None => continue,
                },
                _ => continue,
            };
            data.insert(d.binding, b);
        }
        // Copies of ndarrays the program removed since go (after the work that used them).
        let gone: Vec<Buffer> = self
            .buffers
            .keys()
            .filter(|b| matches!(b, Buffer::Ndarray(id) if memory.ndarray(*id).is_none()))
            .copied()
            .collect();
        for b in gone {
            if let Some(old) = self.buffers.remove(&b) {
                let serial = self.sub.current_serial();
                self.sub.retire(serial, Box::new(old));
            }
        }
        for b in data.values().copied().collect::<Vec<_>>() {
            self.ensure_buffer(memory, b)?;
        }
        let spirv = &self.kernels[k].spirv;
        let mut lb = LaunchBuffers {
            args: DeviceBuffer::new(&self.gpu, spirv.arg_slots as u64 * 8)?,
            temps: DeviceBuffer::new(&self.gpu, spirv.temps as u64 * 8)?,
            records: Vec::with_capacity(spirv.tasks.len()),
        };
        for _ in 0..spirv.tasks.len() {
            lb.records.push(Records {
                errors: DeviceBuffer::new(&self.gpu, abi::ERR_WORDS as u64 * 4)?,
                overflow: DeviceBuffer::new(&self.gpu, abi::OVF_WORDS as u64 * 4)?,
            });
        }
        let arg_bytes: Vec<u8> = slots.iter().flat_map(|w| w.to_le_bytes()).collect();
        lb.args.write(0, &arg_bytes);
        let tasks = spirv.tasks.clone();
        let mut result = Ok(());
        for (ti, task) in tasks.iter().enumerate() {
            match self.run_task(k, ti, task, plan, &lb, &data, &at) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        let serial = self.sub.current_serial();
        let stacks = plan.stacks.iter().map(|s| (s.id, s.loc, s.depth)).collect();
        let LaunchBuffers {
            args,
            temps,
            records,
        } = lb;
        self.sub.retire(serial, Box::new(args));
        self.sub.retire(serial, Box::new(temps));
        // The records are read at sync, after every batch finished.
        self.pending.push(PendingLaunch {
            kernel: k,
            records,
            stacks,
        });
        // What was recorded before a failing task ran before it, as on the interpreter.
        let submitted = self.sub.submit();
        result?;
        submitted?;
        Ok(())
    }

    /// Records task `ti`. Ok(false): a thread of an earlier task failed, the launch stops.
    #[allow(clippy::too_many_arguments)]
    fn run_task(
        &mut self,
        k: usize,
        ti: usize,
        task: &SpirvTask,
        plan: &AdstackPlan,
        lb: &LaunchBuffers,
        data: &HashMap<u32, Buffer>,
        at: &dyn Fn(Location, String) -> LaunchError,
    ) -> Result<bool, LaunchError> {
        let (begin, threads) = match task.dispatch {
            Dispatch::Serial => (0i64, 1u64),
            Dispatch::Range { begin, end } => {
                if matches!(begin, Bound::Temp(_)) || matches!(end, Bound::Temp(_)) {
                    // The slots are written by earlier tasks: let them finish.
                    self.sub.wait_idle()?;
                    let claimed = |r: &Records| r.errors.read_u32(abi::ERR_CLAIM as u64) != 0;
                    if lb.records[..ti].iter().any(claimed) {
                        return Ok(false);
                    }
                }
                let resolve = |b: Bound| match b {
                    Bound::Const(v) => v,
                    Bound::Temp(s) if (u64::from(s) + 1) * 8 <= lb.temps.len() => {
                        lb.temps.read_u64(s as u64) as i64
                    }
                    Bound::Temp(_) => 0,
                };
                let (b, e) = (resolve(begin), resolve(end));
                (b, (i128::from(e) - i128::from(b)).max(0) as u64)
            }
        };
        if threads == 0 {
            return Ok(true);
        }
        let layout =
            HeapLayout::compute(plan, &task.stacks).map_err(|e| at(task.loc, e.to_string()))?;
        let name = self.kernels[k].spirv.name.clone();
        // One storage-buffer binding covers at most maxStorageBufferRange bytes (128 MiB on
        // lavapipe), and 32-bit offsets reach 2^31: a task whose heaps would be larger runs as
        // several dispatches over consecutive threads, each reusing the heap rows.
        let wide = layout.stride(Heap::Float).max(layout.stride(Heap::Int));
        let Some(rows) = self.rows_per_dispatch(threads, wide, task.workgroup_size) else {
            return Err(at(
                task.loc,
                format!(
                    "one thread's adstacks take {wide} bytes, more than one storage buffer of \
                     this device may hold ({} bytes{})",
                    self.heap_limit(),
                    if self.options.int64 {
                        ""
                    } else {
                        "; no Int64, so 32-bit offsets"
                    }
                ),
            ));
        };
        let mut heaps = [(vk::Buffer::null(), 0u64); 2];
        let mut row_bytes = [0u64; 2];
        for h in [Heap::Float, Heap::Int] {
            let i = heap_index(h);
            let bytes = layout
                .heap_bytes(&name, h, rows)
                .map_err(|e| at(task.loc, e.to_string()))? as u64;
            let buf = self.heaps[i]
                .ensure(&self.gpu, &mut self.sub, bytes)
                .map_err(|e| at(task.loc, e.to_string()))?;
            heaps[i] = (buf.handle(), buf.range());
            row_bytes[i] = layout.stride(h);
        }
        let pipe = task_index(&self.kernels[k].spirv, task);
        let mut first = 0u64;
        while first < threads {
            let n = rows.min(threads - first);
            let d = Chunk {
                begin,
                first,
                threads: n,
                heaps,
                heap_bytes: [n * row_bytes[0], n * row_bytes[1]],
            };
            self.record_dispatch(k, pipe, task, &layout, &d, lb, &lb.records[ti], data, at)?;
            first += n;
        }
        Ok(true)
    }

    /// The most bytes one heap binding may take.
    fn heap_limit(&self) -> u64 {
        let mut limit = u64::from(self.gpu.caps.max_storage_buffer_range);
        if !self.options.int64 {
            limit = limit.min((1 << 31) - 1);
        }
        if let Some(l) = self.heap_limit_override {
            limit = limit.min(l);
        }
        limit
    }

    /// The threads one dispatch of a task may run when a row of its heaps takes `wide` bytes
    /// (whole workgroups when it is not all of them); None when not even one row fits.
    fn rows_per_dispatch(&self, threads: u64, wide: u64, workgroup: u32) -> Option<u64> {
        if wide == 0 {
            return Some(threads);
        }
        let rows = (self.heap_limit() / wide).min(threads);
        let wg = u64::from(workgroup.max(1));
        match rows {
            0 => None,
            r if r < threads && r >= wg => Some(r / wg * wg),
            r => Some(r),
        }
    }

    /// Records one dispatch of task `task` (pipeline `pipe`) over `chunk`'s threads.
    #[allow(clippy::too_many_arguments)]
    fn record_dispatch(
        &mut self,
        k: usize,
        pipe: usize,
        task: &SpirvTask,
        layout: &HeapLayout,
        chunk: &Chunk,
        lb: &LaunchBuffers,
        rec: &Records,
        data: &HashMap<u32, Buffer>,
        at: &dyn Fn(Location, String) -> LaunchError,
    ) -> Result<(), LaunchError> {
        let groups = chunk
            .threads
            .div_ceil(u64::from(task.workgroup_size.max(1)));
        let Some((gx, gy)) = grid(groups) else {
            return Err(at(
                task.loc,
                format!(
                    "a task of {} threads is more than one dispatch can run",
                    chunk.threads
                ),
            ));
        };
        // The metadata, fresh for this dispatch.
        let mut meta = vec![0u64; abi::META_STACKS as usize + 2 * task.stacks.len()];
        meta[abi::META_BEGIN as usize] = chunk.begin as u64;
        meta[abi::META_THREADS as usize] = chunk.threads;
        meta[abi::META_FIRST as usize] = chunk.first;
        meta[abi::META_STRIDE_FLOAT as usize] = layout.stride(Heap::Float);
        meta[abi::META_STRIDE_INT as usize] = layout.stride(Heap::Int);
        for (j, &(id, _)) in task.stacks.iter().enumerate() {
            let s = layout
                .stack(id)
                .expect("the layout has every stack of the task");
            meta[abi::META_STACKS as usize + 2 * j] = s.offset;
            meta[abi::META_STACKS as usize + 2 * j + 1] = s.max_size;
        }
        let mut metadata = DeviceBuffer::new(&self.gpu, meta.len() as u64 * 8)?;
        let meta_bytes: Vec<u8> = meta.iter().flat_map(|w| w.to_le_bytes()).collect();
        metadata.write(0, &meta_bytes);
        let heaps = chunk.heaps;
        let pipe = &self.kernels[k].pipelines.tasks[pipe];
        let mut set_buffers = Vec::with_capacity(task.bindings.len());
        for b in &task.bindings {
            let buf = match &b.kind {
                BindingKind::Args => (lb.args.handle(), lb.args.range()),
                BindingKind::Temps => (lb.temps.handle(), lb.temps.range()),
                BindingKind::Metadata => (metadata.handle(), metadata.range()),
                BindingKind::HeapFloat => heaps[0],
                BindingKind::HeapInt => heaps[1],
                BindingKind::Errors => (rec.errors.handle(), rec.errors.range()),
                BindingKind::Overflow => (rec.overflow.handle(), rec.overflow.range()),
                _ => {
                    let db = data.get(&b.binding).and_then(|x| self.buffers.get(x));
                    match db {
                        Some(d) => (d.handle(), d.range()),
                        None => {
                            return Err(at(
                                task.loc,
                                format!(
                                    "binding {} ({:?}) has no buffer in this launch",
                                    b.binding, b.kind
                                ),
                            ))
                        }
                    }
                }
            };
            set_buffers.push(buf);
        }
        let set = DescriptorSet::new(&self.gpu, pipe, &set_buffers)?;
        let cmd = self.sub.cmd()?;
        let d = &self.gpu.device;
        // SAFETY: `cmd` is recording; every buffer bound lives until the batch's fence (the
        // heaps and data buffers are retired, not dropped, when replaced).
        unsafe {
            // The rows start zeroed, as fresh heaps do.
            for (i, &(buf, _)) in heaps.iter().enumerate() {
                if chunk.heap_bytes[i] > 0 {
                    d.cmd_fill_buffer(cmd, buf, 0, chunk.heap_bytes[i].next_multiple_of(4), 0);
                }
            }
            let fill = vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
                .dst_access_mask(vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE);
            d.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::DependencyFlags::empty(),
                &[fill],
                &[],
                &[],
            );
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipe.pipeline);
            d.cmd_bind_descriptor_sets(
                cmd,
                vk::PipelineBindPoint::COMPUTE,
                pipe.layout,
                abi::SET,
                &[set.set],
                &[],
            );
            d.cmd_dispatch(cmd, gx, gy, 1);
            // The next dispatch's fill and shaders, and the host, see this one's writes.
            let done = vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::SHADER_READ)
                .dst_access_mask(
                    vk::AccessFlags::SHADER_READ
                        | vk::AccessFlags::SHADER_WRITE
                        | vk::AccessFlags::TRANSFER_WRITE
                        | vk::AccessFlags::HOST_READ,
                );
            d.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::PipelineStageFlags::COMPUTE_SHADER
                    | vk::PipelineStageFlags::TRANSFER
                    | vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &[done],
                &[],
                &[],
            );
        }
        let serial = self.sub.current_serial();
        self.sub.retire(serial, Box::new(metadata));
        self.sub.retire(serial, Box::new(set));
        Ok(())
    }
}

/// One dispatch of a task: the task's begin, the task's thread id of the dispatch's first
/// thread, its threads, the heaps and the bytes of them its rows take.
struct Chunk {
    begin: i64,
    first: u64,
    threads: u64,
    heaps: [(vk::Buffer, u64); 2],
    heap_bytes: [u64; 2],
}

fn task_index(k: &SpirvKernel, t: &SpirvTask) -> usize {
    k.tasks
        .iter()
        .position(|x| x.entry == t.entry)
        .expect("the task is one of the kernel's")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_cover_the_threads_within_limits() {
        assert_eq!(grid(0), Some((0, 0)));
        assert_eq!(grid(1), Some((1, 1)));
        assert_eq!(grid(65535), Some((65535, 1)));
        assert_eq!(grid(65536), Some((65535, 2)));
        let (gx, gy) = grid(1 << 30).unwrap();
        assert!(u64::from(gx) * u64::from(gy) >= 1 << 30);
        assert_eq!(grid(MAX_GROUPS * MAX_GROUPS + 1), None);
    }

    #[test]
    fn options_follow_the_capabilities() {
        let caps = Capabilities {
            int64: true,
            float64: false,
            max_workgroup_invocations: 32,
            ..Default::default()
        };
        let o = options_for(&caps);
        assert!(o.int64 && !o.float64 && !o.atomic_float_add);
        assert_eq!(o.workgroup_size, 32);
        assert_eq!(o.loop_limit, None);
        let lvp = Capabilities {
            loop_limit: Some(crate::abi::LoopLimit::LAVAPIPE),
            ..caps
        };
        assert_eq!(
            options_for(&lvp).loop_limit,
            Some(crate::abi::LoopLimit::LAVAPIPE)
        );
    }
}
