//! [`LoweredInterpreter`]: the device `interp-lowered`, which runs kernels lowered by
//! `convert-qd-to-lowered` (see the module doc of `lowered`).

use super::memory::temps_of;
use super::state::LoweredState;
use super::task::{self, Task};
use super::LoweredDialect;
use crate::arith::ArithInterpreter;
use crate::device::InterpOptions;
use crate::exec::{Compiler, DialectInterpreter, Frame, StateId};
use crate::math::MathInterpreter;
use crate::rng::Rng;
use qd_ir::{Context, Diagnostic, OpId};
use qd_lowered as lw;
use qd_runtime::adstack::layout::lowered_entry_bytes;
use qd_runtime::device::KernelIr;
use qd_runtime::{
    AdstackPlan, Arg, CancelFlag, CompiledKernel, DType, Device, KernelStacks, Memory, RuntimeError,
};
use std::any::Any;

/// The device's name, as `--device` spells it.
pub const NAME: &str = "interp-lowered";
/// The lowering it needs.
pub const PIPELINE: &str = "builtin.module(convert-qd-to-lowered)";

struct CompiledData {
    name: String,
    tasks: Vec<Task>,
    temps: usize,
    num_slots: usize,
    local_cells: usize,
    states: Vec<fn() -> Box<dyn Any>>,
    sid: StateId,
}

/// Runs lowered IR on the interpreter's core (arith, math and lowered; more dialects through
/// [`LoweredInterpreter::register`]).
pub struct LoweredInterpreter {
    dialects: Vec<Box<dyn DialectInterpreter>>,
    rng: Option<Rng>,
    kernels: Vec<CompiledData>,
}

impl Default for LoweredInterpreter {
    fn default() -> Self {
        Self::new()
    }
}

impl LoweredInterpreter {
    pub fn new() -> Self {
        Self::with_options(InterpOptions::default())
    }

    /// With the qd interpreter's options (the shuffle seed orders range tasks' threads).
    pub fn with_options(options: InterpOptions) -> Self {
        let mut i = LoweredInterpreter {
            dialects: Vec::new(),
            rng: options.shuffle_seed.map(Rng::new),
            kernels: Vec::new(),
        };
        i.register(Box::new(ArithInterpreter));
        i.register(Box::new(MathInterpreter));
        i.register(Box::new(LoweredDialect));
        i
    }

    /// Adds the interpreter of a dialect, replacing any earlier one of the same namespace.
    pub fn register(&mut self, d: Box<dyn DialectInterpreter>) {
        self.dialects.retain(|x| x.dialect() != d.dialect());
        self.dialects.push(d);
    }

    fn compile_kernel(
        &self,
        ctx: &Context,
        op: OpId,
        name: &str,
        stacks: &KernelStacks,
        memory: &Memory,
    ) -> Result<CompiledData, Diagnostic> {
        if ctx.name(op) != lw::KERNEL_OP {
            return Err(Diagnostic::error(
                ctx.loc(op),
                format!("{NAME} runs a lowered.kernel, got '{}'", ctx.name(op)),
            ));
        }
        let mut c = Compiler::new(ctx, memory, &self.dialects, op, name.to_string());
        let temps = temps_of(&c, op)?;
        let mut tasks = Vec::new();
        let body = ctx.region_entry_block(op, 0);
        for t in body.into_iter().flat_map(|b| ctx.block_ops(b)) {
            if ctx.name(t) != lw::TASK_OP {
                return Err(c.error(
                    t,
                    format!("a lowered.kernel holds only tasks, got '{}'", ctx.name(t)),
                ));
            }
            tasks.push(task::compile(&mut c, t, temps, stacks)?);
        }
        let sid = c.shared_state::<LoweredState>();
        Ok(CompiledData {
            name: name.to_string(),
            tasks,
            temps,
            num_slots: c.num_slots(),
            local_cells: c.local_cells(),
            states: c.take_states(),
            sid,
        })
    }
}

impl Device for LoweredInterpreter {
    fn name(&self) -> &str {
        NAME
    }

    fn lowering_pipeline(&self) -> &str {
        PIPELINE
    }

    fn compile(
        &mut self,
        ctx: &Context,
        kernel: KernelIr<'_>,
        stacks: &KernelStacks,
        memory: &Memory,
    ) -> Result<CompiledKernel, Vec<Diagnostic>> {
        let data = self
            .compile_kernel(ctx, kernel.op, kernel.name, stacks, memory)
            .map_err(|d| vec![d])?;
        self.kernels.push(data);
        Ok(CompiledKernel((self.kernels.len() - 1) as u32))
    }

    /// Every `while` iteration polls `cancel` (see `Frame::check_cancel`).
    fn supports_cancel(&self) -> bool {
        true
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
        let mut temps = Vec::new();
        let temp_bytes = k.temps.saturating_mul(8);
        if temps.try_reserve_exact(temp_bytes).is_err() {
            return Err(RuntimeError::device(
                &k.name,
                format!("cannot allocate {} temporaries slots", k.temps),
            ));
        }
        temps.resize(temp_bytes, 0);
        let states = k.states.iter().map(|init| init()).collect();
        let mut f = Frame::new(
            ctx,
            memory,
            &k.name,
            adstacks,
            k.num_slots,
            k.local_cells,
            self.rng.as_mut(),
            states,
        );
        f.cancel = cancel;
        {
            let st = f.state::<LoweredState>(k.sid);
            st.args = args
                .iter()
                .map(|a| match a {
                    Arg::Scalar(s) => s.to_bits(),
                    Arg::Ndarray(id) => u64::from(id.0),
                })
                .collect();
            st.temps = temps;
        }
        for t in &k.tasks {
            task::run(&mut f, k.sid, t).map_err(|e| *e)?;
        }
        Ok(())
    }

    fn sync(&mut self, _memory: &mut Memory) -> Result<(), Vec<RuntimeError>> {
        // Launches run to completion (or to their error) before `launch` returns.
        Ok(())
    }

    /// The lowered layout: i1 stacks hold i32 entries.
    fn adstack_entry_bytes(&self, elem: DType) -> u64 {
        lowered_entry_bytes(elem)
    }
}
