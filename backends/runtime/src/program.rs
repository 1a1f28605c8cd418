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
use crate::device::{Arg, CompiledKernel, Device};
use crate::error::{Error, RuntimeError, RuntimeErrorKind};
use crate::memory::{AdstackOverflow, FieldInfo, Memory, Storage};
use crate::ndarray::{Ndarray, NdarrayId};
use crate::value::{DType, Scalar};
use qd_frontend::{KernelOp, NdarrayType};
use qd_ir::{Context, Diagnostic, OpId};
use std::fmt;

/// Program-wide options.
#[derive(Clone, Debug)]
pub struct ProgramConfig {
    /// Verify the module when the program is created (default: true). Turn it off only for a
    /// module the caller has just verified.
    pub verify: bool,
    /// Give every adstack exactly this capacity, whatever its own bound (default: None, each
    /// stack sized per launch from its `size_expr`, else its `max_size`; see [`crate::adstack`]).
    pub ad_stack_size: Option<usize>,
}

impl Default for ProgramConfig {
    fn default() -> Self {
        ProgramConfig {
            verify: true,
            ad_stack_size: None,
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
pub struct Program {
    ctx: Context,
    module: OpId,
    device: Box<dyn Device>,
    config: ProgramConfig,
    memory: Memory,
    kernels: Vec<KernelEntry>,
    pending: Vec<RuntimeError>,
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
        let mut memory = Memory::for_module(&ctx, module).map_err(Error::Diagnostics)?;
        memory.set_ad_stack_size(config.ad_stack_size);
        Ok(Program {
            ctx,
            module,
            device,
            config,
            memory,
            kernels: Vec::new(),
            pending: Vec::new(),
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
            }
        }
    }

    // ----- ndarrays ---------------------------------------------------------------------------

    pub fn add_ndarray(&mut self, a: Ndarray) -> NdarrayId {
        self.memory.add_ndarray(a)
    }
    pub fn ndarray(&self, id: NdarrayId) -> Result<&Ndarray, Error> {
        self.memory.ndarray(id).ok_or(Error::UnknownNdarray(id.0))
    }
    pub fn ndarray_mut(&mut self, id: NdarrayId) -> Result<&mut Ndarray, Error> {
        self.memory
            .ndarray_mut(id)
            .ok_or(Error::UnknownNdarray(id.0))
    }
    pub fn remove_ndarray(&mut self, id: NdarrayId) -> Result<Ndarray, Error> {
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

    /// The kernel `name`, compiled through the device on first use.
    pub fn kernel(&mut self, name: &str) -> Result<KernelId, Error> {
        if let Some(i) = self.kernels.iter().position(|k| k.name == name) {
            return Ok(KernelId(i as u32));
        }
        let Some(op) = self
            .kernel_ops()
            .into_iter()
            .find(|k| k.name(&self.ctx) == name)
        else {
            return Err(Error::UnknownKernel {
                name: name.to_string(),
                known: self.kernel_names(),
            });
        };
        let params = signature(&self.ctx, op).map_err(Error::Diagnostics)?;
        let stacks = KernelStacks::collect(
            &self.ctx,
            op.0,
            name,
            &params,
            &self.memory,
            self.config.ad_stack_size,
        )
        .map_err(Error::Diagnostics)?;
        let compiled = self
            .device
            .compile(&self.ctx, op.0, &self.memory)
            .map_err(Error::Diagnostics)?;
        self.kernels.push(KernelEntry {
            name: name.to_string(),
            op: op.0,
            params,
            compiled,
            stacks,
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
        let launched = self
            .device
            .launch(&self.ctx, compiled, args, &plan, &mut self.memory);
        self.kernels[k.0 as usize].last_plan = Some(plan);
        if let Err(e) = launched {
            self.pending.push(e);
        }
        Ok(())
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

    /// The adstack plan of the last launch of `k` (None before its first launch).
    pub fn last_adstack_plan(&self, k: KernelId) -> Option<&AdstackPlan> {
        self.kernels.get(k.0 as usize)?.last_plan.as_ref()
    }

    /// The stacks of a compiled kernel, as its compilation found them.
    pub fn kernel_stacks(&self, k: KernelId) -> Option<&KernelStacks> {
        self.kernels.get(k.0 as usize).map(|e| &e.stacks)
    }

    /// The most entries each adstack of `k` held at once in its last launch, by stack number,
    /// when the device keeps that statistic (see [`Device::adstack_peaks`]).
    pub fn adstack_peaks(&self, k: KernelId) -> Option<Vec<u64>> {
        let compiled = self.kernels.get(k.0 as usize)?.compiled;
        self.device.adstack_peaks(compiled)
    }

    /// Waits for the device and returns every runtime error since the last sync (then clears
    /// them: a later sync is clean unless new errors happen). An adstack overflow is reported
    /// here, and the overflow flag reset.
    pub fn sync(&mut self) -> Result<(), Vec<RuntimeError>> {
        let mut errors = std::mem::take(&mut self.pending);
        if let Err(mut e) = self.device.sync(&mut self.memory) {
            errors.append(&mut e);
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
