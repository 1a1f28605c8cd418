//! [`Program`]: a module's fields, ndarrays and compiled kernels on one device.
//!
//! ```ignore
//! let mut p = Program::new(ctx, module, Box::new(device), ProgramConfig::default())?;
//! p.write_f64("x", &xs)?;
//! let k = p.kernel("compute")?;                      // compiles once, through the device
//! let w = p.add_ndarray(Ndarray::from_f64(DType::F32, &[6], &ws)?);
//! p.launch(k, &[Arg::Ndarray(w), Arg::Scalar(Scalar::F32(2.0))])?;  // arguments checked now
//! p.sync().map_err(...)?;                            // runtime errors surface here
//! let y = p.read_f64("y")?;
//! ```

use crate::adstack::{AdstackPlan, KernelStacks};
use crate::cancel::CancelFlag;
use crate::device::{Arg, Buffer, CompiledKernel, Device};
use crate::error::{Error, RuntimeError, RuntimeErrorKind};
use crate::memory::{AdstackOverflow, FieldInfo, FieldRef, Memory, MemoryLimit, Storage};
use crate::ndarray::{Ndarray, NdarrayId};
use crate::value::{DType, Scalar};
use qd_frontend::{KernelOp, NdarrayType};
use qd_ir::{Context, Diagnostic, OpId};
use qd_pass::PassRegistry;
use std::fmt;
use std::time::{Duration, Instant};

/// Program-wide options.
#[derive(Clone, Debug)]
pub struct ProgramConfig {
    /// Verify the module when the program is created (default: true). Turn it off only for a
    /// module the caller has just verified.
    pub verify: bool,
    /// Give every adstack exactly this capacity, whatever its own bound (default: None, each
    /// stack sized per launch from its `size_expr`, else its `max_size`; see [`crate::adstack`]).
    pub ad_stack_size: Option<usize>,
    /// The limit on the bytes of every field, adjoint and ndarray together (default: `auto`,
    /// what the machine can give; see [`crate::memory::MemoryLimit`]): past it, creating the
    /// program (a field) or an adjoint ndarray is refused before allocating.
    pub memory_limit: MemoryLimit,
}

impl Default for ProgramConfig {
    fn default() -> Self {
        ProgramConfig {
            verify: true,
            ad_stack_size: None,
            memory_limit: MemoryLimit::Auto,
        }
    }
}

/// A kernel of a [`Program`], compiled.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct KernelId(pub u32);

/// The type of one kernel parameter.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ParamType {
    Scalar(DType),
    Ndarray { dtype: DType, rank: usize },
}

/// `f32`, or `ndarray<?x?xf32>`.
impl fmt::Display for ParamType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamType::Scalar(d) => write!(f, "{d}"),
            ParamType::Ndarray { dtype, rank } => {
                write!(f, "ndarray<{}{dtype}>", "?x".repeat(*rank))
            }
        }
    }
}

struct KernelEntry {
    name: String,
    op: OpId,
    params: Vec<ParamType>,
    compiled: CompiledKernel,
    stacks: KernelStacks,
    /// The adstack plan of the last launch.
    last_plan: Option<AdstackPlan>,
}

/// Owns the IR, the memory (fields, adjoints, ndarrays), the compiled kernels and the device.
///
/// Memory lives on the host ([`Program::memory`]); a device may keep copies (see
/// [`Device::upload`]). Before a launch the program uploads every buffer the host changed since
/// it last reached the device (the fields, their adjoints and the launch's ndarrays); after
/// [`Program::sync`] it downloads every buffer a launch since the previous sync may have written,
/// so host reads see a kernel's results after the sync that follows it (a host write between a
/// launch and its sync replaces the device's result for that buffer).
pub struct Program {
    pub(crate) ctx: Context,
    pub(crate) module: OpId,
    pub(crate) device: Box<dyn Device>,
    pub(crate) config: ProgramConfig,
    pub(crate) memory: Memory,
    /// The passes of the compile pipeline (see `crate::pipeline`) and of devices' lowerings.
    pub(crate) passes: PassRegistry,
    kernels: Vec<KernelEntry>,
    pending: Vec<RuntimeError>,
    /// Buffers the host changed since they last reached the device.
    host_newer: Vec<Buffer>,
    /// Buffers launches since the last sync may have written on the device.
    device_newer: Vec<Buffer>,
    /// Launches still running at this instant are cancelled ([`Program::set_deadline`]).
    deadline: Option<Instant>,
    /// Each launch is cancelled when it has run this long ([`Program::set_launch_timeout`]).
    launch_timeout: Option<Duration>,
    /// Cancels launches at their deadlines; started by the first launch with one.
    watchdog: Option<crate::cancel::Watchdog>,
}

impl Program {
    /// Verifies `module` (unless the config says not to) and allocates its fields, zeroed.
    pub fn new(
        ctx: Context,
        module: OpId,
        device: Box<dyn Device>,
        config: ProgramConfig,
    ) -> Result<Program, Error> {
        if config.verify {
            qd_ir::verifier::verify(&ctx, module).map_err(Error::Diagnostics)?;
        }
        let mut memory = Memory::for_module_within(&ctx, module, config.memory_limit)
            .map_err(Error::Diagnostics)?;
        memory.set_ad_stack_size(config.ad_stack_size);
        // Every field starts on the host (zeroed) and must reach the device once.
        let host_newer = field_buffers(&memory);
        Ok(Program {
            ctx,
            module,
            device,
            config,
            memory,
            passes: qd_passes::all_passes(),
            kernels: Vec::new(),
            pending: Vec::new(),
            host_newer,
            device_newer: Vec::new(),
            deadline: None,
            launch_timeout: None,
            watchdog: None,
        })
    }

    pub fn context(&self) -> &Context {
        &self.ctx
    }
    pub fn module(&self) -> OpId {
        self.module
    }
    pub fn config(&self) -> &ProgramConfig {
        &self.config
    }
    pub fn device_name(&self) -> &str {
        self.device.name()
    }
    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    /// Whether `bytes` more (an ndarray about to be made) fit under the memory limit beside
    /// everything the program holds; the error names `what` and the bytes asked for. Check
    /// before allocating: a refused allocation then costs nothing.
    pub fn check_alloc(&self, what: &str, bytes: u128) -> Result<(), Error> {
        self.memory.check_alloc(what, bytes).map_err(Error::Value)
    }

    // ----- fields -----------------------------------------------------------------------------

    /// Field names in module order.
    pub fn field_names(&self) -> Vec<&str> {
        self.memory
            .fields()
            .iter()
            .map(|f| f.info.name.as_str())
            .collect()
    }

    /// The field `name` (`x.grad` describes `x`, whose shape and dtype its adjoint shares).
    pub fn field_info(&self, name: &str) -> Result<&FieldInfo, Error> {
        let r = self.memory.resolve(name)?;
        Ok(&self.memory.field(r.index).info)
    }

    /// The storage of field `name` or of its adjoint `name.grad`.
    pub fn field(&self, name: &str) -> Result<&Storage, Error> {
        let r = self.memory.resolve(name)?;
        Ok(self.memory.storage(r))
    }

    pub fn read_f64(&self, name: &str) -> Result<Vec<f64>, Error> {
        Ok(self.field(name)?.to_f64_vec())
    }

    /// Replaces the contents of `name`: same dtype and element count.
    pub fn write(&mut self, name: &str, data: Storage) -> Result<(), Error> {
        let r = self.memory.resolve(name)?;
        let dst = self.memory.storage_mut(r);
        if data.dtype() != dst.dtype() {
            return Err(Error::Value(format!(
                "field '{name}' holds {}, got {} values",
                dst.dtype(),
                data.dtype()
            )));
        }
        check_len(name, dst.len(), data.len())?;
        *dst = data;
        self.host_wrote(Buffer::Field(r));
        Ok(())
    }

    /// Writes `values` (converted exactly to the field's dtype) into `name`.
    pub fn write_f64(&mut self, name: &str, values: &[f64]) -> Result<(), Error> {
        let dtype = self.field(name)?.dtype();
        let data = Storage::from_f64(dtype, values)
            .map_err(|e| Error::Value(format!("field '{name}': {e}")))?;
        self.write(name, data)
    }

    /// Writes `values` (converted with [`Scalar::convert`]) into `name`.
    pub fn write_scalars(&mut self, name: &str, values: &[Scalar]) -> Result<(), Error> {
        let dtype = self.field(name)?.dtype();
        let data = Storage::from_scalars(dtype, values)
            .map_err(|e| Error::Value(format!("field '{name}': {e}")))?;
        self.write(name, data)
    }

    /// Zeroes every adjoint field.
    pub fn clear_grads(&mut self) {
        for i in 0..self.memory.num_fields() {
            if let Some(g) = &mut self.memory.field_mut(i).grad {
                g.fill_zero();
                self.host_wrote(Buffer::Field(FieldRef {
                    index: i,
                    grad: true,
                }));
            }
        }
    }

    /// Records that the host changed `b`: it goes to the device before the next launch, and
    /// the device's copy no longer comes back.
    fn host_wrote(&mut self, b: Buffer) {
        self.device_newer.retain(|&x| x != b);
        if !self.host_newer.contains(&b) {
            self.host_newer.push(b);
        }
    }

    // ----- ndarrays ---------------------------------------------------------------------------

    pub fn add_ndarray(&mut self, a: Ndarray) -> NdarrayId {
        let id = self.memory.add_ndarray(a);
        self.host_wrote(Buffer::Ndarray(id));
        id
    }
    pub fn ndarray(&self, id: NdarrayId) -> Result<&Ndarray, Error> {
        self.memory.ndarray(id).ok_or(Error::UnknownNdarray(id.0))
    }
    /// The ndarray `id`, to change on the host: it goes to the device before the next launch.
    pub fn ndarray_mut(&mut self, id: NdarrayId) -> Result<&mut Ndarray, Error> {
        if self.memory.ndarray(id).is_none() {
            return Err(Error::UnknownNdarray(id.0));
        }
        self.host_wrote(Buffer::Ndarray(id));
        self.memory
            .ndarray_mut(id)
            .ok_or(Error::UnknownNdarray(id.0))
    }
    pub fn remove_ndarray(&mut self, id: NdarrayId) -> Result<Ndarray, Error> {
        let b = Buffer::Ndarray(id);
        self.host_newer.retain(|&x| x != b);
        self.device_newer.retain(|&x| x != b);
        self.memory
            .remove_ndarray(id)
            .ok_or(Error::UnknownNdarray(id.0))
    }

    // ----- kernels ----------------------------------------------------------------------------

    fn kernel_ops(&self) -> Vec<KernelOp> {
        self.ctx
            .regions(self.module)
            .iter()
            .flat_map(|&r| self.ctx.region_ops(r))
            .filter_map(|op| KernelOp::from_op(&self.ctx, op))
            .collect()
    }

    /// The names of the module's kernels, in order.
    pub fn kernel_names(&self) -> Vec<String> {
        self.kernel_ops()
            .iter()
            .map(|k| k.name(&self.ctx).to_string())
            .collect()
    }

    /// The kernel `name`, compiled on first use through the compile pipeline (stack ids, the
    /// stack table, the device's lowering, the device; see `crate::pipeline`).
    pub fn kernel(&mut self, name: &str) -> Result<KernelId, Error> {
        if let Some(i) = self.kernels.iter().position(|k| k.name == name) {
            return Ok(KernelId(i as u32));
        }
        let Some(op) = crate::pipeline::find_kernel(&self.ctx, self.module, name) else {
            return Err(Error::UnknownKernel {
                name: name.to_string(),
                known: self.kernel_names(),
            });
        };
        let c = self.compile_kernel(op)?;
        self.kernels.push(KernelEntry {
            name: name.to_string(),
            op: op.0,
            params: c.params,
            compiled: c.compiled,
            stacks: c.stacks,
            last_plan: None,
        });
        Ok(KernelId((self.kernels.len() - 1) as u32))
    }

    fn entry(&self, k: KernelId) -> Result<&KernelEntry, Error> {
        self.kernels
            .get(k.0 as usize)
            .ok_or_else(|| Error::UnknownKernel {
                name: format!("#{}", k.0),
                known: self.kernels.iter().map(|k| k.name.clone()).collect(),
            })
    }

    /// The parameter types of a compiled kernel.
    pub fn kernel_params(&self, k: KernelId) -> Option<&[ParamType]> {
        self.kernels.get(k.0 as usize).map(|e| e.params.as_slice())
    }
    pub fn kernel_name(&self, k: KernelId) -> Option<&str> {
        self.kernels.get(k.0 as usize).map(|e| e.name.as_str())
    }
    /// The `qd.kernel` op of a compiled kernel.
    pub fn kernel_op(&self, k: KernelId) -> Option<OpId> {
        self.kernels.get(k.0 as usize).map(|e| e.op)
    }

    /// Launches kernel `k`. The arguments are checked now (count, dtypes, ndarray ranks), and
    /// every adstack of the kernel is sized from them and the fields ([`Program::adstack_plan`]):
    /// a mismatch or a stack that cannot be sized is an error and nothing runs. A failure while
    /// the kernel runs is recorded and returned by the next [`Program::sync`].
    pub fn launch(&mut self, k: KernelId, args: &[Arg]) -> Result<(), Error> {
        let plan = self.adstack_plan(k, args)?;
        let compiled = self.entry(k)?.compiled;
        // What the kernel may read and write: every field and adjoint, and its ndarrays.
        let mut touched = field_buffers(&self.memory);
        touched.extend(args.iter().filter_map(|a| match a {
            Arg::Ndarray(id) => Some(Buffer::Ndarray(*id)),
            Arg::Scalar(_) => None,
        }));
        for b in &touched {
            if let Some(i) = self.host_newer.iter().position(|x| x == b) {
                self.device.upload(&self.memory, *b).map_err(|e| {
                    Error::Device(format!("cannot upload to the device: {}", e.full_message()))
                })?;
                self.host_newer.swap_remove(i);
            }
        }
        let launched = match self.launch_deadline() {
            None => self.device.launch(
                &self.ctx,
                compiled,
                args,
                &plan,
                &mut self.memory,
                CancelFlag::never(),
            ),
            Some(deadline) => {
                if self.watchdog.is_none() {
                    self.watchdog = Some(crate::cancel::Watchdog::new().map_err(Error::Device)?);
                }
                let watchdog = self.watchdog.as_mut().expect("started above");
                let (device, ctx, memory) = (&mut self.device, &self.ctx, &mut self.memory);
                watchdog.run(deadline, |cancel| {
                    device.launch(ctx, compiled, args, &plan, memory, cancel)
                })
            }
        };
        let mut plan = plan;
        // A device that measures peaks has them once `launch` returns (the interpreter runs to
        // completion there); they are this launch's, in the plan's order.
        if let Some(peaks) = self.device.adstack_peaks(compiled) {
            for (s, peak) in plan.stacks.iter_mut().zip(peaks) {
                s.measured_peak = Some(peak);
            }
        }
        self.kernels[k.0 as usize].last_plan = Some(plan);
        for b in touched {
            if !self.device_newer.contains(&b) {
                self.device_newer.push(b);
            }
        }
        if let Err(mut e) = launched {
            self.locate(&mut e);
            self.pending.push(e);
        }
        Ok(())
    }

    /// Cancels every launch still running at `deadline` (None: no deadline, the default), at
    /// the next back edge of a `while` loop: the launch stops, every thread of it, and the next
    /// [`Program::sync`] returns a [`RuntimeErrorKind::Cancelled`] error naming the kernel and
    /// located at that loop. A launch that starts after the deadline stops at its first back
    /// edge; a kernel without `while` loops is never cut short. After a cancelled launch the
    /// fields, adjoints and ndarrays hold whatever the launch had written so far (some threads
    /// done, some partly, some not started); the program stays usable: write the inputs again
    /// and launch. A device that cannot stop a launch (`vulkan`) refuses a deadline with
    /// [`Error::Device`]; so does [`Program::set_launch_timeout`].
    pub fn set_deadline(&mut self, deadline: Option<Instant>) -> Result<(), Error> {
        if deadline.is_some() {
            self.check_cancellable()?;
        }
        self.deadline = deadline;
        Ok(())
    }

    /// Cancels each launch that runs longer than `timeout` (None: no limit, the default), as a
    /// [`Program::set_deadline`] of its start plus `timeout` (the earlier one wins when both
    /// are set). `qd-run --timeout SECONDS`.
    pub fn set_launch_timeout(&mut self, timeout: Option<Duration>) -> Result<(), Error> {
        if timeout.is_some() {
            self.check_cancellable()?;
        }
        self.launch_timeout = timeout;
        Ok(())
    }

    /// The deadline of [`Program::set_deadline`].
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The per-launch timeout of [`Program::set_launch_timeout`].
    pub fn launch_timeout(&self) -> Option<Duration> {
        self.launch_timeout
    }

    fn check_cancellable(&self) -> Result<(), Error> {
        if self.device.supports_cancel() {
            return Ok(());
        }
        // The devices that can are the registry's to list (`DeviceRegistry::cancellable`).
        Err(Error::Device(format!(
            "device '{}' cannot stop a running launch: it takes no deadline or timeout",
            self.device.name()
        )))
    }

    /// The deadline of a launch starting now: the earlier of the program's deadline and now
    /// plus the launch timeout (a timeout too large for an `Instant` is no limit).
    fn launch_deadline(&self) -> Option<Instant> {
        let by_timeout = self
            .launch_timeout
            .and_then(|t| Instant::now().checked_add(t));
        match (self.deadline, by_timeout) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Gives an error the device reported by code the location its kernel's code stands for.
    fn locate(&self, e: &mut RuntimeError) {
        let (None, Some(code)) = (e.loc, e.code) else {
            return;
        };
        let Some(entry) = self.kernels.iter().find(|k| k.name == e.kernel) else {
            return;
        };
        if let Some(loc) = self.device.error_location(entry.compiled, code) {
            e.locate(&self.ctx, loc);
        }
    }

    /// The adstack plan a launch of `k` with `args` would get now, without launching: each
    /// stack's depth evaluated against the current fields and `args` (checked as
    /// [`Program::launch`] checks them), and its memory per thread on this device.
    pub fn adstack_plan(&self, k: KernelId, args: &[Arg]) -> Result<AdstackPlan, Error> {
        let entry = self.entry(k)?;
        check_args(&entry.name, &entry.params, args, &self.memory)?;
        let device = &self.device;
        entry
            .stacks
            .plan(args, &self.memory, self.config.ad_stack_size, &|t| {
                device.adstack_entry_bytes(t)
            })
            .map_err(|d| Error::Diagnostics(vec![d]))
    }

    /// The adstack plan of the last launch of `k` (None before its first launch), with each
    /// stack's measured peak where the device measures it ([`crate::adstack::StackPlan::measured_peak`]).
    pub fn last_adstack_plan(&self, k: KernelId) -> Option<&AdstackPlan> {
        self.kernels.get(k.0 as usize)?.last_plan.as_ref()
    }

    /// The stacks of a compiled kernel, as its compilation found them.
    pub fn kernel_stacks(&self, k: KernelId) -> Option<&KernelStacks> {
        self.kernels.get(k.0 as usize).map(|e| &e.stacks)
    }

    /// The most entries each adstack of `k` held at once in its last launch, by ascending id,
    /// when the device keeps that statistic (see [`Device::adstack_peaks`]).
    pub fn adstack_peaks(&self, k: KernelId) -> Option<Vec<u64>> {
        let compiled = self.kernels.get(k.0 as usize)?.compiled;
        self.device.adstack_peaks(compiled)
    }

    /// How the device compiled each task of `k` (SIMD lanes, or why scalar; see
    /// [`Device::task_notes`]).
    pub fn task_notes(&self, k: KernelId) -> Vec<crate::TaskNote> {
        match self.kernels.get(k.0 as usize) {
            Some(e) => self.device.task_notes(e.compiled),
            None => Vec::new(),
        }
    }

    /// Waits for the device and returns every runtime error since the last sync (then clears
    /// them: a later sync is clean unless new errors happen). An adstack overflow is reported
    /// here, and the overflow flag reset.
    pub fn sync(&mut self) -> Result<(), Vec<RuntimeError>> {
        let mut errors = std::mem::take(&mut self.pending);
        if let Err(e) = self.device.sync(&mut self.memory) {
            for mut e in e {
                self.locate(&mut e);
                errors.push(e);
            }
        }
        for b in std::mem::take(&mut self.device_newer) {
            if let Err(mut e) = self.device.download(&mut self.memory, b) {
                self.locate(&mut e);
                errors.push(e);
            }
        }
        if let Some(o) = self.memory.take_adstack_overflow() {
            errors.push(adstack_overflow_error(&self.ctx, &o));
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// How many runtime errors wait for the next sync.
    pub fn pending_errors(&self) -> usize {
        self.pending.len()
    }
}

/// Every field's values and adjoint, as buffers.
fn field_buffers(memory: &Memory) -> Vec<Buffer> {
    let mut out = Vec::new();
    for (index, f) in memory.fields().iter().enumerate() {
        out.push(Buffer::Field(FieldRef { index, grad: false }));
        if f.grad.is_some() {
            out.push(Buffer::Field(FieldRef { index, grad: true }));
        }
    }
    out
}

/// `adstack overflow in kernel 'k': stack at FILE:LINE:COL exceeded its capacity of N`, located
/// at the stack's alloca.
pub fn adstack_overflow_error(ctx: &Context, o: &AdstackOverflow) -> RuntimeError {
    let at = match ctx.file_line_col(o.loc) {
        Some((f, l, c)) => format!("{f}:{l}:{c}"),
        None => qd_ir::text::loc_to_string(ctx, o.loc),
    };
    RuntimeError::at(
        ctx,
        o.loc,
        RuntimeErrorKind::AdstackOverflow,
        &o.kernel,
        format!(
            "adstack overflow in kernel '{}': stack at {at} exceeded its capacity of {}",
            o.kernel, o.capacity
        ),
    )
}

fn check_len(name: &str, expected: usize, got: usize) -> Result<(), Error> {
    if expected != got {
        return Err(Error::Value(format!(
            "field '{name}' has {expected} element{}, got {got} value{}",
            if expected == 1 { "" } else { "s" },
            if got == 1 { "" } else { "s" }
        )));
    }
    Ok(())
}

/// The parameter types of a kernel; types the runtime cannot pass are located diagnostics.
pub fn signature(ctx: &Context, k: KernelOp) -> Result<Vec<ParamType>, Vec<Diagnostic>> {
    let mut params = Vec::new();
    let mut diags = Vec::new();
    let args = k.args(ctx);
    for (i, ty) in k.arg_types(ctx).into_iter().enumerate() {
        let loc = args
            .get(i)
            .map(|&a| ctx.value_loc(a))
            .unwrap_or_else(|| ctx.loc(k.0));
        let p = match NdarrayType::from_type(ctx, ty) {
            Some(nd) => DType::from_type(ctx, nd.elem(ctx)).map(|dtype| ParamType::Ndarray {
                dtype,
                rank: nd.rank(ctx),
            }),
            None => DType::from_type(ctx, ty).map(ParamType::Scalar),
        };
        match p {
            Ok(p) => params.push(p),
            Err(e) => diags.push(Diagnostic::error(
                loc,
                format!("argument {i} of kernel @{}: {e}", k.name(ctx)),
            )),
        }
    }
    if diags.is_empty() {
        Ok(params)
    } else {
        Err(diags)
    }
}

fn check_args(kernel: &str, params: &[ParamType], args: &[Arg], mem: &Memory) -> Result<(), Error> {
    if params.len() != args.len() {
        return Err(Error::ArgCount {
            kernel: kernel.to_string(),
            expected: params.len(),
            got: args.len(),
        });
    }
    for (index, (p, a)) in params.iter().zip(args).enumerate() {
        let mismatch = |got: String| Error::ArgType {
            kernel: kernel.to_string(),
            index,
            expected: p.to_string(),
            got,
        };
        match (*p, *a) {
            (ParamType::Scalar(d), Arg::Scalar(s)) => {
                if s.dtype() != d {
                    return Err(mismatch(format!("a {} scalar", s.dtype())));
                }
            }
            (ParamType::Ndarray { dtype, rank }, Arg::Ndarray(id)) => {
                let nd = mem.ndarray(id).ok_or(Error::UnknownNdarray(id.0))?;
                if nd.dtype() != dtype || nd.rank() != rank {
                    return Err(mismatch(format!(
                        "an ndarray of {} with shape {:?}",
                        nd.dtype(),
                        nd.shape()
                    )));
                }
                // `Ndarray::data_mut` could have been misused: devices rely on this invariant.
                let n: usize = nd.shape().iter().product();
                if nd.data().len() != n {
                    return Err(Error::Value(format!(
                        "ndarray {} has shape {:?} but {} elements",
                        id.0,
                        nd.shape(),
                        nd.data().len()
                    )));
                }
            }
            (_, Arg::Scalar(s)) => return Err(mismatch(format!("a {} scalar", s.dtype()))),
            (_, Arg::Ndarray(_)) => return Err(mismatch("an ndarray".to_string())),
        }
    }
    Ok(())
}
