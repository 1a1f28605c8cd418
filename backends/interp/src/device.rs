//! [`Interpreter`]: the reference interpreter as a [`Device`].

use crate::ad::AdInterpreter;
use crate::adstack::{AdstackInterpreter, Stacks};
use crate::arith::ArithInterpreter;
use crate::exec::{Code, Compiler, DialectInterpreter, Frame};
use crate::math::MathInterpreter;
use crate::qd::QdInterpreter;
use crate::rng::Rng;
use qd_frontend::KernelOp;
use qd_ir::{Context, Diagnostic};
use qd_runtime::{
    AdstackPlan, Arg, CancelFlag, CompiledKernel, Device, KernelIr, KernelStacks, Memory,
    RuntimeError,
};
use std::any::Any;

/// Interpreter options.
#[derive(Clone, Debug, Default)]
pub struct InterpOptions {
    /// Run the iterations of parallel loops in a random order drawn from this seed (the same seed
    /// gives the same orders), instead of ascending order; exposes kernels whose result depends
    /// on the order of their threads.
    pub shuffle_seed: Option<u64>,
}

struct CompiledData {
    name: String,
    body: Code,
    arg_slots: Vec<crate::exec::Slot>,
    num_slots: usize,
    local_cells: usize,
    states: Vec<fn() -> Box<dyn Any>>,
    /// The most entries each adstack held in the last launch (see `Device::adstack_peaks`).
    peaks: Option<Vec<u64>>,
}

/// The reference interpreter of qd + arith + math + ad + adstack; more dialects plug in through
/// [`Interpreter::register`].
pub struct Interpreter {
    dialects: Vec<Box<dyn DialectInterpreter>>,
    options: InterpOptions,
    rng: Option<Rng>,
    kernels: Vec<CompiledData>,
}

impl Default for Interpreter {
    fn default() -> Self {
        Self::new()
    }
}

impl Interpreter {
    /// An interpreter of arith, math, qd, ad and adstack with default options.
    pub fn new() -> Self {
        Self::with_options(InterpOptions::default())
    }

    /// An interpreter of arith, math, qd, ad and adstack.
    pub fn with_options(options: InterpOptions) -> Self {
        let mut i = Interpreter {
            dialects: Vec::new(),
            rng: options.shuffle_seed.map(Rng::new),
            options,
            kernels: Vec::new(),
        };
        i.register(Box::new(ArithInterpreter));
        i.register(Box::new(MathInterpreter));
        i.register(Box::new(QdInterpreter));
        i.register(Box::new(AdInterpreter));
        i.register(Box::new(AdstackInterpreter));
        i
    }

    /// Adds the interpreter of a dialect, replacing any earlier one of the same namespace.
    pub fn register(&mut self, d: Box<dyn DialectInterpreter>) {
        self.dialects.retain(|x| x.dialect() != d.dialect());
        self.dialects.push(d);
    }

    /// The namespaces this interpreter runs, in registration order.
    pub fn dialects(&self) -> Vec<&'static str> {
        self.dialects.iter().map(|d| d.dialect()).collect()
    }

    pub fn options(&self) -> &InterpOptions {
        &self.options
    }
}

impl Device for Interpreter {
    fn name(&self) -> &str {
        "interp"
    }

    /// None: the interpreter runs the qd level (qd, arith, math, ad, adstack) as it is.
    fn lowering_pipeline(&self) -> &str {
        ""
    }

    /// Adstacks need no table: each `adstack.alloca` carries its id, by which it finds its
    /// depth in the launch's plan.
    fn compile(
        &mut self,
        ctx: &Context,
        kernel: KernelIr<'_>,
        _stacks: &KernelStacks,
        memory: &Memory,
    ) -> Result<CompiledKernel, Vec<Diagnostic>> {
        let kernel = kernel.op;
        let Some(k) = KernelOp::from_op(ctx, kernel) else {
            return Err(vec![Diagnostic::error(
                ctx.loc(kernel),
                format!("expected a qd.kernel, got '{}'", ctx.name(kernel)),
            )]);
        };
        let name = k.name(ctx).to_string();
        let mut c = Compiler::new(ctx, memory, &self.dialects, kernel, name.clone());
        let arg_slots = k.args(ctx).into_iter().map(|a| c.slot(a)).collect();
        let body = match k.body(ctx) {
            Some(b) => c.compile_block(b).map_err(|d| vec![d])?,
            None => Code::empty(),
        };
        let data = CompiledData {
            name,
            body,
            arg_slots,
            num_slots: c.num_slots(),
            local_cells: c.local_cells(),
            states: c.take_states(),
            peaks: None,
        };
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
        let Some(k) = self.kernels.get_mut(kernel.0 as usize) else {
            return Err(kernel.not_compiled_by("this interpreter"));
        };
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
        for (&slot, arg) in k.arg_slots.iter().zip(args) {
            let bits = match arg {
                Arg::Scalar(s) => s.to_bits(),
                Arg::Ndarray(id) => id.0 as u64,
            };
            f.set(slot, bits);
        }
        let result = k.body.run(&mut f).map(|_| ()).map_err(|e| *e);
        let n = adstacks.stacks.len();
        k.peaks = Some(
            f.into_states()
                .iter()
                .find_map(|s| s.downcast_ref::<Stacks>())
                .map_or_else(|| vec![0; n], |s| s.peaks(n)),
        );
        result
    }

    fn adstack_peaks(&self, kernel: CompiledKernel) -> Option<Vec<u64>> {
        self.kernels.get(kernel.0 as usize)?.peaks.clone()
    }

    fn sync(&mut self, _memory: &mut Memory) -> Result<(), Vec<RuntimeError>> {
        // Launches run to completion (or to their error) before `launch` returns.
        Ok(())
    }
}
